"""Dtype objects of the dialects (``torch.float32``, ``paddle.float32``) over numpy dtypes.

The reduced-precision floats (``float16``, and ``bfloat16`` from the ``ml_dtypes`` library,
which numpy lacks) are stored at their own precision and computed in float32, as the
frameworks' CPU kernels do (``recorder.apply``).
"""

from __future__ import annotations

from typing import Any, Callable, Optional

import numpy as np

STANDARD = ("float32", "float64", "int64", "int32", "bool")
REDUCED_NAMES = ("float16", "bfloat16")


def _bfloat16() -> np.dtype:
    try:
        import ml_dtypes
    except ImportError:  # pragma: no cover - a dependency of the package
        raise NotImplementedError("bfloat16 needs the ml_dtypes library (pip install ml_dtypes)") from None
    return np.dtype(ml_dtypes.bfloat16)


def numpy_dtype(name: str) -> np.dtype:
    """The numpy dtype of a dtype name, bfloat16 included."""
    return _bfloat16() if name == "bfloat16" else np.dtype(name)


class _Reduced:
    """Whether a reduced-precision tensor was ever made: until then ``recorder.apply`` checks
    nothing (a program in float32 pays no cost for them)."""

    seen = False


def is_floating(dtype: np.dtype) -> bool:
    """Floating point, bfloat16 (a numpy 'V' kind) included."""
    return dtype.kind == "f" or dtype.name == "bfloat16"


def is_reduced(dtype: np.dtype) -> bool:
    """float16 or bfloat16: stored at reduced precision, computed in float32."""
    return dtype.itemsize == 2 and is_floating(dtype)


def note_dtype(dtype: np.dtype) -> np.dtype:
    """Record that ``dtype`` is in use (a cast or a constructor to it); returns it."""
    if is_reduced(dtype):
        _Reduced.seen = True
    return dtype


class DialectDtype:
    """A framework dtype object wrapping a numpy dtype; subclasses set the module prefix."""

    prefix = "dtype"

    def __init__(self, name: str) -> None:
        self.name = name
        self.numpy = numpy_dtype(name)
        self.is_floating_point = is_floating(self.numpy)

    def __repr__(self) -> str:
        return f"{self.prefix}.{self.name}"


def standard_dtypes(cls: type[DialectDtype], names: tuple[str, ...] = STANDARD) -> dict[str, DialectDtype]:
    """One object of ``cls`` per dtype the engine models, by name."""
    return {name: cls(name) for name in names}


def by_numpy(dtypes: dict[str, DialectDtype]) -> dict[np.dtype, DialectDtype]:
    return {d.numpy: d for d in dtypes.values()}


def to_numpy(d: Any, cls: type[DialectDtype], other: Callable[[Any], np.dtype]) -> Optional[np.dtype]:
    """The numpy dtype for a dialect dtype argument (``None`` stays ``None``); ``other`` reads
    any other object as the dialect does, or raises the dialect's error."""
    if d is None:
        return None
    if isinstance(d, cls):
        return note_dtype(d.numpy)
    return other(d)
