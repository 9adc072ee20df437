import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
seen = []
x.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad.tolist()))
(x * 3).sum().backward()
print(seen)
