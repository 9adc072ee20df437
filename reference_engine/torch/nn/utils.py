"""``torch.nn.utils``: clipping gradients in place, as training loops do between backward and
the optimizer's step."""

from __future__ import annotations

import math
from typing import Any, Iterable, Union

import numpy as np

from reference_engine.grad_mode import no_grad
from reference_engine.tensor import Tensor
from reference_engine.torch import tensor
from reference_engine.torch_policy import TORCH

__all__ = ["clip_grad_norm_", "clip_grad_value_"]

Parameters = Union[Tensor, Iterable[Tensor]]


def clip_grad_norm_(parameters: Parameters, max_norm: float, norm_type: float = 2.0,
                    error_if_nonfinite: bool = False, foreach: Any = None) -> Any:
    """Scale the parameters' gradients in place so that their total ``norm_type``-norm is at
    most ``max_norm``; returns the total norm before clipping (a tensor outside any graph).
    Every gradient is multiplied, by a factor clamped to 1 (its version grows each call)."""
    grads = [p.grad for p in _listed(parameters) if p.grad is not None]
    if not grads:
        return tensor(0.0)
    dtype = grads[0]._data.dtype
    norms = np.array([_norm(g._data, norm_type) for g in grads], dtype=dtype)
    total = _norm(norms, norm_type).astype(dtype)
    if error_if_nonfinite and not np.isfinite(total):
        raise TORCH.error("nonfinite_total_norm", norm_type=float(norm_type))
    factor = np.minimum(np.asarray(max_norm, dtype) / (total + np.asarray(1e-6, dtype)),
                        np.asarray(1.0, dtype))
    with no_grad():
        for g in grads:
            g.mul_(type(g)._from_array(np.asarray(factor)))
    return type(grads[0])._from_array(np.asarray(total))


def clip_grad_value_(parameters: Parameters, clip_value: float, foreach: Any = None) -> None:
    """Clamp the parameters' gradients in place to ``[-clip_value, clip_value]``."""
    with no_grad():
        for p in _listed(parameters):
            if p.grad is not None:
                p.grad.clamp_(-clip_value, clip_value)


def _listed(parameters: Parameters) -> list[Any]:
    return [parameters] if isinstance(parameters, Tensor) else list(parameters)


def _norm(values: np.ndarray, norm_type: float) -> Any:
    magnitudes = np.abs(values)
    if math.isinf(norm_type):
        return magnitudes.max() if norm_type > 0 else magnitudes.min()
    return np.sum(magnitudes ** norm_type) ** (1.0 / norm_type)
