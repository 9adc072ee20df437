"""Activations each framework runs as one kernel, composed here from the engine's operations so
that their derivatives of every order come from the derivative table. Each facade shows the
result under its framework's node name (``composed.named``); paddle's kernels without a double
grad are recorded inside ``graph.as_kernel`` so that a create_graph pass through them refuses
as paddle does.

A composition follows its kernel's branches, so the gradient at a branch point is the
kernel's: hardswish's at -3 is 0 and at 3 is 1 (measured on paddle 3.3.1 and torch 2.13.0).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import numpy as np

from reference_engine import ops as F

if TYPE_CHECKING:
    from reference_engine.tensor import Tensor

# selu's constants, as both frameworks write them
SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


def _mask(x: Tensor, values: np.ndarray) -> Tensor:
    return F.constant_like(x, np.asarray(values, dtype=bool))


def hardtanh(x: Tensor, low: float, high: float) -> Tensor:
    """``x`` clipped to [low, high]; the gradient passes strictly inside only (both frameworks'
    hardtanh, relu6 and hardsigmoid kernels)."""
    data = x._data
    inside = (data > low) & (data < high)
    clipped = np.clip(data, np.asarray(low, data.dtype), np.asarray(high, data.dtype))
    return F.where(_mask(x, inside), x, F.constant_like(x, clipped))


def hardswish(x: Tensor) -> Tensor:
    """``x * relu6(x + 3) / 6``: ``x * 0`` up to -3 (-0 for a negative ``x``), ``x`` from 3 on,
    ``x (x + 3) / 6`` between."""
    data = x._data
    middle = F.div(F.mul(x, F.add(x, 3.0)), 6.0)
    return F.where(_mask(x, data <= -3), F.mul(x, 0.0), F.where(_mask(x, data >= 3), x, middle))


def mish(x: Tensor) -> Tensor:
    """``x * tanh(softplus(x))``."""
    return F.mul(x, F.tanh(F.activation("softplus", x, beta=1.0, threshold=20.0)))


def log_sigmoid(x: Tensor, by_log_sum_exp: bool = False) -> Tensor:
    """``log(sigmoid(x))`` as ``-softplus(-x)`` (torch's ``min(x, 0) - log1p(exp(-|x|))`` to
    rounding), or with ``by_log_sum_exp`` as paddle's kernel computes it, ``-t - log(exp(-t) +
    exp(-x - t))`` for ``t = max(-x, 0)``, which rounds to -0 where ``exp(-x)`` is below a
    float's epsilon."""
    if not by_log_sum_exp:
        return F.neg(F.activation("softplus", F.neg(x), beta=1.0, threshold=20.0))
    t = F.relu(F.neg(x))
    return F.sub(F.neg(t), F.log(F.add(F.exp(F.neg(t)), F.exp(F.sub(F.neg(x), t)))))


def softsign(x: Tensor) -> Tensor:
    """``x / (1 + |x|)``, as torch composes it."""
    return F.div(x, F.add(F.abs(x), 1.0))


def selu(x: Tensor) -> Tensor:
    """``scale * elu(x, alpha)`` with the self-normalising constants (torch's composition;
    paddle's kernel is the ``selu`` rule, whose gradient reads its output)."""
    return F.mul(F.activation("elu", x, alpha=SELU_ALPHA), SELU_SCALE)


def glu(x: Tensor, dim: int) -> Tensor:
    """The gated linear unit: the first half along ``dim`` times the sigmoid of the second."""
    d = F.normalize_dim(type(x), dim, x._data.ndim)
    half = x._data.shape[d] // 2
    first, second = F.split(x, [half, half], d, False)
    return F.mul(first, F.sigmoid(second))


def prelu(x: Tensor, weight: Tensor, channel_dim: Optional[int] = 1) -> Tensor:
    """``x`` where positive, else ``weight * x`` with one weight per channel (or one for all);
    at 0 the weight's branch, as both kernels take it."""
    w = weight
    if weight._data.size > 1 and x._data.ndim > 1 and channel_dim is not None:
        shape = [1] * x._data.ndim
        shape[channel_dim] = weight._data.size
        w = F.reshape(weight, shape)
    return F.where(_mask(x, x._data > 0), x, F.mul(w, x))
