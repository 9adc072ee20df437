"""``torch.nn.functional``: the activations the reference engine models."""

from __future__ import annotations

from typing import Optional

from reference_engine import ops as F
from reference_engine.tensor import Tensor

__all__ = ["cross_entropy", "linear", "log_softmax", "mse_loss", "nll_loss", "relu", "sigmoid",
           "softmax", "tanh"]

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


def linear(input: Tensor, weight: Tensor, bias: Optional[Tensor] = None) -> Tensor:  # noqa: A002
    """``input @ weight.T + bias``."""
    out = F.matmul(input, F.transpose(weight, 0, 1))
    return out if bias is None else F.add(out, bias)


def nll_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:  # noqa: A002
    """Minus the log-probability of each row's target class (``input``: (N, C) log-probabilities,
    ``target``: N class indices)."""
    rows = list(range(input._data.shape[0]))
    picked = F.neg(F.getitem(input, (rows, [int(c) for c in target._data.reshape(-1)])))
    if reduction == "none":
        return picked
    return F.sum(picked) if reduction == "sum" else F.mean(picked)


def cross_entropy(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:  # noqa: A002
    """``nll_loss(log_softmax(input, 1), target)`` for class-index targets."""
    return nll_loss(F.log_softmax(input, 1), target, reduction)
