import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
try:
    torch.sum(x.grad)
except TypeError:
    print("refused")
