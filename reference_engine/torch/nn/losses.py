"""``torch.nn``'s divergence, similarity and margin modules over their functionals: each keeps
the settings it was made with (reduction, ``delta``, ``margin``, ``dim``)."""

from __future__ import annotations

import warnings
from typing import Any

from reference_engine.torch._core import Tensor
from reference_engine.torch.nn import functional
from reference_engine.torch.nn.modules import Module

__all__ = ["CosineEmbeddingLoss", "CosineSimilarity", "HuberLoss", "KLDivLoss", "MarginRankingLoss",
           "PairwiseDistance", "TripletMarginLoss"]


class _Loss(Module):
    """``torch.nn.modules.loss._Loss``: the base custom losses subclass, holding ``reduction``
    (the legacy ``size_average`` / ``reduce`` flags folded into it, with torch's warning)."""

    def __init__(self, size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> None:
        super().__init__()
        if size_average is not None or reduce is not None:
            reduction = legacy_reduction(size_average, reduce)
        self.reduction = reduction


class _WeightedLoss(_Loss):
    """``torch.nn.modules.loss._WeightedLoss``: a loss with a ``weight`` buffer."""

    def __init__(self, weight: Any = None, size_average: Any = None, reduce: Any = None,
                 reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)


def legacy_reduction(size_average: Any, reduce: Any) -> str:
    """The ``reduction`` torch reads from the legacy flags (each None meaning True), warning
    as torch warns."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    reduction = "mean" if size_average and reduce else ("sum" if reduce else "none")
    warnings.warn(f"size_average and reduce args will be deprecated, please use reduction='{reduction}' "
                  "instead.", UserWarning, stacklevel=3)
    return reduction


class CosineSimilarity(Module):
    """``cosine_similarity`` along ``dim``."""

    def __init__(self, dim: int = 1, eps: float = 1e-8) -> None:
        super().__init__()
        self.dim, self.eps = dim, eps

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return functional.cosine_similarity(x1, x2, self.dim, self.eps)


class KLDivLoss(Module):
    """``kl_div`` with the reduction and target form it was made with."""

    def __init__(self, size_average: Any = None, reduce: Any = None, reduction: str = "mean",
                 log_target: bool = False) -> None:
        super().__init__()
        self.reduction, self.log_target = reduction, log_target

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return functional.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)


class HuberLoss(Module):
    """``huber_loss`` with the reduction and ``delta`` it was made with."""

    def __init__(self, reduction: str = "mean", delta: float = 1.0) -> None:
        super().__init__()
        self.reduction, self.delta = reduction, delta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return functional.huber_loss(input, target, self.reduction, self.delta)


class MarginRankingLoss(Module):
    """``margin_ranking_loss`` with the margin and reduction it was made with."""

    def __init__(self, margin: float = 0.0, size_average: Any = None, reduce: Any = None,
                 reduction: str = "mean") -> None:
        super().__init__()
        self.margin, self.reduction = margin, reduction

    def forward(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:
        return functional.margin_ranking_loss(input1, input2, target, self.margin, reduction=self.reduction)


class TripletMarginLoss(Module):
    """``triplet_margin_loss`` with the settings it was made with."""

    def __init__(self, margin: float = 1.0, p: float = 2.0, eps: float = 1e-6, swap: bool = False,
                 size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> None:
        super().__init__()
        self.margin, self.p, self.eps, self.swap, self.reduction = margin, p, eps, swap, reduction

    def forward(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        return functional.triplet_margin_loss(anchor, positive, negative, self.margin, self.p, self.eps,
                                              self.swap, reduction=self.reduction)


class CosineEmbeddingLoss(Module):
    """``cosine_embedding_loss`` with the margin and reduction it was made with."""

    def __init__(self, margin: float = 0.0, size_average: Any = None, reduce: Any = None,
                 reduction: str = "mean") -> None:
        super().__init__()
        self.margin, self.reduction = margin, reduction

    def forward(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:
        return functional.cosine_embedding_loss(input1, input2, target, self.margin, reduction=self.reduction)


class PairwiseDistance(Module):
    """``pairwise_distance`` with the settings it was made with."""

    def __init__(self, p: float = 2.0, eps: float = 1e-6, keepdim: bool = False) -> None:
        super().__init__()
        self.norm, self.eps, self.keepdim = p, eps, keepdim

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return functional.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)
