"""``torch.nn.functional``: the activations the reference engine models."""

from __future__ import annotations

from typing import Optional

from reference_engine import composed as C
from reference_engine import ops as F
from reference_engine import rules as R
from reference_engine.tensor import Tensor
from reference_engine.torch_policy import torch_size

__all__ = ["binary_cross_entropy", "binary_cross_entropy_with_logits", "cross_entropy", "elu", "gelu",
           "l1_loss", "leaky_relu", "linear", "log_softmax", "mse_loss", "nll_loss", "normalize", "relu",
           "sigmoid", "silu", "softmax", "softplus", "tanh"]

sigmoid = F.sigmoid


def _not_in_place(name: str, inplace: bool) -> None:
    if inplace:
        raise NotImplementedError(f"{name}(inplace=True) is not modelled by the reference engine")


def relu(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    _not_in_place("relu", inplace)
    return F.relu(input)


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
    """The reduced squared difference: one MseLossBackward0 (input, target)."""
    _check_target_size(input, target)
    return _loss("mse_loss", input, target, reduction)


def linear(input: Tensor, weight: Tensor, bias: Optional[Tensor] = None) -> Tensor:  # noqa: A002
    """``input @ weight.T + bias`` (with a bias: one AddmmBackward0 over the input's rows)."""
    return F.linear(input, weight, bias)


def nll_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:  # noqa: A002
    """Minus the log-probability of each row's target class (``input``: (N, C) log-probabilities,
    ``target``: N class indices)."""
    classes = tuple(int(c) for c in target._data.reshape(-1))
    return F.apply(R.RULES["nll_loss"], (input,), {"classes": classes, "reduction": reduction})


def cross_entropy(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:  # noqa: A002
    """``nll_loss(log_softmax(input, 1), target)`` for class-index targets."""
    return nll_loss(F.log_softmax(input, 1), target, reduction)


def _check_target_size(input: Tensor, target: Tensor) -> None:  # noqa: A002
    """torch warns where a regression loss's target would broadcast against its input."""
    if target._data.shape != input._data.shape:
        input._policy.warn("loss_target_size", stacklevel=4, target=torch_size(target._data.shape),
                           input=torch_size(input._data.shape))


def _loss(op: str, input: Tensor, target: Tensor, reduction: str) -> Tensor:  # noqa: A002
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return F.apply(R.RULES[op], (input, target), {"reduction": reduction})


def binary_cross_entropy_with_logits(input: Tensor, target: Tensor,  # noqa: A002
                                     reduction: str = "mean") -> Tensor:
    """``max(x, 0) - x·y + log(1 + exp(-|x|))``, torch's stable form: one node."""
    return _loss("binary_cross_entropy_with_logits", input, target, reduction)


def binary_cross_entropy(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:  # noqa: A002
    """``-(y·log(p) + (1 - y)·log(1 - p))``, logs clamped at -100 as torch clamps them: one
    node."""
    return _loss("binary_cross_entropy", input, target, reduction)


def l1_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:  # noqa: A002
    """``|input - target|``, reduced: composed (AbsBackward0, then MeanBackward0 or SumBackward0)."""
    _check_target_size(input, target)
    return C.l1_loss(input, target, reduction)


def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12) -> Tensor:  # noqa: A002
    """``input`` over its ``p``-norm along ``dim``, the norm held at ``eps`` or more (DivBackward0)."""
    norm = F.clamp(F.norm(input, p, dim, keepdim=True), eps)
    return F.div(input, F.expand(norm, input._data.shape))
