"""``torch.nn.Parameter``."""

from __future__ import annotations

from typing import Any, Optional

from reference_engine.torch._core import Tensor

__all__ = ["Parameter", "UninitializedParameter"]


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


class UninitializedParameter(Parameter):
    """A lazy module's parameter before its first forward: it has no values, and every use of
    them is refused, as torch refuses it."""

    __slots__ = ()

    def __new__(cls, requires_grad: bool = True) -> UninitializedParameter:
        return super().__new__(cls, None, requires_grad)  # type: ignore[return-value]

    @property  # type: ignore[override]
    def _data(self) -> Any:
        raise _uninitialized_use("")

    def __getattribute__(self, name: str) -> Any:
        """A tensor method is refused by name, as torch's message names it."""
        if not name.startswith("_") and name not in ("detach", "requires_grad", "grad", "is_leaf") and \
                callable(getattr(Tensor, name, None)):
            def refused(*args: Any, **kwargs: Any) -> Any:
                raise _uninitialized_use(f" in <method '{name}' of 'torch._C.TensorBase' objects>")
            return refused
        return super().__getattribute__(name)

    def detach(self) -> UninitializedParameter:
        """Still uninitialized (what ``state_dict`` holds before the first forward)."""
        return UninitializedParameter(requires_grad=True)  # (measured: it still requires grad)

    def __repr__(self) -> str:
        return "<UninitializedParameter>"


def _uninitialized_use(where: str) -> ValueError:
    return ValueError(f"Attempted to use an uninitialized parameter{where}. This error happens when you are "
                      "using a `LazyModule` or explicitly manipulating "
                      "`torch.nn.parameter.UninitializedParameter` objects. When using LazyModules Call "
                      "`forward` with a dummy batch to initialize the parameters before calling torch "
                      "functions")
