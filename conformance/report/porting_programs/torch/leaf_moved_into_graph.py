import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * 2.0).sum()
x.requires_grad_(False)
with torch.no_grad():
    x.add_(torch.tensor([1.0, 1.0]))
y.backward()
print(x.grad, x.is_leaf, x.tolist())
