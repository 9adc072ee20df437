import torch

x = torch.tensor([0.5, 1.5], requires_grad=True)
y = torch.softmax(x, 0)[0]
g, = torch.autograd.grad([y], [x], create_graph=True)
h, = torch.autograd.grad([g.sum()], [x])
print([round(v, 6) for v in h.tolist()])
