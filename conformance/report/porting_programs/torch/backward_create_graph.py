import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
(x ** 3).sum().backward(create_graph=True)
g = x.grad
h, = torch.autograd.grad([g.sum()], [x])
print(g.tolist(), h.tolist())
