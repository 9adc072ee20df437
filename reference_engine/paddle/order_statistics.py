"""paddle's order statistics: ``median`` / ``nanmedian`` (modes ``avg`` and ``min``),
``kthvalue``, ``mode`` and ``quantile`` / ``nanquantile`` (each also a Tensor method).

paddle's median kernel hands its gradient out "evenly" unless it reduces one axis in mode
``min``: the elements it took the median from are set to the median, and the gradient is shared
among the elements then equal to it (``[1, 1, 2, 3]`` gives 0.5 to the first 1 and the 2;
``[1, 2, 2]`` 0.5 to each 2). Which of several equal elements the kernel took is its selection
order; the reference takes the first occurrence of the lower middle value and the last of the
upper one, as measured on paddle 3.3.1. ``quantile`` is composed as paddle's Python composes it:
ranks ``q * (count - 1)`` in the input's dtype, the sorted values gathered and interpolated.
"""

from __future__ import annotations

import builtins
from typing import Any, Optional

import numpy as np

from reference_engine import composed as C
from reference_engine import ops as F
from reference_engine import order_statistics as S
from reference_engine.paddle import extras, more_ops, tensor_functions
from reference_engine.paddle._core import PADDLE, Tensor, full_like, squeeze, stack, to_tensor, where

__all__ = ["kthvalue", "median", "mode", "nanmedian", "nanquantile", "quantile"]


def _axis(x: Tensor, axis: Any, error: str) -> builtins.int:
    """``axis`` in ``[0, ndim)``; out of range, the error each API raises."""
    ndim = builtins.max(x._data.ndim, 1)
    if not isinstance(axis, builtins.int) or not -ndim <= axis < ndim:
        raise PADDLE.error(error, ndim=ndim, axis=axis)
    return axis % ndim


def _middles(data: np.ndarray, ignore_nan: builtins.bool) -> tuple[np.ndarray, np.ndarray]:
    """The positions along the last axis of each row's lower and upper middle elements (the
    first occurrence of the lower value, the last of the upper one); -1 for a row without
    numbers."""
    lower, upper = np.full(data.shape[:-1], -1), np.full(data.shape[:-1], -1)
    for index in np.ndindex(*data.shape[:-1]):
        row = data[index]
        numbers = np.flatnonzero(~np.isnan(row)) if ignore_nan else np.arange(row.size)
        if numbers.size == 0 or (not ignore_nan and np.isnan(row).any()):
            continue
        ordered = np.sort(row[numbers])
        low, high = ordered[(numbers.size - 1) // 2], ordered[numbers.size // 2]
        lower[index] = numbers[np.flatnonzero(row[numbers] == low)[0]]
        upper[index] = numbers[np.flatnonzero(row[numbers] == high)[-1]]
    return lower, upper


def _median(x: Tensor, axis: Any, keepdim: builtins.bool, mode: str, ignore_nan: builtins.bool) -> Any:
    name = "Nanmedian" if ignore_nan else "Median"
    error = "nanmedian_axis" if ignore_nan else "median_axis"
    if mode not in ("avg", "min"):
        raise PADDLE.error("median_mode", mode=mode)
    if x._data.ndim == 0 and axis not in (None, 0, -1):
        raise PADDLE.error(error, ndim=0, axis=axis)
    if mode == "avg" and x._data.dtype != np.float64:
        x = x.astype("float32")
    whole = axis is None or x._data.ndim == 0
    d = -1 if whole else _axis(x, axis, error)
    rows = np.moveaxis(x._data.reshape(-1) if whole else x._data, d, -1)
    lower, upper = _middles(rows, ignore_nan)
    picked = [np.take_along_axis(rows, np.maximum(p, 0)[..., None], -1)[..., 0] for p in (lower, upper)]
    valid = lower >= 0
    if mode == "avg":
        values = np.where(valid, (picked[0] + picked[1]) / 2, np.nan).astype(rows.dtype)
    else:
        values = np.where(valid, picked[0], np.nan if rows.dtype.kind == "f" else picked[0])
    if mode == "min" and not whole:  # the gradient goes to the element taken
        positions = np.where(valid, lower, np.argmax(np.isnan(rows), axis=-1) if rows.dtype.kind == "f"
                             else lower)
        out = C.named(S.select(x, d, positions, keepdim), f"{name}GradNode", x)
        index = positions if not keepdim else np.expand_dims(positions, d)
        return out, to_tensor(np.asarray(index, dtype=np.int64))
    shape = () if whole else values.shape
    if keepdim:
        shape = (1,) * x._data.ndim if whole else tuple(np.expand_dims(values, d).shape)
    if rows.dtype.kind != "f":  # (no gradient to hand out)
        return to_tensor(values.reshape(shape))
    weights = _even_weights(rows, values, lower, upper, mode == "avg")
    return C.named(_with_gradient(x, values.reshape(shape), np.moveaxis(weights, -1, d) if not whole
                                  else weights.reshape(x._data.shape), None if whole else d, keepdim),
                   f"{name}GradNode", x)


def _even_weights(rows: np.ndarray, values: np.ndarray, lower: np.ndarray, upper: np.ndarray,
                  overwrite: builtins.bool) -> np.ndarray:
    """The share of the gradient each element gets: evenly among the elements equal to the
    median once the two it came from are set to it (``overwrite``, mode avg)."""
    marked = rows.copy()
    if overwrite:
        for p in (lower, upper):
            valid = p >= 0
            np.put_along_axis(marked, np.maximum(p, 0)[..., None],
                              np.where(valid, values, np.take_along_axis(marked, np.maximum(p, 0)[..., None],
                                                                         -1)[..., 0])[..., None], -1)
    equal = marked == values[..., None]
    counts = equal.sum(-1, keepdims=True)
    return np.where(equal, 1.0 / np.maximum(counts, 1), 0.0).astype(rows.dtype)


def _with_gradient(x: Tensor, values: np.ndarray, weights: np.ndarray, axis: Optional[builtins.int],
                   keepdim: builtins.bool) -> Tensor:
    """``values``, whose gradient is the incoming one times ``weights``: the weighted sum, less
    itself unrecorded, added to the values (exact: the two sums cancel to 0)."""
    dims = None if axis is None else (axis,)
    taken = F.where(type(x)._from_array(weights != 0), x, 0.0)  # (a NaN left out stays out)
    weighted = F.sum(F.mul(taken, type(x)._from_array(weights)), dims, keepdim and axis is not None)
    if axis is None and keepdim:
        weighted = F.reshape(weighted, values.shape)
    return F.add(type(x)._from_array(values), F.sub(weighted, weighted._detached()))


def median(x: Tensor, axis: Any = None, keepdim: builtins.bool = False, mode: str = "avg",
           name: Optional[str] = None) -> Any:
    """The median of all elements or along ``axis``: the mean of the two middle ones (mode
    ``avg``, in float32 unless float64) or the lower one (``min``, with its position when
    ``axis`` is given); NaN where a slice has one."""
    return _median(x, axis, keepdim, mode, ignore_nan=False)


def nanmedian(x: Tensor, axis: Any = None, keepdim: builtins.bool = False, mode: str = "avg",
              name: Optional[str] = None) -> Any:
    """``median`` over the numbers, NaNs left out."""
    return _median(x, axis, keepdim, mode, ignore_nan=True)


def _selected(x: Tensor, d: builtins.int, positions: np.ndarray, keepdim: builtins.bool, node: str) -> Any:
    if x._data.ndim == 0:
        values = C.named(F.clone(x), node, x)
        return values, C.named(F.link(to_tensor(np.asarray(0, dtype=np.int64)), x), node)
    values = C.named(S.select(x, d, positions, keepdim), node, x)
    index = positions if not keepdim else np.expand_dims(positions, d)
    # the indices are an output of paddle's node too (stop_gradient False, as topk's)
    return values, C.named(F.link(to_tensor(np.asarray(index, dtype=np.int64)), x), node)


def kthvalue(x: Tensor, k: builtins.int, axis: Optional[builtins.int] = None, keepdim: builtins.bool = False,
             name: Optional[str] = None) -> tuple[Tensor, Tensor]:
    """The ``k``-th smallest element along ``axis`` (the last by default) and its position."""
    d = _axis(x, -1 if axis is None else axis, "selection_axis")
    size = x._data.shape[d] if x._data.ndim else 1
    if size < k:
        raise PADDLE.error("kthvalue_k", k=k, axis=d)
    positions = S.kth_positions(x._data, d, k - 1) if x._data.ndim else None
    return _selected(x, d, positions, keepdim, "KthvalueGradNode")


def mode(x: Tensor, axis: builtins.int = -1, keepdim: builtins.bool = False,
         name: Optional[str] = None) -> tuple[Tensor, Tensor]:
    """The most frequent element along ``axis`` (the smallest of those as frequent) and the
    position of its last occurrence."""
    d = _axis(x, axis, "selection_axis")
    positions = S.mode_positions(x._data, d) if x._data.ndim else None
    return _selected(x, d, positions, keepdim, "ModeGradNode")


def _quantile(x: Tensor, q: Any, axis: Any, keepdim: builtins.bool, interpolation: str,
              ignore_nan: builtins.bool) -> Tensor:
    qs = [q] if isinstance(q, (builtins.int, builtins.float)) or (isinstance(q, Tensor) and not q.shape) \
        else list(q)
    if not qs:
        raise PADDLE.error("quantile_q_empty")
    if builtins.any(not 0 <= float(v) <= 1 for v in qs):
        raise PADDLE.error("quantile_q_range")
    if interpolation not in ("linear", "lower", "higher", "nearest", "midpoint"):
        raise PADDLE.error("quantile_interpolation", interpolation=interpolation)
    dims, out_shape = x._data.ndim, list(x._data.shape)
    if axis is None:
        x, axis, out_shape = extras.flatten(x), 0, [1] * dims
    elif isinstance(axis, (list, tuple)):
        sources = [a % dims for a in axis]
        for a in sources:
            out_shape[a] = 1
        targets = list(range(dims - len(sources), dims))
        x = extras.flatten(more_ops.moveaxis(x, sources, targets), targets[0], targets[-1])
        axis = targets[0]
    else:
        axis = _axis(x, axis, "quantile_axis")
        out_shape[axis] = 1
    mask = extras.isnan(x)
    valid_counts = mask.logical_not().sum(axis=axis, keepdim=True)
    indices = []
    for value in qs:
        index = to_tensor(value, dtype=x.dtype) * (valid_counts - 1)
        if not ignore_nan:
            nums = full_like(index, fill_value=x.shape[axis] - 1)
            index = where(extras.any(mask, axis=axis, keepdim=True), nums, index)
        indices.append(index)
    sorted_tensor = extras.sort(x, axis)
    outputs = []
    for index in indices:
        ret = _interpolated(sorted_tensor, index, axis, interpolation, x.dtype)
        outputs.append(squeeze(ret, axis=axis) if not keepdim else ret.reshape(out_shape))
    return stack(outputs, 0) if len(outputs) > 1 else outputs[0]


def _interpolated(sorted_tensor: Tensor, index: Tensor, axis: builtins.int, interpolation: str,
                  dtype: Any) -> Tensor:
    take = tensor_functions.take_along_axis
    if interpolation == "nearest":
        return take(sorted_tensor, extras.round(index).astype("int32"), axis=axis)
    below = extras.floor(index).astype("int32")
    if interpolation == "lower":
        return take(sorted_tensor, below, axis=axis)
    upper = take(sorted_tensor, extras.ceil(index).astype("int32"), axis=axis)
    if interpolation == "higher":
        return upper
    lower = take(sorted_tensor, below, axis=axis)
    if interpolation == "midpoint":
        return (upper.astype(dtype) + lower.astype(dtype)) / 2
    weights = (index - below.astype(index.dtype)).astype(dtype)
    return extras.lerp(lower.astype(dtype), upper.astype(dtype), weights)


def quantile(x: Tensor, q: Any, axis: Any = None, keepdim: builtins.bool = False,
             interpolation: str = "linear", name: Optional[str] = None) -> Tensor:
    """The ``q``-th quantiles (a number, or a list or 1-d tensor of them, stacked first) over all
    elements or along ``axis`` (an int or a list); NaN where a slice has one."""
    return _quantile(x, q, axis, keepdim, interpolation, ignore_nan=False)


def nanquantile(x: Tensor, q: Any, axis: Any = None, keepdim: builtins.bool = False,
                interpolation: str = "linear", name: Optional[str] = None) -> Tensor:
    """``quantile`` over the numbers, NaNs left out."""
    return _quantile(x, q, axis, keepdim, interpolation, ignore_nan=True)


TENSOR_METHODS = {name: globals()[name] for name in __all__}
