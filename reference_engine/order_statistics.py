"""Order statistics both dialects share: which element along a dimension is the median, the
k-th smallest or the mode, and the sorted values a quantile interpolates between.

NaN sorts last, as in both frameworks' kernels. Where several elements equal the one chosen,
the frameworks' selection kernels (``std::nth_element`` on the CPU) pick one of them in an
order torch documents as not deterministic; the reference picks the first in a stable sort,
so a gradient that flows to the chosen element may land on another of the equal ones.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from reference_engine import ops as F
from reference_engine.messages import not_supported


def kth_positions(data: np.ndarray, dim: int, rank: Any) -> np.ndarray:
    """The position along ``dim`` of each slice's element of sorted rank ``rank`` (an int, or
    an array of one per slice, shaped as the slices with ``dim`` dropped)."""
    order = np.argsort(data, axis=dim, kind="stable")
    ranks = np.expand_dims(np.broadcast_to(rank, _dropped(data.shape, dim)), dim)
    return np.take_along_axis(order, ranks.astype(np.int64), axis=dim).squeeze(dim)


def median_positions(data: np.ndarray, dim: int, ignore_nan: bool) -> np.ndarray:
    """The position of each slice's lower median along ``dim``: over its numbers only
    (``ignore_nan``: a slice of NaNs alone gives its first), or its first NaN where it has one."""
    if data.shape[dim] == 0:
        raise not_supported("a median over an empty dimension")
    nans = np.isnan(data) if data.dtype.kind in "fc" else np.zeros(data.shape, dtype=bool)
    counted = data.shape[dim] - (nans.sum(axis=dim) if ignore_nan else 0)
    positions = kth_positions(data, dim, np.maximum(counted - 1, 0) // 2)
    if not ignore_nan:
        positions = np.where(nans.any(axis=dim), np.argmax(nans, axis=dim), positions)
    return positions


def mode_positions(data: np.ndarray, dim: int) -> np.ndarray:
    """The position along ``dim`` of each slice's most frequent value (the smallest of those as
    frequent): its last occurrence."""
    moved = np.moveaxis(data, dim, -1)
    flat = moved.reshape(-1, moved.shape[-1])
    positions = np.empty(len(flat), dtype=np.int64)
    for i, row in enumerate(flat):
        distinct, counts = np.unique(row, return_counts=True)
        positions[i] = len(row) - 1 - int(np.argmax((row == distinct[np.argmax(counts)])[::-1]))
    return positions.reshape(moved.shape[:-1])


def select(a: Any, dim: int, positions: np.ndarray, keepdim: bool) -> Any:
    """The elements of ``a`` at ``positions`` along ``dim`` (one node: an index), the dimension
    kept as size 1 where ``keepdim``."""
    grid = list(np.indices(positions.shape, sparse=True))
    grid.insert(dim, positions)
    if keepdim:
        grid = [np.expand_dims(g, dim) for g in grid]
    return F.getitem(a, tuple(grid))


def evenly_among_equal(a: Any, value: Any) -> Any:
    """The value ``value`` of ``a``, its gradient shared evenly among the elements equal to it
    (NaN: among the NaNs), as torch's reductions to one element do."""
    data = a._data
    if data.ndim == 0:
        return F.clone(a)
    equal = np.isnan(data) if np.isnan(value) else data == value
    return F.amax(F.getitem(a, equal))


def lower_median(data: np.ndarray, ignore_nan: bool) -> Any:
    """The lower median of all elements (NaN where there is one, unless ``ignore_nan``)."""
    flat = data.reshape(-1)
    if ignore_nan:
        flat = flat[~np.isnan(flat)]
    if flat.size == 0 or np.isnan(flat).any():
        return np.nan
    return np.sort(flat)[(flat.size - 1) // 2]


def _dropped(shape: tuple[int, ...], dim: int) -> tuple[int, ...]:
    return shape[:dim] + shape[dim + 1:]
