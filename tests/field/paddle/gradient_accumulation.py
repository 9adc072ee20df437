"""Gradient accumulation with global-norm clipping as PaddleNLP's trainer and the Paddle guides
write it: ``loss / accumulate_steps``, ``backward`` per micro-batch (``.grad`` accumulates),
``paddle.nn.ClipGradByGlobalNorm`` given to the optimizer as ``grad_clip``, ``step`` and
``clear_grad`` every ``accumulate_steps`` batches. Changed: a linear layer with fixed weights,
six fixed micro-batches."""

import paddle

model = paddle.nn.Linear(2, 1)
model.weight.set_value(paddle.to_tensor([[0.5], [-0.5]]))
clip = paddle.nn.ClipGradByGlobalNorm(clip_norm=1.0)
optimizer = paddle.optimizer.Momentum(learning_rate=0.1, momentum=0.9,
                                      parameters=model.parameters(), grad_clip=clip)
loss_fn = paddle.nn.MSELoss()
batches = [(paddle.to_tensor([[float(i), 1.0]]), paddle.to_tensor([[float(i % 3)]])) for i in range(6)]
accumulate_steps = 3
for i, (inputs, labels) in enumerate(batches):
    loss = loss_fn(model(inputs), labels) / accumulate_steps
    loss.backward()
    print(i, "grad", model.weight.grad)
    if (i + 1) % accumulate_steps == 0:
        optimizer.step()
        optimizer.clear_grad()
        print("weight", model.weight, "grad", model.weight.grad)
