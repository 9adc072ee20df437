"""``paddle.autograd.jacobian`` and ``paddle.autograd.hessian`` as PaddleScience-style residual
code and the Paddle API guide use them: a Jacobian object of computed outputs indexed whole, by
row and by slice, with and without ``batch_axis=0``, tuples of inputs giving nested objects, and
the Hessian of a scalar energy; each result differentiated again by ``paddle.grad``. Changed:
small fixed inputs."""

import paddle

x = paddle.to_tensor([0.5, -1.0, 2.0], stop_gradient=False)
y = paddle.to_tensor([1.5, 0.25], stop_gradient=False)
u = paddle.concat([x * x, paddle.sin(y)])
J = paddle.autograd.jacobian(u, x)
print("shape", J.shape)
print("whole", J[:])
print("row", J[1])
print("slice", J[0:2, 1:])
Jxy = paddle.autograd.jacobian(u, (x, y))
print("pair", Jxy[0][:], Jxy[1][:])

batch = paddle.to_tensor([[1.0, 2.0], [0.5, -1.0], [3.0, 0.0]], stop_gradient=False)
out = paddle.stack([batch[:, 0] * batch[:, 1], batch[:, 0] ** 2], axis=1)
Jb = paddle.autograd.jacobian(out, batch, batch_axis=0)
print("batched", Jb.shape, Jb[:])

energy = (x ** 3).sum() + (x[0] * x[1]) ** 2
H = paddle.autograd.hessian(energy, x)
print("hessian", H.shape, H[:])
(again,) = paddle.grad(H[:].sum(), x)
print("third order", again)
