import warnings

import torch

warnings.simplefilter("error")
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
y.sum().backward()
print(y.grad if y.is_leaf else None)
