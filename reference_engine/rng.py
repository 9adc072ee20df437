"""The reference engine's one random generator (numpy's): ``torch.manual_seed`` and
``paddle.seed`` reseed it; random tensors and initial weights draw from it. Draws are
reproducible, but they are not the frameworks' own (shapes and dtypes agree, values do not)."""

from __future__ import annotations

import numpy as np

_GENERATOR = [np.random.default_rng(0)]


def seed(value: int) -> None:
    _GENERATOR[0] = np.random.default_rng(value)


def generator() -> np.random.Generator:
    return _GENERATOR[0]
