import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
view = x.reshape(1, 3)
seen = []
x.register_hook(lambda g: seen.append(g.tolist()))
x.requires_grad_(False)
x.add_(x)
torch.autograd.backward([view], [torch.ones(1, 3)])
print(seen, x.tolist())
