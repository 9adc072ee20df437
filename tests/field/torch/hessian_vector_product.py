"""Hessian-vector products by double backward (Pearlmutter, 1994), as
noahgolmant/pytorch-hessian-eigenthings' ``HVPOperator`` and the power iteration around it
compute them: ``grads = autograd.grad(loss, params, create_graph=True)``, the dot product with a
vector, a second ``autograd.grad`` with ``only_inputs=True``, ``retain_graph`` kept between
products. Changed: a tiny logistic model with fixed data, three power iterations."""

import torch

w = torch.tensor([0.5, -0.3, 0.8], requires_grad=True)
x = torch.tensor([[1.0, 2.0, -1.0], [0.5, -0.5, 0.5], [-1.0, 1.0, 2.0], [0.0, 1.0, 1.0]])
y = torch.tensor([1.0, 0.0, 1.0, 0.0])

loss = torch.nn.functional.binary_cross_entropy_with_logits(x @ w, y)
grad_vec = torch.autograd.grad(loss, [w], create_graph=True)[0]


def hvp(vec):
    grad_grad = torch.autograd.grad(grad_vec, [w], grad_outputs=vec, only_inputs=True,
                                    retain_graph=True)
    return torch.cat([g.contiguous().view(-1) for g in grad_grad])


vec = torch.ones(3) / 3 ** 0.5
for i in range(3):
    hv = hvp(vec)
    eigenvalue = torch.dot(hv, vec)
    vec = hv / hv.norm()
    print(i, "eigenvalue %.6f" % eigenvalue.item(), vec)

# the same product through the dot-product form (no grad_outputs)
dot = (grad_vec * vec.detach()).sum()
print("hv by dot", torch.autograd.grad(dot, w, retain_graph=True)[0])
print("w.grad is None:", w.grad is None)
