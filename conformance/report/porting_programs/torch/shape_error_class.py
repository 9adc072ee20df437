import torch

a = torch.ones(2, 3)
b = torch.ones(4)
try:
    a + b
except RuntimeError:
    print("refused")
