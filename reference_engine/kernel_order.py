"""Sums in the order torch's CPU kernels add them, where the order decides an exact zero.

A sum whose terms cancel (softmax's gradient under a uniform seed, ``g - Σ g·y`` with ``Σ y = 1``)
comes out exactly 0 in one order of addition and a few ulps off it in another; a later op that
divides by it (sqrt's gradient at 0) turns that into 0 against inf. numpy sums pairwise, torch's
vectorised kernels do not, so where such a sum feeds the result the reference adds in torch's
order:

- along the last dimension: fewer terms than one vector are added one after
  another; otherwise the first vector of products, then each further full vector added lane by
  lane, then the tail (float32: fused, the compiler contracts that product-and-add), then the
  lanes reduced (float32: as a tree, halves, then quarters, as the shuffles pair them; float64:
  one after another);
- along another dimension: a running fused multiply-add, one slice after another.

The vector is the 512-bit one torch dispatches to on AVX-512 machines (16 float32 or 8 float64
lanes), and torch runs on one thread, as the conformance run's backends do (with several, the
rows of a many-row input take a path whose float32 tail is not fused). Measured against torch
2.13's ``_softmax_backward_data`` on one thread, bit for bit, on random float32 and float64
inputs of 1 to 3 dimensions and up to 40 elements along the dimension
(``tests/test_kernel_order.py``).
"""

from __future__ import annotations

import numpy as np

__all__ = ["fused_multiply_add", "softmax_backward"]

_VECTOR_BYTES = 64
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


def softmax_backward(grad: np.ndarray, output: np.ndarray, dim: int) -> np.ndarray:
    """torch's ``_softmax_backward_data`` on the CPU: ``output * (grad - Σ grad·output)`` along
    ``dim``, the sum added in the kernel's order (this module's docstring)."""
    if grad.ndim == 0:
        return softmax_backward(grad.reshape(1), output.reshape(1), 0).reshape(())
    dim = dim % grad.ndim
    g, y = np.moveaxis(grad, dim, -1), np.moveaxis(output, dim, -1)
    if dim == grad.ndim - 1:
        total = _vector_sum(g, y)
    else:
        total = _running_sum(g, y)
    return np.moveaxis(y * (g - total[..., None]), -1, dim)


def _vector_sum(g: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``Σ g·y`` over the last axis as torch's ``map2_reduce_all`` adds it."""
    count = g.shape[-1]
    lanes = _VECTOR_BYTES // g.dtype.itemsize
    products = g * y
    if count < lanes:
        return _one_after_another(products, count)
    full = count - count % lanes
    acc = products[..., :lanes].copy()
    for start in range(lanes, full, lanes):
        acc = acc + products[..., start:start + lanes]
    tail = count - full
    if tail and g.dtype == np.float32:
        acc[..., :tail] = fused_multiply_add(g[..., full:], y[..., full:], acc[..., :tail])
    elif tail:
        acc[..., :tail] = acc[..., :tail] + products[..., full:]
    if g.dtype != np.float32:
        return _one_after_another(acc, lanes)
    step = lanes // 2
    while step:
        acc = acc + acc[..., np.arange(lanes) ^ step]
        step //= 2
    return acc[..., 0]


def _one_after_another(terms: np.ndarray, count: int) -> np.ndarray:
    """The first ``count`` terms along the last axis, added first to last."""
    total = np.zeros(terms.shape[:-1], terms.dtype)
    for i in range(count):
        total = total + terms[..., i]
    return total


def _running_sum(g: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``Σ g·y`` over the last axis as one fused multiply-add per slice, first to last."""
    total = np.zeros(g.shape[:-1], g.dtype)
    for i in range(g.shape[-1]):
        total = fused_multiply_add(g[..., i], y[..., i], total)
    return total
