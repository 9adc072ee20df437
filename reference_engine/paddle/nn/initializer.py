"""``paddle.nn.initializer``: the initial values a parameter is made with. ``Assign`` gives
given values and ``Constant`` one value; the random schemes draw with paddle's distributions and
fans from paddle's generator (``reference_engine.paddle_random``), so a seeded program gets
paddle's values, except ``TruncatedNormal``: its draws are redrawn normals, not paddle's inverse
distribution, so only their shapes, dtypes and range agree."""

from __future__ import annotations

from typing import Any

import numpy as np

from reference_engine import rng
from reference_engine.framework_names import module_getattr

__all__ = ["Assign", "Constant", "KaimingNormal", "KaimingUniform", "Normal", "TruncatedNormal", "Uniform",
           "XavierNormal", "XavierUniform"]


class Assign:
    """The given values (an array, a list or a tensor)."""

    def __init__(self, value: Any, name: Any = None) -> None:
        self.value = value

    def values(self, shape: list[int], dtype: str) -> np.ndarray:
        data = getattr(self.value, "_data", self.value)
        return np.array(data, dtype=dtype).reshape(shape)


class Constant:
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


class _Drawn:
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


class TruncatedNormal(Normal):
    """Normal draws redrawn until within two standard deviations of the mean."""

    def draw(self, generator: Any, shape: list[int], fan_in: int, fan_out: int, dtype: np.dtype) -> Any:
        values = generator.normal(self.mean, self.std, shape, dtype)
        while (outside := np.abs(values - self.mean) > 2 * self.std).any():
            values[outside] = generator.normal(self.mean, self.std, (int(outside.sum()),), dtype)
        return values


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
    def __init__(self, fan_in: Any = None, negative_slope: float = 0.0, nonlinearity: str = "relu") -> None:
        self.fan_in, self.negative_slope, self.nonlinearity = fan_in, negative_slope, nonlinearity

    def _gain(self) -> float:
        if self.nonlinearity == "leaky_relu":
            return float(np.sqrt(2.0 / (1 + self.negative_slope ** 2)))
        return float(np.sqrt(2.0)) if self.nonlinearity == "relu" else 1.0

    def draw(self, generator: Any, shape: list[int], fan_in: int, fan_out: int, dtype: np.dtype) -> Any:
        return generator.normal(0.0, self._gain() / np.sqrt(self.fan_in or fan_in), shape, dtype)


class KaimingUniform(KaimingNormal):
    def draw(self, generator: Any, shape: list[int], fan_in: int, fan_out: int, dtype: np.dtype) -> Any:
        bound = self._gain() * np.sqrt(3.0 / (self.fan_in or fan_in))
        return generator.uniform(-bound, bound, shape, dtype)

__getattr__ = module_getattr("paddle.nn.initializer")
