import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
c = torch.tensor([1.0, 2.0])
y = (x * c).sum()
gx, = torch.autograd.grad([y], [x])
gc = None
print(gx.tolist(), gc)
