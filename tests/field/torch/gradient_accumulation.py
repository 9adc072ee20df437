"""Gradient accumulation with clipping, as the Hugging Face and PyTorch Lightning guides write
a training loop: the loss divided by the accumulation steps, ``backward()`` per micro-batch so
``.grad`` accumulates, ``clip_grad_norm_`` (its returned total norm printed), ``step`` and
``zero_grad(set_to_none=True)`` every ``accumulation_steps`` batches. Changed: a linear model
with fixed weights, six fixed micro-batches."""

import torch

model = torch.nn.Linear(2, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.5, -0.5]]))
    model.bias.zero_()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
loss_fn = torch.nn.MSELoss()
batches = [(torch.tensor([[float(i), 1.0]]), torch.tensor([[float(i % 3)]])) for i in range(6)]
accumulation_steps = 3
for i, (inputs, labels) in enumerate(batches):
    loss = loss_fn(model(inputs), labels) / accumulation_steps
    loss.backward()
    print(i, "grad", model.weight.grad)
    if (i + 1) % accumulation_steps == 0:
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
        print("norm", norm, "clipped", model.weight.grad)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        print("weight", model.weight, "grad", model.weight.grad)
