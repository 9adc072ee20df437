import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
z = torch.tensor([1.0, 2.0], requires_grad=True)
gx, gz = torch.autograd.grad([(x * 2).sum()], [x, z], materialize_grads=True)
print(gx.tolist(), gz.tolist())
