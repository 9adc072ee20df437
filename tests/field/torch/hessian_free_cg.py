"""Hessian-free optimisation (Martens, 2010): conjugate gradient on the Newton system with
Hessian-vector products by double backward, as the PyTorch Hessian-free implementations
(e.g. fmeirinhos/pytorch-hessianfree) write ``Hv`` with ``torch.autograd.grad(grad, params,
v, retain_graph=True)`` over a flattened parameter vector, followed by ``parameters_to_vector``
and ``vector_to_parameters`` updates. Changed: a tiny regression model, fixed data, four CG
iterations, one outer step with damping."""

import torch
from torch.nn.utils import parameters_to_vector, vector_to_parameters

model = torch.nn.Linear(2, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.3, -0.7]]))
    model.bias.fill_(0.2)
params = list(model.parameters())
x = torch.tensor([[1.0, 2.0], [-1.0, 0.5], [0.3, -0.3], [2.0, 1.0]])
y = torch.tensor([[1.0], [0.0], [0.5], [2.0]])

loss = torch.nn.functional.mse_loss(torch.tanh(model(x)), y)
grads = torch.autograd.grad(loss, params, create_graph=True)
flat_grad = torch.cat([g.reshape(-1) for g in grads])
damping = 0.1


def Hv(v):
    hv = torch.autograd.grad(flat_grad, params, v, retain_graph=True)
    return torch.cat([h.reshape(-1) for h in hv]) + damping * v


b = -flat_grad.detach()
x_cg = torch.zeros_like(b)
r = b.clone()
p = r.clone()
rdotr = r.dot(r)
for i in range(4):
    Ap = Hv(p)
    alpha = rdotr / p.dot(Ap)
    x_cg += alpha * p
    r -= alpha * Ap
    new_rdotr = r.dot(r)
    p = r + (new_rdotr / rdotr) * p
    rdotr = new_rdotr
    print(i, "residual %.6e" % rdotr.item())
theta = parameters_to_vector(params)
vector_to_parameters(theta.detach() + x_cg, params)
print("direction", x_cg)
print("weight", model.weight, "bias", model.bias)
