"""Dtype objects of the dialects (``torch.float32``, ``paddle.float32``) over numpy dtypes.

The reduced-precision floats (``float16``, and ``bfloat16`` from the ``ml_dtypes`` library,
which numpy lacks) are stored at their own precision and computed in float32, as the
frameworks' CPU kernels do (``recorder.apply``).
"""

from __future__ import annotations

from functools import cached_property
from typing import Any, Callable, Optional

import numpy as np

STANDARD = ("float32", "float64", "int64", "int32", "bool")
SMALL_INTEGERS = ("int16", "int8", "uint8")  # torch's (paddle's kernels for them are irregular)
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

    @cached_property
    def numpy(self) -> np.dtype:
        """The numpy dtype; bfloat16's is made on first use, since importing ``ml_dtypes``
        costs more than the rest of the engine's import together."""
        return numpy_dtype(self.name)

    @property
    def is_floating_point(self) -> bool:
        return self.name == "bfloat16" or is_floating(self.numpy)

    def __repr__(self) -> str:
        return f"{self.prefix}.{self.name}"


def standard_dtypes(cls: type[DialectDtype], names: tuple[str, ...] = STANDARD) -> dict[str, DialectDtype]:
    """One object of ``cls`` per dtype the engine models, by name."""
    return {name: cls(name) for name in names}


class DtypesByNumpy(dict):
    """The dialect's dtype objects by numpy dtype. bfloat16 joins on the first lookup that
    misses: an array of it exists only once ``ml_dtypes`` is imported, so the engine's import
    never pays for it."""

    def __init__(self, dtypes: dict[str, DialectDtype]) -> None:
        self._deferred = [d for d in dtypes.values() if d.name == "bfloat16"]
        super().__init__({d.numpy: d for d in dtypes.values() if d.name != "bfloat16"})

    def _resolve_deferred(self) -> bool:
        resolved = bool(self._deferred)
        for d in self._deferred:
            self[d.numpy] = d
        self._deferred = []
        return resolved

    def __missing__(self, key: np.dtype) -> DialectDtype:
        if self._resolve_deferred() and dict.__contains__(self, key):
            return dict.__getitem__(self, key)
        raise KeyError(key)

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self, key) or (self._resolve_deferred() and dict.__contains__(self, key))

    def get(self, key: np.dtype, default: Any = None) -> Any:
        self.__contains__(key)  # resolves the deferred dtypes on a miss
        return dict.get(self, key, default)


def by_numpy(dtypes: dict[str, DialectDtype]) -> DtypesByNumpy:
    return DtypesByNumpy(dtypes)


def to_numpy(d: Any, cls: type[DialectDtype], other: Callable[[Any], np.dtype]) -> Optional[np.dtype]:
    """The numpy dtype for a dialect dtype argument (``None`` stays ``None``); ``other`` reads
    any other object as the dialect does, or raises the dialect's error."""
    if d is None:
        return None
    if isinstance(d, cls):
        return note_dtype(d.numpy)
    return other(d)
