"""What paddle programs reach for around a tensor's values: its storage (``data``,
``value()``), its place and dtype (``to``, ``cuda``, ``device``, ``type``, ``stride()``, the
conversion methods ``float32()``, ``long()``, ...) and ``apply``. Measured on paddle 3.3.1 as
built for the CPU; each is also a Tensor method (``METHODS``)."""

from __future__ import annotations

import enum
from typing import Any, Callable

from reference_engine.dialects.paddle_policy import PADDLE
from reference_engine.paddle import device
from reference_engine.paddle._core import Tensor


class VarType(enum.Enum):
    """What ``Tensor.type`` names: every tensor here is a dense one."""

    DENSE_TENSOR = 7


def _data(self: Tensor) -> Tensor:
    """A new tensor sharing this one's values, stopping gradient."""
    return self.detach()


def _set_data(self: Tensor, value: Tensor) -> None:
    """``x.data = y``: ``x`` holds ``y``'s values from now on, its autograd state unchanged."""
    self._data = value._data


def value(self: Tensor) -> Tensor:
    return self


def to(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
    """``to(device)``, ``to(dtype)``, ``to(device, dtype)``, ``to(other_tensor)`` (its dtype);
    ``blocking`` changes nothing here. The tensor itself where nothing changes, else a cast."""
    kwargs.pop("blocking", None)
    target = kwargs.pop("dtype", None)
    for arg in (*args, *kwargs.values()):
        if isinstance(arg, Tensor):
            target = arg._data.dtype
        elif isinstance(arg, device.Place) or (isinstance(arg, str) and arg.split(":")[0] in ("cpu", "gpu")):
            device.set_device(arg if isinstance(arg, str) else arg.kind)  # refuses a device there is not
        elif arg is not None:
            target = arg
    return self if target is None else self.astype(target)


def cuda(self: Tensor, device_id: Any = None, blocking: bool = True) -> Tensor:
    raise PADDLE.error("no_cuda_device")


def stride(self: Tensor) -> list[int]:
    """The steps between elements along each axis, in elements (a transpose is a view)."""
    return [s // self._data.itemsize for s in self._data.strides]


def apply(self: Tensor, function: Callable[[Tensor], Tensor]) -> Tensor:
    """``function(self)`` for a tensor that stops gradient."""
    if not self.stop_gradient:
        raise PADDLE.error("apply_requires_grad")
    return function(self)


def _converter(dtype_name: str) -> Callable[[Tensor], Tensor]:
    def convert(self: Tensor) -> Tensor:
        return self.astype(dtype_name)

    convert.__name__ = dtype_name
    return convert


# the conversion methods and the dtype each casts to
CONVERSIONS = {"float32": "float32", "float64": "float64", "int32": "int32", "int64": "int64",
               "bool": "bool", "float16": "float16", "float": "float32", "double": "float64",
               "half": "float16", "long": "int64", "int": "int32"}

METHODS: dict[str, Any] = {
    "data": property(_data, _set_data), "value": value, "to": to, "cuda": cuda, "stride": stride,
    "apply": apply, "device": property(lambda self: "cpu"),
    "type": property(lambda self: VarType.DENSE_TENSOR),
    **{name: _converter(target) for name, target in CONVERSIONS.items()},
}
