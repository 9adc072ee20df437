"""``paddle.nn.functional``: the activations the reference engine models."""

from __future__ import annotations

from reference_engine import ops as F
from reference_engine.tensor import Tensor

__all__ = ["log_softmax", "mse_loss", "relu", "sigmoid", "softmax", "tanh"]

relu = F.relu
sigmoid = F.sigmoid
tanh = F.tanh


def softmax(x: Tensor, axis: int = -1) -> Tensor:
    return F.softmax(x, axis)


def log_softmax(x: Tensor, axis: int = -1) -> Tensor:
    return F.log_softmax(x, axis)


def mse_loss(input: Tensor, label: Tensor, reduction: str = "mean") -> Tensor:  # noqa: A002
    """The mean (or sum) of squared differences, as paddle composes it."""
    squared = F.pow(F.sub(input, label), 2.0)
    if reduction == "none":
        return squared
    return F.sum(squared) if reduction == "sum" else F.mean(squared)
