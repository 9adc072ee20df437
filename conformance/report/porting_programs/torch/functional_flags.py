import torch

x = torch.tensor([1.0, 2.0])
H = torch.autograd.functional.hessian(lambda a: (a ** 3).sum(), x)
print(H.tolist(), H.requires_grad)
