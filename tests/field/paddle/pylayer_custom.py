"""A custom operator as paddle's ``PyLayer`` guide writes one: ``ctx.save_for_backward`` in
``forward``, ``ctx.saved_tensor()`` in ``backward``, a gradient for each tensor input, used
inside a model and differentiated twice with ``create_graph=True`` (the backward written with
paddle ops, so it is differentiable). Changed: fixed inputs."""

import paddle
from paddle.autograd import PyLayer


class Cube(PyLayer):
    @staticmethod
    def forward(ctx, x):
        y = x ** 3
        ctx.save_for_backward(x)
        return y

    @staticmethod
    def backward(ctx, dy):
        x, = ctx.saved_tensor()
        return dy * 3 * x ** 2


class ScaledTanh(PyLayer):
    @staticmethod
    def forward(ctx, x, scale):
        y = paddle.tanh(x) * scale
        ctx.save_for_backward(y)
        ctx.scale = scale
        return y

    @staticmethod
    def backward(ctx, dy):
        y, = ctx.saved_tensor()
        return dy * (ctx.scale - y * y / ctx.scale)


x = paddle.to_tensor([0.5, -1.0, 2.0], stop_gradient=False)
y = Cube.apply(x)
z = ScaledTanh.apply(y, 2.0)
print("y", y, "z", z)
z.sum().backward()
print("x.grad", x.grad)
x.clear_gradient()
dx, = paddle.grad(Cube.apply(x).sum(), x, create_graph=True)
print("dx", dx)
ddx, = paddle.grad(dx.sum(), x)
print("ddx", ddx)
