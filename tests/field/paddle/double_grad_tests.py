"""Double and triple grad as paddle's own unit tests exercise them
(``test_imperative_double_grad.py`` / ``test_imperative_triple_grad.py``): ``paddle.grad`` with
``create_graph=True`` of ``sigmoid``, ``tanh``, ``matmul`` and elementwise products, a
``backward`` of the first derivative accumulating into the leaves, ``allow_unused`` returning
None, and ``no_grad_vars`` cutting a path. Changed: fixed inputs, results printed."""

import paddle
import paddle.nn.functional as F

x = paddle.to_tensor([[0.5, -0.3], [1.2, 0.1]], stop_gradient=False)
y = paddle.to_tensor([[1.0, 2.0], [-1.0, 0.5]], stop_gradient=False)
z = paddle.to_tensor([[0.2, 0.2], [0.2, 0.2]], stop_gradient=False)

out = F.sigmoid(paddle.matmul(x, y))
dx, = paddle.grad([out], [x], create_graph=True)
print("dx", dx)
ddx, = paddle.grad([dx.sum()], [x], create_graph=True)
print("ddx", ddx)
dddx, = paddle.grad([ddx.sum()], [x])
print("dddx", dddx)

w = paddle.tanh(x) * y
dw, = paddle.grad(w, x, grad_outputs=paddle.ones_like(w), create_graph=True)
(dw * dw).sum().backward()
print("x.grad", x.grad, "y.grad", y.grad)

a = x * y + z
g = paddle.grad(a.sum(), [x, z, paddle.to_tensor([1.0], stop_gradient=False)], allow_unused=True)
print("allow_unused", g)
b = paddle.exp(x) * y
cut, = paddle.grad(b.sum(), [x], no_grad_vars=[y], create_graph=True)
print("no_grad_vars", cut, cut.stop_gradient)
try:
    paddle.grad(b.sum(), [z])
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0][:80])
