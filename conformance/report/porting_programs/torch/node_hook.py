import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
y.grad_fn.register_prehook(lambda grads: (grads[0] * 2,))
y.sum().backward()
print(x.grad.tolist())
