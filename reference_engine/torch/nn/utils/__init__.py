"""``torch.nn.utils``: clipping gradients in place, as training loops do between backward and
the optimizer's step."""

from __future__ import annotations

from typing import Any, Iterable, Union

import numpy as np

from reference_engine import modules as shared
from reference_engine.dialects.torch_policy import TORCH
from reference_engine.framework_names import module_getattr
from reference_engine.grad_mode import no_grad
from reference_engine.tensor import Tensor
from reference_engine.torch._core import cat, tensor
from reference_engine.torch.nn.utils import parametrizations, parametrize, rnn, stateless
from reference_engine.torch.nn.utils.weight_norm import remove_weight_norm, weight_norm

__all__ = ["clip_grad_norm_", "clip_grad_value_", "parameters_to_vector", "parametrizations", "parametrize",
           "remove_weight_norm", "rnn", "stateless", "vector_to_parameters", "weight_norm"]

Parameters = Union[Tensor, Iterable[Tensor]]


def clip_grad_norm_(parameters: Parameters, max_norm: float, norm_type: float = 2.0,
                    error_if_nonfinite: bool = False, foreach: Any = None) -> Any:
    """Scale the parameters' gradients in place so that their total ``norm_type``-norm is at
    most ``max_norm``; returns the total norm before clipping (a tensor outside any graph).
    Every gradient is multiplied, by a factor clamped to 1 (its version grows each call)."""
    grads = [p.grad for p in _listed(parameters) if p.grad is not None]
    if not grads:
        return tensor(0.0)
    total = shared.clip_by_total_norm(grads, max_norm, norm_type, error_if_nonfinite and (
        lambda: TORCH.error("nonfinite_total_norm", norm_type=float(norm_type))))
    return type(grads[0])._from_array(np.asarray(total))


def clip_grad_value_(parameters: Parameters, clip_value: float, foreach: Any = None) -> None:
    """Clamp the parameters' gradients in place to ``[-clip_value, clip_value]``."""
    with no_grad():
        for p in _listed(parameters):
            if p.grad is not None:
                p.grad.clamp_(-clip_value, clip_value)


def _listed(parameters: Parameters) -> list[Any]:
    return [parameters] if isinstance(parameters, Tensor) else list(parameters)


def parameters_to_vector(parameters: Iterable[Tensor]) -> Tensor:
    """The parameters as one vector: ``cat`` of each one's ``view(-1)``."""
    return shared.flat_parameters(parameters, cat, lambda p: p.view(-1))


def vector_to_parameters(vec: Tensor, parameters: Iterable[Tensor]) -> None:
    """Each parameter's ``data`` becomes its slice of ``vec``, viewed in its shape."""
    if not isinstance(vec, Tensor):
        raise TORCH.error("vector_type", type_name=type(vec).__name__)
    shared.assign_flat(vec, parameters)

__getattr__ = module_getattr("torch.nn.utils")
