"""The core of ``torch.autograd``: ``backward``, ``grad`` and ``Function`` with torch 2.13's
signatures. The package adds its submodules, which import from here."""

from __future__ import annotations

import functools
from typing import Any, Callable, Optional

from reference_engine import custom_function, grad_mode, recorder
from reference_engine.dialects.torch_policy import TORCH
from reference_engine.grad_mode import enable_grad, inference_mode, no_grad, set_grad_enabled
from reference_engine.rules import RULES
from reference_engine.tensor import Tensor

__all__ = ["Function", "FunctionCtx", "Variable", "backward", "detect_anomaly", "enable_grad", "grad",
           "inference_mode", "no_grad", "once_differentiable", "set_detect_anomaly", "set_grad_enabled"]


class FunctionCtx(custom_function.FunctionContext):
    """torch's ``ctx``: ``saved_tensors`` is an attribute."""

    @property
    def saved_tensors(self) -> tuple[Any, ...]:
        return self._saved()

    def mark_dirty(self, *tensors: Any) -> None:
        """Inputs the forward wrote in place; each must be returned (it becomes the output)."""
        self._dirty.extend(tensors)


class Function:
    """``torch.autograd.Function``: subclass it with static ``forward`` and ``backward`` (and
    optionally ``setup_context``, in which case ``forward`` takes no ``ctx``), then ``apply``."""

    @staticmethod
    def forward(*args: Any, **kwargs: Any) -> Any:
        raise TORCH.error("function_no_forward")

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple[Any, ...], output: Any) -> Any:
        raise TORCH.error("function_no_setup_context")

    @staticmethod
    def backward(ctx: Any, *grad_outputs: Any) -> Any:
        raise TORCH.error("function_no_backward")

    @staticmethod
    def jvp(ctx: Any, *grad_inputs: Any) -> Any:
        """The outputs' tangents from the inputs' (forward-mode AD): a subclass's to write."""
        raise TORCH.error("function_no_jvp")

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        separate = cls.setup_context is not Function.setup_context
        return custom_function.apply(cls, args, kwargs, TORCH, FunctionCtx, separate_setup=separate)


def once_differentiable(backward: Callable[..., Any]) -> Callable[..., Any]:
    """``torch.autograd.function.once_differentiable``: backward runs without recording. When
    a gradient it was handed requires grad (a ``create_graph`` pass), each gradient it returns
    comes out of an ``Error`` node: differentiating it again fails."""
    @functools.wraps(backward)
    def wrapper(ctx: Any, *grads: Any) -> Any:
        with grad_mode.no_grad():
            outputs = backward(ctx, *grads)
        if not grad_mode.is_grad_enabled() or not any(
                isinstance(g, Tensor) and g.requires_grad for g in grads):
            return outputs
        if not isinstance(outputs, tuple):
            return _refusing_differentiation(outputs)
        return tuple(_refusing_differentiation(t) for t in outputs)
    return wrapper


def _refusing_differentiation(t: Any) -> Any:
    if not isinstance(t, Tensor):
        return t
    alias = t.detach()
    alias._requires_grad = True
    return recorder.apply(RULES["once_differentiable_error"], [alias])


class set_detect_anomaly:  # noqa: N801 - torch's name
    """Anomaly detection on or off, at once when called and restored when used as a context:
    a backward function that returns nan then fails, naming itself."""

    warned = False  # torch warns once per process

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self.previous = grad_mode._State.anomaly
        if mode and not set_detect_anomaly.warned:
            set_detect_anomaly.warned = True
            TORCH.warn("anomaly_enabled")
        grad_mode._State.anomaly = bool(mode) and check_nan

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc_info: object) -> None:
        grad_mode._State.anomaly = self.previous


class detect_anomaly(set_detect_anomaly):  # noqa: N801 - torch's name
    """The context manager form: on inside the block."""

    def __init__(self, check_nan: bool = True) -> None:
        self.check_nan = check_nan

    def __enter__(self) -> None:
        super().__init__(True, self.check_nan)


def Variable(data: Any, requires_grad: bool = False) -> Any:  # noqa: N802 - torch's name
    """``torch.autograd.Variable``: long deprecated; a new leaf sharing ``data``'s storage."""
    if not isinstance(data, Tensor):
        raise TORCH.error("variable_data", type_name=type(data).__name__)
    return data.detach().requires_grad_(requires_grad)


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
