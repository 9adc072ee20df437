"""Mixed precision as the Paddle AMP guide writes a training loop (``paddle.amp.auto_cast``
around the forward, ``paddle.amp.GradScaler`` with ``scale``, ``minimize`` / ``step`` and
``update``), run on the CPU, where paddle 3.3.1 warns that both make no effect: the values are
float32's, the scaler is disabled and its loss scaling is 1. Changed: a tiny model, three
steps, an overflow planted at step 1 (which the disabled scaler does not skip)."""

import paddle

model = paddle.nn.Linear(2, 1)
model.weight.set_value(paddle.to_tensor([[0.5], [-0.25]]))
model.bias.set_value(paddle.to_tensor([0.1]))
optimizer = paddle.optimizer.SGD(learning_rate=0.1, parameters=model.parameters())
scaler = paddle.amp.GradScaler(init_loss_scaling=1024)
print("enabled", scaler.is_enable(), scaler.get_init_loss_scaling())
x = paddle.to_tensor([[1.0, 2.0]])
for step in range(3):
    with paddle.amp.auto_cast(level="O1"):
        out = model(x)
        loss = ((out - 1.0) ** 2).mean() * (float("inf") if step == 1 else 1.0)
    scaled = scaler.scale(loss)
    scaled.backward()
    print(step, out.dtype, "scaled", scaled, "grad", model.weight.grad)
    if step == 0:
        scaler.minimize(optimizer, scaled)
    else:
        scaler.step(optimizer)
        scaler.update()
    optimizer.clear_grad()
    print(" weight", model.weight)
