"""Helpers the derivative table's rules share: numpy forwards and gradient pieces.

The gradient pieces are written in engine operations (``reference_engine.ops``), so a backward
pass run with ``create_graph=True`` records them and can be differentiated again. The table
(``reference_engine.rules``) refers to them as ``H.name``.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Optional

import numpy as np

from reference_engine import cascade_sum, kernel_order, recorder
from reference_engine import composed as C
from reference_engine import ops as F
from reference_engine.messages import not_supported
from reference_engine.rule import RULES


def kept_shape(shape: tuple[int, ...], dims: tuple[int, ...]) -> tuple[int, ...]:
    """The shape a reduction over ``dims`` gives with ``keepdim=True``."""
    return tuple(1 if i in dims else s for i, s in enumerate(shape))


def restore_reduced(t: Any, in_shape: tuple[int, ...], dims: tuple[int, ...]) -> Any:
    """Give a reduced tensor its reduced dimensions back (as size 1), ready to broadcast; one
    that has them (kept by ``keepdim``) is returned as it is, as the frameworks' formulas do."""
    shape = kept_shape(in_shape, dims)
    return t if t._data.shape == tuple(shape) else F.reshape(t, shape)


def reduce_count(in_shape: tuple[int, ...], dims: tuple[int, ...]) -> int:
    return math.prod(in_shape[d] for d in dims)


# Eigen's fast float tanh (``ptanh_float``, what paddle's CPU kernel runs): the input clamped
# to +-TANH_CLAMP, then an odd degree-13 polynomial over an even degree-6 one, in float32
TANH_CLAMP = np.float32(7.90531110763549805)
TANH_NUMERATOR = np.array([-2.76076847742355e-16, 2.00018790482477e-13, -8.60467152213735e-11,
                           5.12229709037114e-08, 1.48572235717979e-05, 6.37261928875436e-04,
                           4.89352455891786e-03], np.float32)
TANH_DENOMINATOR = np.array([1.19825839466702e-06, 1.18534705686654e-04, 2.26843463243900e-03,
                             4.89352518554385e-03], np.float32)
TANH_TINY = np.float32(0.0004)  # below it, tanh(x) is x


def tanh(a: np.ndarray, fast: bool) -> np.ndarray:
    """tanh; with ``fast``, float32 tanh is Eigen's rational approximation (paddle's CPU
    kernel), which agrees with paddle bit for bit and differs from ``np.tanh`` by up to 3e-7
    (exactly +-1 from the clamp on)."""
    if not (fast and a.dtype == np.float32):
        return np.tanh(a)
    x = np.clip(a, -TANH_CLAMP, TANH_CLAMP)
    x2 = x * x
    numerator = np.zeros_like(x)
    for c in TANH_NUMERATOR:
        numerator = numerator * x2 + c
    denominator = np.zeros_like(x)
    for c in TANH_DENOMINATOR:
        denominator = denominator * x2 + c
    return np.where(np.abs(a) < TANH_TINY, a, numerator * x / denominator).astype(np.float32)


def one_minus_square(b: np.ndarray) -> np.ndarray:
    """``1 - b * b`` rounded once, as torch's CPU tanh_backward kernel computes it (a fused
    multiply-add; exact in float64 for float32 values, then rounded to float32)."""
    if b.dtype == np.float32:
        return (1.0 - b.astype(np.float64) ** 2).astype(np.float32)
    return 1 - b * b


def squared(a: Any) -> Any:
    """``a * a``: one tensor multiplied by itself (both of the product's inputs link to it)."""
    return F.mul(a, a)


def where_zero(mask: Any, g: Any) -> Any:
    return F.where(mask, g, 0)


def evenly_to_ties(g: Any, a: Any, result: Any, in_shape: tuple[int, ...],
                    dims: tuple[int, ...]) -> Any:
    """Split the gradient of a max/min evenly between the entries equal to the extremum: the
    mask times the gradient over the count of ties, as the kernels compute it, so where no entry
    equals it any more (a saved tensor written without a version check) the gradient is NaN;
    paddle's kernel divides by nothing over reduced dims of size 1 (zero then), torch's always."""
    mask = F.cast(F.eq(a, restore_reduced(result, in_shape, dims)), g._data.dtype)
    share = restore_reduced(g, in_shape, dims)
    if reduce_count(in_shape, dims) > 1 or a._policy.ties_divide_single_entries:
        share = F.div(share, F.sum(mask, dims, True))
    return F.mul(mask, share)


def evenly_to_all_ties(g: Any, a: Any, result: Any, in_shape: tuple[int, ...],
                       dims: tuple[int, ...]) -> Any:
    """``max()`` / ``min()`` over every element: torch's CPU kernel writes the share into zeros
    at the tied places (``index_put_``), so every other place stays 0, an infinite gradient's
    too, and none is written where no entry equals the result any more (measured on 2.13);
    otherwise as ``evenly_to_ties``."""
    if not a._policy.all_ties_share_placed:
        return evenly_to_ties(g, a, result, in_shape, dims)
    tied = F.eq(a, restore_reduced(result, in_shape, dims))
    count = F.sum(F.cast(tied, g._data.dtype), dims, True)
    return where_zero(tied, F.div(restore_reduced(g, in_shape, dims), count))


def to_index(g: Any, in_shape: tuple[int, ...], dims: tuple[int, ...], indices: Any) -> Any:
    """Send the gradient of ``max(dim)`` / ``min(dim)`` to the index each slice selected."""
    dim = dims[0]
    positions = np.arange(in_shape[dim]).reshape([-1 if i == dim else 1 for i in range(len(in_shape))])
    mask = F.constant_like(g, positions == indices._data)
    return where_zero(mask, F.expand(restore_reduced(g, in_shape, dims), in_shape))


def matmul_grad_a(g: Any, b: Any, a_shape: tuple[int, ...]) -> Any:
    if len(a_shape) == 1 and b.ndim == 1:
        return F.mul(g, b)
    if b.ndim == 1:
        g, b = F.unsqueeze(g, -1), F.unsqueeze(b, -1)
    if len(a_shape) == 1:
        g = F.unsqueeze(g, -2)
    grad = F.matmul(g, F.transpose(b, -1, -2))
    if len(a_shape) == 1:
        grad = F.reshape(F.sum_to_shape(grad, (1, a_shape[0])), a_shape)
    return grad


def matmul_grad_b(g: Any, a: Any, b_shape: tuple[int, ...]) -> Any:
    if a.ndim == 1 and len(b_shape) == 1:
        return F.mul(g, a)
    if a.ndim == 1:
        g, a = F.unsqueeze(g, -2), F.unsqueeze(a, 0)
    if len(b_shape) == 1:
        g = F.unsqueeze(g, -1)
    grad = F.matmul(F.transpose(a, -1, -2), g)
    if len(b_shape) == 1:
        grad = F.reshape(F.sum_to_shape(grad, (b_shape[0], 1)), b_shape)
    return grad


def np_addmm(c: np.ndarray, a: np.ndarray, b: np.ndarray, beta: Any, alpha: Any) -> np.ndarray:
    """``beta * c + alpha * (a @ b)`` in the operands' dtype, as a gemm computes it: with
    ``beta`` 0, ``c`` is not read (its nan and inf do not reach the result)."""
    dtype = np.result_type(c, a, b)
    product = (a @ b) * dtype.type(alpha) if alpha != 1 else a @ b
    if beta == 0:
        return np.broadcast_to(product, np.broadcast_shapes(c.shape, product.shape)).astype(dtype)
    return (c * dtype.type(beta) if beta != 1 else c) + product


def np_fused(a: np.ndarray, b: np.ndarray, alpha: Any) -> np.ndarray:
    """``a + alpha * b`` rounded once, as torch's kernel computes it (a fused multiply-add with
    ``alpha`` in the operands' dtype). float64 holds the product of two float32 exactly, so
    float32 is computed there; other dtypes round twice."""
    if a.dtype == np.float32 and b.dtype == np.float32:
        scale = np.float64(np.float32(alpha))
        return (a.astype(np.float64) + scale * b.astype(np.float64)).astype(np.float32)
    return a + np.asarray(alpha, b.dtype) * b


def np_cast(a: np.ndarray, *, dtype: Any) -> np.ndarray:
    """``a`` in ``dtype``, laid out as torch's copy with ``preserve_format`` lays it out: the
    source's strides where its elements are non-overlapping and dense, else row-major (an
    expanded source, whose strides hold zeros, comes out contiguous: a later reshape is a
    view of it). numpy's own order follows a zero stride, which torch's does not."""
    return a.astype(dtype, order="K" if _dense(a) else "C")


def np_copy(a: np.ndarray) -> np.ndarray:
    """A copy of ``a`` laid out as torch's ``clone`` (``preserve_format``) lays it out."""
    return np_cast(a, dtype=a.dtype)


def _dense(a: np.ndarray) -> bool:
    """Whether ``a``'s elements fill its memory one each, in some order of its dimensions."""
    expected = a.itemsize
    for size, stride in sorted(((n, abs(st)) for n, st in zip(a.shape, a.strides) if n != 1),
                               key=lambda pair: pair[1]):
        if stride != expected:
            return False
        expected *= size
    return True


def positions_in(base: np.ndarray, view: np.ndarray) -> Optional[tuple[np.ndarray, ...]]:
    """Where each element of ``view`` lies in ``base``, whose memory it shares: an index of
    ``base`` shaped as ``view`` (``base[index]`` reads the view's elements), as torch's
    ``as_strided`` reads a view from its base's geometry. None where ``view`` lies outside
    ``base``'s elements, or ``base`` repeats some (it is expanded)."""
    start = view.__array_interface__["data"][0] - base.__array_interface__["data"][0]
    item = base.itemsize
    if view.dtype != base.dtype or start % item:
        return None
    base_offsets = _element_offsets(base.shape, base.strides, 0).ravel()
    order = np.argsort(base_offsets, kind="stable")
    ordered = base_offsets[order]
    if ordered.size and (np.diff(ordered) == 0).any():
        return None
    wanted = _element_offsets(view.shape, view.strides, start).ravel()
    found = np.searchsorted(ordered, wanted)
    if wanted.size and (found.max() >= ordered.size or (ordered[found] != wanted).any()):
        return None
    flat = order[found]
    return tuple(i.reshape(view.shape) for i in np.unravel_index(flat, base.shape))


def _element_offsets(shape: tuple[int, ...], strides: tuple[int, ...], start: int) -> np.ndarray:
    """The byte offset of every element of an array of this geometry, shaped as the array."""
    offsets = np.full(shape, start, dtype=np.int64)
    for dim, (n, stride) in enumerate(zip(shape, strides)):
        offsets += (np.arange(n, dtype=np.int64) * stride).reshape(
            [n if d == dim else 1 for d in range(len(shape))])
    return offsets


def reverse_cumsum(g: Any, dim: int) -> Any:
    """The running sums of ``g`` along ``dim`` from its far end: cumsum's derivative."""
    flipped = np.ix_(*(np.arange(n)[::-1] if d == dim else np.arange(n)
                       for d, n in enumerate(g._data.shape)))
    return F.getitem(F.cumsum(F.getitem(g, flipped), dim), flipped)


def np_sum(a: np.ndarray, *, dims: tuple[int, ...], keepdim: bool, summation: str) -> np.ndarray:
    """The sum over ``dims``, its terms added in the framework's order (``Policy.summation``)."""
    if summation == "cascade":
        return cascade_sum.torch_sum(a, dims, keepdim)
    return np.add.reduce(a, axis=dims, keepdims=keepdim)


def every_dim(a: np.ndarray) -> tuple[int, ...]:
    return tuple(range(a.ndim))


def np_mean(a: np.ndarray, *, dims: tuple[int, ...], keepdim: bool, summation: str) -> np.ndarray:
    if summation == "cascade":
        return cascade_sum.torch_mean(a, dims, keepdim)
    return np.mean(a, axis=dims, keepdims=keepdim)


def np_expand(a: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """A view of ``a`` with stride 0 along the expanded dimensions, as torch's expand: later
    writes to ``a`` show in it, and a write through it reaches ``a`` (elements that share
    memory hold the last value written). Writeable, unlike numpy's ``broadcast_to``."""
    lead = len(shape) - a.ndim
    strides = (0,) * lead + tuple(0 if n == 1 and s != 1 else st
                                  for n, s, st in zip(a.shape, shape[lead:], a.strides))
    if a.flags.c_contiguous and a.size:  # over its buffer: the quick way
        return np.ndarray(shape, a.dtype, a, 0, strides)
    return np.lib.stride_tricks.as_strided(a, shape, strides, writeable=a.flags.writeable)


def np_prod_others(a: np.ndarray, *, dim: int) -> np.ndarray:
    """Each element's product of the other elements along ``dim`` (exact where ``a`` has zeros):
    the running product before it times the running product after it."""
    before = np.cumprod(np.concatenate([np.ones_like(np.take(a, [0], dim)),
                                        np.take(a, range(a.shape[dim] - 1), dim)], dim), dim)
    reversed_rest = np.flip(np.take(a, range(1, a.shape[dim]), dim), dim)
    after = np.flip(np.cumprod(np.concatenate([np.ones_like(np.take(a, [0], dim)), reversed_rest],
                                              dim), dim), dim)
    return before * after


ERF = np.frompyfunc(math.erf, 1, 1)


def np_erf(a: np.ndarray) -> np.ndarray:
    """The error function elementwise (numpy has none), in ``a``'s dtype."""
    return np.asarray(ERF(a), dtype=a.dtype)


ERFC = np.frompyfunc(math.erfc, 1, 1)


def np_erfc(a: np.ndarray) -> np.ndarray:
    """``1 - erf`` elementwise, without its cancellation for large ``a``, in ``a``'s dtype."""
    return np.asarray(ERFC(a), dtype=a.dtype)


def np_xlogy(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a · log(b)``, 0 where ``a`` is 0 unless ``b`` is NaN (torch's xlogy)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        product = a * np.log(b)
    return np.where(np.isnan(b), b, np.where(a == 0, np.zeros((), product.dtype), product))


def np_entr(a: np.ndarray) -> np.ndarray:
    """``-a · log(a)`` for positive ``a``, 0 at 0, -inf below (NaN stays NaN)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        positive = -a * np.log(a)
    return np.where(a > 0, positive, np.where(a == 0, np.zeros((), a.dtype), np.asarray(-np.inf, a.dtype)))


def np_sinc(a: np.ndarray) -> np.ndarray:
    """``sin(πa) / (πa)``, 1 at 0, computed in ``a``'s dtype as torch's kernel does."""
    scaled = a * a.dtype.type(math.pi)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(a == 0, np.ones((), a.dtype), np.sin(scaled) / scaled)


def sinc_grad(g: Any, a: Any) -> Any:
    """``(πa cos(πa) - sin(πa)) / (πa²)``, 0 at 0, times ``g`` (torch's formula, recorded)."""
    scaled = F.mul(a, math.pi)
    slope = F.div(F.sub(F.mul(scaled, F.cos(scaled)), F.sin(scaled)), F.mul(F.mul(a, a), math.pi))
    return F.mul(where_zero(F.ne(a, 0), slope), g)


def np_logaddexp2(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``log2(2^a + 2^b)``, shifted by the larger (an infinity equal on both sides stays)."""
    larger = np.maximum(a, b)
    with np.errstate(invalid="ignore"):
        out = larger + np.log1p(np.exp2(-np.abs(a - b))) / np.log(a.dtype.type(2))
    return np.where(np.isinf(a) & (a == b), a, out)


def shifted_by_max(a: np.ndarray, dim: int, floor: Optional[float]) -> np.ndarray:
    """``a`` minus its maximum along ``dim``; paddle's kernels clip it from below at ``floor``."""
    shifted = a - (np.max(a, axis=dim, keepdims=True) if a.size else a)  # (an empty input stays empty)
    return shifted if floor is None else np.maximum(shifted, np.asarray(floor, a.dtype))


def np_softmax(a: np.ndarray, *, dim: int, floor: Optional[float] = None,
               kernel: str = "torch") -> np.ndarray:
    """Row-contiguous whatever ``a``'s layout, as torch's kernel writes it (numpy would keep a
    transposed input's layout): a reshape of the result is a view in both. A 0-d input is a row
    of one. ``kernel`` (``Policy.softmax_kernel``): "torch", torch's CPU kernels bit for bit in
    float32 and float64 (``kernel_order.softmax``: whether the outputs sum to exactly 1 decides
    whether their gradient cancels to 0), or "inverse", the exponentials times the inverse of
    their sum (paddle's)."""
    if a.ndim == 0:
        return np_softmax(a.reshape(1), dim=0, floor=floor, kernel=kernel).reshape(())
    if kernel == "torch" and floor is None and a.size and a.dtype in (np.float32, np.float64):
        return kernel_order.softmax(a, dim)
    shifted = np.exp(shifted_by_max(a, dim, floor))
    total = np.sum(shifted, axis=dim, keepdims=True)
    if kernel == "inverse":
        return np.ascontiguousarray(shifted * (a.dtype.type(1) / total))
    return np.ascontiguousarray(shifted / total)


def np_log_softmax(a: np.ndarray, *, dim: int, floor: Optional[float] = None,
                   kernel: str = "torch") -> np.ndarray:
    """Row-contiguous, as ``np_softmax``; ``kernel`` "torch": torch's CPU kernels bit for bit in
    float32 and float64 (``kernel_order.log_softmax``)."""
    if a.ndim == 0:
        return np_log_softmax(a.reshape(1), dim=0, floor=floor, kernel=kernel).reshape(())
    if kernel == "torch" and floor is None and a.size and a.dtype in (np.float32, np.float64):
        return kernel_order.log_softmax(a, dim)
    shifted = shifted_by_max(a, dim, floor)
    return np.ascontiguousarray(shifted - np.log(np.sum(np.exp(shifted), axis=dim, keepdims=True)))


_FULL = slice(None)


def basic_index_grad(g: Any, index: Any, in_shape: tuple[int, ...]) -> Any:
    """The gradient of a basic index (``x[1:, None]``). Where the dialect applies the index one
    component at a time (torch: ``Policy.basic_index_by_components``), so does its backward, last
    component first: with nothing applied (``x[...]``) the gradient passes as it is; with only
    new axes (``x[..., None]``) it is squeezed, a view of the incoming gradient; otherwise it is
    written into zeros, its node named by the first component's backward. Elsewhere: written
    into zeros."""
    if not g._policy.basic_index_by_components:
        return F.index_backward(g, in_shape, index)
    parts = index if isinstance(index, tuple) else (index,)
    applied = [p for p in parts if p is not Ellipsis and not (isinstance(index, tuple) and p == _FULL)]
    if not applied:
        return g
    if all(p is None for p in applied):
        consumed = sum(p is not None and p is not Ellipsis for p in parts)
        position, new_axes = 0, []
        for part in parts:
            if part is Ellipsis:
                position += len(in_shape) - consumed
            else:
                if part is None:
                    new_axes.append(position)
                position += 1
        for axis in reversed(new_axes):
            g = F.squeeze(g, axis)
        return g
    first = applied[0]
    node = "SqueezeBackward1" if first is None else \
        "SliceBackwardBackward0" if isinstance(first, slice) else "SelectBackwardBackward0"
    return C.named(F.index_backward(g, in_shape, index), node, g)


def np_index_backward(g: np.ndarray, *, shape: tuple[int, ...], index: Any) -> np.ndarray:
    out = np.zeros(shape, dtype=g.dtype)
    np.add.at(out, index, g)
    return out


def np_clamp(a: np.ndarray, *, low: Optional[float], high: Optional[float]) -> np.ndarray:
    out = a if low is None else np.maximum(a, np.asarray(low, a.dtype))
    return out if high is None else np.minimum(out, np.asarray(high, a.dtype))


def clamp_mask(a: Any, low: Optional[float], high: Optional[float]) -> Any:
    masks = ([F.ge(a, low)] if low is not None else []) + ([F.le(a, high)] if high is not None else [])
    return masks[0] if len(masks) == 1 else F.logical_and(*masks)


def pow_grad_base(g: Any, a: Any, b: Any) -> Any:
    return F.where(F.eq(b, 0), 0, F.mul(g, F.mul(b, F.pow(a, F.sub(b, 1)))))


def rpow_grad(g: Any, a: Any, result: Any, base: float) -> Any:
    """``base ** a`` by its exponent. With base 0 both frameworks give 0 where the exponent is
    not negative and ``-inf`` (``inf * log 0``) where it is, so the exponent is saved as well."""
    if base == 0:
        if g._policy.pow_exponent_grad_multiplies:  # (as pow_grad_exponent)
            return F.mul(g, F.where(F.ge(a, 0), 0, F.mul(result, -math.inf)))
        return F.where(F.ge(a, 0), 0, F.mul(g, F.mul(result, -math.inf)))
    return F.mul(g, F.mul(result, math.log(base)))


def pow_grad_exponent(g: Any, a: Any, b: Any, result: Any) -> Any:
    """``g · result · log a``, 0 where ``a`` is 0 and the exponent not negative: torch multiplies
    the gradient by that masked factor (a NaN gradient stays NaN, a -0 keeps its sign), paddle
    selects 0 there (``Policy.pow_exponent_grad_multiplies``)."""
    at_zero = F.logical_and(F.eq(a, 0), F.ge(b, 0))
    if g._policy.pow_exponent_grad_multiplies:
        return F.mul(g, F.where(at_zero, 0, F.mul(result, F.log(a))))
    return F.where(at_zero, 0, F.mul(g, F.mul(result, F.log(a))))


def maximum_grad(g: Any, mine: Any, other: Any, loses: Callable[[Any, Any], Any],
                  first: bool) -> Any:
    """The winner's gradient, half each at a tie; paddle's kernel multiplies by the weights (a
    nan gradient reaches the loser too, and a NaN operand gives both 0), torch's selects.

    paddle's double-grad kernel differentiates that gradient by the seed with whole masks, not
    the halves: at a tie the first operand's gradient has derivative 0 and the second's 1
    (``maximum_double_grad``: ``ddout = ddx * (x > y) + ddy * (x <= y)``). The recorded gradient
    keeps the halves' values and the masks' derivative: ``g * mask`` plus the difference as a
    constant."""
    if g._policy.masks_by_multiplying:
        # weights from the winner's side: where an operand is NaN neither wins nor ties, and
        # both gradients are 0 (measured on 3.3.1). The kernel adds the winner's product and
        # the tie's, one of which multiplies by 0: an infinite gradient gives NaN everywhere
        won, tied = loses(other, mine)._data, mine._data == other._data
        weights = np.where(won, 1.0, np.where(tied, 0.5, 0.0)).astype(g._data.dtype)
        if not np.isfinite(g._data).all():
            nans = np.where(np.isfinite(g._data), 0.0, np.nan).astype(g._data.dtype)
            return F.add(F.mul(g, F.constant_like(g, weights)), F.constant_like(g, nans))
        if not (g._requires_grad and tied.any()):
            return F.mul(g, F.constant_like(g, weights))
        mask = np.where(won, 1.0, 0.0) if first else np.where(won | tied, 1.0, 0.0)
        recorded = F.mul(g, F.constant_like(g, mask.astype(g._data.dtype)))
        return F.add(recorded, F.constant_like(g, (g._data * (weights - mask)).astype(g._data.dtype)))
    split = F.where(F.eq(mine, other), F.div_number(g, 2), g)
    return F.masked_fill(split, loses(mine, other), 0)


def cat_grads(g: Any, sizes: tuple[int, ...], dim: int) -> list[Any]:
    starts = np.cumsum((0,) + sizes)
    lead = (slice(None),) * dim
    return [F.getitem(g, lead + (slice(int(s), int(s) + n),)) for s, n in zip(starts, sizes)]


def stack_grads(g: Any, sizes: tuple[int, ...], dim: int) -> list[Any]:
    lead = (slice(None),) * dim
    return [F.getitem(g, lead + (i,)) for i in range(len(sizes))]


def inverse(perm: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(int(i) for i in np.argsort(perm))


def np_getitem(a: np.ndarray, index: Any) -> np.ndarray:
    """``a[index]``; integers on every dimension give a 0-d view (numpy would give a scalar
    copy), so a write to the selected element reaches ``a`` as it does in the frameworks. The
    dimensions a ``None`` adds take the stride torch's unsqueeze gives them."""
    if isinstance(index, (int, np.integer)) or (
            isinstance(index, tuple) and all(isinstance(p, (int, np.integer)) for p in index)):
        return a[(*(index if isinstance(index, tuple) else (index,)), Ellipsis)]
    out = a[index]
    added = added_dims(index, a.ndim)
    return with_unsqueeze_strides(out, added) if added else out


def np_unsqueeze(a: np.ndarray, dim: int | tuple[int, ...]) -> np.ndarray:
    """``np.expand_dims``, the new dimensions (one, or several: paddle's list of axes) with
    torch's stride for them, the others keeping theirs (numpy's reshape restrides dimensions
    of size 1, which torch's overlap check compares)."""
    dims = dim if isinstance(dim, tuple) else (dim,)
    ndim = np.expand_dims(a, dims).ndim  # (numpy checks the dims)
    added = sorted(d % ndim for d in dims)
    shape, strides = list(a.shape), list(a.strides)
    for position in added:
        shape.insert(position, 1)
        strides.insert(position, 0)
    kept = np.lib.stride_tricks.as_strided(a, shape, strides, writeable=a.flags.writeable)
    return with_unsqueeze_strides(kept, added)


def added_dims(index: Any, ndim: int) -> tuple[int, ...]:
    """Where a basic index's ``None`` entries put their new dimensions in the result (none for
    an index with arrays or lists, whose result is a copy)."""
    items = index if isinstance(index, tuple) else (index,)
    if not any(item is None for item in items):
        return ()
    if not all(item is None or item is Ellipsis or isinstance(item, (int, np.integer, slice))
               for item in items):
        return ()
    consumed = sum(1 for item in items if item is not None and item is not Ellipsis)
    added, position = [], 0
    for item in items:
        if item is None:
            added.append(position)
            position += 1
        elif item is Ellipsis:
            position += ndim - consumed
        elif isinstance(item, slice):
            position += 1
    return tuple(added)


def with_unsqueeze_strides(a: np.ndarray, added: Any) -> np.ndarray:
    """``a`` with the dimensions at ``added`` (each of size 1) strided as torch's unsqueeze
    strides a new dimension: the next dimension's size times its stride, one element at the end.
    Which elements ``a`` holds does not change; torch's overlap check compares strides, size-one
    dimensions' too, and numpy strides a ``None`` by 0."""
    strides = list(a.strides)
    for position in sorted(added, reverse=True):
        strides[position] = a.shape[position + 1] * strides[position + 1] \
            if position + 1 < a.ndim else a.itemsize
    if tuple(strides) == a.strides:
        return a
    return np.lib.stride_tricks.as_strided(a, a.shape, strides, writeable=a.flags.writeable)


def norm_grad(g: Any, a: Any, result: Any, dims: Any, keepdim: bool) -> Any:
    shape = a._data.shape
    axes = tuple(range(len(shape))) if dims is None else dims
    if not keepdim:
        g, result = restore_reduced(g, shape, axes), restore_reduced(result, shape, axes)
    zero = F.constant_like(result, result._data == 0)
    return F.mul(F.expand(g, shape), F.where(zero, 0.0, F.div(a, result)))


def prod_others_grad(g: Any, a: Any, dim: int) -> Any:
    """The derivative of ``prod_others``, recorded: element j receives the sum over i != j of
    g_i times the product of the elements other than i and j, which is ``prod_others`` of
    ``a`` with a_j set to 1 (so it differentiates again, to any order)."""
    pieces = []
    for j in range(a._data.shape[dim]):
        others = np.ones(a._data.shape, a._data.dtype)
        np.moveaxis(others, dim, 0)[j] = 0  # 0 at j along dim, 1 elsewhere
        without_j = F.add(F.mul(a, F.constant_like(a, others)), F.constant_like(a, 1 - others))
        products = recorder.apply(RULES["prod_others"], (without_j,), {"dim": dim})
        pieces.append(F.sum(F.mul(F.mul(g, products), F.constant_like(a, others)), (dim,), True))
    return F.cat(pieces, dim)


def prod_grad(g: Any, a: Any, result: Any, dims: Optional[tuple[int, ...]], keepdim: bool) -> Any:
    """torch's prod_backward: ``g * (result / a)`` when no element is zero; otherwise each
    element's gradient is g times the product of the others (exact at zeros). paddle's kernel
    always divides (``g * result / a``), which gives nan where an element is zero."""
    shape = a._data.shape
    if not shape:
        return g
    zeros = not a._policy.prod_grad_divides and (a._data == 0).any()
    if zeros and dims is None:  # torch takes the products along the flattened input
        flat = F.reshape(a, (a._data.size,))
        return F.reshape(F.mul(g, products_of_others(flat, 0)), shape)
    if not keepdim and dims is not None:  # (over everything, the 0-d g and result broadcast)
        g, result = (F.unsqueeze(t, dims[0]) for t in (g, result))
    if zeros:
        return F.mul(g, products_of_others(a, dims[0]))
    if a._policy.prod_grad_divides:
        return F.div(F.mul(g, result), a)
    return F.mul(g, F.div(result, a))


def products_of_others(a: Any, dim: int) -> Any:
    """Each element's product of the others along ``dim``; along a dimension of one element,
    the empty product: ones that no input reaches (torch's cumulative products of nothing)."""
    if a._data.shape[dim] == 1:
        return F.constant_like(a, np.ones(a._data.shape, a._data.dtype))
    return recorder.apply(RULES["prod_others"], (a,), {"dim": dim})


def split_grad(grads: list[Any], in_shape: tuple[int, ...], sizes: tuple[int, ...],
                dim: int) -> Any:
    """The gradient of the input of a split: the pieces' gradients joined again along ``dim``,
    zeros for a piece no gradient reached."""
    pieces = [piece_grad(g, grads, in_shape[:dim] + (n,) + in_shape[dim + 1:])
              for g, n in zip(grads, sizes)]
    return F.cat(pieces, dim)


def unbind_grad(grads: list[Any], in_shape: tuple[int, ...], dim: int) -> Any:
    """The gradient of the input of unbind: the slices' gradients stacked again along ``dim``."""
    piece = in_shape[:dim] + in_shape[dim + 1:]
    return F.stack([piece_grad(g, grads, piece) for g in grads], dim)


def piece_grad(g: Any, grads: list[Any], shape: tuple[int, ...]) -> Any:
    """One output's gradient, or zeros of its shape where none (or an undefined one) arrived."""
    if isinstance(g, recorder.tensor_type()):
        return g
    like = next(t for t in grads if isinstance(t, recorder.tensor_type()))
    return F.constant_like(like, np.zeros(shape, like._data.dtype))


GELU_K = math.sqrt(2.0 / math.pi)  # the tanh approximation: tanh(k (x + c x^3))


GELU_C = 0.044715


def np_gelu(a: np.ndarray, approximate: str) -> tuple[np.ndarray, np.ndarray]:
    """gelu's value and slope at ``a``: exact (``x Phi(x)``) or by tanh ("tanh")."""
    if approximate == "tanh":
        t = np.tanh(GELU_K * (a + GELU_C * a ** 3))
        slope = 0.5 * (1 + t) + 0.5 * a * (1 - t * t) * GELU_K * (1 + 3 * GELU_C * a * a)
        return (0.5 * a * (1 + t)).astype(a.dtype), slope.astype(a.dtype)
    cdf = 0.5 * (1 + np_erf(a / math.sqrt(2.0)))
    pdf = np.exp(-0.5 * a * a) / math.sqrt(2 * math.pi)
    return (a * cdf).astype(a.dtype), (cdf + a * pdf).astype(a.dtype)


def np_clip(a: np.ndarray, low: float, high: float) -> np.ndarray:
    """``a`` clipped to [low, high] in its own dtype."""
    return np.clip(a, np.asarray(low, a.dtype), np.asarray(high, a.dtype))


def np_hardswish(a: np.ndarray) -> np.ndarray:
    """torch's ``x * min(max(x + 3, 0), 6) / 6``."""
    return a * np_clip(a + 3, 0, 6) / a.dtype.type(6)


def np_hardswish_slope(b: np.ndarray) -> np.ndarray:
    """torch's hardswish_backward factor: 0 up to -3, ``x / 3 + 0.5`` strictly between -3 and 3,
    1 from 3 on (measured on torch 2.13.0: 0 at -3, 1 at 3, in every dtype and length)."""
    zero, one = np.zeros((), b.dtype), np.ones((), b.dtype)
    return np.where(b <= -3, zero, np.where(b < 3, b / b.dtype.type(3) + b.dtype.type(0.5), one))


def np_remainder(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Python's ``%`` as both frameworks' kernels compute it: C's fmod moved by one divisor
    where its sign is not the divisor's. A zero keeps the dividend's sign (numpy's remainder
    gives it the divisor's)."""
    mod = np.fmod(a, b)
    return np.where((mod != 0) & ((mod < 0) != (b < 0)), mod + b, mod)


def np_rounded_division(a: np.ndarray, b: np.ndarray, *, mode: str) -> np.ndarray:
    """``a / b`` rounded down (numpy's floor_divide: fmod-based, as torch's kernel) or towards
    zero (the quotient truncated; an integer one exactly)."""
    if mode == "floor":
        return np.floor_divide(a, b)
    if mode == "floor_of_quotient":  # the rounded quotient, not the floor division
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.floor(a / b)
    if a.dtype.kind in "iu":
        quotient = np.floor_divide(a, b)
        return quotient + ((quotient < 0) & (quotient * b != a))
    return np.trunc(a / b)


def np_windows(a: np.ndarray, *, axis: int, size: int, step: int) -> np.ndarray:
    """The windows of ``size`` along ``axis`` every ``step``: that axis counts the windows, a
    new last axis holds each window (paddle's Tensor.unfold, torch's Tensor.unfold)."""
    windows = np.lib.stride_tricks.sliding_window_view(a, size, axis=axis)
    return np.ascontiguousarray(windows[(slice(None),) * axis + (slice(None, None, step),)])


def unfold_grad_assigned(g: Any, axis: int, size: int, step: int, shape: tuple[int, ...]) -> Any:
    """paddle 3.3.1's tensor_unfold_grad: each window's gradient is written over the input's
    positions in window order, so where windows overlap the last one's stands (measured: not
    summed, as torch's is). Not recorded: the kernel has no double grad."""
    out = np.zeros(shape, g._data.dtype)
    windows = np.moveaxis(g._data, -1, axis + 1)
    for i in range(windows.shape[axis]):
        start = i * step
        target = (slice(None),) * axis + (slice(start, start + size),)
        out[target] = np.take(windows, i, axis=axis)
    return F.constant_like(g, out)


def not_implemented(kernel: str) -> Any:
    """A derivative torch lists as not implemented: running it raises torch's error."""
    def vjp(g: Any) -> Any:
        raise RuntimeError(f"derivative for aten::{kernel} is not implemented")

    return vjp


def gelu_curvature(x: Any, approximate: str) -> Any:
    """gelu's second derivative at ``x``, recorded."""
    square = F.mul(x, x)
    if approximate == "tanh":
        du = F.mul(F.add(F.mul(square, 3 * GELU_C), 1.0), GELU_K)
        t = F.tanh(F.mul(F.add(x, F.mul(F.mul(square, x), GELU_C)), GELU_K))
        inner = F.add(F.sub(du, F.mul(F.mul(x, t), F.mul(du, du))),
                      F.mul(F.mul(x, x), 3 * GELU_C * GELU_K))
        return F.mul(F.sub(1.0, F.mul(t, t)), inner)
    pdf = F.mul(F.exp(F.mul(square, -0.5)), 1 / math.sqrt(2 * math.pi))
    return F.mul(pdf, F.sub(2.0, square))


def softplus_curvature(x: Any, beta: float, threshold: float) -> Any:
    """softplus's second derivative at ``x`` (0 above the threshold; torch's double backward
    counts the threshold itself as above it, unlike its backward and paddle), recorded."""
    s = F.sigmoid(F.mul(x, beta))
    below = F.lt if x._policy.double_backward_thresholds_inclusive else F.le
    return F.where(below(F.mul(x, beta), threshold), F.mul(F.mul(s, F.sub(1.0, s)), beta), 0.0)


def elu_curvature(x: Any, alpha: float) -> Any:
    """elu's second derivative at ``x`` (torch's double backward counts 0 with the positive
    side, its backward with the negative), recorded."""
    negative = F.lt if x._policy.double_backward_thresholds_inclusive else F.le
    return F.where(negative(x, 0), F.mul(F.exp(x), alpha), 0.0)


def unsqueezed(g: Any, dims: tuple[int, ...]) -> Any:
    """The squeezed dimensions given back, one unsqueeze each (torch's unsqueeze_to)."""
    for d in sorted(dims):
        g = F.unsqueeze(g, d)
    return g


def np_silu_slope(x: np.ndarray) -> np.ndarray:
    s = 1 / (1 + np.exp(-x))
    return s * (1 + x * (1 - s))


def silu_curvature(x: Any) -> Any:
    """silu's second derivative ``s (1 - s) (2 + x (1 - 2 s))`` at ``x``, recorded."""
    s = F.sigmoid(x)
    return F.mul(F.mul(s, F.sub(1.0, s)), F.add(F.mul(x, F.sub(1.0, F.mul(s, 2.0))), 2.0))


def np_norm_p(a: np.ndarray, p: float, dims: Any, keepdim: bool) -> np.ndarray:
    magnitude = np.abs(a)
    if math.isinf(p):
        reduce = np.amax if p > 0 else np.amin
        return reduce(magnitude, axis=dims, keepdims=keepdim)
    return np.sum(magnitude ** p, axis=dims, keepdims=keepdim) ** (1 / p)


def norm_p_grad(g: Any, a: Any, result: Any, p: float, dims: Any, keepdim: bool) -> Any:
    """torch's norm_backward for p other than 2. paddle's p_norm_grad is alike, except that it
    does not mask the zeros (nan there for p < 1) and does not share among ties (inf)."""
    shape = a._data.shape
    axes = tuple(range(len(shape))) if dims is None else dims
    if not keepdim:
        g, result = restore_reduced(g, shape, axes), restore_reduced(result, shape, axes)
    if p == 1:
        return F.mul(F.sign(a), g)
    if math.isinf(p):  # torch shares the gradient among ties, paddle gives each all of it
        at_extreme = F.cast(F.eq(F.abs(a), result), a._data.dtype)
        if a._policy.norm_grad_masks_zeros:
            g = F.div(g, F.sum(at_extreme, axes, True))
        return F.mul(F.mul(F.sign(a), at_extreme), g)
    if p < 2:
        scaled = F.mul(F.sign(a), F.pow(F.abs(a), p - 1))
        if p < 1 and a._policy.norm_grad_masks_zeros:
            scaled = F.where(F.constant_like(a, a._data == 0), 0.0, scaled)
    else:
        scaled = F.mul(a, F.pow(F.abs(a), p - 2))
    scale = F.div(g, F.pow(result, p - 1))
    if a._policy.norm_grad_masks_zeros:
        scale = F.where(F.constant_like(result, result._data == 0), 0.0, scale)
    return F.mul(scaled, scale)


def np_reduce(loss: np.ndarray, reduction: str) -> np.ndarray:
    """A torch loss kernel's reduction of its elementwise losses: ``loss.sum()`` or
    ``loss.mean()``, added in torch's order."""
    if reduction == "none":
        return loss
    every = tuple(range(loss.ndim))
    if reduction == "sum":
        return cascade_sum.torch_sum(loss, every, False)
    return cascade_sum.torch_mean(loss, every, False)


def indicator(like: Any, where: np.ndarray) -> Any:
    """A constant of ``like``'s dtype: 1 where ``where`` holds, else 0."""
    return F.constant_like(like, where.astype(like._data.dtype))


def nll_reduce(loss: np.ndarray, reduction: str) -> np.ndarray:
    """torch's ``nll_loss`` reduction (unweighted, nothing ignored): its own running sums."""
    if reduction == "none":
        return loss
    total = cascade_sum.nll_loss_total(loss)
    return total if reduction == "sum" else (total / loss.dtype.type(loss.shape[0])).astype(loss.dtype)


def loss_grad(g: Any, like: Any, reduction: str) -> Any:
    """A reduced loss's gradient spread over the elements of ``like`` (divided by their count
    for "mean")."""
    if reduction == "none":
        return g
    spread = F.expand(g, like._data.shape)
    return spread if reduction == "sum" else F.div_number(spread, like._data.size)


def mse_grad(g: Any, difference: Any, reduction: str) -> Any:
    """torch's ``mse_loss_backward``: ``norm * (a - b) * grad``, with ``norm`` 2 divided by the
    count for "mean" (one number in the tensors' dtype), in that order, as its kernel rounds."""
    norm = 2.0 / difference._data.size if reduction == "mean" else 2.0
    spread = g if reduction == "none" else F.expand(g, difference._data.shape)
    return F.mul(F.mul(difference, norm), spread)


def nll_grad(g: Any, a: Any, classes: tuple[int, ...], reduction: str) -> Any:
    """Minus the gradient at each row's class, zeros elsewhere."""
    rows = len(classes)
    picked = np.zeros(a._data.shape, a._data.dtype)
    picked[np.arange(rows), list(classes)] = -1
    per_row = g if reduction == "none" else F.expand(g, (rows,))
    if reduction == "mean":
        per_row = F.div_number(per_row, rows)
    grad = F.mul(F.unsqueeze(per_row, 1), F.constant_like(a, picked))
    # torch's kernel reads the input: the gradient stays connected to it, a zero derivative
    return F.link(grad, a) if "nll_loss" in a._policy.zero_derivative_links else grad


def var_grad(g: Any, a: Any, dims: tuple[int, ...], correction: int, keepdim: bool) -> Any:
    """torch's var_backward: ``2 / (n - correction) * g * (a - mean(a))``."""
    shape = a._data.shape
    if not keepdim:
        g = restore_reduced(g, shape, dims)
    count = reduce_count(shape, dims)
    return F.mul(F.mul(g, 2.0 / (count - correction)), F.sub(a, F.mean(a, dims, True)))


def np_scatter_add(a: np.ndarray, shape: tuple[int, ...], dim: int,
                    index: np.ndarray) -> np.ndarray:
    out = np.zeros(shape, a.dtype)
    grids = np.indices(index.shape)
    np.add.at(out, tuple(index if d == dim else grids[d] for d in range(len(shape))), a)
    return out


def differentiated_twice(g: Any) -> Any:
    raise g._policy.error("differentiated_twice")


def np_setitem(a: np.ndarray, b: np.ndarray, index: Any) -> np.ndarray:
    out = a.copy()
    slot = out[index]
    while b.ndim > np.ndim(slot) and b.shape[0] == 1:  # both frameworks drop leading 1s
        b = b[0]
    out[index] = b
    return out


def setitem_mask(shape: tuple[int, ...], index: Any) -> np.ndarray:
    mask = np.ones(shape, dtype=bool)
    mask[index] = False
    return mask


# --- linear algebra (torch's FunctionsManual formulas, in engine operations) ---------------

def matrix_transpose(a: Any) -> Any:
    """The last two dimensions swapped: ``A.mH`` of a real matrix (batch)."""
    return F.transpose(a, -2, -1)


def is_vector_rhs(a_shape: tuple[int, ...], b_shape: tuple[int, ...]) -> bool:
    """Whether both frameworks read solve's right-hand side as vectors: 1-D, or a batch of
    vectors (``A``'s shape less its last dimension)."""
    return len(b_shape) == 1 or (len(b_shape) == len(a_shape) - 1 and b_shape == a_shape[:-1])


def np_solve(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``A⁻¹B`` for a square ``a`` (batch); vectors as ``is_vector_rhs`` reads them."""
    if is_vector_rhs(a.shape, b.shape):
        return np.linalg.solve(a, b[..., None])[..., 0]
    return np.linalg.solve(a, b)


def _as_matrix(t: Any, vector: bool) -> Any:
    return F.unsqueeze(t, -1) if vector else t


def solve_grad_b(g: Any, a: Any) -> Any:
    """``gB = A⁻ᴴ gX``: one solve with the transposed matrix (torch's create_graph branch)."""
    vector = is_vector_rhs(a._data.shape, g._data.shape)
    gb = F.linalg_solve(matrix_transpose(a), _as_matrix(g, vector))
    return F.squeeze(gb, -1) if vector else gb


def solve_grad_a(g: Any, a: Any, result: Any) -> Any:
    """``gA = -gB Xᴴ``."""
    vector = is_vector_rhs(a._data.shape, g._data.shape)
    gb = F.linalg_solve(matrix_transpose(a), _as_matrix(g, vector))
    return F.neg(F.matmul(gb, matrix_transpose(_as_matrix(result, vector))))


def identity_scaled(a: Any, d: Any) -> Any:
    """``d[..., None, None] * I`` of ``a``'s matrix size: the right-hand side det's and
    slogdet's derivatives solve for."""
    eye = F.constant_like(a, np.eye(a._data.shape[-1], dtype=a._data.dtype))
    return F.mul(F.unsqueeze(F.unsqueeze(d, -1), -2), eye)


def inverse_grad(g: Any, result: Any) -> Any:
    """``-A⁻ᴴ g A⁻ᴴ``."""
    inverse_t = matrix_transpose(result)
    return F.neg(F.matmul(inverse_t, F.matmul(g, inverse_t)))


def cholesky_grad(g: Any, result: Any) -> Any:
    """torch's cholesky_backward for ``A = L Lᴴ``: ``tril(Lᴴ gL)`` made Hermitian (its diagonal
    once), then ``L⁻ᴴ (·) L⁻¹`` by two solves."""
    lower_t = matrix_transpose(result)
    inner = C.triangle(F.matmul(lower_t, g), 0, lower=True)
    inner = F.mul(F.add(inner, matrix_transpose(C.triangle(inner, -1, lower=True))), 0.5)
    left = F.linalg_solve(lower_t, inner)
    return matrix_transpose(F.linalg_solve(lower_t, matrix_transpose(left)))


def np_cholesky(a: np.ndarray) -> np.ndarray:
    """The lower Cholesky factor; a matrix that is not positive-definite raises (the caller checks
    first, with the framework's error)."""
    return np.linalg.cholesky(a).astype(a.dtype)


def np_affine_grid(theta: np.ndarray, base: np.ndarray, size: tuple[int, ...]) -> np.ndarray:
    """(N, H, W, 2) points: ``base`` (H·W, 3) times each thetaᵀ (N, 3, 2)."""
    n, _, h, w = size
    return np.matmul(base, np.swapaxes(theta, 1, 2)).reshape(n, h, w, 2).astype(theta.dtype)


def affine_grid_grad(g: Any, base: np.ndarray) -> Any:
    """theta's gradient (N, 2, 3): ``(baseᵀ g)ᵀ`` for each batch entry's (H·W, 2) gradient."""
    n = g._data.shape[0]
    flat = F.reshape(g, (n, -1, 2))
    points = F.constant_like(g, np.broadcast_to(base.T, (n, *base.T.shape)).astype(g._data.dtype))
    return F.transpose(F.matmul(points, flat), 1, 2)


# --- factorizations (one node, several outputs: ``ops.factorization``), torch's formulas ----------

def _eye(like: Any, size: int) -> Any:
    return F.constant_like(like, np.eye(size, dtype=like._data.dtype))


def diagonal_matrices(v: Any) -> Any:
    """``diag_embed(v)``: each vector of the last dimension on a square matrix's diagonal."""
    return F.mul(F.unsqueeze(v, -1), _eye(v, v._data.shape[-1]))


def _reached(grads: list[Any]) -> list[Any]:
    """Each output's gradient, None where none arrived."""
    return [g if isinstance(g, recorder.tensor_type()) else None for g in grads]


def eigh_grad(grads: list[Any], eigenvalues: Any, eigenvectors: Any) -> Any:
    """``A = V diag(L) Vᴴ``: ``V (skew(VᴴgV) / E + diag(gL)) Vᴴ``, ``E_ij = L_j - L_i`` (ones on
    the diagonal); with no gradient for V, ``V diag(gL) Vᴴ``."""
    g_values, g_vectors = _reached(grads)
    vectors_t = matrix_transpose(eigenvectors)
    if g_vectors is None:
        return F.matmul(F.mul(eigenvectors, F.unsqueeze(g_values, -2)), vectors_t)
    size = eigenvalues._data.shape[-1]
    projected = F.matmul(vectors_t, g_vectors)
    projected = F.mul(F.sub(projected, matrix_transpose(projected)), 0.5)
    gaps = F.add(F.sub(F.unsqueeze(eigenvalues, -2), F.unsqueeze(eigenvalues, -1)), _eye(eigenvalues, size))
    inner = F.div(projected, gaps)
    if g_values is not None:
        off_diagonal = F.constant_like(inner, 1 - np.eye(size, dtype=inner._data.dtype))
        inner = F.add(F.mul(inner, off_diagonal), diagonal_matrices(g_values))
    return F.matmul(eigenvectors, F.matmul(inner, vectors_t))


def _narrowed(t: Any, dim: int, size: int) -> Any:
    index = (Ellipsis, slice(0, size)) if dim == -1 else (Ellipsis, slice(0, size), slice(None))
    return F.getitem(t, index)


def svd_grad(grads: list[Any], u: Any, s: Any, vh: Any, full_matrices: bool) -> Any:
    """``A = u diag(s) vh`` (a full factorization's extra columns of u and rows of vh dropped
    first): torch's svd_backward."""
    g_u, g_s, g_vh = _reached(grads)
    k = s._data.shape[-1]
    if full_matrices:
        u, vh = _narrowed(u, -1, k), _narrowed(vh, -2, k)
        g_u = None if g_u is None else _narrowed(g_u, -1, k)
        g_vh = None if g_vh is None else _narrowed(g_vh, -2, k)
    m, n = u._data.shape[-2], vh._data.shape[-1]
    if g_u is None and g_vh is None:
        return F.matmul(u, F.mul(F.unsqueeze(g_s, -1), vh)) if m >= n else \
            F.matmul(F.mul(u, F.unsqueeze(g_s, -2)), vh)

    def skew(x: Any) -> Any:
        return F.sub(x, matrix_transpose(x))

    u_part = None if g_u is None else skew(F.matmul(matrix_transpose(u), g_u))
    v_part = None if g_vh is None else skew(F.matmul(vh, matrix_transpose(g_vh)))
    squares = F.mul(s, s)
    gaps = F.add(F.sub(F.unsqueeze(squares, -2), F.unsqueeze(squares, -1)), _eye(s, k))
    if u_part is not None and v_part is not None:
        inner = F.div(F.add(F.mul(u_part, F.unsqueeze(s, -2)), F.mul(F.unsqueeze(s, -1), v_part)), gaps)
    elif u_part is not None:
        inner = F.mul(F.div(u_part, gaps), F.unsqueeze(s, -2))
    else:
        inner = F.mul(F.unsqueeze(s, -1), F.div(v_part, gaps))
    if g_s is not None:
        inner = F.add(inner, diagonal_matrices(g_s))
    if m > n and g_u is not None:
        out = F.matmul(u, inner)
        scaled = F.div(g_u, F.unsqueeze(s, -2))
        out = F.sub(F.add(out, scaled), F.matmul(u, F.matmul(matrix_transpose(u), scaled)))
        return F.matmul(out, vh)
    if m < n and g_vh is not None:
        out = F.matmul(inner, vh)
        scaled = F.div(g_vh, F.unsqueeze(s, -1))
        out = F.sub(F.add(out, scaled), F.matmul(F.matmul(scaled, matrix_transpose(vh)), vh))
        return F.matmul(u, out)
    return F.matmul(u, F.matmul(inner, vh)) if m >= n else F.matmul(F.matmul(u, inner), vh)


def qr_grad(grads: list[Any], q: Any, r: Any, mode: str) -> Any:
    """``A = q r``, reduced (or complete with no more rows than columns): torch's
    linalg_qr_backward."""
    g_q, g_r = _reached(grads)
    if mode == "r":
        raise q._policy.error("qr_not_differentiable_r")
    m, n = q._data.shape[-2], r._data.shape[-1]
    if mode == "complete" and m > n:
        raise q._policy.error("qr_not_differentiable_tall", m=m, n=n)
    if g_q is not None:
        product = F.neg(F.matmul(matrix_transpose(q), g_q))
        inner = product if g_r is None else F.add(F.matmul(g_r, matrix_transpose(r)), product)
    else:
        inner = F.matmul(g_r, matrix_transpose(r))
    if m >= n:
        upper = C.triangle(inner, 0, lower=False)
        symmetric = F.add(upper, matrix_transpose(upper))
        rank = symmetric._data.ndim
        halved = F.mul(C.diagonal(symmetric, 0, rank - 2, rank - 1), 0.5)
        symmetric = F.sub(symmetric, diagonal_matrices(halved))
        out = F.matmul(q, symmetric)
        if g_q is not None:
            out = F.add(out, g_q)
        return matrix_transpose(F.linalg_solve(r, matrix_transpose(out)))
    negated = F.neg(inner)
    skew = C.triangle(F.sub(negated, matrix_transpose(negated)), 0, lower=True)
    out = F.matmul(q, skew)
    square = F.getitem(r, (Ellipsis, slice(0, m)))
    out = matrix_transpose(F.linalg_solve(square, matrix_transpose(out)))
    zeros = F.constant_like(out, np.zeros((*out._data.shape[:-1], n - m), out._data.dtype))
    out = F.cat([out, zeros], -1)
    return out if g_r is None else F.add(out, F.matmul(q, g_r))


def pinv_grad(g: Any, a: Any, result: Any) -> Any:
    """torch's pinv_backward (the products of the smaller dimension first)."""
    m, n = a._data.shape[-2:]
    pinv_t, g_t = matrix_transpose(result), matrix_transpose(g)
    if m <= n:
        k = F.matmul(g_t, result)
        k_pinv_t = F.matmul(k, pinv_t)
        out = F.add(F.neg(matrix_transpose(F.matmul(result, k))), k_pinv_t)
        out = F.sub(out, F.matmul(F.matmul(a, result), k_pinv_t))
        return F.add(out, F.matmul(F.matmul(pinv_t, result), F.sub(g_t, F.matmul(k, a))))
    k = F.matmul(result, g_t)
    pinv_t_k = F.matmul(pinv_t, k)
    out = F.neg(matrix_transpose(F.matmul(k, result)))
    out = F.add(out, F.matmul(F.matmul(F.sub(g_t, F.matmul(a, k)), result), pinv_t))
    return F.sub(F.add(out, pinv_t_k), F.matmul(F.matmul(pinv_t_k, result), a))


def np_pinv(a: np.ndarray, *, hermitian: bool = False, rtol: Optional[float] = None) -> np.ndarray:
    """The pseudo-inverse, singular values below ``rtol · σ_max`` dropped (None: torch's default,
    ``max(m, n) · eps``)."""
    m, n = a.shape[-2:]
    rcond = max(m, n) * np.finfo(a.dtype).eps if rtol is None else rtol
    return np.linalg.pinv(a, rcond=rcond, hermitian=hermitian).astype(a.dtype)


def det_grad(g: Any, a: Any, result: Any) -> Any:
    """``det(A) g A⁻ᴴ``, as ``solve(Aᴴ, (det·g) I)``."""
    return F.linalg_solve(matrix_transpose(a), identity_scaled(a, F.mul(result, g)))


def logabsdet_grad(g: Any, a: Any) -> Any:
    """``g A⁻ᴴ``, as ``solve(Aᴴ, g I)`` (slogdet's sign has no gradient for real matrices)."""
    return F.linalg_solve(matrix_transpose(a), identity_scaled(a, g))


# --- special functions -----------------------------------------------------------------------

def times_scalar(t: Any, number: float) -> Any:
    """``t · number`` as torch's formulas multiply by a C++ scalar: its ``mul(Tensor, Scalar)``
    overload, MulBackward1 when recorded (a Python number is a wrapped tensor: MulBackward0)."""
    number_tensor = F.constant_like(t, np.asarray(number, t._data.dtype))
    return recorder.apply(RULES["mul"], (t, number_tensor), {"overload": 1})


def np_logit(a: np.ndarray, eps: Optional[float]) -> np.ndarray:
    """``log(z / (1 - z))`` of ``a`` clamped to ``[eps, 1 - eps]`` (no clamp without eps)."""
    z = a if eps is None else np.clip(a, np.asarray(eps, a.dtype), np.asarray(1 - eps, a.dtype))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.log(z / (1 - z))


def logit_grad(g: Any, a: Any, eps: Optional[float]) -> Any:
    """``g / (a (1 - a))`` inside ``[eps, 1 - eps]``; outside it 0, or NaN without eps."""
    low, high = (0.0, 1.0) if eps is None else (eps, 1.0 - eps)
    inside = F.constant_like(a, (a._data >= low) & (a._data <= high))
    outside = F.constant_like(g, np.full((), 0.0 if eps is not None else np.nan, g._data.dtype))
    return F.where(inside, F.div(g, F.mul(a, F.rsub(a, 1.0))), outside)


def inverse_norm_square(a: Any, b: Any) -> Any:
    """``1 / (a² + b²)``: atan2's derivatives share it; 0 where ``a² + b²`` is 0 in a dialect
    whose formula masks it (``Policy.atan2_grad_zero_at_origin``)."""
    square = F.add(F.mul(a, a), F.mul(b, b))
    inverse = F.reciprocal(square)
    if a._policy.atan2_grad_zero_at_origin:
        inverse = F.masked_fill(inverse, square._data == 0, 0.0)
    return inverse


def cumprod_grad(g: Any, a: Any, result: Any, dim: int) -> Any:
    """The running products' derivative where no input is 0: the reversed running sums of
    ``result · g`` divided by the input (torch's formula for that case); an input with zeros
    is refused by name."""
    if a._data.ndim and a._data.shape[dim] == 1:
        return g
    if not a._data.all():
        raise not_supported("cumprod's gradient at an input with zeros", g._policy.dialect)
    return F.div(reverse_cumsum(F.mul(result, g), dim), a)


# --- pixel shuffles ---------------------------------------------------------------------------

def np_pixel_shuffle(a: np.ndarray, factor: int) -> np.ndarray:
    """(*, C·r², H, W) → (*, C, H·r, W·r): each r×r block of channels spread over space."""
    *lead, channels, height, width = a.shape
    c = channels // (factor * factor)
    blocks = a.reshape(*lead, c, factor, factor, height, width)
    n = len(lead)
    order = (*range(n), n, n + 3, n + 1, n + 4, n + 2)
    return np.ascontiguousarray(blocks.transpose(order)).reshape(*lead, c, height * factor, width * factor)


def np_pixel_unshuffle(a: np.ndarray, factor: int) -> np.ndarray:
    """(*, C, H·r, W·r) → (*, C·r², H, W): the inverse of ``np_pixel_shuffle``."""
    *lead, channels, height, width = a.shape
    h, w = height // factor, width // factor
    blocks = a.reshape(*lead, channels, h, factor, w, factor)
    n = len(lead)
    order = (*range(n), n, n + 2, n + 4, n + 1, n + 3)
    return np.ascontiguousarray(blocks.transpose(order)).reshape(*lead, channels * factor * factor, h, w)


def np_softshrink(a: np.ndarray, lambd: float) -> np.ndarray:
    """``a - λ`` above λ, ``a + λ`` below -λ, ``a · 0`` between (a zero of ``a``'s sign)."""
    shift = np.asarray(lambd, a.dtype)
    return np.where(a > shift, a - shift, np.where(a < -shift, a + shift, a * np.zeros((), a.dtype)))

