"""Mixed precision on the CPU as the ``torch.autocast`` documentation's "CPU Training Example",
"CPU Inference Example" and "Type mismatch errors in an autocast-disabled region" write it
(https://pytorch.org/docs/stable/amp.html): a model's forward and loss under
``torch.autocast(device_type="cpu", dtype=torch.bfloat16)``, ``loss.backward()`` and
``optimizer.step()`` outside it, ``torch.mm`` producing bfloat16 from float32 inputs, mixed
input types, and a region disabled inside an enabled one. Changed: a tiny model and fixed
values instead of ``torch.rand``, the dtypes and gradients printed, the type mismatch in the
disabled region caught, and a float16 region and the decorator form added."""

import torch

model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (i + 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
loss_fn = torch.nn.MSELoss()
data = [(torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]), torch.tensor([[0.1, -0.2], [0.3, 0.4]]))
        for _ in range(3)]
for step, (inputs, target) in enumerate(data):
    optimizer.zero_grad()
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        output = model(inputs)
        loss = loss_fn(output, target)
    print(step, "output", output.dtype, output)
    print(step, "loss", loss.dtype, loss)
    loss.backward()
    print(step, "grad", model[0].weight.grad.dtype, model[0].weight.grad)
    optimizer.step()
print("weight", model[2].weight)

with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
    inference = model(torch.tensor([[1.0, 2.0, 3.0]]))
print("inference", inference.dtype, inference.requires_grad)

a_float32 = torch.tensor([[1.0, 0.5], [-0.25, 2.0]])
b_float32 = torch.tensor([[0.3, -0.7], [1.1, 0.9]])
c_float32 = torch.tensor([[2.0, 0.0], [0.0, 2.0]])
d_float32 = torch.tensor([[0.125, 1.0], [1.0, -0.125]])
with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
    e_bfloat16 = torch.mm(a_float32, b_float32)
    f_bfloat16 = torch.mm(d_float32, e_bfloat16)
    print("e", e_bfloat16, "f", f_bfloat16)
    with torch.autocast(device_type="cpu", enabled=False):
        f_float32 = torch.mm(c_float32, e_bfloat16.float())
        print("disabled", f_float32.dtype, torch.is_autocast_enabled("cpu"))
        try:
            torch.mm(c_float32, e_bfloat16)
        except RuntimeError as e:
            print("RuntimeError:", e)
    g_bfloat16 = torch.mm(d_float32, f_float32)
    print("g", g_bfloat16.dtype, torch.get_autocast_dtype("cpu"))
g_float32 = torch.mm(d_float32, f_bfloat16.float())
print("after", g_float32)

w = torch.tensor([[0.5, -1.5], [2.0, 0.25]], requires_grad=True)


@torch.autocast(device_type="cpu", dtype=torch.float16)
def half_forward(x):
    return torch.nn.functional.linear(x, w).relu().sum()


y = half_forward(torch.tensor([[1.0, 2.0], [-3.0, 0.5]]))
y.backward()
print("float16", y.dtype, y, w.grad)
