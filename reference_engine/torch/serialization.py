"""``torch.save`` and ``torch.load`` over the engine's own checkpoint format
(``reference_engine.checkpoint``): a program reads back what it saved itself."""

from __future__ import annotations

from typing import Any

from reference_engine import checkpoint
from reference_engine.torch._core import Tensor

__all__ = ["load", "save"]


def save(obj: Any, f: Any, pickle_module: Any = None, pickle_protocol: int = 2, **_: Any) -> None:
    checkpoint.save(obj, f, "torch")


def load(f: Any, map_location: Any = None, pickle_module: Any = None, *, weights_only: Any = None,
         **_: Any) -> Any:
    """What ``save`` wrote, tensors as new leaves."""
    return checkpoint.load(f, Tensor, "torch")
