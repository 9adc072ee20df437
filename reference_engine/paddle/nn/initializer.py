"""``paddle.nn.initializer``: the initial values a parameter is made with. ``Assign`` gives
given values and ``Constant`` one value; the random schemes draw with paddle's distributions and
fans from paddle's generator (``reference_engine.paddle_random``), so a seeded program gets
paddle's values."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from reference_engine import rng
from reference_engine.framework_names import module_getattr

__all__ = ["Assign", "Constant", "KaimingNormal", "KaimingUniform", "Normal", "Orthogonal", "TruncatedNormal",
           "Uniform", "XavierNormal", "XavierUniform", "calculate_gain"]


class _Initializer:
    """Called on a parameter (``XavierUniform()(layer.weight)``), an initializer writes its
    values into it."""

    def __call__(self, var: Any, block: Any = None) -> None:
        var._data[...] = self.values(list(var._data.shape), str(var._data.dtype))  # type: ignore[attr-defined]


class Assign(_Initializer):
    """The given values (an array, a list or a tensor)."""

    def __init__(self, value: Any, name: Any = None) -> None:
        self.value = value

    def values(self, shape: list[int], dtype: str) -> np.ndarray:
        data = getattr(self.value, "_data", self.value)
        return np.array(data, dtype=dtype).reshape(shape)


class Constant(_Initializer):
    """One value everywhere (0.0 by default)."""

    def __init__(self, value: float = 0.0, force_cpu: bool = False, name: Any = None) -> None:
        self.value = value

    def values(self, shape: list[int], dtype: str) -> np.ndarray:
        return np.full(shape, self.value, dtype=dtype)


def _fans(shape: list[int]) -> tuple[int, int]:
    """paddle's fans: a matrix (in, out) is read as it is, a convolution's (out, in, *kernel)
    weight by its receptive field."""
    if len(shape) < 2:
        return (shape[0] if shape else 1,) * 2
    receptive = int(np.prod(shape[2:])) if len(shape) > 2 else 1
    return (shape[1] * receptive, shape[0] * receptive) if len(shape) > 2 else (shape[0], shape[1])


class _Drawn(_Initializer):
    """A random scheme: ``draw(generator, shape, fan_in, fan_out)`` gives the values."""

    def values(self, shape: list[int], dtype: str) -> np.ndarray:
        fan_in, fan_out = _fans(shape)
        drawn = self.draw(rng.generator("paddle"), shape, fan_in, fan_out, np.dtype(dtype))
        return np.asarray(drawn, dtype=dtype)

    def draw(self, generator: Any, shape: list[int], fan_in: int, fan_out: int, dtype: np.dtype) -> Any:
        raise NotImplementedError


class Normal(_Drawn):
    def __init__(self, mean: float = 0.0, std: float = 1.0, name: Any = None) -> None:
        self.mean, self.std = mean, std

    def draw(self, generator: Any, shape: list[int], fan_in: int, fan_out: int, dtype: np.dtype) -> Any:
        return generator.normal(self.mean, self.std, shape, dtype)


_ERF = np.vectorize(math.erf, otypes=[np.float64])


def _erfinv(y: np.ndarray) -> np.ndarray:
    """The inverse error function in float64 (Newton steps on ``erf``), for |y| < 1."""
    x = np.arctanh(y) * (math.sqrt(math.pi) / 2)
    for _ in range(60):
        step = (_ERF(x) - y) / (2 / math.sqrt(math.pi) * np.exp(-x * x))
        x = x - step
        if np.all(np.abs(step) <= 1e-15 * np.maximum(1.0, np.abs(x))):
            break
    return x


class TruncatedNormal(Normal):
    """paddle's kernel: a uniform draw in [the smallest float32, 1) mapped through the normal's
    inverse distribution between the cumulative probabilities of ``a`` and ``b`` (absolute
    bounds), in the dtype (the inverse error function to within its last bit)."""

    def __init__(self, mean: float = 0.0, std: float = 1.0, a: float = -2.0, b: float = 2.0,
                 name: Any = None) -> None:
        super().__init__(mean, std)
        self.a, self.b = a, b

    def draw(self, generator: Any, shape: list[int], fan_in: int, fan_out: int, dtype: np.dtype) -> Any:
        kind = np.float64 if dtype == np.float64 else np.float32
        unit = generator.uniform(float(np.finfo(np.float32).tiny), 1.0, shape, kind)

        def cdf(x: float) -> Any:
            return kind((1.0 + math.erf(x / math.sqrt(2.0))) / 2.0)

        low, high = cdf((self.a - self.mean) / self.std), cdf((self.b - self.mean) / self.std)
        p = low + (high - low) * unit
        inverse = _erfinv((kind(2) * p - kind(1)).astype(np.float64)).astype(kind)
        return kind(math.sqrt(2.0)) * inverse * kind(self.std) + kind(self.mean)


class Uniform(_Drawn):
    def __init__(self, low: float = -1.0, high: float = 1.0, name: Any = None) -> None:
        self.low, self.high = low, high

    def draw(self, generator: Any, shape: list[int], fan_in: int, fan_out: int, dtype: np.dtype) -> Any:
        return generator.uniform(self.low, self.high, shape, dtype)


class XavierUniform(_Drawn):
    def __init__(self, fan_in: Any = None, fan_out: Any = None, gain: float = 1.0, name: Any = None) -> None:
        self.fan_in, self.fan_out, self.gain = fan_in, fan_out, gain

    def draw(self, generator: Any, shape: list[int], fan_in: int, fan_out: int, dtype: np.dtype) -> Any:
        bound = self.gain * np.sqrt(6.0 / ((self.fan_in or fan_in) + (self.fan_out or fan_out)))
        return generator.uniform(-bound, bound, shape, dtype)


class XavierNormal(XavierUniform):
    def draw(self, generator: Any, shape: list[int], fan_in: int, fan_out: int, dtype: np.dtype) -> Any:
        std = self.gain * np.sqrt(2.0 / ((self.fan_in or fan_in) + (self.fan_out or fan_out)))
        return generator.normal(0.0, std, shape, dtype)


class KaimingNormal(_Drawn):
    """He's scheme: std ``gain / sqrt(fan)``, the fan the weight's in- or out-fan as ``mode``
    says, the gain ``calculate_gain(nonlinearity, negative_slope)``."""

    def __init__(self, fan_in: Any = None, negative_slope: float = 0.0, nonlinearity: str = "relu",
                 mode: str = "fan_in") -> None:
        self.fan_in, self.negative_slope, self.nonlinearity = fan_in, negative_slope, nonlinearity
        self.mode = mode

    def _gain(self) -> float:
        return calculate_gain(self.nonlinearity, self.negative_slope)

    def _fan(self, fan_in: int, fan_out: int) -> float:
        return fan_out if self.mode == "fan_out" else self.fan_in or fan_in

    def draw(self, generator: Any, shape: list[int], fan_in: int, fan_out: int, dtype: np.dtype) -> Any:
        return generator.normal(0.0, self._gain() / np.sqrt(self._fan(fan_in, fan_out)), shape, dtype)


class KaimingUniform(KaimingNormal):
    def draw(self, generator: Any, shape: list[int], fan_in: int, fan_out: int, dtype: np.dtype) -> Any:
        bound = self._gain() * np.sqrt(3.0 / self._fan(fan_in, fan_out))
        return generator.uniform(-bound, bound, shape, dtype)



class Orthogonal(_Drawn):
    """A (semi-)orthogonal matrix over the first axis and the rest flattened: the Q of the
    reduced QR factorisation of standard normal draws of shape (larger, smaller), its columns'
    signs those of R's diagonal, transposed when wider than tall, times ``gain``."""

    def __init__(self, gain: float = 1.0, name: Any = None) -> None:
        self.gain = gain

    def draw(self, generator: Any, shape: list[int], fan_in: int, fan_out: int, dtype: np.dtype) -> Any:
        if len(shape) < 2:
            raise AssertionError("Only Tensor with 2 or more dimensions can be initialized by Orthogonal")
        rows, cols = shape[0], int(np.prod(shape[1:]))
        q, r = np.linalg.qr(generator.normal(0.0, 1.0, [max(rows, cols), min(rows, cols)], dtype))
        q = q * np.sign(np.diag(r))
        return ((q.T if rows < cols else q).reshape(shape) * dtype.type(self.gain)).astype(dtype)


def calculate_gain(nonlinearity: str, param: Any = None) -> float:
    """The recommended gain for ``nonlinearity`` (paddle's table)."""
    slope = 0.01 if param is None else float(param)
    gains = {"sigmoid": 1, "linear": 1, "conv1d": 1, "conv2d": 1, "conv3d": 1, "conv1d_transpose": 1,
             "conv_transpose1d": 1, "conv2d_transpose": 1, "conv_transpose2d": 1, "conv3d_transpose": 1,
             "conv_transpose3d": 1, "tanh": 5.0 / 3, "relu": math.sqrt(2.0),
             "leaky_relu": math.sqrt(2.0 / (1 + slope ** 2)), "selu": 3.0 / 4}
    if nonlinearity not in gains:
        raise ValueError(f"nonlinearity function {nonlinearity} is not supported now.")
    return gains[nonlinearity]


__getattr__ = module_getattr("paddle.nn.initializer")
