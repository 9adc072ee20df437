"""``paddle.nn.functional``: the activations the reference engine models."""

from __future__ import annotations

from reference_engine import ops as F
from reference_engine.tensor import Tensor

__all__ = ["log_softmax", "relu", "sigmoid", "softmax", "tanh"]

relu = F.relu
sigmoid = F.sigmoid
tanh = F.tanh


def softmax(x: Tensor, axis: int = -1) -> Tensor:
    return F.softmax(x, axis)


def log_softmax(x: Tensor, axis: int = -1) -> Tensor:
    return F.log_softmax(x, axis)
