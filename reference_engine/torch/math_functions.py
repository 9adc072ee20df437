"""torch's special, running and rounding functions over the rule table: ``lgamma``, ``digamma``,
``erfinv`` and ``trunc`` come with the table's elementwise functions; here are those with an
argument or a name of their own: ``polygamma``, ``logit``, ``frac``, ``atan2`` / ``arctan2``,
``deg2rad`` / ``rad2deg``, ``cumprod``, ``cross``, and the rounded divisions ``remainder``
(``%``), ``fmod`` and ``floor_divide`` (``//``). Each is also a Tensor method, the divisions
in place too."""

from __future__ import annotations

import builtins
import warnings
from typing import Any, Optional

import numpy as np

from reference_engine import composed as C
from reference_engine import ops as F
from reference_engine.torch import linalg
from reference_engine.torch._core import Tensor

__all__ = ["copysign", "erfc", "float_power", "fmax", "fmin", "ldexp", "logaddexp2", "sinc", "xlogy",
           "arctan2", "atan2", "cross", "cumprod", "deg2rad", "erfinv", "floor_divide", "fmod", "frac",
           "logit", "polygamma", "rad2deg", "remainder"]


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


def remainder(input: Any, other: Any) -> Tensor:  # noqa: A002
    """``input - floor(input / other) * other``, the sign of the divisor (RemainderBackward1, or
    RemainderBackward0 for a number divisor); a number dividend records a node without
    derivative, as torch's Scalar_Tensor overload does."""
    if not isinstance(input, Tensor):
        return F.remainder_of_number(input, other)
    return F.remainder(input, other)


def fmod(input: Tensor, other: Any) -> Tensor:  # noqa: A002
    """C's ``fmod``, the sign of the dividend (FmodBackward1, FmodBackward0 for a number)."""
    return F.fmod(input, other)


def floor_divide(input: Any, other: Any) -> Tensor:  # noqa: A002
    """``input // other``: a node whose derivative torch does not implement."""
    return F.floor_divide(input, other)


def erfc(input: Tensor) -> Tensor:  # noqa: A002
    """``1 - erf(x)`` without its cancellation (ErfcBackward0)."""
    return F.elementwise("erfc", input)


def sinc(input: Tensor) -> Tensor:  # noqa: A002
    """``sin(πx) / (πx)``, 1 at 0 (SincBackward0)."""
    return F.elementwise("sinc", input)


def entr(input: Tensor) -> Tensor:  # noqa: A002
    """``-x log x`` (torch.special.entr, SpecialEntrBackward0)."""
    return F.elementwise("entr", input)


def xlogy(input: Any, other: Any) -> Tensor:  # noqa: A002
    """``input · log(other)``, 0 where ``input`` is 0 unless ``other`` is NaN."""
    return F.xlogy(input, other)


def copysign(input: Tensor, other: Any) -> Tensor:  # noqa: A002
    """``|input|`` with ``other``'s sign (CopysignBackward0, or 1 for a number)."""
    return F.binary("copysign", input, other, number_overload=1)


def fmax(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    """The larger of the two, a NaN ignored (FmaxBackward0: ties go to ``input``)."""
    return F.binary("fmax", input, other)


def fmin(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    return F.binary("fmin", input, other)


def logaddexp2(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    """``log2(2^input + 2^other)`` (Logaddexp2Backward0)."""
    return F.binary("logaddexp2", input, other)


def float_power(input: Any, exponent: Any) -> Tensor:  # noqa: A002
    """``pow`` in float64: each tensor operand cast first (ToCopyBackward0), as torch composes it."""
    def double(x: Any) -> Any:
        return F.cast(x, np.float64) if isinstance(x, Tensor) and x._data.dtype != np.float64 else x
    return F.pow(double(input), double(exponent))


def ldexp(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    """``input · 2^other`` (LdexpBackward0)."""
    return C.named(F.mul(input, F.pow(2.0, other)), "LdexpBackward0", input)


def _in_place_division(op: str) -> Any:
    """``Tensor.<op>_``: the division ``op`` written into the tensor (floor_divide's node has
    one name for both overloads)."""
    def method(self: Tensor, other: Any) -> Tensor:
        F.check_divisor(self, other)
        overload = {} if op == "floor_divide_" else F.number_divisor(other)
        return self._in_place(op, other, **overload)  # type: ignore[return-value]
    method.__name__ = f"{op}_"
    return method


TENSOR_METHODS = {
    **{name: globals()[name] for name in ("arctan2", "atan2", "cross", "cumprod", "deg2rad", "erfinv", "frac",
                                          "logit", "rad2deg")},
    "polygamma": lambda self, n: F.polygamma(self, n),
    "remainder": F.remainder, "fmod": F.fmod, "floor_divide": F.floor_divide,
    **{name: globals()[name] for name in ("erfc", "sinc", "xlogy", "copysign", "fmax", "fmin", "logaddexp2",
                                          "float_power", "ldexp")},
    "remainder_": _in_place_division("remainder"), "fmod_": _in_place_division("fmod"),
    "floor_divide_": _in_place_division("floor_divide_"),
    "__imod__": _in_place_division("remainder"), "__ifloordiv__": _in_place_division("floor_divide_"),
}
