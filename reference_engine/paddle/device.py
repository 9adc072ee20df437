"""``paddle.device``: the reference engine runs on the CPU only."""

from __future__ import annotations

from typing import Any

from reference_engine.dialects.paddle_policy import PADDLE
from reference_engine.framework_names import module_getattr

__all__ = ["CPUPlace", "CUDAPlace", "cuda", "get_device", "is_compiled_with_cuda", "set_device",
           "synchronize"]


class Place:
    """What ``set_device`` returns."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def __repr__(self) -> str:
        return f"Place({self.kind})"


def CPUPlace() -> Place:  # noqa: N802 - paddle's name
    """``paddle.CPUPlace()``: the one place there is."""
    return Place("cpu")


def CUDAPlace(device_id: int = 0) -> Place:  # noqa: N802 - paddle's name
    """A build without CUDA refuses it."""
    raise PADDLE.error("cuda_place")


class cuda:  # noqa: N801 - paddle.device.cuda, on a build without CUDA
    """``paddle.device.cuda``: no device."""

    @staticmethod
    def device_count() -> int:
        return 0

    @staticmethod
    def synchronize(device: Any = None) -> None:
        raise PADDLE.error("cuda_not_compiled")

    @staticmethod
    def empty_cache() -> None:
        """Nothing to free."""


def _cpu_only(api: str) -> Any:
    """A memory statistic of ``paddle.device.cuda``, which a CPU-only build refuses."""
    def refused(device: Any = None) -> int:
        raise PADDLE.error("cpu_only_api", api=f"paddle.device.cuda.{api}")
    return staticmethod(refused)


for _api in ("max_memory_allocated", "max_memory_reserved", "memory_allocated", "memory_reserved"):
    setattr(cuda, _api, _cpu_only(_api))


def synchronize(device: Any = None) -> None:
    """There is no device to wait for (paddle's CPU-only build refuses, measured)."""
    raise PADDLE.error("no_device_to_synchronize")


def is_compiled_with_cuda() -> bool:
    return False


def get_device() -> str:
    return "cpu"


def set_device(device: str) -> Place:
    """Only ``"cpu"`` exists here, as on a paddle built without CUDA."""
    if device != "cpu":
        raise PADDLE.error("device_not_compiled", device=device)
    return Place("cpu")

__getattr__ = module_getattr("paddle.device")
