"""A hand-written adjoint for an explicit Euler solver, as neural-ODE code written before
torchdiffeq (and torchdiffeq's ``odeint_adjoint`` in spirit) does it: the forward solve under
``no_grad``, then a backward solve of the state and adjoint where each step's vector-Jacobian
products come from ``torch.autograd.grad(f, (z, *params), grad_outputs=-a,
allow_unused=True)``, checked against backpropagation through the solver. Changed: a 2-d linear-
tanh dynamics with fixed weights, eight steps."""

import torch

W = torch.tensor([[-0.5, 1.0], [-1.0, -0.2]], requires_grad=True)
bias = torch.tensor([0.1, 0.0], requires_grad=True)
unused = torch.tensor([1.0], requires_grad=True)
params = (W, bias, unused)


def f(z):
    return torch.tanh(z @ W.t() + bias)


z0 = torch.tensor([1.0, 0.5])
dt, n = 0.125, 8

# backpropagation through the solver
z = z0
for _ in range(n):
    z = z + dt * f(z)
loss = (z ** 2).sum()
direct = torch.autograd.grad(loss, [W, bias])
print("direct", direct)

# adjoint method
with torch.no_grad():
    z = z0
    for _ in range(n):
        z = z + dt * f(z)
a = 2 * z
adj_params = [torch.zeros_like(p) for p in params]
for _ in range(n):
    with torch.enable_grad():
        z_req = z.detach().requires_grad_(True)
        fz = f(z_req)
        vjps = torch.autograd.grad(fz, (z_req,) + params, grad_outputs=-a, allow_unused=True)
    with torch.no_grad():
        z = z - dt * fz
        a = a - dt * vjps[0]
        adj_params = [ap - dt * v if v is not None else ap for ap, v in zip(adj_params, vjps[1:])]
print("unused", vjps[3])
print("adjoint", adj_params[:2])
print("largest difference %.3f" % max((x - y).abs().max().item() for x, y in zip(direct, adj_params)))
