"""``a * b + c`` with one rounding, as a CPU's fused multiply-add instruction computes it.

torch's and paddle's CPU kernels are compiled with fused multiply-adds where the compiler
contracts a product and a sum (and SLEEF's routines call them outright); the reference computes
the same expressions with this where the one rounding decides a result's last bit.
"""

from __future__ import annotations

import numpy as np

__all__ = ["fused_multiply_add"]

_SPLIT = 134217729.0  # 2**27 + 1: Veltkamp's splitter for float64


def fused_multiply_add(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """``a * b + c`` with one rounding. float32 is exact in float64 (the product of two float32
    fits it); float64 adds Dekker's error-free product to an error-free sum, which rounds as a
    fused multiply-add does but in rare ties of the last bit."""
    dtype = np.result_type(a, b, c)
    # (a kernel warns of nothing: inf and nan go through)
    if dtype == np.float32:
        with np.errstate(all="ignore"):
            exact = np.asarray(a, np.float64) * np.asarray(b, np.float64) + np.asarray(c, np.float64)
            return exact.astype(np.float32)
    if dtype != np.float64:
        return a * b + c
    with np.errstate(all="ignore"):
        product = a * b
        low = _product_error(np.asarray(a, np.float64), np.asarray(b, np.float64), product)
        total = product + c
        back = total - product
        sum_error = (product - (total - back)) + (c - back)
        fused = total + (sum_error + low)
        return np.where(np.isfinite(fused), fused, product + c)


def _product_error(a: np.ndarray, b: np.ndarray, product: np.ndarray) -> np.ndarray:
    """What rounding took off ``a * b`` (Dekker's two-product, on Veltkamp's halves)."""
    a_high = _SPLIT * a - (_SPLIT * a - a)
    b_high = _SPLIT * b - (_SPLIT * b - b)
    a_low, b_low = a - a_high, b - b_high
    return ((a_high * b_high - product) + a_high * b_low + a_low * b_high) + a_low * b_low
