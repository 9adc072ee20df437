import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * x).sum()
g, = torch.autograd.grad([y], [x], only_inputs=False)
print(g.tolist())
