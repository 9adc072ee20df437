"""``torch.nn.functional``: the activations the reference engine models."""

from __future__ import annotations

from typing import Optional

from reference_engine import ops as F
from reference_engine.tensor import Tensor

__all__ = ["log_softmax", "mse_loss", "relu", "sigmoid", "softmax", "tanh"]

relu = F.relu
sigmoid = F.sigmoid
tanh = F.tanh


def softmax(input: Tensor, dim: Optional[int] = None) -> Tensor:  # noqa: A002
    return F.softmax(input, -1 if dim is None else dim)


def log_softmax(input: Tensor, dim: Optional[int] = None) -> Tensor:  # noqa: A002
    return F.log_softmax(input, -1 if dim is None else dim)


def mse_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:  # noqa: A002
    squared = F.pow(F.sub(input, target), 2)
    if reduction == "none":
        return squared
    return F.sum(squared) if reduction == "sum" else F.mean(squared)
