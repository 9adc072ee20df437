import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
(x * 3).sum().backward()
held = x.grad
x.grad = None
print(held.tolist())
