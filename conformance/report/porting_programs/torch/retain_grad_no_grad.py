import torch

c = torch.tensor([1.0, 2.0])
y = c * 2
if y.requires_grad:
    y.retain_grad()
print(y.grad)
