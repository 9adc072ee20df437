"""Order statistics: median / nanmedian in both modes, kthvalue, mode and quantile /
nanquantile, their values, positions, node names and gradients (paddle's median hands its
gradient evenly to the elements equal to the median once the two it came from are set to it);
and unstack, broadcast_tensors and the bitwise functions."""

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


@program
def unstack_broadcast_tensors_and_bits(paddle):
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    pieces = paddle.unstack(x, axis=1)
    (pieces[0] * 2 + pieces[1]).sum().backward()
    a, b = paddle.broadcast_tensors([x, paddle.to_tensor([1.0, 2.0], stop_gradient=False)])
    y = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    copies = paddle.unstack(y)
    copies[0].add_(paddle.to_tensor(10.0))
    i = paddle.to_tensor([5, 3])
    return [pieces, pieces[0].grad_fn.name(), x.grad, a.grad_fn.name(), b, y, y.inplace_version,
            attempt(lambda: paddle.unstack(x, axis=3)), paddle.bitwise_and(i, paddle.to_tensor([1, 1])),
            i.bitwise_not(), paddle.bitwise_xor(i, i), i.bitwise_or(paddle.to_tensor([2, 2])),
            attempt(lambda: paddle.bitwise_and(x, x))]


@program
def zero_d_tensors_promote_as_numbers(paddle):
    """A 0-d tensor joins a tensor of another dtype as a Python number would, for the
    arithmetic and comparison operators; maximum and where refuse the mix."""
    half, two = paddle.to_tensor(0.5), paddle.to_tensor(2)
    ints, floats = paddle.to_tensor([3, 4]), paddle.to_tensor([1.5, 2.5])
    wide = paddle.to_tensor(0.5, dtype="float64")
    return [half * ints, ints - half, two + floats, floats / two, wide * floats, ints ** two,
            ints > half, paddle.to_tensor(True) + ints, half + paddle.to_tensor(3),
            attempt(lambda: paddle.maximum(half, ints)), attempt(lambda: paddle.to_tensor([0.5]) * ints),
            str(paddle.maximum(wide, floats).dtype)]


@program
def smooth_l1_loss_in_place_forms_and_grad_mode_aliases(paddle):
    """smooth_l1_loss (paddle's huber_loss kernel, without double grad) and SmoothL1Loss; the
    in-place forms whose node is the function's; the grad modes under paddle.autograd."""
    x = paddle.to_tensor([0.2, -1.5, 3.0, 0.9], stop_gradient=False)
    y = paddle.to_tensor([0.0, 0.0, 1.0, 1.0])
    out = []
    for reduction in ("mean", "sum", "none"):
        for delta in (1.0, 0.5):
            loss = paddle.nn.functional.smooth_l1_loss(x, y, reduction=reduction, delta=delta)
            out += [loss, loss.grad_fn.name(), paddle.grad(loss.sum(), x)[0]]
    out += [paddle.nn.SmoothL1Loss()(x, y), paddle.nn.SmoothL1Loss(reduction="sum", delta=2.0)(x, y),
            attempt(lambda: paddle.nn.functional.smooth_l1_loss(x, y, reduction="x")),
            attempt(lambda: paddle.grad(paddle.nn.functional.smooth_l1_loss(x, y, reduction="none").sum(),
                                        x, create_graph=True))]
    for name, args in (("pow_", (2.0,)), ("floor_", ()), ("ceil_", ()), ("round_", ()), ("log_", ()),
                       ("abs_", ()), ("sin_", ()), ("cos_", ()), ("sigmoid_", ()), ("neg_", ()),
                       ("cumsum_", (0,))):
        z = paddle.to_tensor([0.25, 0.6, 0.9], stop_gradient=False)
        w = z * 1.5
        written = getattr(w, name)(*args)
        w.sum().backward()
        out += [name, written is w, w.inplace_version, w.grad_fn.name(), w, z.grad]
    with paddle.autograd.no_grad():
        plain = x * 2
    paddle.autograd.set_grad_enabled(False)
    off = paddle.autograd.is_grad_enabled()
    paddle.autograd.set_grad_enabled(True)
    return out + [plain.stop_gradient, off, paddle.autograd.is_grad_enabled(), paddle.get_device()]


@program
def maximum_gradient_of_an_infinite_seed(paddle):
    """paddle's maximum and minimum gradients add two products, one by 0: where the incoming
    gradient is infinite or NaN both operands get NaN (fuzz seed 27777890035288)."""
    x = paddle.to_tensor([0.0, 1.0, -1.0, 2.0], stop_gradient=False)
    y = paddle.to_tensor([0.0, 0.0, 0.0, float("nan")], stop_gradient=False)
    out = []
    for seed in ([float("-inf"), 1.0, 2.0, 3.0], [1.0, float("nan"), float("inf"), 1.0],
                 [2.0, 3.0, 4.0, float("inf")]):
        for f in (paddle.maximum, paddle.minimum):
            x.clear_grad()
            y.clear_grad()
            f(x, y).backward(paddle.to_tensor(seed))
            out += [x.grad, y.grad]
    return out
