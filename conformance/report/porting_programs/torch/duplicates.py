import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
g1, g2 = torch.autograd.grad([y], [x, x])
print(g1.tolist(), g2.tolist())
