"""A physics-informed residual as PaddleScience's autodiff helpers (``ppsci.autodiff``'s
``jacobian`` and ``hessian``) compute it: ``paddle.grad(ys, xs, create_graph=True)`` for the
first derivatives, again on the gradient for the second, then the residual
``u_t + u u_x - nu u_xx`` and Adam on its mean square with the boundary loss. Changed: a
2-8-1 tanh network with fixed weights, fixed collocation points, three steps."""

import numpy as np
import paddle

paddle.set_default_dtype("float64")
nu = 0.01 / np.pi
net = paddle.nn.Sequential(paddle.nn.Linear(2, 8), paddle.nn.Tanh(), paddle.nn.Linear(8, 1))
net[0].weight.set_value(np.cos(np.arange(16.0)).reshape(8, 2).T.copy())
net[0].bias.set_value(np.sin(np.arange(8.0)) * 0.1)
net[2].weight.set_value(np.cos(np.arange(8.0) * 0.5).reshape(8, 1))

x = paddle.to_tensor(np.linspace(-1, 1, 5).reshape(-1, 1), stop_gradient=False)
t = paddle.to_tensor(np.linspace(0, 1, 5).reshape(-1, 1), stop_gradient=False)
x_u = paddle.to_tensor([[-1.0, 0.0], [1.0, 0.0], [0.0, 0.0]])
u_true = -paddle.sin(np.pi * x_u[:, 0:1])


def jacobian(ys, xs):
    return paddle.grad(ys, xs, create_graph=True)[0]


optimizer = paddle.optimizer.Adam(learning_rate=1e-3, parameters=net.parameters())
for it in range(3):
    u = net(paddle.concat([x, t], axis=1))
    u_t = jacobian(u, t)
    u_x = jacobian(u, x)
    u_xx = jacobian(u_x, x)
    residual = u_t + u * u_x - nu * u_xx
    loss = paddle.mean((u_true - net(x_u)) ** 2) + paddle.mean(residual ** 2)
    loss.backward()
    optimizer.step()
    optimizer.clear_grad()
    print(it, "loss %.8f" % float(loss))
print("residual", residual.numpy().round(6).tolist())
print("x.grad", x.grad.numpy().round(6).tolist())
