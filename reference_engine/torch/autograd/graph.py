"""``torch.autograd.graph``: hooks on the tensors a node saves."""

from __future__ import annotations

from typing import Any, Callable

from reference_engine.graph import SAVED_TENSORS_HOOKS

__all__ = ["saved_tensors_hooks"]


class saved_tensors_hooks:  # noqa: N801 - torch's name
    """Within the block, every tensor a node saves is handed to ``pack_hook`` and what it
    returns is kept; the backward gets ``unpack_hook(kept)`` instead of the tensor (and checks
    no version, as torch does)."""

    def __init__(self, pack_hook: Callable[[Any], Any], unpack_hook: Callable[[Any], Any]) -> None:
        self.pair = (pack_hook, unpack_hook)

    def __enter__(self) -> saved_tensors_hooks:
        SAVED_TENSORS_HOOKS.append(self.pair)
        return self

    def __exit__(self, *exc_info: object) -> None:
        SAVED_TENSORS_HOOKS.remove(self.pair)
