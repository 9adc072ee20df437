"""``paddle.nn.init``: torch-style functions that write an initializer's values into a tensor
in place and return None, as paddle 3.3.1's do (each is the ``paddle.nn.initializer`` class of
its name applied to the tensor, so the draws are those of paddle's generator)."""

from __future__ import annotations

from typing import Any, Optional

from reference_engine.framework_names import module_getattr
from reference_engine.paddle.nn import initializer
from reference_engine.paddle.nn.initializer import calculate_gain

__all__ = ["calculate_gain", "constant_", "kaiming_normal_", "kaiming_uniform_", "normal_", "ones_",
           "orthogonal_", "trunc_normal_", "uniform_", "xavier_normal_", "xavier_uniform_", "zeros_"]


def zeros_(tensor: Any) -> None:
    initializer.Constant(0.0)(tensor)


def ones_(tensor: Any) -> None:
    initializer.Constant(1.0)(tensor)


def constant_(tensor: Any, val: float) -> None:
    initializer.Constant(val)(tensor)


def normal_(tensor: Any, mean: float = 0.0, std: float = 1.0) -> None:
    initializer.Normal(mean, std)(tensor)


def uniform_(tensor: Any, a: float = 0.0, b: float = 1.0) -> None:
    initializer.Uniform(a, b)(tensor)


def trunc_normal_(tensor: Any, mean: float = 0.0, std: float = 1.0, a: float = -2.0, b: float = 2.0) -> None:
    initializer.TruncatedNormal(mean, std, a, b)(tensor)


def kaiming_normal_(tensor: Any, a: float = 0, mode: str = "fan_in",
                    nonlinearity: str = "leaky_relu") -> None:
    initializer.KaimingNormal(negative_slope=a, nonlinearity=nonlinearity, mode=mode)(tensor)


def kaiming_uniform_(tensor: Any, a: float = 0, mode: str = "fan_in",
                     nonlinearity: str = "leaky_relu") -> None:
    initializer.KaimingUniform(negative_slope=a, nonlinearity=nonlinearity, mode=mode)(tensor)


def xavier_uniform_(tensor: Any, gain: float = 1.0, fan_in: Optional[float] = None,
                    fan_out: Optional[float] = None) -> None:
    initializer.XavierUniform(fan_in, fan_out, gain)(tensor)


def xavier_normal_(tensor: Any, gain: float = 1.0, fan_in: Optional[float] = None,
                   fan_out: Optional[float] = None) -> None:
    initializer.XavierNormal(fan_in, fan_out, gain)(tensor)


def orthogonal_(tensor: Any, gain: float = 1) -> None:
    initializer.Orthogonal(gain)(tensor)


__getattr__ = module_getattr("paddle.nn.init")
