import torch

a = torch.ones(2, 1, 2, 3, requires_grad=True)
b = torch.ones(3, 3, 2, requires_grad=True)
torch.matmul(a, b).sum().backward()
print(list(b.grad.shape), b.grad.sum().item())
