"""Special functions numpy lacks, elementwise in float64 and cast back to the input's dtype:
``lgamma``, ``digamma``, ``polygamma`` and ``erfinv``. Written from their series (recurrences
to large arguments, then asymptotic expansions) and Newton's method on ``math.erf``, accurate
to a few units in the last place of a double, so a float32 result is the rounded true value.
"""

from __future__ import annotations

import math

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


def _digamma(x: float) -> float:
    if math.isnan(x) or x == -math.inf:
        return math.nan
    if x == math.inf:
        return math.inf
    if x <= 0 and x == math.floor(x):
        return -math.inf if x == 0 else math.nan
    shift = 0.0
    while x < _LARGE:
        shift -= 1.0 / x
        x += 1.0
    inverse_square = 1.0 / (x * x)
    series = sum(b / (2 * k) * inverse_square ** k for k, b in enumerate(_BERNOULLI, start=1))
    return shift + math.log(x) - 0.5 / x - series


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
    """``ψ(a) = Γ'(a)/Γ(a)`` (-inf at 0, NaN at the negative integers)."""
    return _elementwise(_digamma, a)


def polygamma(n: int, a: np.ndarray) -> np.ndarray:
    """The ``n``-th derivative of ψ (``n`` 0 is ψ itself)."""
    if n == 0:
        return digamma(a)
    return _elementwise(lambda x: _polygamma(n, x), a)


def erfinv(a: np.ndarray, saturates: bool = False) -> np.ndarray:
    """The inverse of erf on (-1, 1): ±inf at ±1; outside, NaN (or ±inf when ``saturates``)."""
    return _elementwise(lambda y: _erfinv(y, saturates), a)
