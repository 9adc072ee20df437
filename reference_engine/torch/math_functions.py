"""torch's special and running functions over the rule table: ``lgamma``, ``digamma``,
``erfinv`` and ``trunc`` come with the table's elementwise functions; here are those with an
argument or a name of their own: ``polygamma``, ``logit``, ``frac``, ``atan2`` / ``arctan2``,
``deg2rad`` / ``rad2deg``, ``cumprod`` and ``cross``. Each is also a Tensor method."""

from __future__ import annotations

import builtins
import warnings
from typing import Any, Optional

from reference_engine import ops as F
from reference_engine.torch import linalg
from reference_engine.torch._core import Tensor

__all__ = ["arctan2", "atan2", "cross", "cumprod", "deg2rad", "erfinv", "frac", "logit", "polygamma",
           "rad2deg"]


def erfinv(input: Tensor) -> Tensor:  # noqa: A002
    """The inverse error function (ErfinvBackward0; NaN outside [-1, 1])."""
    return F.erfinv(input)


def polygamma(n: builtins.int, input: Tensor) -> Tensor:  # noqa: A002
    """The ``n``-th derivative of digamma (PolygammaBackward0)."""
    return F.polygamma(input, n)


def logit(input: Tensor, eps: Optional[builtins.float] = None) -> Tensor:  # noqa: A002
    """``log(p / (1 - p))`` of the input clamped to ``[eps, 1 - eps]`` (LogitBackward0)."""
    return F.logit(input, eps)


def frac(input: Tensor) -> Tensor:  # noqa: A002
    """The fractional part, ``x - trunc(x)`` (FracBackward0: the gradient passes unchanged)."""
    return F.frac(input)


def atan2(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    """The angle of ``(other, input)`` (Atan2Backward0)."""
    return F.atan2(input, other)


arctan2 = atan2


def deg2rad(input: Tensor) -> Tensor:  # noqa: A002
    return F.deg2rad(input)


def rad2deg(input: Tensor) -> Tensor:  # noqa: A002
    return F.rad2deg(input)


def cumprod(input: Tensor, dim: builtins.int, *, dtype: Any = None) -> Tensor:  # noqa: A002
    """Running products along ``dim`` (CumprodBackward0); ``dtype`` casts the input first."""
    return F.cumprod(input if dtype is None else input.to(dtype), dim)


_warned_about_cross_without_dim = False


def cross(input: Tensor, other: Tensor, dim: Optional[builtins.int] = None) -> Tensor:  # noqa: A002
    """The cross product along ``dim``; without it, along the first dimension of size 3, with
    torch's deprecation warning (once per process, as torch warns)."""
    global _warned_about_cross_without_dim
    if dim is None:
        if not _warned_about_cross_without_dim:
            _warned_about_cross_without_dim = True
            warnings.warn("Using torch.cross without specifying the dim arg is deprecated.\n"
                          "Please either pass the dim explicitly or simply use torch.linalg.cross.\n"
                          "The default value of dim will change to agree with that of linalg.cross "
                          "in a future release.", UserWarning, stacklevel=2)
        shape = F.broadcast_shape(type(input), input._data.shape, other._data.shape)
        dim = next((d for d, n in enumerate(shape) if n == 3), None)
        if dim is None:
            raise input._policy.error("cross_no_dim_of_3")
    return linalg.cross(input, other, dim=dim)


TENSOR_METHODS = {
    **{name: globals()[name] for name in ("arctan2", "atan2", "cross", "cumprod", "deg2rad", "erfinv", "frac",
                                          "logit", "rad2deg")},
    "polygamma": lambda self, n: F.polygamma(self, n),
}
