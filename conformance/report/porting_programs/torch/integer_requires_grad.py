import torch

x = torch.tensor([1, 2], dtype=torch.float32, requires_grad=True)
g, = torch.autograd.grad([(x * 2).sum()], [x])
print([int(v) for v in g.tolist()])
