"""``torch.nn.init``: filling a tensor in place, without recording (as torch does under
``no_grad``; the tensor's version grows). The deterministic fillers give torch's values, and so
do the random ones after the same seed: they draw with torch's generator, in torch's order
(``reference_engine.torch.random``)."""

from __future__ import annotations

import math
from typing import Any, Optional

import numpy as np

from reference_engine.dialects.torch_policy import TORCH
from reference_engine.framework_names import module_getattr
from reference_engine.torch._core import Tensor, no_grad, tensor
from reference_engine.torch.random import drawing

__all__ = ["calculate_gain", "constant_", "eye_", "kaiming_normal_", "kaiming_uniform_", "normal_", "ones_",
           "orthogonal_", "trunc_normal_", "uniform_", "xavier_normal_", "xavier_uniform_", "zeros_"]


def _fill(target: Tensor, values: np.ndarray) -> Tensor:
    with no_grad():
        target.copy_(tensor(values.astype(target._data.dtype)))
    return target


def constant_(tensor: Tensor, val: float) -> Tensor:  # noqa: A002 - torch's name
    with no_grad():
        tensor.fill_(val)
    return tensor


def zeros_(tensor: Tensor) -> Tensor:
    return constant_(tensor, 0.0)


def ones_(tensor: Tensor) -> Tensor:
    return constant_(tensor, 1.0)


def eye_(tensor: Tensor) -> Tensor:
    if tensor._data.ndim != 2:
        raise TORCH.error("init_eye_dims")
    return _fill(tensor, np.eye(*tensor._data.shape))


def calculate_gain(nonlinearity: str, param: Optional[float] = None) -> float:
    """The recommended gain for ``nonlinearity`` (torch's table)."""
    if nonlinearity in ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
                        "conv_transpose2d", "conv_transpose3d", "sigmoid"):
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else float(param)
        return math.sqrt(2.0 / (1 + slope ** 2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise TORCH.error("init_nonlinearity", nonlinearity=nonlinearity)


def _fans(tensor: Tensor) -> tuple[int, int]:
    shape = tensor._data.shape
    if len(shape) < 2:
        raise TORCH.error("init_fans")
    receptive = math.prod(shape[2:])
    return shape[1] * receptive, shape[0] * receptive


def uniform_(tensor: Tensor, a: float = 0.0, b: float = 1.0, generator: Any = None) -> Tensor:  # noqa: A002
    return _fill(tensor, drawing(generator).uniform(a, b, tensor._data.shape, tensor._data.dtype))


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, generator: Any = None) -> Tensor:  # noqa: A002
    return _fill(tensor, drawing(generator).normal(mean, std, tensor._data.shape, tensor._data.dtype))


def xavier_uniform_(tensor: Tensor, gain: float = 1.0, generator: Any = None) -> Tensor:  # noqa: A002
    fan_in, fan_out = _fans(tensor)
    bound = gain * math.sqrt(6.0 / (fan_in + fan_out))
    return uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor: Tensor, gain: float = 1.0, generator: Any = None) -> Tensor:  # noqa: A002
    fan_in, fan_out = _fans(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / (fan_in + fan_out)), generator)


def _kaiming_std(tensor: Tensor, a: float, mode: str, nonlinearity: str) -> float:
    fan_in, fan_out = _fans(tensor)
    return calculate_gain(nonlinearity, a) / math.sqrt(fan_in if mode == "fan_in" else fan_out)


def kaiming_uniform_(tensor: Tensor, a: float = 0, mode: str = "fan_in",  # noqa: A002
                     nonlinearity: str = "leaky_relu", generator: Any = None) -> Tensor:
    bound = math.sqrt(3.0) * _kaiming_std(tensor, a, mode, nonlinearity)
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor: Tensor, a: float = 0, mode: str = "fan_in",  # noqa: A002
                    nonlinearity: str = "leaky_relu", generator: Any = None) -> Tensor:
    return normal_(tensor, 0.0, _kaiming_std(tensor, a, mode, nonlinearity), generator)


def trunc_normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, a: float = -2.0,  # noqa: A002
                  b: float = 2.0, generator: Any = None) -> Tensor:
    """torch 2.13's rejection sampling: where the bounds hold more than 30 % of the normal's
    mass, normal draws with every one outside redrawn (a whole tensor of draws per round);
    otherwise uniform draws between the bounds, each kept when the log of a second uniform
    draw is at most its log density relative to the peak (both rounds redraw whole tensors)."""
    def cdf(x: float) -> float:
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    draws, shape, kind = drawing(generator), tensor._data.shape, tensor._data.dtype.type
    if cdf((b - mean) / std) - cdf((a - mean) / std) > 0.3:
        values = draws.normal(mean, std, shape, kind)
        while (outside := (values < kind(a)) | (values > kind(b))).any():
            values = np.where(outside, draws.normal(mean, std, shape, kind), values)
        return _fill(tensor, values)
    log_peak = -0.5 * ((max(a, min(mean, b)) - mean) / std) ** 2

    def log_density(x: np.ndarray) -> np.ndarray:
        return (((x - kind(mean)) / kind(std)) ** 2 * kind(-0.5) - kind(log_peak)).astype(kind)

    def rejected(x: np.ndarray) -> np.ndarray:
        return np.log(draws.uniform(0.0, 1.0, shape, kind)) > log_density(x)

    values = draws.uniform(a, b, shape, kind)
    pending = rejected(values)
    while pending.any():
        candidates = draws.uniform(a, b, shape, kind)
        values = np.where(pending, candidates, values)
        pending = np.where(pending, rejected(candidates), pending)
    return _fill(tensor, values)


def orthogonal_(tensor: Tensor, gain: float = 1.0, generator: Any = None) -> Tensor:  # noqa: A002
    """A (semi-)orthogonal matrix over the tensor's first dimension and the rest flattened:
    the Q of the QR factorisation of standard normal draws (transposed when wider than tall),
    its columns' signs those of R's diagonal, times ``gain`` (torch's method)."""
    if tensor._data.ndim < 2:
        raise TORCH.error("init_orthogonal_dims")
    if tensor._data.size == 0:
        return tensor
    rows = tensor._data.shape[0]
    cols = tensor._data.size // rows
    flat = drawing(generator).normal(0.0, 1.0, (rows, cols), tensor._data.dtype)
    wide = rows < cols
    q, r = np.linalg.qr(flat.T if wide else flat)
    q = q * np.sign(np.diag(r))
    values = (q.T if wide else q).reshape(tensor._data.shape)
    _fill(tensor, values)
    with no_grad():
        tensor.mul_(gain)
    return tensor


__getattr__ = module_getattr("torch.nn.init")
