import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
y = (x * w).sum()
x.requires_grad_(False)
y.backward()
print(x.grad, w.grad.tolist())
