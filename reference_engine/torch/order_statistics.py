"""torch's order statistics: ``median`` / ``nanmedian``, ``kthvalue``, ``mode``, ``quantile`` /
``nanquantile`` (each also a Tensor method).

A reduction to one element (``x.median()``) shares its gradient evenly among the elements equal
to the result (MedianBackward0); one along a dimension hands it to the element chosen
(MedianBackward1, KthvalueBackward0, ModeBackward0). ``quantile`` is composed as torch's
kernel composes it: the values sorted, the two ranks around ``q * (n - 1)`` gathered and
interpolated (SortBackward0, GatherBackward0, LerpBackward1, SqueezeBackward4).
"""

from __future__ import annotations

import builtins
from typing import Any, Optional

import numpy as np

from reference_engine import composed as C
from reference_engine import ops as F
from reference_engine import order_statistics as S
from reference_engine.messages import not_supported
from reference_engine.torch import return_types
from reference_engine.torch._core import Tensor, tensor

__all__ = ["kthvalue", "median", "mode", "nanmedian", "nanquantile", "quantile"]


def _dim(input: Tensor, dim: builtins.int) -> builtins.int:  # noqa: A002
    return F.normalize_dim(Tensor, dim, builtins.max(input._data.ndim, 1))


def _along(input: Tensor, dim: builtins.int, positions: np.ndarray, keepdim: builtins.bool,  # noqa: A002
           node: str, result: type) -> Any:
    if input._data.ndim == 0:  # a 0-d tensor is its own statistic, at position 0
        return result(C.named(F.clone(input), node, input), tensor(0))
    values = S.select(input, dim, positions, keepdim)
    index = positions if not keepdim else np.expand_dims(positions, dim)
    return result(C.named(values, node, input), tensor(np.asarray(index, dtype=np.int64)))


def _median(input: Tensor, dim: Optional[builtins.int], keepdim: builtins.bool,  # noqa: A002
            ignore_nan: builtins.bool) -> Any:
    name = "Nanmedian" if ignore_nan else "Median"
    if dim is None:
        value = S.lower_median(input._data, ignore_nan)
        if input._data.size == 0:
            return tensor(np.asarray(np.nan, dtype=input._data.dtype))
        return C.named(S.evenly_among_equal(input, value), f"{name}Backward0", input)
    d = _dim(input, dim)
    positions = S.median_positions(input._data, d, ignore_nan) if input._data.ndim else None
    result = return_types.nanmedian if ignore_nan else return_types.median
    return _along(input, d, positions, keepdim, f"{name}Backward1", result)


def median(input: Tensor, dim: Optional[builtins.int] = None,  # noqa: A002
           keepdim: builtins.bool = False) -> Any:
    """The lower median of all elements (NaN where there is one), or along ``dim`` with the
    position it came from."""
    return _median(input, dim, keepdim, ignore_nan=False)


def nanmedian(input: Tensor, dim: Optional[builtins.int] = None,  # noqa: A002
              keepdim: builtins.bool = False) -> Any:
    """``median`` over the numbers, NaNs left out."""
    return _median(input, dim, keepdim, ignore_nan=True)


def kthvalue(input: Tensor, k: builtins.int, dim: builtins.int = -1,  # noqa: A002
             keepdim: builtins.bool = False) -> Any:
    """The ``k``-th smallest element along ``dim`` (from 1) and its position."""
    d = _dim(input, dim)
    size = input._data.shape[d] if input._data.ndim else 1
    if not 1 <= k <= size:
        raise not_supported(f"kthvalue with k={k} for a dimension of size {size}")
    positions = S.kth_positions(input._data, d, k - 1) if input._data.ndim else None
    return _along(input, d, positions, keepdim, "KthvalueBackward0", return_types.kthvalue)


def mode(input: Tensor, dim: builtins.int = -1, keepdim: builtins.bool = False) -> Any:  # noqa: A002
    """The most frequent element along ``dim`` (the smallest of those as frequent) and the
    position of its last occurrence."""
    d = _dim(input, dim)
    positions = S.mode_positions(input._data, d) if input._data.ndim else None
    return _along(input, d, positions, keepdim, "ModeBackward0", return_types.mode)


def _quantile(input: Tensor, q: Any, dim: Optional[builtins.int], keepdim: builtins.bool,  # noqa: A002
              interpolation: str, ignore_nan: builtins.bool) -> Tensor:
    if interpolation not in ("linear", "lower", "higher", "midpoint", "nearest"):
        raise not_supported(f"quantile's interpolation {interpolation!r}")
    qs = np.asarray(q._data if isinstance(q, Tensor) else q, dtype=np.float64)
    if ((qs < 0) | (qs > 1)).any():
        raise not_supported("a quantile outside [0, 1]")
    shape = input._data.shape
    if dim is None:
        sorted_values = _sorted(F.flatten(input))
        reduced = (1,) * len(shape) if keepdim else ()
    else:
        d = _dim(input, dim)
        last = d == len(shape) - 1 or not shape
        sorted_values = _sorted(input if last else F.transpose(F.unsqueeze(input, -1), d, -1))
        reduced = tuple(1 if i == d else n for i, n in enumerate(shape)) if keepdim else \
            shape[:d] + shape[d + 1:]
    sorted_values = F.reshape(sorted_values, reduced + (sorted_values._data.shape[-1:] or (1,)))
    data = sorted_values._data
    last = data.shape[-1] - 1
    nans = np.isnan(data)
    if ignore_nan:  # the last number's rank, per slice
        last_rank = np.maximum(last - nans.sum(-1, keepdims=True), 0)
    else:
        last_rank = np.full(data.shape[:-1] + (1,), last)
    ranks = np.broadcast_to(qs.reshape((1,) * (data.ndim - 1) + (-1,)) * last_rank,
                            data.shape[:-1] + (qs.size,))
    if not ignore_nan:
        ranks = np.where(nans.any(-1, keepdims=True), last, ranks)
    if interpolation in ("lower", "higher", "nearest"):
        ranks = {"lower": np.floor, "higher": np.ceil, "nearest": np.round}[interpolation](ranks)
    below = np.floor(ranks).astype(np.int64) if interpolation in ("linear", "midpoint") \
        else ranks.astype(np.int64)
    values = F.gather(sorted_values, data.ndim - 1, below)
    if interpolation in ("linear", "midpoint"):
        above = F.gather(sorted_values, data.ndim - 1, np.ceil(ranks).astype(np.int64))
        weights = np.full(ranks.shape, 0.5) if interpolation == "midpoint" else ranks - below
        values = C.named(C.lerp(values, above, tensor(weights.astype(data.dtype))), "LerpBackward1")
    if qs.ndim == 0:
        out = C.named(F.squeeze(values, -1), "SqueezeBackward4")
    else:
        out = C.named(F.squeeze(F.transpose(F.unsqueeze(values, 0), 0, -1), -1), "SqueezeBackward4")
    return out


def _sorted(a: Tensor) -> Tensor:
    """``a`` sorted along its last dimension (SortBackward0)."""
    if a._data.ndim == 0:
        return C.named(F.clone(a), "SortBackward0", a)
    last = a._data.ndim - 1
    return C.named(C.take_along(a, last, C.sorted_positions(a, last, False)), "SortBackward0", a)


def quantile(input: Tensor, q: Any, dim: Optional[builtins.int] = None,  # noqa: A002
             keepdim: builtins.bool = False, *, interpolation: str = "linear") -> Tensor:
    """The ``q``-th quantiles (a number or a 1-d tensor of them) over all elements or along
    ``dim``; NaN where a slice has one."""
    return _quantile(input, q, dim, keepdim, interpolation, ignore_nan=False)


def nanquantile(input: Tensor, q: Any, dim: Optional[builtins.int] = None,  # noqa: A002
                keepdim: builtins.bool = False, *, interpolation: str = "linear") -> Tensor:
    """``quantile`` over the numbers, NaNs left out."""
    return _quantile(input, q, dim, keepdim, interpolation, ignore_nan=True)


TENSOR_METHODS = {name: globals()[name] for name in __all__}
