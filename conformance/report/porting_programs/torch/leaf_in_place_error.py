import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
try:
    x.add_(1.0)
except RuntimeError:
    print("refused")
with torch.no_grad():
    x.add_(1.0)
print(x.tolist())
