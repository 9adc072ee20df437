import torch

x = torch.tensor(1.0, requires_grad=True)
y = x * 2
try:
    torch.autograd.grad([y], [x], [2.0])
except TypeError:
    print("refused")
