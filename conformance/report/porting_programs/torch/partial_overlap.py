import torch

x = torch.tensor([[1.0], [2.0], [3.0]]).t()
y = x.reshape(1, 3)
y.add_(x.clone())
print(y.tolist())
