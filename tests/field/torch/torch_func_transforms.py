"""``torch.func`` as the PyTorch tutorials use it: per-sample gradients ("Per-sample-gradients":
``functional_call`` of a model with detached parameters, ``grad`` of the per-example loss and
``vmap`` over the batch with ``in_dims=(None, None, 0, 0)``), and "Jacobians, Hessians, hvp, vhp,
and more": ``jacrev``, ``jacfwd``, ``hessian``, ``vjp`` and the Hessian-vector product as
``jvp`` of ``grad``. Changed: a tiny model and batch with fixed values."""

import torch
import torch.nn.functional as F
from torch.func import functional_call, grad, hessian, jacfwd, jacrev, jvp, vjp, vmap

model = torch.nn.Linear(3, 2)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]]))
    model.bias.copy_(torch.tensor([0.05, -0.05]))
params = {k: v.detach() for k, v in model.named_parameters()}
buffers = {k: v.detach() for k, v in model.named_buffers()}
data = torch.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 0.0], [2.0, 0.0, -1.0]])
targets = torch.tensor([1, 0, 1])


def compute_loss(params, buffers, sample, target):
    batch = sample.unsqueeze(0)
    predictions = functional_call(model, (params, buffers), (batch,))
    return F.cross_entropy(predictions, target.unsqueeze(0))


ft_compute_sample_grad = vmap(grad(compute_loss), in_dims=(None, None, 0, 0))
per_sample = ft_compute_sample_grad(params, buffers, data, targets)
print("per-sample weight grads", per_sample["weight"])
print("per-sample bias grads", per_sample["bias"])
# the mean of the per-sample gradients is the batch gradient
F.cross_entropy(model(data), targets).backward()
print("batch weight grad", model.weight.grad)
print("mean of per-sample", per_sample["weight"].mean(0))


def f(x):
    return x.sin().sum() * x.cos().sum()


x = torch.tensor([0.3, -0.7, 1.1])
print("grad", grad(f)(x), grad(grad(lambda t: t.sin().sum()))(torch.tensor(0.5)))
print("jacrev", jacrev(torch.sin)(x))
print("jacfwd", jacfwd(lambda t: t ** 2)(x))
print("hessian", hessian(f)(x))
out, vjp_fn = vjp(torch.sin, x)
print("vjp", out, vjp_fn(torch.ones(3)))
tangent = torch.tensor([1.0, 0.0, -1.0])
print("hvp", jvp(grad(f), (x,), (tangent,))[1])
print("plain results", grad(f)(x).requires_grad, jacrev(torch.sin)(x).grad_fn is None)
