"""``torch.distributions``' exponential families of positive and simplex values: ``Gamma``,
``Dirichlet``, ``Beta`` (a two-category Dirichlet, as torch builds it), ``Poisson``,
``LogNormal`` and ``OneHotCategorical``, with ``kl_divergence`` between two of one kind. Each
computes as torch 2.13's Python does (the same operations in the same order). Their draws use
kernels of torch's own (``_standard_gamma``, ``_sample_dirichlet``, ``poisson``) that the
reference does not reproduce, so sampling them is refused by name; ``LogNormal`` and
``OneHotCategorical`` draw through the normal and the categorical, as torch does."""

from __future__ import annotations

from numbers import Number
from typing import Any, Optional, Sequence

from reference_engine.messages import not_supported
from reference_engine.torch import _core as T
from reference_engine.torch.distributions.base import Categorical, Distribution, Normal, _parameters
from reference_engine.torch.extras import as_tensor

__all__ = ["Beta", "Dirichlet", "Gamma", "LogNormal", "OneHotCategorical", "Poisson", "kl_divergence_of"]


def _refused_draw(name: str) -> Any:
    return not_supported(f"{name} sampling (torch's own sampling kernel)", "torch")


class Gamma(Distribution):
    """The gamma distribution of ``concentration`` and ``rate``."""

    parameters = ("concentration", "rate")

    def __init__(self, concentration: Any, rate: Any, validate_args: Optional[bool] = None) -> None:
        self.concentration, self.rate = _parameters(concentration, rate)
        numbers = isinstance(concentration, Number) and isinstance(rate, Number)
        super().__init__(() if numbers else tuple(self.concentration.shape))

    @property
    def mean(self) -> T.Tensor:
        return self.concentration / self.rate

    @property
    def mode(self) -> T.Tensor:
        return ((self.concentration - 1) / self.rate).clamp(min=0)

    @property
    def variance(self) -> T.Tensor:
        return self.concentration / self.rate.pow(2)

    def rsample(self, sample_shape: Sequence[int] = ()) -> T.Tensor:
        raise _refused_draw("Gamma")

    sample = rsample

    def log_prob(self, value: Any) -> T.Tensor:
        value = as_tensor(value, dtype=self.rate.dtype)
        return (self.concentration.xlogy(self.rate) + (self.concentration - 1).xlogy(value)
                - self.rate * value - self.concentration.lgamma())

    def entropy(self) -> T.Tensor:
        return (self.concentration - T.log(self.rate) + self.concentration.lgamma()
                + (1.0 - self.concentration) * self.concentration.digamma())


class Dirichlet(Distribution):
    """The Dirichlet distribution over the last dimension of ``concentration``."""

    parameters = ("concentration",)

    def __init__(self, concentration: T.Tensor, validate_args: Optional[bool] = None) -> None:
        if concentration.dim() < 1:
            raise ValueError("`concentration` parameter must be at least one-dimensional.")
        self.concentration = concentration
        super().__init__(tuple(concentration.shape[:-1]), tuple(concentration.shape[-1:]))

    def rsample(self, sample_shape: Sequence[int] = ()) -> T.Tensor:
        raise _refused_draw("Dirichlet")

    sample = rsample

    def log_prob(self, value: T.Tensor) -> T.Tensor:
        return ((self.concentration - 1.0).xlogy(value).sum(-1) + self.concentration.sum(-1).lgamma()
                - self.concentration.lgamma().sum(-1))

    @property
    def mean(self) -> T.Tensor:
        return self.concentration / self.concentration.sum(-1, True)

    @property
    def variance(self) -> T.Tensor:
        con0 = self.concentration.sum(-1, True)
        return self.concentration * (con0 - self.concentration) / (con0.pow(2) * (con0 + 1))

    def entropy(self) -> T.Tensor:
        k = self.concentration.size(-1)
        a0 = self.concentration.sum(-1)
        return (self.concentration.lgamma().sum(-1) - a0.lgamma() - (k - a0) * a0.digamma()
                - ((self.concentration - 1.0) * self.concentration.digamma()).sum(-1))


class Beta(Distribution):
    """The beta distribution of ``concentration1`` and ``concentration0``: a Dirichlet of the
    two stacked along a last dimension."""

    parameters = ()  # (torch prints none: its parameters are the Dirichlet's)

    def __init__(self, concentration1: Any, concentration0: Any,
                 validate_args: Optional[bool] = None) -> None:
        if isinstance(concentration1, Number) and isinstance(concentration0, Number):
            both = T.tensor([float(concentration1), float(concentration0)])
        else:
            concentration1, concentration0 = _parameters(concentration1, concentration0)
            both = T.stack([concentration1, concentration0], -1)
        self._dirichlet = Dirichlet(both)
        super().__init__(tuple(self._dirichlet.batch_shape))

    @property
    def concentration1(self) -> T.Tensor:
        return self._dirichlet.concentration[..., 0]

    @property
    def concentration0(self) -> T.Tensor:
        return self._dirichlet.concentration[..., 1]

    @property
    def mean(self) -> T.Tensor:
        return self.concentration1 / (self.concentration1 + self.concentration0)

    @property
    def variance(self) -> T.Tensor:
        total = self.concentration1 + self.concentration0
        return self.concentration1 * self.concentration0 / (total.pow(2) * (total + 1))

    def rsample(self, sample_shape: Sequence[int] = ()) -> T.Tensor:
        raise _refused_draw("Beta")

    sample = rsample

    def log_prob(self, value: T.Tensor) -> T.Tensor:
        return self._dirichlet.log_prob(T.stack([value, 1.0 - value], -1))

    def entropy(self) -> T.Tensor:
        return self._dirichlet.entropy()


class Poisson(Distribution):
    """The Poisson distribution of ``rate``."""

    parameters = ("rate",)

    def __init__(self, rate: Any, validate_args: Optional[bool] = None) -> None:
        (self.rate,) = _parameters(rate)
        super().__init__(() if isinstance(rate, Number) else tuple(self.rate.shape))

    @property
    def mean(self) -> T.Tensor:
        return self.rate

    @property
    def mode(self) -> T.Tensor:
        return self.rate.floor()

    @property
    def variance(self) -> T.Tensor:
        return self.rate

    def sample(self, sample_shape: Sequence[int] = ()) -> T.Tensor:
        raise _refused_draw("Poisson")

    def log_prob(self, value: Any) -> T.Tensor:
        rate, value = _parameters(self.rate, value)
        return value.xlogy(rate) - rate - (value + 1).lgamma()


class LogNormal(Distribution):
    """exp of a normal (torch's TransformedDistribution of Normal by ExpTransform): log_prob is
    the normal's at ``log y`` less the Jacobian's ``log y``; draws are the normal's, exponentiated."""

    parameters = ()

    def __init__(self, loc: Any, scale: Any, validate_args: Optional[bool] = None) -> None:
        self.base_dist = Normal(loc, scale, validate_args)
        super().__init__(tuple(self.base_dist.batch_shape))

    @property
    def loc(self) -> T.Tensor:
        return self.base_dist.loc

    @property
    def scale(self) -> T.Tensor:
        return self.base_dist.scale

    @property
    def mean(self) -> T.Tensor:
        return (self.loc + self.scale.pow(2) / 2).exp()

    @property
    def variance(self) -> T.Tensor:
        scale_sq = self.scale.pow(2)
        return scale_sq.expm1() * (2 * self.loc + scale_sq).exp()

    def sample(self, sample_shape: Sequence[int] = ()) -> T.Tensor:
        with T.no_grad():
            return self.base_dist.sample(sample_shape).exp()

    def rsample(self, sample_shape: Sequence[int] = ()) -> T.Tensor:
        return self.base_dist.rsample(sample_shape).exp()

    def log_prob(self, value: T.Tensor) -> T.Tensor:
        x = value.log()
        return 0.0 - x + self.base_dist.log_prob(x)

    def entropy(self) -> T.Tensor:
        return self.base_dist.entropy() + self.loc


class OneHotCategorical(Distribution):
    """A categorical's draws as one-hot vectors: log_prob at a vector's largest entry."""

    parameters = ()

    def __init__(self, probs: Optional[T.Tensor] = None, logits: Optional[T.Tensor] = None,
                 validate_args: Optional[bool] = None) -> None:
        self._categorical = Categorical(probs, logits)
        param = self._categorical.probs if probs is not None else self._categorical.logits
        super().__init__(tuple(self._categorical.batch_shape), tuple(param.shape[-1:]))

    @property
    def probs(self) -> T.Tensor:
        return self._categorical.probs

    @property
    def logits(self) -> T.Tensor:
        return self._categorical.logits

    @property
    def mean(self) -> T.Tensor:
        return self._categorical.probs

    @property
    def variance(self) -> T.Tensor:
        return self._categorical.probs * (1 - self._categorical.probs)

    def sample(self, sample_shape: Sequence[int] = ()) -> T.Tensor:
        from reference_engine.torch.nn.functional import one_hot

        probs = self._categorical.probs
        indices = self._categorical.sample(sample_shape)
        return one_hot(indices, probs.shape[-1]).to(probs)

    def log_prob(self, value: T.Tensor) -> T.Tensor:
        return self._categorical.log_prob(value.max(-1)[1])

    def entropy(self) -> T.Tensor:
        return self._categorical.entropy()


def kl_divergence_of(p: Distribution, q: Distribution) -> Optional[T.Tensor]:
    """KL(p ‖ q) for two of one kind of this module's (torch's ``_kl_*`` formulas), or None."""
    if type(p) is not type(q):
        return None
    if isinstance(p, Beta):
        sum_p = p.concentration1 + p.concentration0
        sum_q = q.concentration1 + q.concentration0
        t1 = q.concentration1.lgamma() + q.concentration0.lgamma() + sum_p.lgamma()
        t2 = p.concentration1.lgamma() + p.concentration0.lgamma() + sum_q.lgamma()
        t3 = (p.concentration1 - q.concentration1) * p.concentration1.digamma()
        t4 = (p.concentration0 - q.concentration0) * p.concentration0.digamma()
        t5 = (sum_q - sum_p) * sum_p.digamma()
        return t1 - t2 + t3 + t4 + t5
    if isinstance(p, Gamma):
        t1 = q.concentration * (p.rate / q.rate).log()
        t2 = q.concentration.lgamma() - p.concentration.lgamma()
        t3 = (p.concentration - q.concentration) * p.concentration.digamma()
        t4 = (q.rate - p.rate) * (p.concentration / p.rate)
        return t1 + t2 + t3 + t4
    if isinstance(p, Poisson):
        return p.rate * (p.rate.log() - q.rate.log()) - (p.rate - q.rate)
    if isinstance(p, Dirichlet):
        sum_p, sum_q = p.concentration.sum(-1), q.concentration.sum(-1)
        t1 = sum_p.lgamma() - sum_q.lgamma()
        t2 = (p.concentration.lgamma() - q.concentration.lgamma()).sum(-1)
        t3 = p.concentration - q.concentration
        t4 = p.concentration.digamma() - sum_p.digamma().unsqueeze(-1)
        return t1 - t2 + (t3 * t4).sum(-1)
    return None
