import torch

x = torch.tensor([[1.0, 2.0]], requires_grad=True)
v = x.reshape(2)
v = v.detach()
print(not v.requires_grad)
