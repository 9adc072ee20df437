"""Order statistics: median / nanmedian in both modes, kthvalue, mode and quantile /
nanquantile, their values, positions, node names and gradients (paddle's median hands its
gradient evenly to the elements equal to the median once the two it came from are set to it)."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import paddle_program as program


def _grads(paddle, values, make):
    x = paddle.to_tensor(values, stop_gradient=False)
    out = make(x)
    first = out[0] if isinstance(out, tuple) else out
    first.sum().backward()
    return [out, first.grad_fn.name(), x.grad]


@program
def medians_kth_values_and_modes(paddle):
    rows = [[1.0, 5.0, 2.0, 7.0], [4.0, 4.5, 0.0, 3.0], [2.0, 2.0, 9.0, 2.0], [1.0, 1.0, 2.0, 3.0]]
    nan = float("nan")
    with_nan = paddle.to_tensor([[1.0, nan, 3.0, 4.0], [2.0, 1.0, nan, nan]])
    out = []
    for values in (rows, [1.0, 2.0, 3.0, 3.0], [1.0, 2.0, 2.0]):
        out += _grads(paddle, values, paddle.median)
        out += _grads(paddle, values, lambda x: paddle.median(x, axis=-1, keepdim=True))
        out += _grads(paddle, values, lambda x: paddle.median(x, mode="min"))
    out += _grads(paddle, [[3.0, 1.0, 2.0], [5.0, 6.0, 0.0]], lambda x: paddle.median(x, axis=1, mode="min"))
    out += _grads(paddle, [[3.0, 1.0, 2.0], [5.0, 6.0, 0.0]], lambda x: paddle.kthvalue(x, 2, axis=1))
    out += _grads(paddle, [[3.0, 1.0, 2.0], [5.0, 6.0, 0.0]], lambda x: x.kthvalue(1, axis=0, keepdim=True))
    out += _grads(paddle, [[3.0, 1.0, 2.0], [5.0, 5.0, 0.0]], lambda x: paddle.mode(x, axis=1))
    out += [paddle.median(with_nan, axis=1), paddle.nanmedian(with_nan, axis=1), paddle.nanmedian(with_nan),
            paddle.median(paddle.to_tensor([[1, 2, 3, 4]])), paddle.mode(paddle.to_tensor([[1, 2, 2, 3, 3]]))]
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    out += [attempt(lambda: paddle.median(x, axis=3)), attempt(lambda: paddle.median(x, mode="max")),
            attempt(lambda: paddle.kthvalue(x, 5, axis=1)), attempt(lambda: paddle.mode(x, axis=3))]
    return out


@program
def quantiles_each_interpolation(paddle):
    values = [[1.0, 5.0, 2.0, 7.0], [4.0, 4.5, 0.0, 3.0]]
    out = _grads(paddle, values, lambda x: paddle.quantile(x, 0.3, axis=1))
    out += _grads(paddle, values, lambda x: paddle.quantile(x, [0.25, 0.5], axis=1, keepdim=True))
    out += _grads(paddle, values, lambda x: x.quantile(0.5))
    out += _grads(paddle, values, lambda x: paddle.quantile(x, [0.1, 0.9], axis=[0, 1]))
    x = paddle.to_tensor(values)
    for interpolation in ("lower", "higher", "midpoint", "nearest"):
        out.append(paddle.quantile(x, 0.4, axis=1, interpolation=interpolation))
    nan = float("nan")
    with_nan = paddle.to_tensor([[1.0, nan, 3.0], [2.0, 5.0, 4.0]])
    out += [paddle.quantile(with_nan, 0.5, axis=1), paddle.nanquantile(with_nan, 0.5, axis=1),
            paddle.quantile(paddle.to_tensor(values, dtype="float64"), 0.5, axis=0),
            attempt(lambda: paddle.quantile(x, [])), attempt(lambda: paddle.quantile(x, 1.5)),
            attempt(lambda: paddle.quantile(x, 0.5, interpolation="cubic"))]
    return out
