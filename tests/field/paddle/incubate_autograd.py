"""``paddle.incubate.autograd``'s functional API as its documentation's examples use it:
``vjp`` and ``jvp`` of a function with a given vector, ``Jacobian`` and ``Hessian`` objects
indexed for their full matrix and for rows, with and without a batch axis. Changed: fixed
inputs."""

import paddle


def func(x):
    return paddle.matmul(x, x)


def reducer(x):
    return paddle.sum(paddle.exp(x) * x)


x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
_, vjp_result = paddle.incubate.autograd.vjp(func, x)
print("vjp", vjp_result)
v = paddle.to_tensor([[1.0, 0.0], [0.0, 0.0]])
_, vjp_result = paddle.incubate.autograd.vjp(func, x, v)
print("vjp v", vjp_result)
_, jvp_result = paddle.incubate.autograd.jvp(func, x)
print("jvp", jvp_result)
J = paddle.incubate.autograd.Jacobian(func, x)
print("jacobian", J[:, :])
print("jacobian row", J[0, :])
xs = paddle.to_tensor([0.5, -0.5, 1.0])
H = paddle.incubate.autograd.Hessian(reducer, xs)
print("hessian", H[:])
xb = paddle.to_tensor([[1.0, 2.0], [0.5, -1.0]])
Jb = paddle.incubate.autograd.Jacobian(lambda t: t * t, xb, is_batched=True)
print("batched", Jb[:])
