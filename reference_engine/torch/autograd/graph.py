"""``torch.autograd.graph``: the node class, hooks on the tensors a node saves (and
``save_on_cpu``, torch's own pair of them), blocks that refuse such hooks, and
``increment_version``."""

from __future__ import annotations

import contextlib
from typing import Any, Callable, Iterator, Optional, Sequence

from reference_engine import engine, graph
from reference_engine.framework_names import module_getattr
from reference_engine.graph import Node, saved_tensors_hooks

__all__ = ["Node", "disable_saved_tensors_hooks", "increment_version", "register_multi_grad_hook",
           "save_on_cpu", "saved_tensors_hooks"]


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


class _MultiHandle:
    """``register_multi_grad_hook``'s handle: ``remove()`` takes off the hook on every tensor."""

    def __init__(self, handles: Sequence[Any]) -> None:
        self.handles = tuple(handles)

    def remove(self) -> None:
        for handle in self.handles:
            handle.remove()

    def __enter__(self) -> _MultiHandle:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.remove()


def register_multi_grad_hook(tensors: Sequence[Any], fn: Callable[..., None], *,
                             mode: str = "all") -> _MultiHandle:
    """One hook over several tensors, composed of a hook on each as torch composes it.

    ``mode="all"``: within a backward pass, ``fn(grads)`` once the pass has computed every
    gradient it will compute among ``tensors`` (it counts, at the first, the tensors' nodes the
    pass will run); ``grads`` lists None for the others. ``mode="any"``: ``fn(grad)`` with the
    first gradient the pass computes among them (only tensors that require grad are hooked)."""
    if mode not in ("all", "any"):
        raise ValueError(f"Expects mode to be one of ('all', 'any') but got {mode}")
    if mode == "any":
        ran: set[int] = set()

        def first_only(grad: Any) -> None:
            number = _pass_number()
            if number not in ran:
                ran.add(number)
                fn(grad)

        return _MultiHandle([t.register_hook(first_only) for t in tensors if t.requires_grad])
    nodes = [t._edge() for t in tensors]
    counts: dict[int, int] = {}
    expected: dict[int, int] = {}
    buffers: dict[int, list[Optional[Any]]] = {}

    def hook_for(index: int) -> Callable[[Any], None]:
        def inner(grad: Any) -> None:
            number = _pass_number()
            seen = counts.get(number, 0)
            counts[number] = seen + 1
            buffer = buffers.setdefault(number, [None] * len(nodes))
            if seen == 0:
                expected[number] = sum(_will_execute(node) for node in nodes)
            buffer[index] = grad
            if seen == expected[number] - 1:
                del counts[number], buffers[number], expected[number]
                fn(buffer)
        return inner

    return _MultiHandle([t.register_hook(hook_for(i)) for i, t in enumerate(tensors)])


def _will_execute(node: Any) -> bool:
    """torch's ``_will_engine_execute_node``, which refuses a leaf's node within ``grad``."""
    running = engine.running_pass()
    if running is None:
        raise RuntimeError("_will_engine_execute_node should only be called during the backward pass")
    if isinstance(node, graph.AccumulateGrad) and not running.accumulates:
        raise RuntimeError("A leaf node was passed to _will_engine_execute_node but we are currently running "
                           "autograd.grad(). This is currently not supported.")
    return running.will_execute(node)


def _pass_number() -> int:
    running = engine.running_pass()
    if running is None:
        raise AssertionError("expected this hook to be called inside a backward call")
    return running.number


def increment_version(tensor: Any) -> None:
    """Count a write the engine did not see, as an in-place op would (a tensor or several)."""
    for one in (tensor,) if hasattr(tensor, "_counter") else tensor:
        if not getattr(one, "_inference", False):
            one._counter.value += 1


__getattr__ = module_getattr("torch.autograd.graph")
