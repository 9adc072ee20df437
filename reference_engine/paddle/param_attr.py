"""``paddle.ParamAttr``: how a layer makes one of its parameters (initializer, name,
trainable) and how optimizers treat it (its own regularizer, a learning-rate factor)."""

from __future__ import annotations

import weakref
from typing import Any, Callable, Optional, Sequence

import numpy as np

__all__ = ["ParamAttr"]

# what each parameter's attribute said, by the parameter's id (tensors carry no extra fields,
# and compare elementwise, so they cannot be keys): a reference to the parameter beside it
_ATTRIBUTES: dict[int, tuple[weakref.ref[Any], ParamAttr]] = {}


class ParamAttr:
    def __init__(self, name: Optional[str] = None, initializer: Any = None, learning_rate: float = 1.0,
                 regularizer: Any = None, trainable: bool = True, do_model_average: bool = True,
                 need_clip: bool = True) -> None:
        self.name, self.initializer, self.learning_rate = name, initializer, learning_rate
        self.regularizer, self.trainable = regularizer, trainable
        self.do_model_average, self.need_clip = do_model_average, need_clip


def resolved(attr: Any) -> Optional[ParamAttr]:
    """A layer's ``weight_attr`` / ``bias_attr`` as a ``ParamAttr``: a name, an initializer or
    None become one; False (no parameter) stays None."""
    if attr is None or attr is False or isinstance(attr, ParamAttr):
        return attr or None
    if isinstance(attr, str):
        return ParamAttr(name=attr)
    return ParamAttr(initializer=attr)


def initial_values(attr: Any, shape: Sequence[int], dtype: Any,
                   default: Callable[[], np.ndarray]) -> np.ndarray:
    """A new parameter's values: from ``attr``'s initializer where it has one, else
    ``default()``. Only one of them runs, so a random default draws nothing when an
    initializer replaces it (paddle's generator moves on once)."""
    attr = resolved(attr)
    if attr is not None and attr.initializer is not None:
        return np.asarray(attr.initializer.values(list(shape), str(np.dtype(dtype))), dtype)
    return default()


def applied(parameter: Any, attr: Any) -> Any:
    """``parameter`` (its values already from ``initial_values``) as ``attr`` asks: its name,
    whether it trains; the regularizer and learning rate are kept for the optimizers."""
    attr = resolved(attr)
    if attr is None:
        return parameter
    if attr.name:
        parameter._name = attr.name
    if not attr.trainable:
        parameter.stop_gradient = True
    key = id(parameter)
    _ATTRIBUTES[key] = (weakref.ref(parameter, lambda _: _ATTRIBUTES.pop(key, None)), attr)
    return parameter


def _attribute(parameter: Any) -> Optional[ParamAttr]:
    entry = _ATTRIBUTES.get(id(parameter))
    return entry[1] if entry is not None and entry[0]() is parameter else None


def regularizer_of(parameter: Any) -> Any:
    attr = _attribute(parameter)
    return None if attr is None else attr.regularizer


def learning_rate_of(parameter: Any) -> float:
    attr = _attribute(parameter)
    return 1.0 if attr is None else attr.learning_rate
