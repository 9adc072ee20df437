"""``paddle.static``: the ``InputSpec`` that ``paddle.Model`` and ``paddle.summary`` read (a
shape, with -1 for an unknown batch dimension, a dtype and a name). Static graphs themselves
are not modelled."""

from __future__ import annotations

from typing import Any, Optional, Sequence

from reference_engine.framework_names import module_getattr

__all__ = ["InputSpec"]


class InputSpec:
    """``InputSpec(shape, dtype="float32", name=None, stop_gradient=False)``: None in the
    shape is -1; two are equal when shape, dtype, name and stop_gradient are."""

    def __init__(self, shape: Sequence[Optional[int]], dtype: Any = "float32", name: Optional[str] = None,
                 stop_gradient: bool = False) -> None:
        from reference_engine.paddle import _core

        self.shape = tuple(-1 if size is None else int(size) for size in shape)
        self.dtype = _core._DTYPES[_core._np_dtype(dtype)]
        self.name, self.stop_gradient = name, stop_gradient

    @classmethod
    def from_tensor(cls, tensor: Any, name: Optional[str] = None) -> InputSpec:
        return cls(tensor.shape, tensor.dtype, name or getattr(tensor, "name", None))

    def __repr__(self) -> str:
        return (f"InputSpec(shape={self.shape}, dtype={self.dtype}, name={self.name}, "
                f"stop_gradient={self.stop_gradient})")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, InputSpec) and self._key() == other._key()

    def _key(self) -> tuple[Any, ...]:
        return self.shape, str(self.dtype), self.name, self.stop_gradient

    def __hash__(self) -> int:
        return hash(self._key())


__getattr__ = module_getattr("paddle.static")
