import torch

x = torch.tensor([1.0, 2.0])
v = torch.tensor([1.0, 0.5])
_, vjp = torch.autograd.functional.vjp(lambda a: a ** 2, x, v)
print(vjp.tolist())
