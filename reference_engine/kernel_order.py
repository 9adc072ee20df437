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

Whether ``Σ y`` is exactly 1 depends on the softmax's outputs themselves, so the forward is
torch's too (``softmax``): SLEEF's exponentials (``reference_engine.sleef``), summed in the same
order, scaled as each of torch's two kernels scales them. Measured bit for bit on the same
inputs.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import math
from typing import Callable, Optional

import numpy as np

from reference_engine import sleef
from reference_engine.fused import fused_multiply_add

__all__ = ["log_softmax", "log_softmax_backward", "softmax", "softmax_backward"]

_VECTOR_BYTES = 64


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


def softmax(a: np.ndarray, dim: int) -> np.ndarray:
    """torch's CPU softmax of float32 or float64 ``a`` along ``dim``, bit for bit, contiguous.

    Along the last dimension (``_vec_softmax_lastdim``): SLEEF's exponentials of ``a - max``,
    their sum in ``reduce_all``'s order, times its inverse. Along another (``_vec_softmax``):
    columns in whole vectors take SLEEF's exponentials, the rest the C library's; either sums
    one slice after another and divides by the sum."""
    dim = dim % a.ndim
    if dim == a.ndim - 1:
        e = sleef.exp(a - np.max(a, axis=-1, keepdims=True))
        with np.errstate(all="ignore"):
            return np.ascontiguousarray(e * (a.dtype.type(1) / _lane_sum(e))[..., None])
    rows = _as_rows(a, dim)
    shifted = rows - np.max(rows, axis=1, keepdims=True)
    e = _column_exponentials(shifted)
    with np.errstate(all="ignore"):
        out = e / _one_after_another(np.moveaxis(e, 1, -1), e.shape[1])[:, None, :]
    return np.ascontiguousarray(out.reshape(a.shape))


def log_softmax(a: np.ndarray, dim: int) -> np.ndarray:
    """torch's CPU log_softmax of float32 or float64 ``a`` along ``dim``, bit for bit:
    ``(a - max) - log(Σ exp(a - max))``, SLEEF's ``log`` of the sums, which add the
    exponentials as softmax's kernels do (``reduce_all``'s order along the last dimension;
    along another, one slice after another, SLEEF's exponentials for the columns in whole
    vectors and the C library's for the rest)."""
    dim = dim % a.ndim
    if dim == a.ndim - 1:
        shifted = a - np.max(a, axis=-1, keepdims=True)
        return np.ascontiguousarray(shifted - sleef.log(_lane_sum(sleef.exp(shifted)))[..., None])
    rows = _as_rows(a, dim)
    shifted = rows - np.max(rows, axis=1, keepdims=True)
    total = _one_after_another(np.moveaxis(_column_exponentials(shifted), 1, -1), rows.shape[1])
    return np.ascontiguousarray((shifted - sleef.log(total)[:, None, :]).reshape(a.shape))


def log_softmax_backward(grad: np.ndarray, output: np.ndarray, dim: int) -> np.ndarray:
    """torch's ``_log_softmax_backward_data`` on the CPU: ``grad - exp(output) Σ grad`` with
    the product and difference fused (the compiler contracts them), SLEEF's exponentials (the
    C library's for the columns left over from whole vectors, along another dimension than the
    last), the sum in ``reduce_all``'s order along the last dimension, else slice by slice."""
    if grad.ndim == 0:
        return log_softmax_backward(grad.reshape(1), output.reshape(1), 0).reshape(())
    dim = dim % grad.ndim
    if dim == grad.ndim - 1:
        e = sleef.exp(output)
        total = np.broadcast_to(_lane_sum(grad)[..., None], e.shape)
        return fused_multiply_add(-e, np.ascontiguousarray(total), grad)
    g, y = _as_rows(grad, dim), _as_rows(output, dim)
    e = _column_exponentials(y)
    total = np.broadcast_to(_one_after_another(np.moveaxis(g, 1, -1), g.shape[1])[:, None, :], e.shape)
    return fused_multiply_add(-e, np.ascontiguousarray(total), g).reshape(grad.shape)


def _as_rows(a: np.ndarray, dim: int) -> np.ndarray:
    """``a`` as (outer, ``dim``'s size, inner): the layout torch's kernels walk along another
    dimension than the last, the inner positions its columns."""
    return a.reshape(int(np.prod(a.shape[:dim], dtype=np.int64)), a.shape[dim], -1)


def _column_exponentials(rows: np.ndarray) -> np.ndarray:
    """``exp`` of (outer, dim, inner) ``rows`` as those kernels compute it: SLEEF's for the
    columns in whole vectors, the C library's for the rest."""
    vectored = rows.shape[2] - rows.shape[2] % (_VECTOR_BYTES // rows.dtype.itemsize)
    e = np.empty_like(rows)
    e[..., :vectored] = sleef.exp(rows[..., :vectored])
    e[..., vectored:] = _library_exp(rows[..., vectored:])
    return e


def _library_exp(x: np.ndarray) -> np.ndarray:
    """``std::exp`` of each element: the C library's ``exp`` (what ``math.exp`` calls) or, for
    float32, its ``expf``, which is not always the correctly rounded value (glibc's errs by up to
    0.502 ulp). Where no C library can be loaded, float32 is rounded from float64."""
    values = x.ravel().tolist()
    if x.dtype == np.float32:
        expf = _c_expf()
        if expf is None:
            with np.errstate(all="ignore"):
                return np.exp(x.astype(np.float64)).astype(np.float32)
        return np.asarray([expf(v) for v in values], x.dtype).reshape(x.shape)
    flat = [math.exp(v) if v < 709 else (math.inf if v == v else v) for v in values]
    return np.asarray(flat, x.dtype).reshape(x.shape)


@functools.cache
def _c_expf() -> Optional[Callable[[float], float]]:
    """The C library's ``expf``, or None where it cannot be found."""
    name = ctypes.util.find_library("m")
    try:
        expf = ctypes.CDLL(name).expf
    except (OSError, AttributeError, TypeError):
        return None
    expf.restype, expf.argtypes = ctypes.c_float, [ctypes.c_float]
    return expf


def _vector_sum(g: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``Σ g·y`` over the last axis as torch's ``map2_reduce_all`` adds it."""
    return _lane_sum(g * y, factors=(g, y))


def _lane_sum(terms: np.ndarray,
              factors: Optional[tuple[np.ndarray, np.ndarray]] = None) -> np.ndarray:
    """``Σ terms`` over the last axis as torch's ``reduce_all`` adds them. ``factors``: the terms
    are these products, and a float32 tail is added to them fused (``map2_reduce_all``)."""
    count = terms.shape[-1]
    lanes = _VECTOR_BYTES // terms.dtype.itemsize
    if count < lanes:
        return _one_after_another(terms, count)
    full = count - count % lanes
    acc = terms[..., :lanes].copy()
    for start in range(lanes, full, lanes):
        acc = acc + terms[..., start:start + lanes]
    tail = count - full
    if tail and factors is not None and terms.dtype == np.float32:
        g, y = factors
        acc[..., :tail] = fused_multiply_add(g[..., full:], y[..., full:], acc[..., :tail])
    elif tail:
        acc[..., :tail] = acc[..., :tail] + terms[..., full:]
    if terms.dtype != np.float32:
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
