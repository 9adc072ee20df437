"""Divergence and similarity measures both frameworks compose from elementwise operations:
the Kullback-Leibler divergence's pointwise terms and the cosine similarity, each in the order
its framework computes it (their kernels and Python code differ: torch divides each vector by
its clamped norm, paddle divides the dot product by the root of the clipped product of squared
norms)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from reference_engine import grad_mode
from reference_engine import ops as F

if TYPE_CHECKING:
    from reference_engine.tensor import Tensor


def kl_div_pointwise_torch(input: Tensor, target: Tensor, log_target: bool) -> Tensor:  # noqa: A002
    """torch's ``exp(t) (t - x)`` (log target) or ``xlogy(t, t) - t x``; ``xlogy`` is 0 where
    ``t`` is 0."""
    if log_target:
        return F.mul(F.exp(target), F.sub(target, input))
    zero = F.constant_like(target, target._data == 0)
    xlogy = F.where(zero, F.zeros_like(target), F.mul(target, F.log(target)))
    return F.sub(xlogy, F.mul(target, input))


def kl_div_pointwise_paddle(input: Tensor, label: Tensor, log_target: bool) -> Tensor:  # noqa: A002
    """paddle's kernel: ``exp(l) (l - x)`` (log target) or ``l (log(l) - x)`` where ``l > 0``,
    else 0 (with a gradient of +0); the label gets no gradient (the kernel computes none)."""
    label = F.constant_like(label, label._data)
    if log_target:
        return F.mul(F.exp(label), F.sub(label, input))
    positive = label._data > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.where(positive, np.log(label._data), 0).astype(label._data.dtype)
    # the input read where the label is positive only, so elsewhere its gradient is the kernel's 0
    kept = F.where(F.constant_like(label, positive), input, F.zeros_like(input))
    return F.mul(label, F.sub(F.constant_like(label, logs), kept))


def cosine_similarity_torch(x1: Tensor, x2: Tensor, dim: int, eps: float) -> Tensor:
    """torch 2.13's: each vector over its 2-norm (a copy clamped to ``eps`` without recording,
    so the gradient still flows through the norm), the products summed along ``dim``."""
    shape = F.broadcast_shape(type(x1), x1._data.shape, x2._data.shape)
    x1, x2 = (x if x._data.shape == shape else F.expand(x, shape) for x in (x1, x2))
    norms = []
    for x in (x1, x2):
        norm = F.clone(F.norm2(x, dim, keepdim=True))
        with grad_mode.no_grad():
            norm._data = np.maximum(norm._data, norm._data.dtype.type(eps))
        norms.append(norm)
    return F.sum(F.mul(F.div(x1, norms[0]), F.div(x2, norms[1])), dim)


def cosine_similarity_paddle(x1: Tensor, x2: Tensor, axis: int, eps: float) -> Tensor:
    """paddle's: ``sum(x1 x2) / sqrt(clip(sum(x1²) sum(x2²), eps²))`` along ``axis``."""
    w12 = F.sum(F.mul(x1, x2), axis)
    w1, w2 = F.sum(F.mul(x1, x1), axis), F.sum(F.mul(x2, x2), axis)
    return F.div(w12, F.sqrt(F.clamp(F.mul(w1, w2), eps * eps)))
