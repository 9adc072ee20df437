"""Influence functions (Koh and Liang, 2017) with the LiSSA estimate of the inverse
Hessian-vector product, as nimarb/pytorch_influence_functions' ``s_test`` and ``hvp`` compute
it: ``grad(y, w, create_graph=True)``, an elementwise product with ``v`` and a second ``grad``,
the recursion ``h = v + (1 - damp) h - hv / scale`` under repeated graphs, and the influence as
``-sum(grad_z_test * s_test)``. Changed: a 3-parameter linear model, fixed data, five
recursion steps."""

import torch

w = torch.tensor([0.2, -0.4, 0.1], requires_grad=True)
x_train = torch.tensor([[1.0, 0.5, -1.0], [0.0, 1.0, 2.0], [-0.5, 0.3, 0.8]])
y_train = torch.tensor([0.5, -1.0, 0.2])
x_test, y_test = torch.tensor([[0.3, -0.2, 0.9]]), torch.tensor([0.1])


def calc_loss(x, y):
    return torch.nn.functional.mse_loss(x @ w, y)


def grad_z(x, y):
    return list(torch.autograd.grad(calc_loss(x, y), [w], create_graph=True))


def hvp(y, w_list, v):
    first_grads = torch.autograd.grad(y, w_list, retain_graph=True, create_graph=True)
    elemwise_products = 0
    for grad_elem, v_elem in zip(first_grads, v):
        elemwise_products += torch.sum(grad_elem * v_elem)
    return torch.autograd.grad(elemwise_products, w_list, create_graph=True)


v = grad_z(x_test, y_test)
h_estimate = [t.clone() for t in v]
damp, scale = 0.01, 25.0
for i in range(5):
    loss = calc_loss(x_train[i % 3:i % 3 + 1], y_train[i % 3:i % 3 + 1])
    hv = hvp(loss, [w], h_estimate)
    h_estimate = [_v + (1 - damp) * _h - _hv / scale for _v, _h, _hv in zip(v, h_estimate, hv)]
s_test = [h / scale for h in h_estimate]
print("s_test", [s.detach() for s in s_test])
for j in range(3):
    grad_z_vec = grad_z(x_train[j:j + 1], y_train[j:j + 1])
    influence = -sum([torch.sum(k * j_).data for k, j_ in zip(grad_z_vec, s_test)]) / 3
    print("influence", j, "%.6f" % influence.item())
