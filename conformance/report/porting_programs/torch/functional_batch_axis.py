import torch

x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
J = torch.func.vmap(torch.func.jacrev(lambda a: a ** 2))(x)
print(list(J.shape), J.sum().item())
