"""``torch.distributions``' base and its location-scale and categorical families: ``Categorical``,
``Bernoulli``, ``Normal``, ``Uniform``, ``Exponential``, ``Laplace``, ``Independent`` and
``MultivariateNormal``, the distributions reinforcement-learning and VAE code reaches for. Each
computes as torch 2.13's Python does (the same operations in the same order,
so values and gradients agree), and draws by torch's generator: ``multinomial`` for a
categorical, ``bernoulli`` and ``normal`` for the others.

torch validates a distribution's arguments by default; the reference checks the normal's scale
(the check a program most often trips) and leaves the others' constraints unchecked.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Optional, Sequence

from reference_engine.torch import _core as T
from reference_engine.torch.extras import broadcast_tensors, eye, flip, multinomial
from reference_engine.torch.random import bernoulli, normal, rand
from reference_engine.torch.type_info import finfo

__all__ = ["Bernoulli", "Categorical", "Distribution", "Exponential", "Independent", "Laplace",
           "MultivariateNormal", "Normal", "Uniform"]


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


def _sum_rightmost(value: T.Tensor, dims: int) -> T.Tensor:
    return value if dims == 0 else value.reshape(tuple(value.shape[:-dims]) + (-1,)).sum(-1)


class Independent(Distribution):
    """``base_distribution`` with its rightmost ``reinterpreted_batch_ndims`` batch dimensions
    read as event dimensions: ``log_prob`` and ``entropy`` summed over them."""

    def __init__(self, base_distribution: Distribution, reinterpreted_batch_ndims: int,
                 validate_args: Optional[bool] = None) -> None:
        if reinterpreted_batch_ndims > len(base_distribution.batch_shape):
            raise ValueError("Expected reinterpreted_batch_ndims <= len(base_distribution.batch_shape), "
                             f"actual {reinterpreted_batch_ndims} vs {len(base_distribution.batch_shape)}")
        shape = tuple(base_distribution.batch_shape) + tuple(base_distribution.event_shape)
        event_dims = reinterpreted_batch_ndims + len(base_distribution.event_shape)
        self.base_dist, self.reinterpreted_batch_ndims = base_distribution, reinterpreted_batch_ndims
        super().__init__(shape[:len(shape) - event_dims], shape[len(shape) - event_dims:])

    @property
    def mean(self) -> T.Tensor:
        return self.base_dist.mean

    @property
    def mode(self) -> T.Tensor:
        return self.base_dist.mode

    @property
    def variance(self) -> T.Tensor:
        return self.base_dist.variance

    def sample(self, sample_shape: Sequence[int] = ()) -> T.Tensor:
        return self.base_dist.sample(sample_shape)

    def rsample(self, sample_shape: Sequence[int] = ()) -> T.Tensor:
        return self.base_dist.rsample(sample_shape)

    def log_prob(self, value: T.Tensor) -> T.Tensor:
        return _sum_rightmost(self.base_dist.log_prob(value), self.reinterpreted_batch_ndims)

    def entropy(self) -> T.Tensor:
        return _sum_rightmost(self.base_dist.entropy(), self.reinterpreted_batch_ndims)

    def __repr__(self) -> str:
        return f"Independent({self.base_dist!r}, {self.reinterpreted_batch_ndims})"


class MultivariateNormal(Distribution):
    """The multivariate normal of mean ``loc`` and covariance ``L Lᵀ``, given by the covariance
    (``L`` its Cholesky factor), its lower factor ``scale_tril`` or the precision matrix (the
    factor of its inverse). Draws are ``loc + L ε`` with ``ε`` from torch's normal draws;
    ``log_prob`` solves with ``L`` (the Mahalanobis distance) and subtracts the log of its
    diagonal."""

    parameters = ("loc", "covariance_matrix", "scale_tril", "precision_matrix")

    def __init__(self, loc: T.Tensor, covariance_matrix: Optional[T.Tensor] = None,
                 precision_matrix: Optional[T.Tensor] = None, scale_tril: Optional[T.Tensor] = None,
                 validate_args: Optional[bool] = None) -> None:
        from reference_engine.torch import linalg

        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        if (covariance_matrix is not None) + (scale_tril is not None) + (precision_matrix is not None) != 1:
            raise ValueError("Exactly one of covariance_matrix or precision_matrix or scale_tril may be "
                             "specified.")
        matrix = next(m for m in (scale_tril, covariance_matrix, precision_matrix) if m is not None)
        if matrix.dim() < 2:
            raise ValueError("scale_tril matrix must be at least two-dimensional, with optional leading "
                             "batch dimensions" if scale_tril is not None else
                             f"{'covariance' if covariance_matrix is not None else 'precision'}_matrix must "
                             "be at least two-dimensional, with optional leading batch dimensions")
        batch_shape = tuple(broadcast_tensors(matrix[..., 0], loc)[0].shape[:-1])
        full = batch_shape + (-1, -1)
        if scale_tril is not None:
            self.scale_tril = scale_tril.expand(full)
            self._unbroadcasted_scale_tril = scale_tril
        elif covariance_matrix is not None:
            self.covariance_matrix = covariance_matrix.expand(full)
            self._unbroadcasted_scale_tril = linalg.cholesky(covariance_matrix)
        else:
            self.precision_matrix = precision_matrix.expand(full)
            flipped = flip(linalg.cholesky(flip(precision_matrix, (-2, -1))), (-2, -1))
            identity = eye(precision_matrix.shape[-1], dtype=precision_matrix.dtype)
            self._unbroadcasted_scale_tril = linalg.solve_triangular(flipped.mT, identity, upper=False)
        self.loc = loc.expand(batch_shape + (-1,))
        super().__init__(batch_shape, tuple(self.loc.shape[-1:]))

    @lazy_property
    def scale_tril(self) -> T.Tensor:
        return self._unbroadcasted_scale_tril.expand(self._extended_shape() + tuple(self.event_shape))

    @lazy_property
    def covariance_matrix(self) -> T.Tensor:
        factor = self._unbroadcasted_scale_tril
        return T.matmul(factor, factor.mT).expand(self._extended_shape() + tuple(self.event_shape))

    @lazy_property
    def precision_matrix(self) -> T.Tensor:
        from reference_engine.torch.cholesky_ops import cholesky_inverse

        return cholesky_inverse(self._unbroadcasted_scale_tril).expand(
            self._extended_shape() + tuple(self.event_shape))

    @property
    def mean(self) -> T.Tensor:
        return self.loc

    @property
    def mode(self) -> T.Tensor:
        return self.loc

    @property
    def variance(self) -> T.Tensor:
        return self._unbroadcasted_scale_tril.pow(2).sum(-1).expand(self._extended_shape())

    def sample(self, sample_shape: Sequence[int] = ()) -> T.Tensor:
        with T.no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape: Sequence[int] = ()) -> T.Tensor:
        eps = T.empty(self._extended_shape(sample_shape), dtype=self.loc.dtype).normal_()
        return self.loc + T.matmul(self._unbroadcasted_scale_tril, eps.unsqueeze(-1)).squeeze(-1)

    def _half_log_det(self) -> T.Tensor:
        return self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)

    def log_prob(self, value: T.Tensor) -> T.Tensor:
        from reference_engine.torch import linalg

        diff = value - self.loc
        factor = self._unbroadcasted_scale_tril
        shape = tuple(broadcast_tensors(factor[..., 0], diff)[0].shape)
        solved = linalg.solve_triangular(factor.expand(shape + (shape[-1],)), diff.unsqueeze(-1), upper=False)
        mahalanobis = solved.squeeze(-1).pow(2).sum(-1)
        return -0.5 * (self.event_shape[0] * math.log(2 * math.pi) + mahalanobis) - self._half_log_det()

    def entropy(self) -> T.Tensor:
        entropy = 0.5 * self.event_shape[0] * (1.0 + math.log(2 * math.pi)) + self._half_log_det()
        return entropy if len(self.batch_shape) == 0 else entropy.expand(tuple(self.batch_shape))

