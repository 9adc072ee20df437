"""``paddle.device``: the reference engine runs on the CPU only."""

from __future__ import annotations

from reference_engine.dialects.paddle_policy import PADDLE
from reference_engine.framework_names import module_getattr

__all__ = ["CPUPlace", "get_device", "is_compiled_with_cuda", "set_device"]


class Place:
    """What ``set_device`` returns."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def __repr__(self) -> str:
        return f"Place({self.kind})"


def CPUPlace() -> Place:  # noqa: N802 - paddle's name
    """``paddle.CPUPlace()``: the one place there is."""
    return Place("cpu")


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
