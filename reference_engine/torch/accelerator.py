"""``torch.accelerator``: the device-generic API over the one accelerator the engine can act
as, CUDA (``reference_engine.devices.simulate``). Without it, as on a CPU-only build of torch,
there is none: the queries answer so and the rest raise torch's error (measured on 2.13.0)."""

from __future__ import annotations

import contextlib
from typing import Any, Iterator, Optional

from reference_engine import devices
from reference_engine.dialects.torch_policy import TORCH
from reference_engine.framework_names import module_getattr
from reference_engine.torch.devices import device

__all__ = ["current_accelerator", "current_device_index", "device_count", "device_index", "is_available",
           "set_device_index", "synchronize"]


def is_available() -> bool:
    return devices.simulated("cuda")


def current_accelerator(check_available: bool = False) -> Optional[device]:
    return device("cuda") if is_available() else None


def device_count() -> int:
    return 1 if is_available() else 0


def _check() -> None:
    if not is_available():
        raise TORCH.error("no_accelerator")


def current_device_index() -> int:
    _check()
    return 0


def set_device_index(device: Any, /) -> None:
    _check()


@contextlib.contextmanager
def device_index(device: Optional[int], /) -> Iterator[None]:
    _check()
    yield


def synchronize(device: Any = None, /) -> None:
    _check()


__getattr__ = module_getattr("torch.accelerator")
