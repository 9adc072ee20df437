"""Hessian-vector products by double backward in paddle, as paddle's own double-grad tests
(``test_imperative_double_grad.py``) and Newton-type optimisers write them: ``paddle.grad(loss,
w, create_graph=True)``, a dot product with a vector, a second ``paddle.grad`` with
``retain_graph=True``; then power iteration for the largest eigenvalue. Changed: a tiny
logistic model with fixed data, three iterations; the logistic loss written with ``softplus``,
as paddle's ``binary_cross_entropy_with_logits`` has no double grad (its errors printed first)."""

import paddle
import paddle.nn.functional as F

w = paddle.to_tensor([0.5, -0.3, 0.8], stop_gradient=False)
x = paddle.to_tensor([[1.0, 2.0, -1.0], [0.5, -0.5, 0.5], [-1.0, 1.0, 2.0], [0.0, 1.0, 1.0]])
y = paddle.to_tensor([1.0, 0.0, 1.0, 0.0])
for reduction in ("mean", "sum"):  # paddle 3.3.1's logistic-loss kernel has no double grad
    try:
        bce = F.binary_cross_entropy_with_logits(paddle.matmul(x, w), y, reduction=reduction)
        paddle.grad(paddle.grad(bce, w, create_graph=True)[0].sum(), w)
    except RuntimeError as e:
        print("RuntimeError", str(e).split("(at")[0].strip())
loss = F.softplus(-(2 * y - 1) * paddle.matmul(x, w)).sum() / 4
grad_w, = paddle.grad(loss, w, create_graph=True)

vec = paddle.ones([3]) / 3 ** 0.5
for i in range(3):
    hv, = paddle.grad(grad_w, w, grad_outputs=vec, retain_graph=True)
    eigenvalue = paddle.dot(hv, vec)
    vec = hv / hv.norm()
    print(i, "eigenvalue %.6f" % float(eigenvalue), vec)
dot = (grad_w * vec.detach()).sum()
print("hv by dot", paddle.grad(dot, w, retain_graph=True)[0])
print("w.grad", w.grad)
