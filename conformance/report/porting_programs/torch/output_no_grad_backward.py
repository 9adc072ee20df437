import torch

x = torch.tensor([1.0, 2.0])
y = (x * 2).sum()
if y.requires_grad:
    y.backward()
print(x.grad)
