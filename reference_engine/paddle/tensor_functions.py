"""paddle's aliases and small tensor functions around the core's operations: ``cat``,
``clamp``, ``clone``, the logical functions, ``rank``, ``empty`` / ``empty_like``, ``hstack``,
``is_floating_point``, ``take_along_axis`` and ``nan_to_num``, and the Tensor methods of the
same names (``permute``, ``contiguous``, ``ravel``, ``new_ones``, ``mul``, ``sub`` …). Node
names are paddle's (measured on 3.3.1).

``broadcast_tensors`` stays refused by name: paddle 3.3.1 crashes (a segmentation fault in
``broadcast_tensors_grad``) whenever a backward reaches its node without a gradient for every
output, which one node per output here could not predict."""

from __future__ import annotations

import builtins
from typing import Any, Optional, Sequence

import numpy as np

from reference_engine import composed as C
from reference_engine import ops as F
from reference_engine.paddle._core import (
    Tensor,
    _filled,
    _made,
    _np_dtype,
    clip,
    concat,
    created,
    multiply,
    subtract,
    zeros_like,
)
from reference_engine.paddle.extras import allclose, equal_all, flatten, mv, numel

__all__ = ["cat", "diff", "clamp", "clone", "empty", "empty_like", "hstack", "is_floating_point",
           "logical_and", "logical_not", "logical_or", "logical_xor", "nan_to_num", "rank", "take_along_axis",
           "tanh_"]

cat = concat
clamp = clip


def diff(x: Tensor, n: builtins.int = 1, axis: builtins.int = -1, prepend: Any = None, append: Any = None,
         name: Optional[str] = None) -> Tensor:
    """The ``n``-th forward difference along ``axis`` (SubtractGradNode); ``n`` below 1 is
    refused with paddle's (odd) message."""
    if n < 1:
        raise x._policy.error("diff_order", n=n)
    return C.diff(x, n, axis, prepend, append)


def clone(x: Tensor, name: Optional[str] = None) -> Tensor:
    return x.clone()


def logical_and(x: Tensor, y: Tensor, out: Any = None, name: Optional[str] = None) -> Tensor:
    return _made(np.logical_and(x._data, y._data))


def logical_or(x: Tensor, y: Tensor, out: Any = None, name: Optional[str] = None) -> Tensor:
    return _made(np.logical_or(x._data, y._data))


def logical_xor(x: Tensor, y: Tensor, out: Any = None, name: Optional[str] = None) -> Tensor:
    return _made(np.logical_xor(x._data, y._data))


def logical_not(x: Tensor, out: Any = None, name: Optional[str] = None) -> Tensor:
    return _made(np.logical_not(x._data))


def rank(input: Tensor) -> Tensor:  # noqa: A002
    """The number of dimensions, an int32 0-D tensor (a leaf, as paddle makes it)."""
    return created(np.asarray(input._data.ndim, np.int32))


def empty(shape: Any, dtype: Any = None, name: Optional[str] = None) -> Tensor:
    """A new tensor of ``shape``; its values are not defined (the reference's are zeros)."""
    return _filled(0, shape, dtype)


def take_along_axis(arr: Tensor, indices: Tensor, axis: builtins.int,
                    broadcast: builtins.bool = True) -> Tensor:
    """The entries of ``arr`` at ``indices`` along ``axis``; the other axes of ``indices``
    broadcast against ``arr``'s (TakeAlongAxisGradNode)."""
    positions = np.asarray(indices._data)
    axis = F.normalize_dim(type(arr), axis, arr._data.ndim)
    target = list(arr._data.shape)
    if broadcast:
        shape = np.broadcast_shapes(tuple(target[:axis] + [positions.shape[axis]] + target[axis + 1:]),
                                    positions.shape)
        positions = np.broadcast_to(positions, shape)
        target[axis] = arr._data.shape[axis]
        expanded = tuple(n if i == axis else shape[i] for i, n in enumerate(target))
        source = arr if expanded == arr._data.shape else F.expand(arr, expanded)
    else:
        source = arr
    return C.named(C.take_along(source, axis, positions), "TakeAlongAxisGradNode", arr)


def nan_to_num(x: Tensor, nan: float = 0.0, posinf: Optional[float] = None, neginf: Optional[float] = None,
               name: Optional[str] = None) -> Tensor:
    """NaN, +inf and -inf replaced (by default with 0 and the dtype's largest and lowest
    numbers), as paddle's Python writes it: three ``where`` in turn (WhereGradNode)."""
    info = np.finfo(x._data.dtype)
    data = x._data
    replacements = ((np.isnan(data), nan), (data == np.inf, info.max if posinf is None else posinf),
                    (data == -np.inf, info.min if neginf is None else neginf))
    out = x
    for mask, value in replacements:
        filled = F.constant_like(x, np.full(data.shape, value, data.dtype))
        out = F.where(F.constant_like(x, mask), filled, out)
    return out


def is_floating_point(x: Tensor) -> builtins.bool:
    """Whether ``x`` holds floating-point numbers."""
    return x._data.dtype.kind == "f"


def hstack(x: Sequence[Tensor], name: Optional[str] = None) -> Tensor:
    """The tensors joined along their second axis (their first, for vectors): a concat."""
    return concat(x, axis=0 if x[0]._data.ndim == 1 else 1)


def empty_like(x: Tensor, dtype: Any = None, name: Optional[str] = None) -> Tensor:
    """A tensor of ``x``'s shape (and dtype unless given): zeros, as the reference fills it."""
    return zeros_like(x, dtype)


def tanh_(x: Tensor, name: Optional[str] = None) -> Tensor:
    return x.tanh_()


def _permute(self: Tensor, *dims: Any) -> Tensor:
    order = list(dims[0]) if len(dims) == 1 and isinstance(dims[0], (list, tuple)) else list(dims)
    return F.permute(self, order)


def _contiguous(self: Tensor) -> Tensor:
    """The tensor itself, its memory made row-major in place where it was not."""
    if not self._data.flags.c_contiguous:
        self._data = np.ascontiguousarray(self._data)
    return self


def _clamp_(self: Tensor, min: Optional[float] = None, max: Optional[float] = None) -> Tensor:  # noqa: A002
    return self.clip_(min, max)


def _new(value: Optional[float]) -> Any:
    def new(self: Tensor, size: Any, fill_value: Any = None, dtype: Any = None, **_: Any) -> Tensor:
        filled = fill_value if value is None else value
        return _filled(filled, size, _np_dtype(dtype) or self._data.dtype)
    return new


TENSOR_METHODS = {
    "clamp": clamp, "clamp_": _clamp_,
    "permute": _permute, "contiguous": _contiguous, "ravel": flatten, "rank": rank,
    "new_ones": _new(1), "new_zeros": _new(0),
    "new_full": lambda self, size, fill_value, dtype=None, **_: _new(None)(self, size, fill_value, dtype),
    "allclose": allclose, "equal_all": equal_all, "logical_and": logical_and, "logical_or": logical_or,
    "logical_xor": logical_xor, "logical_not": logical_not, "take_along_axis": take_along_axis,
    "nan_to_num": nan_to_num, "numel": numel, "diff": diff, "is_floating_point": is_floating_point,
    "mul": multiply, "sub": subtract, "mv": mv,
}
