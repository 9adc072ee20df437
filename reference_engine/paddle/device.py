"""``paddle.device``: the reference engine runs on the CPU only."""

from __future__ import annotations

from typing import Any

from reference_engine.dialects.paddle_policy import PADDLE
from reference_engine.framework_names import module_getattr

__all__ = ["CPUPlace", "CUDAPlace", "cuda", "get_device", "is_compiled_with_cuda", "set_device"]


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
