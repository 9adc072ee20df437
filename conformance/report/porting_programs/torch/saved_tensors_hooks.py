import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t.clone(), lambda t: t):
    y = (torch.exp(x) * x).sum()
y.backward()
print([round(v, 4) for v in x.grad.tolist()])
