import torch

lin = torch.nn.Linear(2, 1, bias=False)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[0.5, -1.0]]))
x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
(lin(x) ** 2).sum().backward()
print(list(lin.weight.grad.shape), lin.weight.grad.flatten().tolist())
