"""The reference engine's random generators: one default generator per dialect.

torch's is its own CPU generator reproduced (``reference_engine.torch_random``): a seeded torch
program draws torch's numbers. paddle's draws from numpy's generator: reproducible, with the
shapes and dtypes paddle gives, not paddle's values. ``torch.manual_seed`` reseeds torch's,
``paddle.seed`` paddle's; the two never share a stream.
"""

from __future__ import annotations

from typing import Sequence, Union

import numpy as np

from reference_engine.torch_random import TorchGenerator


class NumpyGenerator:
    """Draws from numpy's generator, behind the interface of :class:`TorchGenerator`."""

    def __init__(self, seed: int = 0) -> None:
        self.manual_seed(seed)

    def manual_seed(self, seed: int) -> NumpyGenerator:
        self._seed = int(seed)
        self.numpy = np.random.default_rng(self._seed)
        return self

    def initial_seed(self) -> int:
        return self._seed

    def uniform(self, low: float, high: float, shape: Sequence[int], dtype: np.dtype) -> np.ndarray:
        return self.numpy.uniform(low, high, tuple(shape)).astype(dtype)

    def normal(self, mean: float, std: float, shape: Sequence[int], dtype: np.dtype) -> np.ndarray:
        return self.numpy.normal(mean, std, tuple(shape)).astype(dtype)

    def integers(self, low: int, high: int, shape: Sequence[int]) -> np.ndarray:
        return self.numpy.integers(low, high, tuple(shape)).astype(np.int64)

    def permutation(self, n: int) -> np.ndarray:
        return self.numpy.permutation(n).astype(np.int64)

    def bernoulli(self, p: float, shape: Sequence[int]) -> np.ndarray:
        return self.numpy.random(tuple(shape)) < p

    def choice(self, n: int, count: int, replace: bool, p: np.ndarray) -> np.ndarray:
        return self.numpy.choice(n, count, replace=replace, p=p)


Generator = Union[TorchGenerator, NumpyGenerator]

_DEFAULTS: dict[str, Generator] = {"torch": TorchGenerator(), "paddle": NumpyGenerator()}


def generator(dialect: str) -> Generator:
    """The default generator of ``dialect`` ("torch" or "paddle")."""
    return _DEFAULTS[dialect]


def seed(dialect: str, value: int) -> None:
    """Reseed the default generator of ``dialect``."""
    _DEFAULTS[dialect].manual_seed(value)


def install(dialect: str, default: Generator) -> None:
    """Make ``default`` the default generator of ``dialect`` (a facade's own generator class)."""
    _DEFAULTS[dialect] = default


def paddle_numpy() -> np.random.Generator:
    """The numpy generator paddle's facade draws from (paddle's own draws are not modelled)."""
    default = _DEFAULTS["paddle"]
    assert isinstance(default, NumpyGenerator)
    return default.numpy
