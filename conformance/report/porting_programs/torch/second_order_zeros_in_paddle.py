import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
y = (x * w).sum()
gx, = torch.autograd.grad([y], [x], create_graph=True)
hx, hw = torch.autograd.grad([gx.sum()], [x, w], allow_unused=True)
hx = torch.zeros_like(x) if hx is None else hx
print(hx.tolist(), hw.tolist())
