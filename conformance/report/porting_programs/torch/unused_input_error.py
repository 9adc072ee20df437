import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
z = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * 2).sum()
try:
    torch.autograd.grad([y], [x, z])
except RuntimeError:
    print("refused")
