"""``torch.autograd.functional`` as its documentation's examples use it: ``jacobian``,
``hessian``, ``vjp``, ``jvp``, ``vhp`` and ``hvp`` of small functions, with tuples of inputs,
``create_graph`` and ``vectorize`` left at their defaults. Changed: fixed inputs instead of
``torch.rand``."""

import torch
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp


def exp_reducer(x):
    return x.exp().sum(dim=1)


def pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()


def adder(x, y):
    return 2 * x + 3 * y


x = torch.tensor([[0.1, 0.2], [0.3, 0.4]])
print("jacobian", jacobian(exp_reducer, x))
print("jacobian create_graph", jacobian(exp_reducer, x, create_graph=True))
inputs = (torch.tensor([0.5, -0.5]), torch.tensor([1.0, 2.0]))
print("jacobian tuple", jacobian(adder, inputs))
print("hessian", hessian(pow_adder_reducer, inputs))
v = torch.ones(2)
print("vjp", vjp(exp_reducer, x, v))
print("jvp", jvp(exp_reducer, x, torch.ones(2, 2)))
print("vhp", vhp(pow_adder_reducer, inputs, (torch.ones(2), torch.ones(2))))
print("hvp", hvp(pow_adder_reducer, inputs, (torch.ones(2), torch.ones(2))))
