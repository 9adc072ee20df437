"""``paddle.cuda``: paddle's torch-style CUDA namespace on a build without CUDA, as the
reference runs (measured on paddle 3.3.1's CPU wheel): no device, seeding seeds paddle's
generator, synchronising refuses."""

from __future__ import annotations

from typing import Any

from reference_engine.dialects.paddle_policy import PADDLE
from reference_engine.framework_names import module_getattr
from reference_engine.paddle import _core

__all__ = ["current_device", "device_count", "is_available", "manual_seed", "manual_seed_all", "synchronize"]


def is_available() -> bool:
    return False


def device_count() -> int:
    return 0


def current_device() -> int:
    return 0


def manual_seed(seed: int) -> None:
    """Seeds paddle's generator (the CPU's, the only one here), as ``paddle.seed`` does."""
    _core.seed(seed)


manual_seed_all = manual_seed


def synchronize(device: Any = None) -> None:
    raise PADDLE.error("no_device_to_synchronize")


__getattr__ = module_getattr("paddle.cuda")
