import torch

x = torch.tensor([[1.0, 2.0]], requires_grad=True)
with torch.no_grad():
    v = x.squeeze(0)
    v.mul_(2.0)
print(v.tolist(), x.tolist())
