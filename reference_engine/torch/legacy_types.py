"""torch's legacy tensor types: ``torch.FloatTensor(data)`` or ``torch.FloatTensor(*sizes)``
makes a tensor of that type on the CPU, ``isinstance(t, torch.FloatTensor)`` asks for a CPU
tensor of its dtype, and ``t.type(torch.DoubleTensor)`` casts (measured on torch 2.13.0)."""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from reference_engine import devices
from reference_engine.messages import not_supported
from reference_engine.torch._core import _NAMED, LEGACY_TYPE_DTYPES, Size, Tensor, tensor, zeros


class tensortype(type):  # noqa: N801 - torch's name for their class
    """The class of the legacy types."""

    dtype_name = "float32"

    def __instancecheck__(cls, obj: Any) -> builtins.bool:
        return (isinstance(obj, Tensor) and str(obj._data.dtype) == cls.dtype_name
                and devices.device_type(devices.device_of(obj)) == "cpu")

    def __call__(cls, *args: Any) -> Tensor:
        dtype = _NAMED[cls.dtype_name]
        if not args:
            return zeros(0, dtype=dtype)
        if len(args) == 1 and isinstance(args[0], Tensor):
            raise not_supported(f"torch.{cls.__name__} of a tensor", "torch")
        if len(args) == 1 and not isinstance(args[0], (builtins.int, Size)):
            return tensor(args[0] if not isinstance(args[0], np.ndarray) else args[0].tolist(), dtype=dtype)
        sizes = args[0] if len(args) == 1 and isinstance(args[0], Size) else args
        return zeros(*sizes, dtype=dtype)  # torch leaves the values unset; programs fill them

    def __repr__(cls) -> str:
        return f"<class 'torch.{cls.__name__}'>"


def _legacy(name: str, dtype_name: str) -> tensortype:
    return tensortype(name, (), {"dtype_name": dtype_name, "__module__": "torch"})


LEGACY_TYPES = {name: _legacy(name, dtype) for name, dtype in (
    ("FloatTensor", "float32"), ("DoubleTensor", "float64"), ("HalfTensor", "float16"),
    ("BFloat16Tensor", "bfloat16"), ("LongTensor", "int64"), ("IntTensor", "int32"), ("BoolTensor", "bool"))}
(FloatTensor, DoubleTensor, HalfTensor, BFloat16Tensor, LongTensor, IntTensor,
 BoolTensor) = LEGACY_TYPES.values()
for _name, _legacy in LEGACY_TYPES.items():
    LEGACY_TYPE_DTYPES[_legacy] = LEGACY_TYPE_DTYPES[f"torch.{_name}"] = _NAMED[_legacy.dtype_name]
