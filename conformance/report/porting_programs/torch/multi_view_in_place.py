import torch

x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
a, b = torch.split(x * 1.0, 2)
b = b.clone()
b.mul_(3.0)
(a.sum() + b.sum()).backward()
print(b.tolist(), x.grad.tolist())
