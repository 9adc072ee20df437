"""``paddle.nn.functional``: the activations and losses the reference engine models (losses are
composed from the core's operations)."""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from reference_engine import composed as C
from reference_engine import ops as F
from reference_engine import rules as R
from reference_engine.tensor import Tensor

__all__ = ["binary_cross_entropy_with_logits",
           "cross_entropy", "elu", "gelu", "l1_loss", "leaky_relu", "linear", "log_softmax", "mse_loss",
           "normalize", "relu", "sigmoid", "silu", "softmax", "softplus", "tanh"]

sigmoid = F.sigmoid
tanh = F.tanh


def relu(x: Tensor, name: Optional[str] = None) -> Tensor:
    return F.relu(x)


def leaky_relu(x: Tensor, negative_slope: float = 0.01, name: Optional[str] = None) -> Tensor:
    return F.leaky_relu(x, negative_slope)


def softplus(x: Tensor, beta: float = 1, threshold: float = 20, name: Optional[str] = None) -> Tensor:
    return F.activation("softplus", x, beta=beta, threshold=threshold)


def elu(x: Tensor, alpha: float = 1.0, name: Optional[str] = None) -> Tensor:
    return F.activation("elu", x, alpha=alpha)


def gelu(x: Tensor, approximate: bool = False, name: Optional[str] = None) -> Tensor:
    return F.activation("gelu", x, approximate="tanh" if approximate else "none")


def silu(x: Tensor, name: Optional[str] = None) -> Tensor:
    return F.activation("silu", x)


def softmax(x: Tensor, axis: int = -1, dtype: Any = None, name: Optional[str] = None) -> Tensor:
    return F.softmax(x, axis)


def log_softmax(x: Tensor, axis: int = -1, dtype: Any = None, name: Optional[str] = None) -> Tensor:
    return F.log_softmax(x, axis)


def mse_loss(input: Tensor, label: Tensor, reduction: str = "mean") -> Tensor:  # noqa: A002
    """The mean (or sum) of squared differences, as paddle composes it."""
    squared = F.pow(F.sub(input, label), 2.0)
    if reduction == "none":
        return squared
    return F.sum(squared) if reduction == "sum" else F.mean(squared)


def l1_loss(input: Tensor, label: Tensor, reduction: str = "mean",  # noqa: A002
            name: Optional[str] = None) -> Tensor:
    """``|input - label|``, reduced (MeanAllGradNode for the mean), as paddle composes it."""
    if reduction not in ("sum", "mean", "none"):
        raise ValueError("The value of 'reduction' in L1Loss should be 'sum', 'mean' or 'none', "
                         f"but received {reduction}, which is not allowed.")
    loss = C.l1_loss(input, label, reduction)
    return C.named(loss, "MeanAllGradNode") if reduction == "mean" else loss


def normalize(x: Tensor, p: float = 2, axis: int = 1, epsilon: float = 1e-12,
              name: Optional[str] = None) -> Tensor:
    """``x`` over its ``p``-norm along ``axis``, the norm held at ``epsilon`` or more, as paddle
    composes it (DivideGradNode)."""
    floor = F.constant_like(x, np.full([1], epsilon, x._data.dtype))
    return F.div(x, F.maximum(F.norm(x, p, axis, keepdim=True), floor))


def linear(x: Tensor, weight: Tensor, bias: Optional[Tensor] = None, name: Optional[str] = None) -> Tensor:
    """``x @ weight + bias``, ``weight`` of shape (in_features, out_features) as paddle keeps it."""
    out = F.matmul(x, weight)
    return out if bias is None else F.add(out, bias)


def cross_entropy(input: Tensor, label: Tensor, weight: Optional[Tensor] = None,  # noqa: A002
                  ignore_index: int = -100, reduction: str = "mean", soft_label: bool = False,
                  axis: int = -1, use_softmax: bool = True, name: Optional[str] = None) -> Tensor:
    """Hard labels (shape (N,) or (N, 1)) over the last axis: ``-log_softmax(input)[n, label[n]]``."""
    if soft_label or weight is not None or axis not in (-1, input._data.ndim - 1):
        raise NotImplementedError("cross_entropy: the reference engine models hard labels over "
                                  "the last axis, without weights")
    log_p = F.log_softmax(input, -1) if use_softmax else F.log(input)
    rows = list(range(input._data.shape[0]))
    picked = F.neg(F.getitem(log_p, (rows, [int(c) for c in label._data.reshape(-1)])))
    if reduction == "none":  # (N,) or (N, 1), as the labels: paddle's kernel gives (N, 1)
        out = F.reshape(picked, label._data.shape)
        kernel = "CrossEntropyWithSoftmaxGradNode" if use_softmax else None
        name = "SqueezeGradNode" if label._data.ndim == 1 else kernel
        return C.named(out, name, input) if name else out
    return F.sum(picked) if reduction == "sum" else _mean_all(picked)


def binary_cross_entropy_with_logits(logit: Tensor, label: Tensor, weight: Optional[Tensor] = None,
                                     reduction: str = "mean", pos_weight: Optional[Tensor] = None,
                                     name: Optional[str] = None) -> Tensor:
    """paddle's ``sigmoid_cross_entropy_with_logits`` kernel elementwise (one node), then the sum
    or the mean of all elements (MeanAllGradNode)."""
    if weight is not None or pos_weight is not None:
        raise NotImplementedError("binary_cross_entropy_with_logits: the reference engine models "
                                  "it without weight and pos_weight")
    if reduction not in ("mean", "sum", "none"):
        raise ValueError("The value of 'reduction' in binary_cross_entropy_with_logits should be "
                         f"'sum', 'mean' or 'none', but received {reduction}, which is not allowed.")
    loss = C.named(F.apply(R.RULES["binary_cross_entropy_with_logits"], (logit, label),
                           {"reduction": "none"}), "SigmoidCrossEntropyWithLogitsGradNode", logit)
    if reduction == "none":
        return loss
    return F.sum(loss) if reduction == "sum" else _mean_all(loss)


def _mean_all(loss: Tensor) -> Tensor:
    """The mean a paddle loss reduces with: its ``mean_all`` kernel (MeanAllGradNode), which
    has no double grad, unlike ``paddle.mean``'s."""
    return C.named(F.mean(loss, api="mean_all_kernel"), "MeanAllGradNode")
