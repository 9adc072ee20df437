import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * 3).sum()
g, = torch.autograd.grad([y], [x], create_graph=True)
h = torch.autograd.grad([g.sum()], [x], allow_unused=True)[0] if g.requires_grad else None
print(g.tolist(), h)
