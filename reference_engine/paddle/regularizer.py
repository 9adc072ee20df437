"""``paddle.regularizer``: weight decay an optimizer (or a parameter's ``ParamAttr``) adds to
each gradient before the update, after gradient clipping, as paddle orders them."""

from __future__ import annotations

from typing import Any

from reference_engine import ops as F
from reference_engine.framework_names import module_getattr

__all__ = ["L1Decay", "L2Decay", "WeightDecayRegularizer"]


class WeightDecayRegularizer:
    """The base: ``coeff`` times the term ``decayed`` gives for a parameter."""

    def __init__(self, coeff: float = 0.0) -> None:
        self._coeff = float(coeff)

    def decayed(self, parameter: Any) -> Any:
        raise NotImplementedError

    def __call__(self, parameter: Any, gradient: Any) -> Any:
        return gradient + self.decayed(parameter) * self._coeff

    def __str__(self) -> str:
        return f"{type(self).__name__}, coeff={self._coeff:f}"


class L2Decay(WeightDecayRegularizer):
    """``gradient + coeff * parameter``."""

    def decayed(self, parameter: Any) -> Any:
        return parameter


class L1Decay(WeightDecayRegularizer):
    """``gradient + coeff * sign(parameter)``."""

    def decayed(self, parameter: Any) -> Any:
        return F.sign(parameter)


def as_regularizer(weight_decay: Any) -> Any:
    """An optimizer's ``weight_decay``: a number is an ``L2Decay`` of it."""
    return L2Decay(weight_decay) if isinstance(weight_decay, (int, float)) else weight_decay


__getattr__ = module_getattr("paddle.regularizer")
