import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
c = torch.tensor([1.0, 2.0])
print(x.grad_fn is None, c.grad_fn is None)
