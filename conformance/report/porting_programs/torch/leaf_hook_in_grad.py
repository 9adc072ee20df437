import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
x.register_hook(lambda g: g * 10)
y = (x * x).sum()
g, = torch.autograd.grad([y], [x])
print(g.tolist())
