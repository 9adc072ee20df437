import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.inference_mode():
    y = x * 2
print(y.tolist(), y.requires_grad)
