import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
seed = torch.tensor([1.0, 1.0])
torch.autograd.backward([x], [seed])
seed.mul_(5)
print(x.grad.tolist(), x.grad.grad_fn is None)
