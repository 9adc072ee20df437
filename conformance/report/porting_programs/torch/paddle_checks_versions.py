import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 1.0
z = (y * 2.0).sum()
y.add_(1.0)
z.backward()
print(x.grad.tolist())
