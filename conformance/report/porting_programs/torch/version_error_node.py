import torch

x = torch.tensor([0.5, 1.0], requires_grad=True)
y = torch.tanh(x)
saved_version = y._version
z = (y * torch.tensor([2.0, 3.0])).sum()
y.register_hook(lambda g: print("hook on y:", g.tolist()))
y.add_(1.0)
if y._version != saved_version:
    print("refused")
else:
    z.backward()
