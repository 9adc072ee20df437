"""Loss scaling as the PyTorch AMP recipe ("Automatic Mixed Precision", the "Typical Mixed
Precision Training" and "Gradient clipping" sections) writes a training loop:
``torch.amp.GradScaler``, ``scaler.scale(loss).backward()``, ``scaler.unscale_(optimizer)``
before ``clip_grad_norm_``, ``scaler.step(optimizer)`` (skipped after an overflow),
``scaler.update()`` backing off and growing the scale, and its ``state_dict``. Changed: the
CPU device and no autocast (float32 throughout), a tiny model, an overflow planted at step 2,
``growth_interval=2`` so that the scale grows within the run."""

import torch

model = torch.nn.Linear(2, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.5, -0.25]]))
    model.bias.fill_(0.1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = torch.amp.GradScaler("cpu", init_scale=1024.0, growth_interval=2)
data = [(torch.tensor([[1.0, 2.0]]), torch.tensor([[1.0]])) for _ in range(5)]
for step, (inputs, target) in enumerate(data):
    optimizer.zero_grad()
    output = model(inputs)
    loss = torch.nn.functional.mse_loss(output, target)
    if step == 2:
        loss = loss * float("inf")
    scaled = scaler.scale(loss)
    scaled.backward()
    print(step, "scaled", scaled, "grad", model.weight.grad)
    scaler.unscale_(optimizer)
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    print(" unscaled", model.weight.grad, "norm", norm)
    scaler.step(optimizer)
    scaler.update()
    print(" weight", model.weight, "scale", scaler.get_scale())
print(scaler.state_dict())
try:
    scaler.unscale_(optimizer)
    scaler.unscale_(optimizer)
except RuntimeError as e:
    print("RuntimeError:", e)
with torch.autocast("cpu", enabled=False):
    print("autocast off", model(torch.tensor([[1.0, 1.0]])).dtype)
