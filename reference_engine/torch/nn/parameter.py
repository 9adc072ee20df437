"""``torch.nn.Parameter``."""

from __future__ import annotations

from typing import Any, Optional

from reference_engine.torch._core import Tensor

__all__ = ["Parameter"]


class Parameter(Tensor):
    """A leaf sharing ``data``'s storage that requires grad by default. What is computed from
    it is a plain tensor."""

    __slots__ = ()

    def __new__(cls, data: Optional[Tensor] = None, requires_grad: bool = True) -> Parameter:
        source = data if data is not None else Tensor([])
        param = Tensor._from_array(source._data)
        param._counter = source._counter  # the same storage
        param._device = source._device
        param.__class__ = cls
        param._requires_grad = bool(requires_grad)
        return param  # type: ignore[return-value]

    @classmethod
    def _from_array(cls, data: Any) -> Tensor:
        return Tensor._from_array(data)

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()
