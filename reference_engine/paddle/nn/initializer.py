"""``paddle.nn.initializer``: the initial values a parameter is made with. ``Assign`` gives
given values and ``Constant`` one value; the random schemes are not the reference engine's to
copy (a program that compares values sets them)."""

from __future__ import annotations

from typing import Any

import numpy as np

from reference_engine.framework_names import module_getattr

__all__ = ["Assign", "Constant"]


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

__getattr__ = module_getattr("paddle.nn.initializer")
