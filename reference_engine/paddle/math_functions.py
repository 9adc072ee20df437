"""paddle's special and running functions over the rule table: ``lgamma``, ``digamma``,
``erfinv`` and ``trunc`` come with the table's elementwise functions; here are those with an
argument or a composition of their own: ``polygamma``, ``logit``, ``frac`` (``x - trunc(x)``,
as paddle computes it), ``atan2``, ``deg2rad`` / ``rad2deg`` (paddle's scale kernel),
``cumprod``, ``cross``, and the rounded divisions ``remainder`` (``mod``, ``floor_mod``, ``%``)
and ``floor_divide`` (``//``, whose result stops gradient). Each is also a Tensor method, the
remainder in place too. paddle 3.3.1's kernels for them have no double grad."""

from __future__ import annotations

import builtins
import math
from typing import Any, Optional

import numpy as np

from reference_engine import ops as F
from reference_engine.messages import not_supported
from reference_engine.paddle._core import PADDLE, Tensor

__all__ = ["atan2", "cross", "cumprod", "deg2rad", "erfinv", "floor_divide", "floor_mod", "frac", "logit",
           "mod", "polygamma", "rad2deg", "remainder"]


def erfinv(x: Tensor, name: Optional[str] = None) -> Tensor:
    """The inverse error function (ErfinvGradNode; ±inf outside [-1, 1], measured)."""
    return F.erfinv(x)


def polygamma(x: Tensor, n: builtins.int, name: Optional[str] = None) -> Tensor:
    """The ``n``-th derivative of digamma (PolygammaGradNode)."""
    return F.polygamma(x, n)


def logit(x: Tensor, eps: Optional[builtins.float] = None, name: Optional[str] = None) -> Tensor:
    """``log(p / (1 - p))`` of ``x`` clamped to ``[eps, 1 - eps]`` (LogitGradNode)."""
    return F.logit(x, eps)


def frac(x: Tensor, name: Optional[str] = None) -> Tensor:
    """``x - trunc(x)``: a subtraction after a trunc, as paddle composes it."""
    return F.sub(x, F.trunc(x))


def atan2(x: Tensor, y: Tensor, name: Optional[str] = None) -> Tensor:
    """The angle of ``(y, x)`` (Atan2GradNode)."""
    return F.atan2(x, y)


def deg2rad(x: Tensor, name: Optional[str] = None) -> Tensor:
    """``x · π/180`` by paddle's scale kernel (an integer tensor is made float32 first)."""
    return F.mul(_float(x), math.pi / 180.0)


def rad2deg(x: Tensor, name: Optional[str] = None) -> Tensor:
    """``x · 180/π`` by paddle's scale kernel (an integer tensor is made float32 first)."""
    return F.mul(_float(x), 180.0 / math.pi)


def _float(x: Tensor) -> Tensor:
    return x if x._data.dtype.kind == "f" else F.cast(x, np.float32)


def cumprod(x: Tensor, dim: Optional[builtins.int] = None, dtype: Any = None,
            name: Optional[str] = None) -> Tensor:
    """Running products along ``dim`` (of the flattened tensor without it; CumprodGradNode)."""
    if dtype is not None:
        x = x.astype(dtype)
    return F.cumprod(F.flatten(x) if dim is None else x, 0 if dim is None else dim)


def cross(x: Tensor, y: Tensor, axis: builtins.int = 9, name: Optional[str] = None) -> Tensor:
    """The cross product along ``axis`` (9, the default: the first axis of size 3; CrossGradNode)."""
    if axis == 9:
        axis = next((d for d, n in enumerate(x._data.shape) if n == 3), None)
        if axis is None:
            raise PADDLE.error("cross_no_axis_of_3", shape=list(x._data.shape))
    return F.cross(x, y, axis)


def remainder(x: Tensor, y: Any, name: Optional[str] = None) -> Tensor:
    """``x - floor(x / y) * y``, the sign of the divisor (RemainderGradNode)."""
    return F.remainder(x, y)


mod = floor_mod = remainder


def floor_divide(x: Tensor, y: Any, name: Optional[str] = None) -> Tensor:
    """``x // y``, rounded down; the result stops gradient."""
    return F.floor_divide(x, y)


def remainder_(x: Tensor, y: Tensor, name: Optional[str] = None) -> Tensor:
    """``remainder`` written into ``x``; ``y`` must be a tensor (paddle reads its shape)."""
    if not isinstance(y, Tensor):
        raise AttributeError(f"'{type(y).__name__}' object has no attribute 'shape'")
    F.check_divisor(x, y)
    return x._in_place("remainder", y)  # type: ignore[return-value]


def floor_divide_(x: Tensor, y: Tensor, name: Optional[str] = None) -> Tensor:
    """``floor_divide`` written into ``x``. On a tensor that requires grad paddle 3.3.1 keeps
    the tensor's node as it was (measured), which the reference does not model."""
    if not x.stop_gradient:
        raise not_supported("floor_divide_ on a tensor that does not stop gradient", "paddle")
    F.check_divisor(x, y)
    return x._in_place("floor_divide", y)  # type: ignore[return-value]


TENSOR_METHODS = {**{name: globals()[name] for name in __all__}, "floor_divide_": floor_divide_,
                  "remainder_": remainder_, "mod_": remainder_, "floor_mod_": remainder_}
