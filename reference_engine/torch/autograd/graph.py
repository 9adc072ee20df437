"""``torch.autograd.graph``: the node class, hooks on the tensors a node saves (and
``save_on_cpu``, torch's own pair of them), blocks that refuse such hooks, and
``increment_version``."""

from __future__ import annotations

import contextlib
from typing import Any, Iterator

from reference_engine import graph
from reference_engine.framework_names import module_getattr
from reference_engine.graph import Node, saved_tensors_hooks

__all__ = ["Node", "disable_saved_tensors_hooks", "increment_version", "save_on_cpu", "saved_tensors_hooks"]


class save_on_cpu(saved_tensors_hooks):  # noqa: N801 - torch's name
    """Saved tensors packed as (device, the tensor on the CPU) and unpacked back to their device,
    as torch's hooks do; on the CPU the tensor itself is kept, so a later write to it reaches
    the backward unchecked (measured on 2.13.0)."""

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda") -> None:
        super().__init__(lambda tensor: (tensor.device, tensor.cpu()),
                         lambda packed: packed[1].to(packed[0]))


@contextlib.contextmanager
def disable_saved_tensors_hooks(error_message: str) -> Iterator[None]:
    """Within the block, opening a saved-tensors hook raises ``RuntimeError(error_message)``."""
    graph.HOOKS_DISABLED.append(error_message)
    try:
        yield
    finally:
        graph.HOOKS_DISABLED.pop()


def increment_version(tensor: Any) -> None:
    """Count a write the engine did not see, as an in-place op would (a tensor or several)."""
    for one in (tensor,) if hasattr(tensor, "_counter") else tensor:
        if not getattr(one, "_inference", False):
            one._counter.value += 1


__getattr__ = module_getattr("torch.autograd.graph")
