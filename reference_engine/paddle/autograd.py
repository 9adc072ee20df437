"""``paddle.autograd``: ``backward`` with paddle 3.3.1's signature, and ``PyLayer``."""

from __future__ import annotations

from typing import Any

from reference_engine import custom_function
from reference_engine.paddle_policy import PADDLE

__all__ = ["PyLayer", "PyLayerContext", "backward"]


def backward(tensors: Any, grad_tensors: Any = None, retain_graph: bool = False) -> None:
    """Accumulate the gradients of ``tensors`` into the leaves; frees the graph unless retained."""
    PADDLE.backward(tensors, grad_tensors, retain_graph)


class PyLayerContext(custom_function.FunctionContext):
    """paddle's ``ctx``: ``saved_tensor()`` is a method; saved tensors are not version-checked."""

    def saved_tensor(self) -> tuple[Any, ...]:
        return self._saved()

    def mark_not_inplace(self, *tensors: Any) -> None:
        """Outputs that are inputs returned as they are: paddle then returns a new tensor."""


_DIALECT = custom_function.Dialect(
    node_name=lambda cls: f"GradNodePyLayer_{cls.__name__}",
    gradients=custom_function.paddle_gradients, context=PyLayerContext,
    version_checked=False, refuses_second_backward=True)


class PyLayer:
    """``paddle.autograd.PyLayer``: subclass it with static ``forward(ctx, ...)`` and
    ``backward(ctx, ...)``, then call ``apply``."""

    @staticmethod
    def forward(ctx: Any, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("You must implement the forward function for PyLayer.")

    @staticmethod
    def backward(ctx: Any, *args: Any) -> Any:
        raise NotImplementedError("You must implement the backward function for PyLayer.")

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        return custom_function.apply(cls, args, kwargs, _DIALECT)
