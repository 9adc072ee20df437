"""``torch.nn``'s divergence, similarity and margin modules over their functionals: each keeps
the settings it was made with (reduction, ``delta``, ``margin``, ``dim``)."""

from __future__ import annotations

from typing import Any

from reference_engine.torch._core import Tensor
from reference_engine.torch.nn import functional
from reference_engine.torch.nn.modules import Module
from reference_engine.torch.nn.reductions import legacy_reduction

__all__ = ["CELU", "CosineEmbeddingLoss", "CosineSimilarity", "GaussianNLLLoss", "HingeEmbeddingLoss",
           "HuberLoss", "KLDivLoss", "MarginRankingLoss", "MultiLabelSoftMarginLoss", "MultiMarginLoss",
           "PairwiseDistance", "PoissonNLLLoss", "SoftMarginLoss", "TripletMarginLoss"]


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


class SoftMarginLoss(_Loss):
    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return functional.soft_margin_loss(input, target, reduction=self.reduction)


class HingeEmbeddingLoss(_Loss):
    def __init__(self, margin: float = 1.0, size_average: Any = None, reduce: Any = None,
                 reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return functional.hinge_embedding_loss(input, target, self.margin, reduction=self.reduction)


class PoissonNLLLoss(_Loss):
    def __init__(self, log_input: bool = True, full: bool = False, size_average: Any = None,
                 eps: float = 1e-8, reduce: Any = None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.log_input, self.full, self.eps = log_input, full, eps

    def forward(self, log_input: Tensor, target: Tensor) -> Tensor:
        return functional.poisson_nll_loss(log_input, target, self.log_input, self.full, eps=self.eps,
                                           reduction=self.reduction)


class GaussianNLLLoss(_Loss):
    def __init__(self, *, full: bool = False, eps: float = 1e-6, reduction: str = "mean") -> None:
        super().__init__(None, None, reduction)
        self.full, self.eps = full, eps

    def forward(self, input: Tensor, target: Tensor, var: Any) -> Tensor:  # noqa: A002
        return functional.gaussian_nll_loss(input, target, var, self.full, self.eps, self.reduction)


class MultiLabelSoftMarginLoss(_WeightedLoss):
    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return functional.multilabel_soft_margin_loss(input, target, self.weight, reduction=self.reduction)


class MultiMarginLoss(_WeightedLoss):
    def __init__(self, p: int = 1, margin: float = 1.0, weight: Any = None, size_average: Any = None,
                 reduce: Any = None, reduction: str = "mean") -> None:
        if p not in (1, 2):
            raise ValueError("only p == 1 and p == 2 supported")
        super().__init__(weight, size_average, reduce, reduction)
        self.p, self.margin = p, margin

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return functional.multi_margin_loss(input, target, self.p, self.margin, self.weight,
                                            reduction=self.reduction)


class CELU(Module):
    """``celu`` with the ``alpha`` it was made with."""

    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None:
        super().__init__()
        self.alpha, self.inplace = alpha, inplace

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return functional.celu(input, self.alpha, self.inplace)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}" + (", inplace=True" if self.inplace else "")
