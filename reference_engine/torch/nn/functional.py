"""``torch.nn.functional``: the activations the reference engine models."""

from __future__ import annotations

from typing import Optional

from reference_engine import ops as F
from reference_engine.tensor import Tensor

__all__ = ["binary_cross_entropy", "binary_cross_entropy_with_logits", "cross_entropy", "elu", "gelu",
           "leaky_relu", "linear", "log_softmax", "mse_loss", "nll_loss", "relu", "sigmoid", "silu",
           "softmax", "softplus", "tanh"]

relu = F.relu
sigmoid = F.sigmoid


def _not_in_place(name: str, inplace: bool) -> None:
    if inplace:
        raise NotImplementedError(f"{name}(inplace=True) is not modelled by the reference engine")


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:  # noqa: A002
    _not_in_place("leaky_relu", inplace)
    return F.leaky_relu(input, negative_slope)


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:  # noqa: A002
    return F.activation("softplus", input, beta=beta, threshold=threshold)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:  # noqa: A002
    _not_in_place("elu", inplace)
    return F.activation("elu", input, alpha=alpha)


def gelu(input: Tensor, approximate: str = "none") -> Tensor:  # noqa: A002
    return F.activation("gelu", input, approximate=approximate)


def silu(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    _not_in_place("silu", inplace)
    return F.activation("silu", input)
tanh = F.tanh


def softmax(input: Tensor, dim: Optional[int] = None) -> Tensor:  # noqa: A002
    return F.softmax(input, -1 if dim is None else dim)


def log_softmax(input: Tensor, dim: Optional[int] = None) -> Tensor:  # noqa: A002
    return F.log_softmax(input, -1 if dim is None else dim)


def mse_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:  # noqa: A002
    squared = F.pow(F.sub(input, target), 2)
    return _reduce(squared, reduction)


def linear(input: Tensor, weight: Tensor, bias: Optional[Tensor] = None) -> Tensor:  # noqa: A002
    """``input @ weight.T + bias`` (with a bias: one AddmmBackward0 over the input's rows)."""
    return F.linear(input, weight, bias)


def nll_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:  # noqa: A002
    """Minus the log-probability of each row's target class (``input``: (N, C) log-probabilities,
    ``target``: N class indices)."""
    rows = list(range(input._data.shape[0]))
    picked = F.neg(F.getitem(input, (rows, [int(c) for c in target._data.reshape(-1)])))
    return _reduce(picked, reduction)


def cross_entropy(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:  # noqa: A002
    """``nll_loss(log_softmax(input, 1), target)`` for class-index targets."""
    return nll_loss(F.log_softmax(input, 1), target, reduction)


def _reduce(loss: Tensor, reduction: str) -> Tensor:
    if reduction == "none":
        return loss
    return F.sum(loss) if reduction == "sum" else F.mean(loss)


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor,  # noqa: A002
                                     reduction: str = "mean") -> Tensor:
    """``max(x, 0) - x·y + log(1 + exp(-|x|))``, torch's stable form."""
    loss = F.add(F.sub(F.relu(input), F.mul(input, target)),
                 F.log(F.add(F.exp(F.neg(F.abs(input))), 1)))
    return _reduce(loss, reduction)


def binary_cross_entropy(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:  # noqa: A002
    """``-(y·log(p) + (1 - y)·log(1 - p))``, logs clamped at -100 as torch clamps them."""
    log_p = F.clamp(F.log(input), -100.0)
    log_q = F.clamp(F.log(F.sub(1, input)), -100.0)
    loss = F.neg(F.add(F.mul(target, log_p), F.mul(F.sub(1, target), log_q)))
    return _reduce(loss, reduction)
