"""Dtype objects of the dialects (``torch.float32``, ``paddle.float32``) over numpy dtypes."""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

STANDARD = ("float32", "float64", "int64", "int32", "bool")


class DialectDtype:
    """A framework dtype object wrapping a numpy dtype; subclasses set the module prefix."""

    prefix = "dtype"

    def __init__(self, name: str) -> None:
        self.name = name
        self.numpy = np.dtype(name)
        self.is_floating_point = self.numpy.kind == "f"

    def __repr__(self) -> str:
        return f"{self.prefix}.{self.name}"


def standard_dtypes(cls: type[DialectDtype]) -> dict[str, DialectDtype]:
    """One object of ``cls`` per dtype the engine models, by name."""
    return {name: cls(name) for name in STANDARD}


def by_numpy(dtypes: dict[str, DialectDtype]) -> dict[np.dtype, DialectDtype]:
    return {d.numpy: d for d in dtypes.values()}


def to_numpy(d: Any, cls: type[DialectDtype], accept_strings: bool) -> Optional[np.dtype]:
    """The numpy dtype for a dialect dtype argument (``None`` stays ``None``)."""
    if d is None:
        return None
    if isinstance(d, cls):
        return d.numpy
    if accept_strings and isinstance(d, str):
        return np.dtype(d)
    raise TypeError(f"dtype must be {cls.prefix}.dtype, not {type(d).__name__}")
