import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
y.retain_grad()
s = (y * y).sum()
s.backward(retain_graph=True)
s.backward()
print(y.grad.tolist())
