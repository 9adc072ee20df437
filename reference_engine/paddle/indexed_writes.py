"""paddle's reads and writes at given indices: ``gather_nd``, ``scatter`` (rows overwritten or
accumulated), ``index_add``, ``Tensor.unfold`` (sliding windows), and ``bincount``; each
composed from the engine's indexing (whose derivative scatters the gradient back) and shown
under paddle's node (measured on 3.3.1: gradients, and which kernels have a double grad).
An index out of range is refused by name (paddle's own check is not modelled)."""

from __future__ import annotations

import builtins
from typing import Any, Optional

import numpy as np

from reference_engine import composed as C
from reference_engine import ops as F
from reference_engine import recorder
from reference_engine import rules as R
from reference_engine.graph import as_kernel
from reference_engine.messages import not_supported
from reference_engine.paddle._core import Tensor
from reference_engine.tensor import in_place_method

__all__ = ["bincount", "gather_nd", "index_add", "scatter", "scatter_"]


def _indices(index: Any, sizes: tuple[int, ...], api: str) -> np.ndarray:
    """``index``'s values as int64, each within the size it indexes (negative ones counted from
    the end)."""
    values = np.asarray(getattr(index, "_data", index), np.int64)
    bounds = np.asarray(sizes, np.int64)
    if values.size and ((values >= bounds).any() or (values < -bounds).any()):
        raise not_supported(f"{api} with an index out of range", "paddle")
    return values % bounds if values.size else values


def gather_nd(x: Tensor, index: Tensor, name: Optional[str] = None) -> Tensor:
    """``x`` at the coordinates along ``index``'s last axis (a prefix of ``x``'s axes), the rest
    of ``x``'s axes kept (GatherNdGradNode, with a double grad)."""
    depth = index._data.shape[-1]
    coordinates = _indices(index, x._data.shape[:depth], "gather_nd")
    return C.named(F.getitem(x, tuple(coordinates[..., k] for k in range(depth))), "GatherNdGradNode", x)


def scatter(x: Tensor, index: Tensor, updates: Tensor, overwrite: builtins.bool = True,
            name: Optional[str] = None) -> Tensor:
    """``x`` with its rows at ``index`` replaced by ``updates``' rows (the last of a repeated
    index wins), or with ``overwrite=False`` zeroed and then the rows added up. ``x``'s
    gradient is 0 on those rows; every update row gets the gradient of the row it went to,
    a losing duplicate included (ScatterGradNode; no double grad)."""
    rows = _indices(index, (x._data.shape[0],), "scatter").reshape(-1)
    written = np.zeros(x._data.shape[0], bool)
    written[rows] = True
    mask = F.constant_like(x, np.broadcast_to(written.reshape((-1,) + (1,) * (x._data.ndim - 1)),
                                              x._data.shape).copy())
    with as_kernel("scatter_kernel"):
        placed = F.index_backward(updates, x._data.shape, (rows,))
        if overwrite and len(set(rows.tolist())) < rows.size:
            # the summed rows of a repeated index, corrected to its last row: a constant, so
            # every update row keeps its gradient, as paddle's kernel gives it
            last = np.zeros(x._data.shape, x._data.dtype)
            last[rows] = updates._data
            placed = F.add(placed, F.constant_like(x, last - placed._data))
        out = F.where(mask, placed, x)
    return C.named(out, "ScatterGradNode", x)


def index_add(x: Tensor, index: Tensor, axis: builtins.int, value: Tensor,
              name: Optional[str] = None) -> Tensor:
    """``x`` plus ``value``'s slices along ``axis`` added at the positions ``index`` lists
    (IndexAddGradNode, with a double grad)."""
    axis %= x._data.ndim
    positions = _indices(index, (x._data.shape[axis],), "index_add").reshape(-1)
    placed = F.index_backward(value, x._data.shape, (slice(None),) * axis + (positions,))
    return C.named(F.add(x, placed), "IndexAddGradNode", x)


def unfold(x: Tensor, axis: builtins.int, size: builtins.int, step: builtins.int,
           name: Optional[str] = None) -> Tensor:
    """The windows of ``size`` along ``axis`` every ``step``: that axis counts the windows and a
    new last one holds each window (TensorUnfoldGradNode; no double grad, and where windows
    overlap the gradient of the last one stands: the ``tensor_unfold`` rule)."""
    axis %= x._data.ndim
    length = x._data.shape[axis]
    if not 0 < size <= length or step <= 0:
        raise not_supported("unfold with a size larger than the axis, or a step of 0", "paddle")
    return recorder.apply(R.RULES["tensor_unfold"], (x,),
                          {"axis": axis, "size": size, "step": step, "shape": x._data.shape})


def bincount(x: Tensor, weights: Optional[Tensor] = None, minlength: builtins.int = 0,
             name: Optional[str] = None) -> Tensor:
    """How often each value of a non-negative int tensor occurs (int64), or the sum of its
    ``weights`` (in their dtype); not recorded."""
    counts = np.bincount(x._data.reshape(-1), None if weights is None else weights._data.reshape(-1),
                         minlength)
    dtype = np.int64 if weights is None else weights._data.dtype
    return Tensor._from_array(counts.astype(dtype))


scatter_ = in_place_method("scatter", scatter)  # paddle.scatter_(x, index, updates): x written

TENSOR_METHODS = {"bincount": bincount, "gather_nd": gather_nd, "index_add": index_add, "scatter": scatter,
                  "unfold": unfold, "index_add_": in_place_method("index_add", index_add),
                  "scatter_": scatter_}
