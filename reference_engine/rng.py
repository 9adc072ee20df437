"""The reference engine's random generators: one default generator per dialect.

torch's is its own CPU generator reproduced (``reference_engine.torch_random``): a seeded torch
program draws torch's numbers; paddle's is paddle's own (``reference_engine.paddle_random``).
``torch.manual_seed`` reseeds torch's, ``paddle.seed`` paddle's; the two never share a stream.
"""

from __future__ import annotations

from typing import Union

from reference_engine.paddle_random import PaddleGenerator
from reference_engine.torch_random import TorchGenerator

Generator = Union[TorchGenerator, PaddleGenerator]

_DEFAULTS: dict[str, Generator] = {"torch": TorchGenerator(), "paddle": PaddleGenerator()}


def generator(dialect: str) -> Generator:
    """The default generator of ``dialect`` ("torch" or "paddle")."""
    return _DEFAULTS[dialect]


def seed(dialect: str, value: int) -> None:
    """Reseed the default generator of ``dialect``."""
    _DEFAULTS[dialect].manual_seed(value)


def install(dialect: str, default: Generator) -> None:
    """Make ``default`` the default generator of ``dialect`` (a facade's own generator class)."""
    _DEFAULTS[dialect] = default

