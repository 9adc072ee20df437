"""``torch.distributions``: ``Categorical``, ``Bernoulli`` and ``Normal``, and
``kl_divergence`` between two normals: the distributions reinforcement-learning and VAE code
reaches for. Each computes as torch 2.13's Python does (the same operations in the same order,
so values and gradients agree), and draws by torch's generator: ``multinomial`` for a
categorical, ``bernoulli`` and ``normal`` for the others.

torch validates a distribution's arguments by default; the reference checks the normal's scale
(the check a program most often trips) and leaves the others' constraints unchecked.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Optional, Sequence

from reference_engine.torch import _core as T
from reference_engine.torch.extras import broadcast_tensors, multinomial
from reference_engine.torch.random import bernoulli, normal, rand
from reference_engine.torch.type_info import finfo

__all__ = ["Bernoulli", "Categorical", "Distribution", "Exponential", "Laplace", "Normal", "Uniform",
           "kl_divergence"]


def _shape(sample_shape: Sequence[int]) -> tuple[int, ...]:
    return tuple(sample_shape)


class Distribution:
    """The base: ``batch_shape``, ``event_shape`` and torch's printout of the parameters."""

    parameters: tuple[str, ...] = ()

    def __init__(self, batch_shape: tuple[int, ...] = (), event_shape: tuple[int, ...] = ()) -> None:
        self.batch_shape, self.event_shape = T.Size(batch_shape), T.Size(event_shape)

    def _extended_shape(self, sample_shape: Sequence[int] = ()) -> tuple[int, ...]:
        return _shape(sample_shape) + tuple(self.batch_shape) + tuple(self.event_shape)

    @property
    def stddev(self) -> T.Tensor:
        return self.variance.sqrt()

    def __repr__(self) -> str:
        """The parameters computed so far (one given as the other is computed when first read,
        as torch's lazy properties are): a one-element one by value, others by size."""
        shown = ", ".join(f"{name}: {value if value.numel() == 1 else value.size()}"
                          for name in self.parameters if (value := self.__dict__.get(name)) is not None)
        return f"{type(self).__name__}({shown})"


class lazy_property:  # noqa: N801 - torch's name
    """torch's ``lazy_property``: computed on first read with recording on (also inside
    ``no_grad``), then kept in the instance's ``__dict__``, where the printout finds it."""

    def __init__(self, compute: Callable[[Any], T.Tensor]) -> None:
        self.compute, self.__doc__ = compute, compute.__doc__

    def __get__(self, instance: Any, owner: Any = None) -> Any:
        if instance is None:
            return self
        with T.enable_grad():
            value = self.compute(instance)
        instance.__dict__[self.compute.__name__] = value
        return value


def _clamped_probabilities(probs: T.Tensor) -> T.Tensor:
    eps = float(finfo(probs.dtype).eps)
    return probs.clamp(min=eps, max=1 - eps)


class Categorical(Distribution):
    """One of ``K`` categories, by ``probs`` (normalised to sum to 1) or ``logits`` (normalised
    by their log-sum-exp)."""

    parameters = ("probs", "logits")

    def __init__(self, probs: Optional[T.Tensor] = None, logits: Optional[T.Tensor] = None,
                 validate_args: Optional[bool] = None) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            self.probs = probs / probs.sum(-1, keepdim=True)
        else:
            self.logits = logits - logits.logsumexp(dim=-1, keepdim=True)
        given = self.probs if probs is not None else self.logits
        self._num_events = given.shape[-1]
        super().__init__(tuple(given.shape[:-1]))

    @lazy_property
    def probs(self) -> T.Tensor:
        return T.softmax(self.logits, -1)

    @lazy_property
    def logits(self) -> T.Tensor:
        return T.log(_clamped_probabilities(self.probs))

    def sample(self, sample_shape: Sequence[int] = ()) -> T.Tensor:
        with T.no_grad():
            shape = _shape(sample_shape)
            rows = self.probs.reshape(-1, self._num_events)
            drawn = multinomial(rows, math.prod(shape), True).T
            return drawn.reshape(self._extended_shape(shape))

    def log_prob(self, value: T.Tensor) -> T.Tensor:
        value = value.long().unsqueeze(-1)
        value, log_pmf = broadcast_tensors(value, self.logits)
        return log_pmf.gather(-1, value[..., :1]).squeeze(-1)

    def entropy(self) -> T.Tensor:
        logits = T.clamp(self.logits, min=float(finfo(self.logits.dtype).min))
        return -(logits * self.probs).sum(-1)

    @property
    def mean(self) -> T.Tensor:
        """Undefined for categories: nan, one per batch element."""
        return T.full(self._extended_shape(), math.nan, dtype=self.probs.dtype)

    @property
    def mode(self) -> T.Tensor:
        return self.probs.argmax(-1)

    @property
    def variance(self) -> T.Tensor:
        return T.full(self._extended_shape(), math.nan, dtype=self.probs.dtype)


class Bernoulli(Distribution):
    """1 with probability ``probs`` (or ``sigmoid(logits)``), else 0."""

    parameters = ("probs", "logits")

    def __init__(self, probs: Any = None, logits: Any = None, validate_args: Optional[bool] = None) -> None:
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            self.probs = probs if isinstance(probs, T.Tensor) else T.tensor(float(probs))
        else:
            self.logits = logits if isinstance(logits, T.Tensor) else T.tensor(float(logits))
        super().__init__(tuple((self.probs if probs is not None else self.logits).shape))

    @lazy_property
    def probs(self) -> T.Tensor:
        return T.sigmoid(self.logits)

    @lazy_property
    def logits(self) -> T.Tensor:
        clamped = _clamped_probabilities(self.probs)
        return T.log(clamped) - T.log1p(-clamped)

    def sample(self, sample_shape: Sequence[int] = ()) -> T.Tensor:
        with T.no_grad():
            return bernoulli(self.probs.expand(self._extended_shape(sample_shape)))

    def log_prob(self, value: T.Tensor) -> T.Tensor:
        from reference_engine.torch.nn.functional import binary_cross_entropy_with_logits

        logits, value = broadcast_tensors(self.logits, value)
        return -binary_cross_entropy_with_logits(logits, value, reduction="none")

    def entropy(self) -> T.Tensor:
        from reference_engine.torch.nn.functional import binary_cross_entropy_with_logits

        return binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")

    @property
    def mean(self) -> T.Tensor:
        return self.probs

    @property
    def mode(self) -> T.Tensor:
        """1 where ``probs`` is above one half, 0 below, nan at one half."""
        mode = (self.probs >= 0.5).to(self.probs)
        mode[self.probs == 0.5] = math.nan
        return mode

    @property
    def variance(self) -> T.Tensor:
        return self.probs * (1 - self.probs)


class Normal(Distribution):
    """The normal distribution of mean ``loc`` and standard deviation ``scale``."""

    parameters = ("loc", "scale")

    def __init__(self, loc: Any, scale: Any, validate_args: Optional[bool] = None) -> None:
        loc, scale = (v if isinstance(v, T.Tensor) else T.tensor(float(v)) for v in (loc, scale))
        self.loc, self.scale = broadcast_tensors(loc, scale)
        super().__init__(tuple(self.loc.shape))
        if validate_args is not False and not bool((self.scale > 0).all()):
            raise ValueError(f"Expected parameter scale (Tensor of shape {tuple(self.scale.shape)}) of "
                             f"distribution {self!r} to satisfy the constraint GreaterThan(lower_bound=0.0), "
                             f"but found invalid values:\n{self.scale}")

    @property
    def mean(self) -> T.Tensor:
        return self.loc

    @property
    def stddev(self) -> T.Tensor:
        return self.scale

    @property
    def variance(self) -> T.Tensor:
        return self.scale.pow(2)

    def sample(self, sample_shape: Sequence[int] = ()) -> T.Tensor:
        shape = self._extended_shape(sample_shape)
        with T.no_grad():
            return normal(self.loc.expand(shape), self.scale.expand(shape))

    def rsample(self, sample_shape: Sequence[int] = ()) -> T.Tensor:
        shape = self._extended_shape(sample_shape)
        eps = T.empty(shape, dtype=self.loc.dtype).normal_()
        return self.loc + eps * self.scale

    def log_prob(self, value: T.Tensor) -> T.Tensor:
        var = self.scale ** 2
        return -((value - self.loc) ** 2) / (2 * var) - self.scale.log() - math.log(math.sqrt(2 * math.pi))

    def entropy(self) -> T.Tensor:
        return 0.5 + 0.5 * math.log(2 * math.pi) + T.log(self.scale)


def _parameters(*values: Any) -> list[T.Tensor]:
    """Numbers made tensors of the default dtype, then all broadcast together."""
    return list(broadcast_tensors(*(v if isinstance(v, T.Tensor) else T.tensor(float(v)) for v in values)))


class Uniform(Distribution):
    """The uniform distribution on ``[low, high)``, drawn as ``low + rand · (high - low)``."""

    parameters = ("low", "high")

    def __init__(self, low: Any, high: Any, validate_args: Optional[bool] = None) -> None:
        self.low, self.high = _parameters(low, high)
        super().__init__(tuple(self.low.shape))

    @property
    def mean(self) -> T.Tensor:
        return (self.high + self.low) / 2

    @property
    def stddev(self) -> T.Tensor:
        return (self.high - self.low) / 12 ** 0.5

    @property
    def variance(self) -> T.Tensor:
        return (self.high - self.low).pow(2) / 12

    def sample(self, sample_shape: Sequence[int] = ()) -> T.Tensor:
        with T.no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape: Sequence[int] = ()) -> T.Tensor:
        unit = rand(self._extended_shape(sample_shape), dtype=self.low.dtype)
        return self.low + unit * (self.high - self.low)

    def log_prob(self, value: T.Tensor) -> T.Tensor:
        inside = self.low.le(value).type_as(self.low).mul(self.high.gt(value).type_as(self.low))
        return T.log(inside) - T.log(self.high - self.low)

    def cdf(self, value: T.Tensor) -> T.Tensor:
        return ((value - self.low) / (self.high - self.low)).clamp(min=0, max=1)

    def entropy(self) -> T.Tensor:
        return T.log(self.high - self.low)


class Exponential(Distribution):
    """The exponential distribution of ``rate``, drawn as ``exponential_() / rate``."""

    parameters = ("rate",)

    def __init__(self, rate: Any, validate_args: Optional[bool] = None) -> None:
        (self.rate,) = _parameters(rate)
        super().__init__(tuple(self.rate.shape))

    @property
    def mean(self) -> T.Tensor:
        return self.rate.reciprocal()

    @property
    def stddev(self) -> T.Tensor:
        return self.rate.reciprocal()

    @property
    def variance(self) -> T.Tensor:
        return self.rate.pow(-2)

    def sample(self, sample_shape: Sequence[int] = ()) -> T.Tensor:
        with T.no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape: Sequence[int] = ()) -> T.Tensor:
        return self.rate.new_empty(self._extended_shape(sample_shape)).exponential_() / self.rate

    def log_prob(self, value: T.Tensor) -> T.Tensor:
        return self.rate.log() - self.rate * value

    def cdf(self, value: T.Tensor) -> T.Tensor:
        return 1 - T.exp(-self.rate * value)

    def entropy(self) -> T.Tensor:
        return 1.0 - T.log(self.rate)


class Laplace(Distribution):
    """The Laplace distribution of ``loc`` and ``scale``, drawn by the inverse CDF of a uniform
    in ``[eps - 1, 1)``."""

    parameters = ("loc", "scale")

    def __init__(self, loc: Any, scale: Any, validate_args: Optional[bool] = None) -> None:
        self.loc, self.scale = _parameters(loc, scale)
        super().__init__(tuple(self.loc.shape))

    @property
    def mean(self) -> T.Tensor:
        return self.loc

    @property
    def stddev(self) -> T.Tensor:
        return (2 ** 0.5) * self.scale

    @property
    def variance(self) -> T.Tensor:
        return 2 * self.scale.pow(2)

    def sample(self, sample_shape: Sequence[int] = ()) -> T.Tensor:
        with T.no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape: Sequence[int] = ()) -> T.Tensor:
        eps = float(finfo(self.loc.dtype).eps)
        u = self.loc.new_empty(self._extended_shape(sample_shape)).uniform_(eps - 1, 1)
        return self.loc - self.scale * u.sign() * T.log1p(-u.abs())

    def log_prob(self, value: T.Tensor) -> T.Tensor:
        return -T.log(2 * self.scale) - T.abs(value - self.loc) / self.scale

    def entropy(self) -> T.Tensor:
        return 1 + T.log(2 * self.scale)


def kl_divergence(p: Distribution, q: Distribution) -> T.Tensor:
    """KL(p ‖ q) for two normals (torch's ``_kl_normal_normal``)."""
    if not (isinstance(p, Normal) and isinstance(q, Normal)):
        from reference_engine.messages import not_supported

        raise not_supported(f"kl_divergence of {type(p).__name__} and {type(q).__name__}", "torch")
    var_ratio = (p.scale / q.scale).pow(2)
    t1 = ((p.loc - q.loc) / q.scale).pow(2)
    return 0.5 * (var_ratio + t1 - 1 - var_ratio.log())
