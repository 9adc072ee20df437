"""``torch.nn.init``: filling a tensor in place, without recording (as torch does under
``no_grad``; the tensor's version grows). The deterministic fillers give torch's values; the
random ones draw from torch's distributions with numpy's generator, so a program that compares
values with torch sets them itself (as with ``Linear``)."""

from __future__ import annotations

import math
from typing import Any, Optional

import numpy as np

from reference_engine import rng
from reference_engine.dialects.torch_policy import TORCH
from reference_engine.framework_names import module_getattr
from reference_engine.torch._core import Tensor, no_grad, tensor

__all__ = ["calculate_gain", "constant_", "eye_", "kaiming_normal_", "kaiming_uniform_",
           "normal_", "ones_", "uniform_", "xavier_normal_", "xavier_uniform_", "zeros_"]


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
    return _fill(tensor, rng.generator().uniform(a, b, tensor._data.shape))


def normal_(tensor: Tensor, mean: float = 0.0, std: float = 1.0, generator: Any = None) -> Tensor:  # noqa: A002
    return _fill(tensor, rng.generator().normal(mean, std, tensor._data.shape))


def xavier_uniform_(tensor: Tensor, gain: float = 1.0, generator: Any = None) -> Tensor:  # noqa: A002
    fan_in, fan_out = _fans(tensor)
    bound = gain * math.sqrt(6.0 / (fan_in + fan_out))
    return uniform_(tensor, -bound, bound)


def xavier_normal_(tensor: Tensor, gain: float = 1.0, generator: Any = None) -> Tensor:  # noqa: A002
    fan_in, fan_out = _fans(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / (fan_in + fan_out)))


def _kaiming_std(tensor: Tensor, a: float, mode: str, nonlinearity: str) -> float:
    fan_in, fan_out = _fans(tensor)
    return calculate_gain(nonlinearity, a) / math.sqrt(fan_in if mode == "fan_in" else fan_out)


def kaiming_uniform_(tensor: Tensor, a: float = 0, mode: str = "fan_in",  # noqa: A002
                     nonlinearity: str = "leaky_relu", generator: Any = None) -> Tensor:
    bound = math.sqrt(3.0) * _kaiming_std(tensor, a, mode, nonlinearity)
    return uniform_(tensor, -bound, bound)


def kaiming_normal_(tensor: Tensor, a: float = 0, mode: str = "fan_in",  # noqa: A002
                    nonlinearity: str = "leaky_relu", generator: Any = None) -> Tensor:
    return normal_(tensor, 0.0, _kaiming_std(tensor, a, mode, nonlinearity))

__getattr__ = module_getattr("torch.nn.init")
