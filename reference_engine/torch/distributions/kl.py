"""``torch.distributions.kl_divergence``: torch's formula for each pair of one kind."""

from __future__ import annotations

from reference_engine.messages import not_supported
from reference_engine.torch import _core as T
from reference_engine.torch.distributions import families
from reference_engine.torch.distributions.base import Distribution, Normal

__all__ = ["kl_divergence"]


def kl_divergence(p: Distribution, q: Distribution) -> T.Tensor:
    """KL(p ‖ q) for two normals (torch's ``_kl_normal_normal``) or two of one kind of
    ``families``."""
    family = families.kl_divergence_of(p, q)
    if family is not None:
        return family
    if not (isinstance(p, Normal) and isinstance(q, Normal)):
        raise not_supported(f"kl_divergence of {type(p).__name__} and {type(q).__name__}", "torch")
    var_ratio = (p.scale / q.scale).pow(2)
    t1 = ((p.loc - q.loc) / q.scale).pow(2)
    return 0.5 * (var_ratio + t1 - 1 - var_ratio.log())
