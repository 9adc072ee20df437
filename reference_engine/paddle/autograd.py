"""``paddle.autograd``: ``backward`` with paddle 3.3.1's signature."""

from __future__ import annotations

from typing import Any

from reference_engine.paddle_policy import PADDLE

__all__ = ["backward"]


def backward(tensors: Any, grad_tensors: Any = None, retain_graph: bool = False) -> None:
    """Accumulate the gradients of ``tensors`` into the leaves; frees the graph unless retained."""
    PADDLE.backward(tensors, grad_tensors, retain_graph)
