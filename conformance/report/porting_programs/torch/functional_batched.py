import torch

x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
J = torch.autograd.functional.jacobian(lambda a: (a * a).sum(0), x)
print(list(J.shape), J.sum().item())
