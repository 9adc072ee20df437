"""``torch.autograd``: ``backward`` and ``grad`` with torch 2.13's signatures."""

from __future__ import annotations

from typing import Any, Optional

from reference_engine.grad_mode import enable_grad, no_grad, set_grad_enabled
from reference_engine.torch_policy import TORCH

__all__ = ["backward", "enable_grad", "grad", "no_grad", "set_grad_enabled"]


def backward(tensors: Any, grad_tensors: Any = None, retain_graph: Optional[bool] = None,
             create_graph: bool = False, grad_variables: Any = None, inputs: Any = None) -> None:
    """Accumulate the gradients of ``tensors`` into the leaves (or only into ``inputs``)."""
    if grad_variables is not None:
        grad_tensors = grad_variables
    TORCH.backward(tensors, grad_tensors, retain_graph, create_graph, inputs)


def grad(outputs: Any, inputs: Any, grad_outputs: Any = None, retain_graph: Optional[bool] = None,
         create_graph: bool = False, only_inputs: bool = True, allow_unused: Optional[bool] = None,
         is_grads_batched: bool = False, materialize_grads: bool = False) -> tuple[Any, ...]:
    """Return the gradients of ``outputs`` with respect to ``inputs`` without touching ``.grad``."""
    return TORCH.grad(outputs, inputs, grad_outputs, retain_graph, create_graph, only_inputs,
                      allow_unused, is_grads_batched, materialize_grads)
