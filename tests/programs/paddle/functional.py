"""The functional APIs: jacobians, hessians, vector products, batched gradients and gradcheck."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import paddle_program as program


@program
def lazy_jacobians_and_hessians(paddle):
    """paddle.autograd.jacobian / hessian: shapes (a 0-D side drops out, a batch axis leads),
    indexing, nesting of sequences, and the errors for 0-D indexing and 2-D inputs."""
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = x * x * 3
    jac = paddle.autograd.jacobian(y, x)
    batch = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    batched = paddle.autograd.jacobian(batch * batch, batch, batch_axis=0)
    hess = paddle.autograd.hessian((x * x * x).sum(), x)
    nested = paddle.autograd.jacobian([y, x * 2], [x])
    scalar = paddle.autograd.jacobian((x * x).sum(), x)
    s = paddle.to_tensor(2.0, stop_gradient=False)
    return [type(jac).__name__, jac.shape, jac[:], jac[0], jac[:, 1], jac[-1], jac[0:2, 1],
            batched.shape, batched[:], batched[1], type(hess).__name__, hess.shape, hess[:],
            len(nested), len(nested[0]), nested[1][0][:], scalar.shape, scalar[:],
            attempt(lambda: paddle.autograd.jacobian(s * s, s)[:]),
            attempt(lambda: paddle.autograd.jacobian(batch * batch, batch))]


@program
def batched_jacobians_and_hessians_check_in_paddles_order(paddle):
    """jacobian / hessian with batch_axis: ys is checked before xs (1 or 2 dims), hessian
    checks ys's size (per batch row with a batch axis, where a 0-D ys fails at ys[0]) and the
    batch axis itself; an integer index past an axis is paddle's OutOfRange error."""
    x = paddle.to_tensor([[0.1, 0.2], [0.3, 0.4]], dtype="float64", stop_gradient=False)
    v = paddle.to_tensor([0.1, 0.2, 0.3], dtype="float64", stop_gradient=False)
    seen = []
    for ys, axis in ((x * x, None), ((x * x).sum(), 0), (x * x, 0), ((x * x).sum(axis=1), 1),
                     ((x * x).sum(axis=1), 0), ((x * x).sum(), None)):
        seen.append(attempt(lambda: paddle.autograd.hessian(ys, x, batch_axis=axis)[:]))
    for ys, xs in (((v * v).reshape([1, 3, 1]), v), (v * v, v.reshape([1, 1, 3])),
                   ((v * v).sum(), v)):
        seen.append(attempt(lambda: paddle.autograd.jacobian(ys, xs, batch_axis=0).shape))
    scalar = paddle.to_tensor(0.5)
    seen += [attempt(lambda: scalar[0]), attempt(lambda: x[2]), attempt(lambda: x[0, -3]),
             attempt(lambda: x[:, 5])]
    return seen
