import torch

x = torch.tensor(2.0, requires_grad=True)
h = (3 * x).detach()
y = h * h + x
g, = torch.autograd.grad([y], [x])
print(g.item())
