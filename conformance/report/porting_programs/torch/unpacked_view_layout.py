import torch

x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
piece = torch.unbind(x)[1]
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t * 1.0):
    y = torch.sin(piece).sum()
print([round(v, 4) for v in torch.autograd.grad(y, [x])[0].flatten().tolist()])
