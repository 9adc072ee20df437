import torch

x = torch.tensor([[1.0], [2.0]])
v = x.expand(2, 3)
v.zero_()
print(x.tolist(), v.tolist())
