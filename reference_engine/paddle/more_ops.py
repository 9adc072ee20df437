"""More of paddle's namespace, as aliases and compositions of what the facade has, each named
and computed as paddle 3.3.1 does (measured): the comparison functions, ``isclose``,
``moveaxis``, ``nansum`` / ``nanmean``, ``sgn``, ``dist``, ``inner``, ``trapezoid``, ``stanh``,
``addmm``, the dtype predicates, ``count_nonzero`` and ``tril`` / ``triu_indices``. Functions
here are also Tensor methods where paddle has the method."""

from __future__ import annotations

import builtins
from typing import Any, Optional, Sequence

import numpy as np

from reference_engine import composed as C
from reference_engine import ops as F
from reference_engine.dialects.paddle_policy import PADDLE
from reference_engine.messages import not_supported
from reference_engine.paddle._core import Tensor, _made, cast, matmul, to_tensor
from reference_engine.paddle._core import sum as _total
from reference_engine.paddle.extras import norm, sign

__all__ = ["addmm", "count_nonzero", "dist", "greater_equal", "greater_than", "inner", "is_complex",
           "is_empty", "is_integer", "isclose", "less_equal", "less_than", "moveaxis", "nanmean", "nansum",
           "not_equal", "sgn", "stanh", "trapezoid", "tril_indices", "triu_indices"]


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


_METHOD_NAMES = ("addmm", "count_nonzero", "dist", "greater_equal", "greater_than", "inner", "is_complex",
                 "is_empty", "is_integer", "isclose", "less_equal", "less_than", "moveaxis", "nanmean",
                 "nansum", "not_equal", "sgn", "stanh", "trapezoid")
TENSOR_METHODS = {name: globals()[name] for name in _METHOD_NAMES}
