"""Special functions numpy lacks, elementwise in float64 and cast back to the input's dtype:
``lgamma``, ``digamma``, ``polygamma`` and ``erfinv``. Written from their series (recurrences
to large arguments, then asymptotic expansions) and Newton's method on ``math.erf``, accurate
to a few units in the last place of a double, so a float32 result is the rounded true value;
``digamma`` follows torch's kernel step for step instead (in single precision for float32).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math
from typing import Any

import numpy as np

__all__ = ["digamma", "erfinv", "lgamma", "polygamma"]

# Bernoulli numbers B_2, B_4, …, B_16: the asymptotic series' coefficients
_BERNOULLI = (1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510)
_LARGE = 16.0  # where the asymptotic series take over


def _elementwise(scalar: object, a: np.ndarray) -> np.ndarray:
    """``scalar`` on each element of ``a`` as a double, the result in ``a``'s dtype."""
    values = np.frompyfunc(scalar, 1, 1)(np.asarray(a, np.float64))
    return np.asarray(values, np.float64).astype(a.dtype, copy=False)


def _lgamma(x: float) -> float:
    try:
        return math.lgamma(x)
    except ValueError:  # a pole: a non-positive integer
        return math.inf


# ψ(10), and the asymptotic series' coefficients (Cephes' psi, as torch's calc_digamma has them)
_PSI_10 = 2.25175258906672110764
_DIGAMMA_SERIES = (8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
                   -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
                   8.33333333333333333333E-2)
_DIGAMMA_SERIES_32 = tuple(np.float32(c) for c in _DIGAMMA_SERIES)


def _digamma(x: float) -> float:
    """torch's ``calc_digamma(double)`` step for step: the recurrence up to 10, then Cephes'
    asymptotic series (measured: equal to torch's kernel on random inputs)."""
    if math.isnan(x) or x == -math.inf:
        return math.nan
    if x == math.inf:
        return math.inf
    if x == 0:
        return math.copysign(math.inf, -x)
    if x < 0:
        if x == math.trunc(x):
            return math.nan
        return _digamma(1 - x) - math.pi / math.tan(math.pi * (x - math.trunc(x)))
    result = 0.0
    while x < 10:
        result -= 1 / x
        x += 1
    if x == 10:
        return result + _PSI_10
    y = 0.0
    if x < 1.0e17:
        z = 1.0 / (x * x)
        series = _DIGAMMA_SERIES[0]
        for c in _DIGAMMA_SERIES[1:]:
            series = series * z + c
        y = z * series
    return result + math.log(x) - (0.5 / x) - y


def _digamma_float32(value: float) -> np.float32:
    """torch's ``calc_digamma(float)``: the same steps in single precision, the C library's
    ``logf`` (bit for bit with torch's CPU kernel on 23,000 random inputs)."""
    f32 = np.float32
    x = f32(value)
    if math.isnan(value) or value == -math.inf:
        return f32(math.nan)
    if value == math.inf:
        return f32(math.inf)
    if x == 0:
        return f32(math.copysign(math.inf, -value))
    if x < 0:
        if value == math.trunc(value):
            return f32(math.nan)
        reflected = f32(math.pi / math.tan(math.pi * (value - math.trunc(value))))
        return f32(_digamma_float32(float(f32(1) - x)) - reflected)
    result = f32(0)
    while x < 10:
        result = f32(result - f32(f32(1) / x))
        x = f32(x + f32(1))
    if x == 10:
        return f32(result + f32(_PSI_10))
    y = f32(0)
    if x < f32(1.0e17):
        z = f32(f32(1) / f32(x * x))
        series = _DIGAMMA_SERIES_32[0]
        for c in _DIGAMMA_SERIES_32[1:]:
            series = f32(f32(series * z) + c)
        y = f32(z * series)
    return f32(f32(f32(result + c_library_logf(x)) - f32(f32(0.5) / x)) - y)


def c_library_logf(x: np.float32) -> np.float32:
    """The C library's single-precision ``logf`` (numpy's float32 log rounds its own way), or a
    double log rounded where the library cannot be loaded."""
    if _LOGF is None:
        return np.float32(math.log(float(x)))
    return np.float32(_LOGF(float(x)))


def _load_logf() -> Any:
    try:
        library = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
    except OSError:
        return None
    function = library.logf
    function.restype, function.argtypes = ctypes.c_float, [ctypes.c_float]
    return function


_LOGF = _load_logf()


def _polygamma(n: int, x: float) -> float:
    if math.isnan(x):
        return math.nan
    if x <= 0 and x == math.floor(x):
        return math.inf if n % 2 else -math.inf
    sign = 1.0 if n % 2 else -1.0
    shift = 0.0
    while x < _LARGE:
        shift += sign * math.factorial(n) / x ** (n + 1)
        x += 1.0
    total = math.factorial(n - 1) / x ** n + math.factorial(n) / (2 * x ** (n + 1))
    for k, b in enumerate(_BERNOULLI, start=1):
        total += b * math.factorial(2 * k + n - 1) / (math.factorial(2 * k) * x ** (2 * k + n))
    return shift + sign * total


def _erfinv(y: float, saturates: bool = False) -> float:
    if math.isnan(y):
        return math.nan
    if abs(y) > 1:
        return math.copysign(math.inf, y) if saturates else math.nan
    if abs(y) == 1:
        return math.copysign(math.inf, y)
    # Giles' single-precision approximation, then Newton steps on erf
    w = -math.log((1.0 - y) * (1.0 + y))
    if w < 5:
        w -= 2.5
        p = 2.81022636e-08
        for c in (3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503,
                  -0.00417768164, 0.246640727, 1.50140941):
            p = c + p * w
    else:
        w = math.sqrt(w) - 3
        p = -0.000200214257
        for c in (0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613,
                  0.00943887047, 1.00167406, 2.83297682):
            p = c + p * w
    x = p * y
    for _ in range(3):
        step = (math.erf(x) - y) / (2.0 / math.sqrt(math.pi) * math.exp(-x * x))
        x -= step
    return x


def lgamma(a: np.ndarray) -> np.ndarray:
    """``log|Γ(a)|`` (inf at the poles)."""
    return _elementwise(_lgamma, a)


def digamma(a: np.ndarray) -> np.ndarray:
    """``ψ(a) = Γ'(a)/Γ(a)`` (-inf at 0, NaN at the negative integers), as torch's CPU kernel
    computes it: in single precision for float32."""
    if np.asarray(a).dtype == np.float32:
        values = np.frompyfunc(_digamma_float32, 1, 1)(np.asarray(a, np.float64))
        return np.asarray(values, np.float32)
    return _elementwise(_digamma, a)


def polygamma(n: int, a: np.ndarray) -> np.ndarray:
    """The ``n``-th derivative of ψ (``n`` 0 is ψ itself)."""
    if n == 0:
        return digamma(a)
    return _elementwise(lambda x: _polygamma(n, x), a)


def erfinv(a: np.ndarray, saturates: bool = False) -> np.ndarray:
    """The inverse of erf on (-1, 1): ±inf at ±1; outside, NaN (or ±inf when ``saturates``)."""
    return _elementwise(lambda y: _erfinv(y, saturates), a)
