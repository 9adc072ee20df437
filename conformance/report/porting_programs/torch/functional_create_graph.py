import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
J = torch.autograd.functional.jacobian(lambda a: a ** 3, x, create_graph=True)
g, = torch.autograd.grad([J.sum()], [x])
print(g.tolist())
