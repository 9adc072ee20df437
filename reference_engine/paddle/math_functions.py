"""paddle's special and running functions over the rule table: ``lgamma``, ``digamma``,
``erfinv`` and ``trunc`` come with the table's elementwise functions; here are those with an
argument or a composition of their own: ``polygamma``, ``logit``, ``frac`` (``x - trunc(x)``,
as paddle computes it), ``atan2``, ``deg2rad`` / ``rad2deg`` (paddle's scale kernel),
``cumprod`` and ``cross``. Each is also a Tensor method. paddle 3.3.1's kernels for them
have no double grad."""

from __future__ import annotations

import builtins
import math
from typing import Any, Optional

import numpy as np

from reference_engine import ops as F
from reference_engine.paddle._core import PADDLE, Tensor

__all__ = ["atan2", "cross", "cumprod", "deg2rad", "erfinv", "frac", "logit", "polygamma", "rad2deg"]


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


TENSOR_METHODS = {name: globals()[name] for name in __all__}
