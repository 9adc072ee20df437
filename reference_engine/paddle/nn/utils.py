"""``paddle.nn.utils``: the parameters as one vector and back, and clipping gradients in place."""

from __future__ import annotations

from typing import Any, Iterable

import numpy as np

from reference_engine import grad_mode
from reference_engine import modules as shared
from reference_engine.framework_names import module_getattr
from reference_engine.paddle._core import Tensor, concat, to_tensor
from reference_engine.paddle.nn.weight_norm import remove_weight_norm, weight_norm

__all__ = ["clip_grad_norm_", "clip_grad_value_", "parameters_to_vector", "remove_weight_norm",
           "vector_to_parameters", "weight_norm"]


def parameters_to_vector(parameters: Iterable[Tensor], name: Any = None) -> Tensor:
    """The parameters flattened and concatenated (one ``concat`` of their reshapes)."""
    return shared.flat_parameters(parameters, concat, lambda p: p.reshape([-1]))


def vector_to_parameters(vec: Tensor, parameters: Iterable[Tensor], name: Any = None) -> None:
    """Each parameter holds its slice of ``vec`` from now on, in its own shape."""
    shared.assign_flat(vec, parameters)


def clip_grad_norm_(parameters: Any, max_norm: float, norm_type: float = 2.0,
                    error_if_nonfinite: bool = False) -> Tensor:
    """Scale the gradients in place so that their total norm is at most ``max_norm``; returns
    the total norm before clipping."""
    params = [parameters] if isinstance(parameters, Tensor) else list(parameters)
    grads = [p.grad for p in params if p.grad is not None]
    if not grads:
        return to_tensor(0.0)
    total = shared.clip_by_total_norm(grads, max_norm, norm_type, error_if_nonfinite and (
        lambda: RuntimeError(f"The total norm of {norm_type} order of the gradients from "
                             "`parameters` is non-finite, so it cannot be clipped. In any case, "
                             "disable this error and scale the gradient by non-finite norm, set "
                             "`error_if_nonfinite=False`")))
    return type(grads[0])._from_array(np.asarray(total))


def clip_grad_value_(parameters: Any, clip_value: float) -> None:
    """Clamp the gradients in place to ``[-clip_value, clip_value]`` (under no_grad, as paddle
    runs it: a gradient is a leaf that does not stop gradient, which refuses an in-place op
    where grad is enabled)."""
    params = [parameters] if isinstance(parameters, Tensor) else list(parameters)
    with grad_mode.no_grad():
        for p in params:
            if p.grad is not None:
                p.grad.clip_(-clip_value, clip_value)

__getattr__ = module_getattr("paddle.nn.utils")
