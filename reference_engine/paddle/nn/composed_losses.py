"""paddle's losses that its Python composes from other ops, composed the same way (so their
nodes, dtypes and second derivatives are those of the ops paddle calls)."""

from __future__ import annotations

from typing import Optional

from reference_engine import composed as C
from reference_engine import ops as F
from reference_engine.dialects.paddle_policy import PADDLE
from reference_engine.tensor import Tensor

__all__ = ["hinge_embedding_loss", "margin_ranking_loss", "soft_margin_loss", "square_error_cost"]


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
