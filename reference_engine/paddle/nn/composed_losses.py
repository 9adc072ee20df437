"""paddle's losses that its Python composes from other ops, composed the same way (so their
nodes, dtypes and second derivatives are those of the ops paddle calls)."""

from __future__ import annotations

import math
from typing import Optional

from reference_engine import composed as C
from reference_engine import ops as F
from reference_engine import recorder
from reference_engine.dialects.paddle_policy import PADDLE
from reference_engine.paddle.nn.activation_functions import log_sigmoid
from reference_engine.rule import RULES
from reference_engine.tensor import Tensor

__all__ = ["gaussian_nll_loss", "hinge_embedding_loss", "margin_ranking_loss", "multi_label_soft_margin_loss",
           "poisson_nll_loss", "sigmoid_focal_loss", "soft_margin_loss", "square_error_cost"]


def mean_all(loss: Tensor) -> Tensor:
    """The mean a paddle loss reduces with: its ``mean_all`` kernel (MeanAllGradNode), which
    has no double grad, unlike ``paddle.mean``'s."""
    return C.named(F.mean(loss, api="mean_all_kernel"), "MeanAllGradNode")


def _check_reduction(reduction: str, api: str) -> None:
    if reduction not in ("sum", "mean", "none"):
        raise PADDLE.error("loss_reduction", api=api, reduction=reduction)


def _reduced(loss: Tensor, reduction: str) -> Tensor:
    """paddle.sum / paddle.mean of every element, or the loss itself."""
    from reference_engine.paddle import _core as P

    if reduction == "sum":
        return P.sum(loss)
    return P.mean(loss) if reduction == "mean" else loss


def margin_ranking_loss(input: Tensor, other: Tensor, label: Tensor, margin: float = 0.0,  # noqa: A002
                        reduction: str = "mean", name: Optional[str] = None) -> Tensor:
    """``relu(label · (other - input) + margin)``, the margin a [1] tensor added where it is
    not 0, summed or averaged by the ``mean_all`` kernel."""
    from reference_engine.paddle import _core as P

    _check_reduction(reduction, "MarginRankingLoss")
    out = P.multiply(P.subtract(other, input), label)
    if margin != 0.0:
        out = P.add(out, P.to_tensor([margin], dtype=out.dtype))
    out = F.relu(out)
    if reduction == "sum":
        return P.sum(out)
    return mean_all(out) if reduction == "mean" else out


def soft_margin_loss(input: Tensor, label: Tensor, reduction: str = "mean",  # noqa: A002
                     name: Optional[str] = None) -> Tensor:
    """``log(1 + exp(-label · input))``, the label cast to the input's dtype."""
    from reference_engine.paddle import _core as P

    _check_reduction(reduction, "soft_margin_loss")
    if list(input.shape) != list(label.shape):
        raise ValueError("input's shape must equal to label's shape")
    label = P.cast(label, input.dtype)
    return _reduced(P.log(1 + P.exp(-label * input)), reduction)


def hinge_embedding_loss(input: Tensor, label: Tensor, margin: float = 1.0,  # noqa: A002
                         reduction: str = "mean", name: Optional[str] = None) -> Tensor:
    """``input`` where the label is 1, ``relu(margin - input)`` where it is -1, zero elsewhere."""
    from reference_engine.paddle import _core as P

    if reduction not in ("sum", "mean", "none"):
        raise ValueError("'reduction' in 'hinge_embedding_loss' should be 'sum', 'mean' or 'none', "
                         f"but received {reduction}.")
    zero = P.zeros([1], dtype=input.dtype)
    loss = P.where(label == 1.0, input, zero) + P.where(label == -1.0, F.relu(margin - input), zero)
    return _reduced(loss, reduction)


def square_error_cost(input: Tensor, label: Tensor) -> Tensor:  # noqa: A002
    """``(input - label)²`` elementwise (subtract, then square)."""
    from reference_engine.paddle import _core as P

    return P.square(P.subtract(input, label))


def sigmoid_focal_loss(logit: Tensor, label: Tensor, normalizer: Optional[Tensor] = None, alpha: float = 0.25,
                       gamma: float = 2.0, reduction: str = "sum", name: Optional[str] = None) -> Tensor:
    """The logits loss scaled by ``alpha_t · (1 - p_t)^gamma`` (then divided by ``normalizer``):
    paddle's kernels in paddle's order, the sum or mean_all of all elements."""
    from reference_engine.paddle import _core as P

    _check_reduction(reduction, "sigmoid_focal_loss")
    if normalizer is not None and len(normalizer.shape) > 1:
        raise ValueError("Expected zero or one dimension of normalizer in sigmoid_focal_loss but got "
                         f"{len(normalizer.shape)}.")
    one = P.full_like(logit, 1.0)
    loss = recorder.apply(RULES["sigmoid_cross_entropy_with_logits"], (logit, label))
    pred = F.sigmoid(logit)
    p_t = P.add(P.multiply(pred, label), P.multiply(P.subtract(one, pred), P.subtract(one, label)))
    alpha_ = P.to_tensor(alpha, dtype=loss.dtype)
    alpha_t = P.add(P.multiply(alpha_, label), P.multiply(P.subtract(one, alpha_), P.subtract(one, label)))
    loss = P.multiply(alpha_t, loss)
    loss = P.multiply(P.pow(P.subtract(one, p_t), P.to_tensor(gamma, dtype=loss.dtype)), loss)
    if normalizer is not None:
        loss = P.divide(loss, normalizer)
    if reduction == "sum":
        return P.sum(loss)
    return mean_all(loss) if reduction == "mean" else loss


def poisson_nll_loss(input: Tensor, label: Tensor, log_input: bool = True, full: bool = False,  # noqa: A002
                     epsilon: float = 1e-8, reduction: str = "mean", name: Optional[str] = None) -> Tensor:
    """``exp(input) - label · input`` (``log_input``) or ``input - label · log(input + eps)``,
    with Stirling's term where the label exceeds 1 (``full``)."""
    from reference_engine.paddle import _core as P

    if epsilon <= 0:
        raise ValueError(f"The value of `epsilon` in poisson_nll_loss should be positive, but received "
                         f"{epsilon:f}, which is not allowed")
    _check_reduction(reduction, "poisson_nll_loss")
    if list(input.shape) != list(label.shape):
        raise ValueError("input's shape must equal to label's shape")
    loss = P.exp(input) - label * input if log_input else input - label * P.log(input + epsilon)
    if full:
        stirling = label * P.log(label) - label + 0.5 * P.log(2 * math.pi * label)
        loss += P.where(label > 1, stirling, P.zeros_like(stirling))
    return _reduced(loss, reduction)


def gaussian_nll_loss(input: Tensor, label: Tensor, variance: Tensor, full: bool = False,  # noqa: A002
                      epsilon: float = 1e-6, reduction: str = "mean", name: Optional[str] = None) -> Tensor:
    """``0.5 · (log v + (input - label)² / v)``, the variance clamped to ``epsilon`` without
    recording (plus ``0.5 log 2π`` with ``full``)."""
    from reference_engine.paddle import _core as P

    if list(variance.shape) != list(input.shape):
        if list(input.shape[:-1]) == list(variance.shape):
            variance = P.unsqueeze(variance, -1)
        elif not (list(input.shape[:-1]) == list(variance.shape[:-1]) and variance.shape[-1] == 1):
            raise ValueError("variance is of incorrect shape")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    if (variance._data < 0).any():
        raise ValueError("variance has negative entry/entries")
    variance = variance.clone()
    with P.no_grad():
        variance = P.clip(variance, min=epsilon)
    loss = 0.5 * (P.log(variance) + P.square(input - label) / variance)
    if full:
        loss += 0.5 * math.log(2 * math.pi)
    return _reduced(loss, reduction)


def multi_label_soft_margin_loss(input: Tensor, label: Tensor, weight: Optional[Tensor] = None,  # noqa: A002
                                 reduction: str = "mean", name: Optional[str] = None) -> Tensor:
    """``-(label · log σ(x) + (1 - label) · log σ(-x))`` (times ``weight``), averaged over the
    last axis, then reduced."""
    if reduction not in ("sum", "mean", "none"):
        raise ValueError("'reduction' in 'multi_label_soft_margin_loss' should be 'sum', 'mean' or 'none', "
                         f"but received {reduction}.")
    if list(input.shape) != list(label.shape):
        raise ValueError("The input and label should have same dimension,"
                         f"but received {input.shape}!={label.shape}")
    loss = -(label * log_sigmoid(input) + (1 - label) * log_sigmoid(-input))
    if weight is not None:
        loss = loss * weight
    return _reduced(loss.mean(axis=-1), reduction)
