import torch

x = torch.tensor([[1.0, 2.0]], requires_grad=True)
v = x.reshape(2)
w = v * 1.0
w.mul_(2.0)
print(w.tolist())
