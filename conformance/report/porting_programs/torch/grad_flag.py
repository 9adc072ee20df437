import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
(x * x).sum().backward()
g = x.grad
print(g.tolist(), g.requires_grad)
