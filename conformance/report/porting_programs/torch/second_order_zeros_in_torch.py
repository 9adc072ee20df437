import torch

x = torch.tensor([1.0, -2.0], requires_grad=True)
y = torch.abs(x).sum()
g, = torch.autograd.grad([y], [x], create_graph=True)
h, = torch.autograd.grad([g.sum()], [x], allow_unused=True)
print(g.tolist(), (h + 0).tolist())
