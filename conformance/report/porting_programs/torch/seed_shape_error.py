import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
try:
    y.backward(torch.ones(3))
except RuntimeError:
    print("refused")
