import torch

x = torch.tensor([1.0, 2.0])
try:
    torch.autograd.functional.jacobian(lambda a: torch.ones(2), x, strict=True)
except RuntimeError:
    print("independent")
