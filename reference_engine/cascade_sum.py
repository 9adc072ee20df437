"""Sums in the order torch's CPU sum kernel adds them, so that a float32 loss is torch's to the bit.

numpy adds float32 pairwise; torch's ``sum`` (and ``mean``, which is that sum divided by the
count) runs ``cascade_sum`` (ATen's ``SumKernel.cpp``), which adds in float32 too but in another
order, so the two differ in the last bits of about half of all sums. A printed ``loss.item()``,
an ``==`` between two sums, an exact zero a later op divides by: each sees those bits. This
module adds in torch's order, on one thread (as the conformance run's torch does; a reduction
of at least 32768 elements on several threads splits differently):

1. **The loop.** As ``TensorIterator`` lays a reduction out: dimensions of size 1 dropped, the
   reduced ones first, each group ordered by the input's strides (smallest first), neighbours
   whose strides chain merged into one. The first two dimensions form the inner loop; every
   further one is an outer loop whose sums are added to the output one after another.
2. **The inner loop** picks one of four paths by its strides: a contiguous reduced dimension of
   at least one vector adds whole vectors (``vectorized_inner_sum``), a contiguous kept
   dimension of at least one vector adds rows of vectors (``vectorized_outer_sum``), otherwise
   scalars row by row or four columns at a time.
3. **A row** is added as four interleaved running sums (``row_sum``), each a cascade of up to
   four levels of blocks of 16 (``multi_row_sum``), so that only sums of similar size meet.

The vector is 256 bits wide (8 float32 or 4 float64 lanes): measured so on an AVX-512 machine,
where torch's softmax kernels use 512 (``kernel_order``). Measured bit for bit against torch 2.13
on one thread (``tests/test_cascade_sum.py``)."""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from reference_engine.dialects.torch_layout import compare_by_strides, reorder_dimensions
from reference_engine.recorder import row_major_strides

__all__ = ["torch_sum", "torch_mean"]

_VECTOR_BYTES = 32
_INTERLEAVED = 4  # row_sum's running sums, and the rows multi_row_sum adds at once
_LEVELS = 4


class _Dim(NamedTuple):
    size: int
    in_stride: int
    out_stride: int  # 0: reduced


def torch_sum(a: np.ndarray, dims: tuple[int, ...], keepdim: bool) -> np.ndarray:
    """``a`` summed over ``dims`` as torch's CPU kernel adds it (float32 and float64; other
    dtypes, and empty inputs, as numpy adds them: exactly, or with nothing to order)."""
    if a.dtype not in (np.float32, np.float64) or a.size == 0 or not dims:
        return np.add.reduce(a, axis=dims, keepdims=keepdim)
    dims = tuple(sorted(d % a.ndim for d in dims))
    plan = _plan(a.shape, a.strides, a.itemsize, dims)
    total = _laid_out_sum(a, plan)
    if keepdim:
        return total.reshape([1 if d in dims else n for d, n in enumerate(a.shape)])
    return total.reshape([n for d, n in enumerate(a.shape) if d not in dims])


def torch_mean(a: np.ndarray, dims: tuple[int, ...], keepdim: bool) -> np.ndarray:
    """torch's CPU ``mean``: the sum above divided by the count, in the input's dtype."""
    count = 1
    for d in dims:
        count *= a.shape[d]
    total = torch_sum(a, dims, keepdim)
    return (total / np.asarray(count, total.dtype)).astype(total.dtype, copy=False)


class _Plan(NamedTuple):
    """How ``TensorIterator`` loops over one input layout: the input's axes in loop order
    (slowest first, as numpy's transpose takes them), the loop's dimensions (fastest first),
    and the kept axes in the order the loop's result holds them."""

    order: tuple[int, ...]
    layout: tuple[_Dim, ...]
    kept_axes: tuple[int, ...]
    transposed: bool


def _laid_out_sum(a: np.ndarray, plan: _Plan) -> np.ndarray:
    """The sum as ``TensorIterator`` loops over it: the inner loop's partial sums, then those
    of the reduced outer dimensions added in the order the loop visits them. The result's axes
    are the kept ones in the input's order (those of size 1 dropped)."""
    layout = plan.layout
    values = (np.transpose(a, plan.order) if plan.transposed else a).reshape([d.size for d in layout[::-1]])
    if layout[0].out_stride:  # only axes of size 1 reduced: each element is its own sum
        inner = values
    elif len(layout) == 1:
        inner = _inner_loop(values[None], layout[0], _Dim(1, 0, 0), a.itemsize)
    else:
        inner = _inner_loop(values, layout[0], layout[1], a.itemsize)
    outer = layout[2:][::-1]  # slowest first, as inner's leading axes are
    summed = [i for i, d in enumerate(outer) if not d.out_stride]
    if summed:
        kept = [i for i, d in enumerate(outer) if d.out_stride]
        inner = np.transpose(inner, kept + summed + list(range(len(outer), inner.ndim)))
        inner = inner.reshape([outer[i].size for i in kept] + [-1] + list(inner.shape[len(outer):]))
        inner = _in_turn(inner, len(kept))
    if plan.transposed:  # back from the loop's order of the kept axes to the input's
        inner = np.transpose(inner.reshape([a.shape[d] for d in plan.kept_axes]), np.argsort(plan.kept_axes))
    return inner + _ZERO[a.dtype.char]


@functools.lru_cache(maxsize=4096)
def _plan(shape: tuple[int, ...], strides: tuple[int, ...], item: int, dims: tuple[int, ...]) -> _Plan:
    """``TensorIterator``'s loop over an input of this layout reduced over ``dims``: its
    dimensions sorted (reduced first, then by the output's and the input's strides) and merged
    where their strides chain; axes of size 1 are in none."""
    out_strides = row_major_strides([1 if d in dims else n for d, n in enumerate(shape)], item)

    def out_stride(d: int) -> int:
        return 0 if d in dims else out_strides[d]

    operands = ([out_stride(d) for d in range(len(shape))], strides)

    def after(d0: int, d1: int) -> int:
        """TensorIterator's ``should_swap`` for a reduction: reduced dimensions first."""
        if (out_stride(d0) == 0) != (out_stride(d1) == 0):
            return 1 if out_stride(d1) == 0 else -1
        return compare_by_strides(operands, shape, d0, d1)

    axes = reorder_dimensions([d for d in reversed(range(len(shape))) if shape[d] != 1], after)
    groups: list[list[int]] = [[]]
    layout = [_Dim(1, item, 0)]
    if axes:
        groups = [[axes[0]]]
        layout = [_Dim(shape[axes[0]], strides[axes[0]], out_stride(axes[0]))]
    for d in axes[1:]:
        last = layout[-1]
        if last.size * last.in_stride == strides[d] and last.size * last.out_stride == out_stride(d):
            layout[-1] = _Dim(last.size * shape[d], last.in_stride, last.out_stride)
            groups[-1].append(d)
        else:
            layout.append(_Dim(shape[d], strides[d], out_stride(d)))
            groups.append([d])
    fastest_first = [d for group in groups for d in group]
    order = tuple([d for d in range(len(shape)) if d not in fastest_first] + fastest_first[::-1])
    kept_axes = tuple(d for i in reversed(range(len(layout))) if layout[i].out_stride
                      for d in reversed(groups[i]))
    return _Plan(order, tuple(layout), kept_axes, order != tuple(range(len(shape))))


def _inner_loop(values: np.ndarray, d0: _Dim, d1: _Dim, item: int) -> np.ndarray:
    """The 2-D loop's result for every outer index: values' last two axes are (d1, d0), d0
    reduced."""
    lanes = _VECTOR_BYTES // item
    if d0.in_stride == item and d0.size >= lanes:
        rows = _vector_rows(values, lanes)
    elif d1.in_stride == item and d1.size >= lanes:
        rows = _vector_columns(values, lanes)
    elif d0.in_stride < d1.in_stride:
        rows = _row_sum(values)
    else:
        rows = _scalar_columns(values)
    if d1.out_stride:
        return rows
    return _in_turn(rows, -1)


def _vector_rows(values: np.ndarray, lanes: int) -> np.ndarray:
    """``vectorized_inner_sum``: each row's whole vectors as a row_sum of vectors, lane by lane;
    then the leftover scalars and the lanes, one after another."""
    count = values.shape[-1]
    vectors = count // lanes
    lanes_sum = _row_sum(np.swapaxes(values[..., :vectors * lanes].reshape(
        values.shape[:-1] + (vectors, lanes)), -1, -2))
    return _in_turn(np.concatenate([values[..., vectors * lanes:], lanes_sum], axis=-1), -1)


def _vector_columns(values: np.ndarray, lanes: int) -> np.ndarray:
    """``vectorized_outer_sum``: the reduction runs down columns (values' axis -1 is reduced,
    axis -2 the contiguous kept one); columns in groups of four vectors are cascaded one row
    after another, the rest added as row sums."""
    return _cascaded_then_row_sums(values, _INTERLEAVED * lanes)


def _scalar_columns(values: np.ndarray) -> np.ndarray:
    """``scalar_outer_sum``: four columns at a time cascaded row after row, the rest as row sums."""
    return _cascaded_then_row_sums(values, _INTERLEAVED)


def _cascaded_then_row_sums(values: np.ndarray, group: int) -> np.ndarray:
    """Columns (values' axis -2) in whole groups of ``group`` cascaded down the reduced axis
    (-1), the rest added as row sums."""
    grouped = values.shape[-2] // group * group
    if not grouped:
        return _row_sum(values)
    head = _cascade(np.swapaxes(values[..., :grouped, :], -1, -2))
    if grouped == values.shape[-2]:
        return head
    return np.concatenate([head, _row_sum(values[..., grouped:, :])], axis=-1)


def _row_sum(rows: np.ndarray) -> np.ndarray:
    """``row_sum`` along the last axis: four interleaved cascades, the leftover elements added
    to the first, then the four added first to last."""
    count = rows.shape[-1]
    whole = count // _INTERLEAVED
    if not whole:  # the four running sums are zeros: the leftovers in turn
        return _in_turn(rows, -1)
    partial = _cascade(rows[..., :whole * _INTERLEAVED].reshape(rows.shape[:-1] + (whole, _INTERLEAVED)))
    total = partial[..., 0]
    for i in range(whole * _INTERLEAVED, count):
        total = total + rows[..., i]
    for k in range(1, _INTERLEAVED):
        total = total + partial[..., k]
    return total


def _cascade(rows: np.ndarray) -> np.ndarray:
    """``multi_row_sum`` down axis -2 for each column of the last: blocks of ``2**p`` added in
    turn, each level's sums carried to the next when a block of blocks is complete, then the
    leftovers and the four levels added lowest first."""
    size = rows.shape[-2]
    step = 1 << max(4, _ceil_log2(size) // _LEVELS)
    if size < step:  # no block complete: one running sum
        return _in_turn(rows, -2)
    level_sums = []
    carry = rows
    for _ in range(_LEVELS - 1):
        whole = carry.shape[-2] // step
        level_sums.append(_in_turn(carry[..., whole * step:, :], -2))
        blocks = carry[..., :whole * step, :].reshape(carry.shape[:-2] + (whole, step, carry.shape[-1]))
        carry = _in_turn(blocks, -2)
    total = level_sums[0]
    for level in (*level_sums[1:], _in_turn(carry, -2)):
        total = total + level
    return total


def _in_turn(terms: np.ndarray, axis: int) -> np.ndarray:
    """The terms along ``axis`` (-1 or -2, or a leading axis) added first to last, onto 0 as
    the kernel starts."""
    axis = axis if axis < 0 else axis - terms.ndim
    if terms.shape[axis] == 0:
        return np.zeros(terms.shape[:axis] + (terms.shape[axis + 1:] if axis < -1 else ()), terms.dtype)
    last = (Ellipsis, -1) + (slice(None),) * (-1 - axis)
    if terms.shape[axis] == 1:
        return terms[last] + _ZERO[terms.dtype.char]
    return terms.cumsum(axis)[last] + _ZERO[terms.dtype.char]


_ZERO = {"f": np.float32(0), "d": np.float64(0)}


def _ceil_log2(n: int) -> int:
    return 0 if n <= 1 else (n - 1).bit_length()


def nll_loss_total(losses: np.ndarray) -> np.ndarray:
    """The sum of a batch's losses as torch's CPU ``nll_loss`` adds them (``nll_loss_out_frame``):
    each subtracted from the lowest of eight running sums; after sample ``b``, every level whose
    block ``b`` starts (blocks of ``2**p`` samples per level) is carried to the next; the levels
    added lowest first at the end. ``losses`` are the samples' ``-log p``, in batch order."""
    size = losses.shape[0]
    levels = 8
    power = max(4, _ceil_log2(size) // levels)
    mask = (1 << power) - 1
    sums = [losses.dtype.type(0)] * levels
    for b, loss in enumerate(losses):
        sums[0] = sums[0] + loss
        for j in range(levels - 1):
            if b & (mask << (j * power)):
                break
            sums[j + 1] = sums[j + 1] + sums[j]
            sums[j] = losses.dtype.type(0)
    total = losses.dtype.type(0)
    for level in sums:
        total = total + level
    return np.asarray(total)
