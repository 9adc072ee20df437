import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
z = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.exp(x)
s = y.sum()
y.mul_(2.0)
try:
    torch.autograd.grad([s], [x, z])
except RuntimeError:
    print("refused")
