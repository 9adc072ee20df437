"""More of paddle's namespace, as aliases and compositions of what the facade has, each named
and computed as paddle 3.3.1 does (measured): the comparison functions, ``isclose``,
``moveaxis``, ``nansum`` / ``nanmean``, ``sgn``, ``dist``, ``inner``, ``trapezoid``, ``stanh``,
``addmm``, the dtype predicates, ``count_nonzero``, ``tril`` / ``triu_indices``, ``unflatten``,
``rot90``, and the unrecorded ``searchsorted`` / ``bucketize``, ``histogram`` and ``isin``.
Functions here are also Tensor methods where paddle has the method."""

from __future__ import annotations

import builtins
from typing import Any, Optional, Sequence

import numpy as np

from reference_engine import composed as C
from reference_engine import ops as F
from reference_engine.dialects.paddle_policy import PADDLE
from reference_engine.messages import not_supported
from reference_engine.paddle._core import Tensor, _made, cast, matmul, reshape, to_tensor, transpose
from reference_engine.paddle._core import sum as _total
from reference_engine.paddle.extras import flip, norm, sign

__all__ = ["addmm", "bucketize", "copysign", "count_nonzero", "diag_embed", "ldexp", "dist",
           "greater_equal", "greater_than", "histogram", "inner", "is_complex", "is_empty", "is_integer",
           "isclose", "isin", "less_equal", "less_than", "moveaxis", "nanmean", "nansum", "not_equal",
           "rot90", "searchsorted", "sgn", "stanh", "trapezoid", "tril_indices", "triu_indices",
           "unflatten"]


def _comparison(name: str, compare: Any) -> Any:
    def function(x: Tensor, y: Tensor, name_: Optional[str] = None, **kwargs: Any) -> Tensor:
        if not isinstance(y, Tensor):
            raise PADDLE.error("comparison_operand", api=name, type_name=type(y).__name__)
        return _made(compare(x._data, y._data))
    function.__name__ = name
    function.__doc__ = f"``paddle.{name}``: elementwise, a bool tensor (``y`` must be a tensor)."
    return function


greater_equal = _comparison("greater_equal", np.greater_equal)
greater_than = _comparison("greater_than", np.greater)
less_equal = _comparison("less_equal", np.less_equal)
less_than = _comparison("less_than", np.less)
not_equal = _comparison("not_equal", np.not_equal)


def isclose(x: Tensor, y: Tensor, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: builtins.bool = False,
            name: Optional[str] = None) -> Tensor:
    return _made(np.isclose(x._data, y._data, rtol=rtol, atol=atol, equal_nan=equal_nan))


def moveaxis(x: Tensor, source: Any, destination: Any, name: Optional[str] = None) -> Tensor:
    """The axes ``source`` moved to ``destination`` (TransposeGradNode)."""
    n = x._data.ndim
    sources = [s % n for s in ([source] if isinstance(source, int) else source)]
    targets = [d % n for d in ([destination] if isinstance(destination, int) else destination)]
    rest = iter(d for d in range(n) if d not in sources)
    placed = dict(zip(targets, sources))
    return F.permute(x, [placed[i] if i in placed else next(rest) for i in range(n)])


def nansum(x: Tensor, axis: Any = None, dtype: Any = None, keepdim: builtins.bool = False,
           name: Optional[str] = None) -> Tensor:
    """The sum with NaNs counted as 0 (SumGradNode)."""
    if dtype is not None:
        raise not_supported("nansum with dtype", "paddle")
    kept = F.where(F.constant_like(x, ~np.isnan(x._data)), x, F.zeros_like(x))
    return F.sum(kept, axis, keepdim)


def nanmean(x: Tensor, axis: Any = None, keepdim: builtins.bool = False,
            name: Optional[str] = None) -> Tensor:
    """The mean of the elements that are not NaN: their sum over their count (DivideGradNode)."""
    counted = F.constant_like(x, (~np.isnan(x._data)).astype(x._data.dtype))
    return F.div(nansum(x, axis, keepdim=keepdim), F.sum(counted, axis, keepdim))


def sgn(x: Tensor, name: Optional[str] = None) -> Tensor:
    """``sign`` of a real tensor (SignGradNode)."""
    return sign(x)


def dist(x: Tensor, y: Tensor, p: float = 2, name: Optional[str] = None) -> Tensor:
    """The ``p``-norm of the difference (DistGradNode)."""
    return C.named(norm(F.sub(x, y), p), "DistGradNode", x)


def inner(x: Tensor, y: Tensor, name: Optional[str] = None) -> Tensor:
    """Inner products over the last axis: ``x`` times ``y`` transposed (MatmulGradNode)."""
    return matmul(x, y, transpose_y=True)


def trapezoid(y: Tensor, x: Optional[Tensor] = None, dx: Optional[float] = None, axis: builtins.int = -1,
              name: Optional[str] = None) -> Tensor:
    """The trapezoid rule as paddle composes it: ``0.5 * sum((y[1:] + y[:-1]) * dx)`` along
    ``axis`` (ScaleGradNode); spacing by sample points ``x`` is refused by name."""
    if x is not None:
        raise not_supported("trapezoid with sample points x", "paddle")
    a = axis % y._data.ndim
    lead = (slice(None),) * a
    pairs = F.add(F.getitem(y, lead + (slice(1, None),)), F.getitem(y, lead + (slice(None, -1),)))
    return F.mul(F.sum(F.mul(pairs, to_tensor(1.0 if dx is None else dx)), a), 0.5)


def stanh(x: Tensor, scale_a: float = 0.67, scale_b: float = 1.7159, name: Optional[str] = None) -> Tensor:
    """``scale_b · tanh(scale_a · x)`` (StanhGradNode)."""
    return C.named(F.mul(F.tanh(F.mul(x, scale_a)), scale_b), "StanhGradNode", x)


def addmm(input: Tensor, x: Tensor, y: Tensor, beta: float = 1.0, alpha: float = 1.0,  # noqa: A002
          name: Optional[str] = None) -> Tensor:
    """``beta · input + alpha · x y`` (AddmmGradNode)."""
    return C.named(F.add(F.mul(input, beta), F.mul(matmul(x, y), alpha)), "AddmmGradNode", input)


def is_complex(x: Tensor) -> builtins.bool:
    return False  # the facade's dtypes are real


def is_integer(x: Tensor) -> builtins.bool:
    return x._data.dtype.kind in "iu"


def is_empty(x: Tensor, name: Optional[str] = None) -> Tensor:
    return _made(np.array(x._data.size == 0))


def count_nonzero(x: Tensor, axis: Any = None, keepdim: builtins.bool = False,
                  name: Optional[str] = None) -> Tensor:
    """The sum of ``x`` cast to bool and then int64, as paddle composes it (so the count of a
    tensor that needs a gradient is recorded too: SumGradNode)."""
    return _total(cast(cast(x, "bool"), "int64"), axis=axis, keepdim=keepdim)


def _indices(rows: Sequence[np.ndarray]) -> Tensor:
    return _made(np.stack(rows).astype(np.int64))


def tril_indices(row: builtins.int, col: builtins.int, offset: builtins.int = 0,
                 dtype: Any = "int64") -> Tensor:
    return _indices(np.tril_indices(row, offset, col))


def triu_indices(row: builtins.int, col: Optional[builtins.int] = None, offset: builtins.int = 0,
                 dtype: Any = "int64") -> Tensor:
    return _indices(np.triu_indices(row, offset, row if col is None else col))


def copysign(x: Tensor, y: Any, name: Optional[str] = None) -> Tensor:
    """``|x|`` with ``y``'s sign (CopysignGradNode; a number is a 0-d tensor of ``x``'s
    dtype); of integers, integers."""
    other = y if isinstance(y, Tensor) else to_tensor(y, dtype=x._data.dtype)
    if x._data.dtype.kind in "iu":
        return _made(np.copysign(x._data, other._data).astype(x._data.dtype))
    return F.binary("copysign", x, other)


def ldexp(x: Tensor, y: Tensor, name: Optional[str] = None) -> Tensor:
    """``x · 2**y`` as paddle composes it: both cast to float64 if either is, else to the
    default float dtype, then a product (MultiplyGradNode) with a power of a tensor 2."""
    if not isinstance(y, Tensor):
        raise TypeError(f"y must be tensor type, but got {type(y)}")
    wide = np.float64 in (x._data.dtype, y._data.dtype)
    dtype = np.dtype(np.float64) if wide else np.dtype(np.float32)
    x, y = (t if t._data.dtype == dtype else cast(t, dtype) for t in (x, y))
    return F.mul(x, F.pow(to_tensor(2, dtype=dtype), y))


def diag_embed(input: Any, offset: builtins.int = 0, dim1: builtins.int = -2,  # noqa: A002
               dim2: builtins.int = -1) -> Tensor:
    """Each last-axis vector of ``input`` on the ``offset`` diagonal of a new square in dims
    ``dim1`` and ``dim2``, unrecorded (paddle's kernel keeps the output out of the graph)."""
    data = np.asarray(input._data if isinstance(input, Tensor) else input)
    size = data.shape[-1] + abs(offset)
    out = np.zeros(data.shape[:-1] + (size, size), data.dtype)
    rows = np.arange(data.shape[-1]) + max(-offset, 0)
    out[..., rows, rows + offset] = data
    ndim = out.ndim
    first, second = dim1 % ndim, dim2 % ndim
    rest = [d for d in range(ndim) if d not in (first, second)]
    order = sorted([(first, ndim - 2), (second, ndim - 1)] + list(zip(rest, range(ndim - 2))))
    return _made(np.ascontiguousarray(np.transpose(out, [source for _, source in order])))


def unflatten(x: Tensor, axis: builtins.int, shape: Sequence[builtins.int],
              name: Optional[str] = None) -> Tensor:
    """``axis`` split into ``shape`` (one entry may be -1): a reshape (ReshapeGradNode)."""
    axis = F.normalize_dim(type(x), axis, x._data.ndim)
    dims = list(x._data.shape)
    return reshape(x, dims[:axis] + [builtins.int(s) for s in shape] + dims[axis + 1:])


def rot90(x: Tensor, k: builtins.int = 1, axes: Sequence[builtins.int] = (0, 1),
          name: Optional[str] = None) -> Tensor:
    """A quarter turn ``k`` times in the plane of ``axes``, composed as paddle composes it: a
    flip then a transpose (k = 1), two flips (k = 2), a transpose then a flip (k = 3)."""
    k %= 4
    if k == 0:
        return x
    if k == 2:
        return flip(flip(x, axes[0]), axes[1])
    perm = list(range(x._data.ndim))
    perm[axes[0]], perm[axes[1]] = perm[axes[1]], perm[axes[0]]
    if k == 1:
        return transpose(flip(x, axes[1]), perm)
    return flip(transpose(x, perm), axes[1])


def searchsorted(sorted_sequence: Tensor, values: Tensor, out_int32: bool = False, right: bool = False,
                 name: Optional[str] = None) -> Tensor:
    """Where each value would go in its row of ``sorted_sequence`` (a 1-d sequence for all, else
    one row per leading index of ``values``), unrecorded: int64, or int32."""
    side = "right" if right else "left"
    rows, found = sorted_sequence._data, values._data
    if rows.ndim == 1:
        positions = np.searchsorted(rows, found, side=side)
    else:
        flat_rows, flat_values = rows.reshape(-1, rows.shape[-1]), found.reshape(-1, found.shape[-1])
        positions = np.stack([np.searchsorted(r, v, side=side) for r, v in zip(flat_rows, flat_values)])
        positions = positions.reshape(found.shape)
    return _made(positions.astype(np.int32 if out_int32 else np.int64))


def bucketize(x: Tensor, sorted_sequence: Tensor, out_int32: bool = False, right: bool = False,
              name: Optional[str] = None) -> Tensor:
    """``searchsorted`` of ``x`` in a 1-d ``sorted_sequence``."""
    return searchsorted(sorted_sequence, x, out_int32, right)


def histogram(input: Tensor, bins: builtins.int = 100, min: float = 0.0, max: float = 0.0,  # noqa: A002
              weight: Optional[Tensor] = None, density: bool = False, name: Optional[str] = None) -> Tensor:
    """Counts of ``input`` in ``bins`` equal bins over [min, max] (the data's own range where
    both are 0; a range of one value widened by 1 each way), unrecorded: int64 counts, or the
    weights' sums, or float32 densities."""
    data = input._data.ravel()
    low, high = builtins.float(min), builtins.float(max)
    if low == high == 0 and data.size:
        low, high = builtins.float(data.min()), builtins.float(data.max())
    if low == high:
        low, high = low - 1, high + 1
    weights = None if weight is None else weight._data.ravel()
    counts, edges = np.histogram(data, bins=bins, range=(low, high), weights=weights)
    if density:  # (paddle's expression: each count times the bin count over total times range)
        total = counts.sum()
        scaled = counts * bins / (total * (high - low)) if total else counts
        return _made(np.asarray(scaled, np.float32))
    return _made(counts.astype(np.int64 if weight is None else weight._data.dtype))


def isin(x: Tensor, test_x: Tensor, assume_unique: bool = False, invert: bool = False,
         name: Optional[str] = None) -> Tensor:
    """Whether each entry of ``x`` is among ``test_x``'s (or not, ``invert``), unrecorded."""
    return _made(np.isin(x._data, test_x._data, invert=invert))


_METHOD_NAMES = ("addmm", "bucketize", "copysign", "count_nonzero", "diag_embed", "ldexp", "dist",
                 "greater_equal", "greater_than", "histogram", "inner", "is_complex", "is_empty",
                 "is_integer", "isclose", "isin", "less_equal", "less_than", "moveaxis", "nanmean",
                 "nansum", "not_equal", "rot90", "sgn", "stanh", "trapezoid", "unflatten")
TENSOR_METHODS = {name: globals()[name] for name in _METHOD_NAMES}
