import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
(x * w).sum().backward(inputs=[x])
print(x.grad.tolist(), w.grad)
