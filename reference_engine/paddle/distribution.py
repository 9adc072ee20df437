"""``paddle.distribution``: ``Normal``, ``Uniform``, ``Categorical`` and ``kl_divergence``, computed as
paddle 3.3.1's Python computes them (the same operations in the same order), drawing by
paddle's generator: a normal's ``sample`` is Gaussian draws scaled and shifted, so gradients
reach ``loc`` and ``scale`` (as in paddle); a categorical samples ``multinomial`` of the
softmax of its logits, while its ``probs`` and ``log_prob`` normalise the logits by their sum
(paddle's own mix, kept)."""

from __future__ import annotations

import math
from typing import Any, Optional, Sequence

import numpy as np

from reference_engine import ops as F
from reference_engine.messages import not_supported
from reference_engine.paddle import _core as P
from reference_engine.paddle import extras

__all__ = ["Bernoulli", "Categorical", "Distribution", "Normal", "Uniform", "kl_divergence", "multinomial"]


def multinomial(x: P.Tensor, num_samples: int = 1, replacement: bool = False,
                name: Optional[str] = None) -> P.Tensor:
    """Indices drawn from each row's weights (int64): per sample a uniform of the weights'
    dtype from paddle's generator, searched in the row's cumulative sum (normalised by its
    total), as paddle's CPU kernel does; without replacement is not modelled."""
    if not replacement and num_samples > 1:
        raise not_supported("multinomial without replacement", "paddle")
    from reference_engine import rng

    weights = np.atleast_2d(x._data)
    rows = []
    for w in weights:
        cumulative = np.cumsum(w, dtype=w.dtype)
        cumulative = (cumulative / cumulative[-1]).astype(w.dtype)
        draws = rng.generator("paddle").uniform(0.0, 1.0, (num_samples,), w.dtype)
        rows.append(np.searchsorted(cumulative, draws, side="left"))
    drawn = np.asarray(rows, np.int64)
    return P._made(drawn if x._data.ndim == 2 else drawn[0])


class Distribution:
    """The base: ``batch_shape`` and ``event_shape``."""

    def __init__(self, batch_shape: Sequence[int] = (), event_shape: Sequence[int] = ()) -> None:
        self._batch_shape, self._event_shape = tuple(batch_shape), tuple(event_shape)

    @property
    def batch_shape(self) -> tuple[int, ...]:
        return self._batch_shape

    @property
    def event_shape(self) -> tuple[int, ...]:
        return self._event_shape

    def _extend_shape(self, sample_shape: Sequence[int]) -> tuple[int, ...]:
        return tuple(sample_shape) + self._batch_shape + self._event_shape


def _as_tensor(value: Any) -> P.Tensor:
    """A parameter given as a number, list or array: a float32 tensor (float64 arrays keep
    their dtype)."""
    if isinstance(value, P.Tensor):
        return value
    array = np.asarray(value)
    dtype = array.dtype if array.dtype in (np.float32, np.float64) and isinstance(value, np.ndarray) \
        else np.float32
    return P.to_tensor(array.astype(dtype))


class Normal(Distribution):
    """The normal distribution of mean ``loc`` and standard deviation ``scale``."""

    def __init__(self, loc: Any, scale: Any, name: Optional[str] = None) -> None:
        self.all_arg_is_float = isinstance(loc, (int, float)) and isinstance(scale, (int, float))
        self.loc, self.scale = _as_tensor(loc), _as_tensor(scale)
        if self.scale.dtype != self.loc.dtype:
            self.scale = P.cast(self.scale, self.loc.dtype)
        self.name = name or "Normal"
        super().__init__(list(self.loc.shape))

    @property
    def mean(self) -> P.Tensor:
        return self.loc

    @property
    def variance(self) -> P.Tensor:
        return self.scale.pow(2)

    @property
    def stddev(self) -> P.Tensor:
        return self.variance.sqrt()

    def _batch(self) -> list[int]:
        return list((self.loc + self.scale).shape)

    def sample(self, shape: Sequence[int] = (), seed: int = 0) -> P.Tensor:
        shape = list(shape)
        output_shape = shape + self._batch()
        drawn = P.randn(output_shape, dtype=self.loc.dtype) * (P.zeros(output_shape, dtype=self.loc.dtype)
                                                              + self.scale)
        output = P.add(drawn, self.loc)
        return P.reshape(output, shape) if self.all_arg_is_float else output

    def rsample(self, shape: Sequence[int] = ()) -> P.Tensor:
        eps = extras.normal(0.0, 1.0, list(self._extend_shape(shape)))
        return self.loc + eps * self.scale

    def entropy(self) -> P.Tensor:
        zeros = P.zeros(self._batch(), dtype=self.loc.dtype)
        return P.add(0.5 + zeros, 0.5 * math.log(2 * math.pi) + P.log(self.scale + zeros))

    def log_prob(self, value: P.Tensor) -> P.Tensor:
        value = value if value.dtype == self.loc.dtype else P.cast(value, self.loc.dtype)
        var = self.scale * self.scale
        return P.subtract(-1.0 * ((value - self.loc) * (value - self.loc)) / (2.0 * var),
                          P.log(self.scale) + math.log(math.sqrt(2.0 * math.pi)))

    def probs(self, value: P.Tensor) -> P.Tensor:
        value = value if value.dtype == self.loc.dtype else P.cast(value, self.loc.dtype)
        var = self.scale * self.scale
        return P.divide(P.exp(-1.0 * ((value - self.loc) * (value - self.loc)) / (2.0 * var)),
                        math.sqrt(2 * math.pi) * self.scale)

    def kl_divergence(self, other: Normal) -> P.Tensor:
        ratio = self.scale / other.scale
        ratio = ratio * ratio
        t1 = (self.loc - other.loc) / other.scale
        t1 = t1 * t1
        return P.add(0.5 * ratio, 0.5 * (t1 - 1.0 - P.log(ratio)))


class Uniform(Distribution):
    """The uniform distribution on ``[low, high)``: draws are paddle's uniform draws in [0, 1)
    scaled by ``high - low`` and shifted by ``low``; ``log_prob`` and ``probs`` are 0 (``-inf``)
    outside the open interval."""

    def __init__(self, low: Any, high: Any, name: Optional[str] = None) -> None:
        low = float(low) if isinstance(low, int) else low
        high = float(high) if isinstance(high, int) else high
        self.all_arg_is_float = isinstance(low, float) and isinstance(high, float)
        self.low, self.high = _as_tensor(low), _as_tensor(high)
        self.dtype = self.low.dtype
        self.name = name or "Uniform"
        super().__init__(list((self.low + self.high).shape))

    def sample(self, shape: Sequence[int] = (), seed: int = 0) -> P.Tensor:
        shape = list(shape)
        output_shape = shape + list((self.low + self.high).shape)
        drawn = extras.uniform(output_shape, dtype=self.dtype, min=0.0, max=1.0) * (
            P.zeros(output_shape, dtype=self.dtype) + (self.high - self.low))
        output = P.add(drawn, self.low)
        return P.reshape(output, shape) if self.all_arg_is_float else output

    def _inside(self, value: P.Tensor) -> P.Tensor:
        value = value if value.dtype == self.low.dtype else P.cast(value, self.low.dtype)
        return P.cast(self.low < value, value.dtype) * P.cast(value < self.high, value.dtype)

    def log_prob(self, value: P.Tensor) -> P.Tensor:
        return P.log(self._inside(value)) - P.log(self.high - self.low)

    def probs(self, value: P.Tensor) -> P.Tensor:
        return self._inside(value) / (self.high - self.low)

    def entropy(self) -> P.Tensor:
        return P.log(self.high - self.low)


class Categorical(Distribution):
    """A categorical distribution given by ``logits`` (paddle's name; see the module's note)."""

    def __init__(self, logits: Any, name: Optional[str] = None) -> None:
        self.logits = _as_tensor(logits)
        self.name = name or "Categorical"
        self._prob = self.logits / P.sum(self.logits, axis=-1, keepdim=True)
        super().__init__()

    def sample(self, shape: Sequence[int] = ()) -> P.Tensor:
        shape = list(shape)
        count = int(np.prod(shape)) if shape else 1
        logits_shape = list(self.logits.shape)
        logits = self.logits
        sample_shape = shape
        if len(logits_shape) > 1:
            sample_shape = shape + logits_shape[:-1]
            logits = P.reshape(self.logits, [int(np.prod(logits_shape[:-1])), logits_shape[-1]])
        index = multinomial(F.softmax(logits, -1), count, True)
        order = list(range(index.ndim))
        order.insert(0, order.pop(-1))
        return P.reshape(P.transpose(index, order), sample_shape)

    def probs(self, value: P.Tensor) -> P.Tensor:
        if len(self._prob.shape) == 1:
            return extras.gather(self._prob, value.reshape([-1])).reshape(value.shape)
        from reference_engine.paddle.tensor_functions import take_along_axis

        index = value.reshape((len(self._prob.shape) - 1) * [1] + [-1]) if len(value.shape) == 1 else value
        return take_along_axis(self._prob, index, -1)

    def log_prob(self, value: P.Tensor) -> P.Tensor:
        return P.log(self.probs(value))

    def entropy(self) -> P.Tensor:
        logits = self.logits - P.max(self.logits, axis=-1, keepdim=True)
        e_logits = P.exp(logits)
        z = P.sum(e_logits, axis=-1, keepdim=True)
        prob = e_logits / z
        return -1.0 * P.sum(prob * (logits - P.log(z)), axis=-1)

    def kl_divergence(self, other: Categorical) -> P.Tensor:
        logits = self.logits - P.max(self.logits, axis=-1, keepdim=True)
        other_logits = other.logits - P.max(other.logits, axis=-1, keepdim=True)
        e_logits, other_e_logits = P.exp(logits), P.exp(other_logits)
        z = P.sum(e_logits, axis=-1, keepdim=True)
        other_z = P.sum(other_e_logits, axis=-1, keepdim=True)
        prob = e_logits / z
        return P.sum(prob * (logits - P.log(z) - other_logits + P.log(other_z)), axis=-1, keepdim=True)


class Bernoulli(Distribution):
    """The Bernoulli distribution of ``probs``, clipped into (eps, 1 - eps) as paddle clips it,
    with the logits ``log p - log1p(-p)``; ``log_prob`` and ``entropy`` are paddle's
    ``binary_cross_entropy_with_logits``, ``rsample`` its relaxed (logistic) draw."""

    _EPS = {"float32": float(np.finfo(np.float32).eps), "float64": float(np.finfo(np.float64).eps)}

    def __init__(self, probs: Any, name: Optional[str] = None) -> None:
        self.name = name or "Bernoulli"
        probs = _as_tensor(probs)
        self.dtype = str(probs._data.dtype)
        eps = self._EPS[self.dtype]
        self.probs = P.clip(probs, min=eps, max=1 - eps).astype(self.dtype)
        self.logits = P.log(self.probs) - P.log1p(-self.probs)
        super().__init__(self.probs.shape, ())

    @property
    def mean(self) -> P.Tensor:
        return self.probs

    @property
    def variance(self) -> P.Tensor:
        return P.multiply(self.probs, 1 - self.probs)

    def sample(self, shape: Sequence[int] = ()) -> P.Tensor:
        with P.no_grad():
            return P.bernoulli(self.probs.expand(self._extend_shape(shape)))

    def rsample(self, shape: Sequence[int] = (), temperature: float = 1.0) -> P.Tensor:
        shape = self._extend_shape(shape)
        temperature_ = extras.full([], temperature, dtype=self.dtype)
        probs = self.probs.expand(shape)
        uniforms = P.rand(shape, dtype=self.dtype)
        return P.divide(P.add(P.subtract(uniforms.log(), P.log1p(-uniforms)),
                              P.subtract(probs.log(), P.log1p(-probs))), temperature_)

    def _value(self, value: P.Tensor) -> P.Tensor:
        return value if value.dtype == self.probs.dtype else P.cast(value, self.probs.dtype)

    def cdf(self, value: P.Tensor) -> P.Tensor:
        probs, value = extras.broadcast_tensors([self.probs, self._value(value)])
        zeros, ones = P.zeros_like(probs), P.ones_like(probs)
        return P.where(value < 0, zeros, P.where(value < 1, P.subtract(ones, probs), ones))

    def log_prob(self, value: P.Tensor) -> P.Tensor:
        from reference_engine.paddle.nn import functional

        logits, value = extras.broadcast_tensors([self.logits, self._value(value)])
        return -functional.binary_cross_entropy_with_logits(logits, value, reduction="none")

    def prob(self, value: P.Tensor) -> P.Tensor:
        return self.log_prob(value).exp()

    def entropy(self) -> P.Tensor:
        from reference_engine.paddle.nn import functional

        return functional.binary_cross_entropy_with_logits(self.logits, self.probs, reduction="none")

    def kl_divergence(self, other: Bernoulli) -> P.Tensor:
        from reference_engine.paddle.nn import functional

        a_logits, b_logits = self.logits, other.logits
        log_pa, log_pb = -functional.softplus(-a_logits), -functional.softplus(-b_logits)
        pa, one_minus_pa = functional.sigmoid(a_logits), functional.sigmoid(-a_logits)
        log_one_minus_pa, log_one_minus_pb = -functional.softplus(a_logits), -functional.softplus(b_logits)
        return P.add(P.subtract(P.multiply(log_pa, pa), P.multiply(log_pb, pa)),
                     P.subtract(P.multiply(log_one_minus_pa, one_minus_pa),
                                P.multiply(log_one_minus_pb, one_minus_pa)))


def kl_divergence(p: Distribution, q: Distribution) -> P.Tensor:
    """KL(p ‖ q) for two distributions of one kind (normal, categorical or Bernoulli)."""
    if type(p) is not type(q) or not isinstance(p, (Normal, Categorical, Bernoulli)):
        raise not_supported(f"kl_divergence of {type(p).__name__} and {type(q).__name__}", "paddle")
    return p.kl_divergence(q)
