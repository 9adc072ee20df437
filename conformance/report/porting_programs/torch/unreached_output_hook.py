import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
a, b = torch.unbind(x * 1.0)
seen = []
b.register_hook(lambda g: seen.append(None if g is None else g.tolist()))
a.backward()
print(seen, x.grad.tolist())
