import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
mask = torch.tensor([True, False, True])
(x * mask).sum().backward()
print(x.grad.tolist())
