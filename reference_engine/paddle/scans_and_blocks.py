"""paddle's running and block functions over the engine's compositions, each under paddle's
node and its measured double-grad limit (3.3.1): ``cummax`` / ``cummin`` (a later equal
entry or a NaN takes over), ``logcumsumexp``, ``kron``, ``heaviside``,
``atleast_1d`` / ``2d`` / ``3d``, and ``put_along_axis`` assigning or adding. Each is also a
Tensor method where paddle has the method."""

from __future__ import annotations

import builtins
from typing import Any, Optional

import numpy as np

from reference_engine import composed as C
from reference_engine import ops as F
from reference_engine.graph import as_kernel
from reference_engine.messages import not_supported
from reference_engine.paddle._core import Tensor
from reference_engine.tensor import in_place_method

__all__ = ["atleast_1d", "atleast_2d", "atleast_3d", "cummax", "cummin", "heaviside", "kron",
           "logcumsumexp", "put_along_axis"]


def _running(x: Tensor, axis: Optional[builtins.int], dtype: Any, better: Any,
             node: str) -> tuple[Tensor, Tensor]:
    source = F.reshape(x, (-1,)) if axis is None else x
    with as_kernel(node):
        values, index = C.running_extreme(source, 0 if axis is None else axis % max(x._data.ndim, 1), better)
    indices = Tensor._from_array(index.astype(np.dtype(str(dtype).split(".")[-1])))
    # the indices are an output of paddle's node too: recorded, though no gradient flows back
    return C.named(values, node, x), C.named(F.link(indices, x), node)


def cummax(x: Tensor, axis: Optional[builtins.int] = None, dtype: Any = "int64",
           name: Optional[str] = None) -> tuple[Tensor, Tensor]:
    """The running maximum and its index (CummaxGradNode, no double grad)."""
    return _running(x, axis, dtype, np.greater_equal, "CummaxGradNode")


def cummin(x: Tensor, axis: Optional[builtins.int] = None, dtype: Any = "int64",
           name: Optional[str] = None) -> tuple[Tensor, Tensor]:
    """The running minimum and its index (CumminGradNode, no double grad)."""
    return _running(x, axis, dtype, np.less_equal, "CumminGradNode")


def logcumsumexp(x: Tensor, axis: Optional[builtins.int] = None, dtype: Any = None,
                 name: Optional[str] = None) -> Tensor:
    """``log(cumsum(exp(x)))`` along ``axis`` (the flattened tensor without one;
    LogcumsumexpGradNode, no double grad)."""
    if dtype is not None:
        x = x.astype(dtype)
    with as_kernel("LogcumsumexpGradNode"):
        out = C.logcumsumexp(F.reshape(x, (-1,)) if axis is None else x, 0 if axis is None else axis)
    return C.named(out, "LogcumsumexpGradNode", x)


def kron(x: Tensor, y: Tensor, name: Optional[str] = None) -> Tensor:
    """Every product of an element of ``x`` with one of ``y``, in blocks (KronGradNode, no
    double grad)."""
    with as_kernel("KronGradNode"):
        out = C.kron(x, y)
    return C.named(out, "KronGradNode", x, y)


def heaviside(x: Tensor, y: Tensor, name: Optional[str] = None) -> Tensor:
    """0 below 0, ``y`` at 0, 1 above (HeavisideGradNode, no double grad): ``x``'s gradient is
    zeros, ``y``'s the incoming one where ``x`` is 0."""
    return F.binary("heaviside", x, y)


def _at_least(ndim: builtins.int, inputs: tuple[Tensor, ...]) -> Any:
    """Each input with leading axes of 1 (a 2-d one as rows, for 3-d: (1, n, 1) for a vector)."""
    def lifted(x: Tensor) -> Tensor:
        shape = x._data.shape
        if len(shape) >= ndim:
            return x
        if ndim == 3 and len(shape) == 1:
            return F.reshape(x, (1, shape[0], 1))
        if ndim == 3 and len(shape) == 2:
            return F.reshape(x, (*shape, 1))
        return F.reshape(x, (1,) * (ndim - len(shape)) + shape)
    out = [lifted(x) for x in inputs]
    return out[0] if len(out) == 1 else out


def atleast_1d(*inputs: Tensor, name: Optional[str] = None) -> Any:
    return _at_least(1, inputs)


def atleast_2d(*inputs: Tensor, name: Optional[str] = None) -> Any:
    return _at_least(2, inputs)


def atleast_3d(*inputs: Tensor, name: Optional[str] = None) -> Any:
    return _at_least(3, inputs)


def put_along_axis(arr: Tensor, indices: Tensor, values: Any, axis: builtins.int, reduce: str = "assign",
                   include_self: builtins.bool = True, broadcast: builtins.bool = True) -> Tensor:
    """``values`` written (``assign``) or added (``add``) into ``arr`` at ``indices`` along
    ``axis``, the indices broadcast over ``arr``'s other axes and the values over the indices
    (PutAlongAxisGradNode). Where it assigns, ``arr``'s gradient is 0; every value gets the
    gradient of the place it went to. paddle's assignment has no double grad (its double-grad
    kernel refuses, measured)."""
    if reduce not in ("assign", "add") or not include_self or not broadcast:
        raise not_supported(f"put_along_axis with reduce={reduce!r}, include_self=False or broadcast=False",
                            "paddle")
    axis %= arr._data.ndim
    target = arr._data.shape[:axis] + (indices._data.shape[axis],) + arr._data.shape[axis + 1:]
    index = np.broadcast_to(np.asarray(indices._data, np.int64), target) % arr._data.shape[axis]
    if not isinstance(values, Tensor):
        values = F.constant_like(arr, np.full(target, values, arr._data.dtype))
    spread = F.expand(values, target) if values._data.shape != target else values
    grids = np.indices(target)
    places = tuple(index if d == axis else grids[d] for d in range(arr._data.ndim))
    written = np.zeros(arr._data.shape, np.int64)
    np.add.at(written, places, 1)
    if reduce == "assign" and (written > 1).any():
        raise not_supported("put_along_axis assigning one place twice", "paddle")
    with as_kernel("put_along_axis_assign" if reduce == "assign" else "put_along_axis_add"):
        placed = F.scatter_add_zeros(spread, arr._data.shape, axis, index)
        out = F.where(F.constant_like(arr, written > 0), placed, arr) if reduce == "assign" else \
            F.add(arr, placed)
    return C.named(out, "PutAlongAxisGradNode", arr)


TENSOR_METHODS = {**{name: globals()[name] for name in ("cummax", "cummin", "logcumsumexp", "kron",
                                                        "heaviside", "put_along_axis")},
                  "put_along_axis_": in_place_method("put_along_axis", put_along_axis)}
