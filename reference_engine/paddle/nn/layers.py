"""``paddle.nn.Layer`` and ``Linear``: what training loops need on the way to their autograd.
Parameters are registered by assignment; ``Linear``'s weight has shape (in_features,
out_features), drawn from paddle's Xavier-uniform scheme with numpy's generator (a program that
compares values with paddle sets them itself), and its bias starts at zero, as in paddle."""

from __future__ import annotations

import itertools
import math
from typing import Any, Iterator, Optional

import numpy as np

from reference_engine.paddle import Tensor, matmul, no_grad, to_tensor

__all__ = ["Layer", "Linear", "Parameter"]

_RNG = np.random.default_rng(0)
_LINEAR_NAMES = itertools.count()


class Parameter(Tensor):
    """paddle's parameter (``EagerParamBase``): a leaf that does not stop gradient."""

    __slots__ = ()

    @classmethod
    def _from_array(cls, data: Any) -> Tensor:
        return Tensor._from_array(data)

    @staticmethod
    def of(values: np.ndarray, name: str) -> Parameter:
        with no_grad():
            param = to_tensor(values)
        param.__class__ = Parameter
        param._requires_grad = True
        param._name = name
        return param  # type: ignore[return-value]

    def set_value(self, value: Any) -> None:
        data = value._data if isinstance(value, Tensor) else np.asarray(value)
        np.copyto(self._data, data, casting="unsafe")

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()


class Layer:
    """A container of parameters and sub-layers; calling it calls ``forward``."""

    def __init__(self) -> None:
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_sub_layers", {})
        object.__setattr__(self, "training", True)

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, Parameter):
            self._parameters[name] = value
        elif isinstance(value, Layer):
            self._sub_layers[name] = value
        object.__setattr__(self, name, value)

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.forward(*args, **kwargs)

    def named_parameters(self, prefix: str = "") -> Iterator[tuple[str, Parameter]]:
        for name, param in self._parameters.items():
            yield prefix + name, param
        for name, layer in self._sub_layers.items():
            yield from layer.named_parameters(f"{prefix}{name}.")

    def parameters(self) -> list[Parameter]:
        return [param for _, param in self.named_parameters()]

    def clear_gradients(self, set_to_zero: bool = True) -> None:
        for param in self.parameters():
            param.clear_gradient(set_to_zero)

    def train(self) -> None:
        object.__setattr__(self, "training", True)

    def eval(self) -> None:
        object.__setattr__(self, "training", False)


class Linear(Layer):
    """``y = x W + b`` with ``W`` of shape (in_features, out_features)."""

    def __init__(self, in_features: int, out_features: int, weight_attr: Any = None,
                 bias_attr: Optional[bool] = None, name: Optional[str] = None) -> None:
        super().__init__()
        k = next(_LINEAR_NAMES)
        bound = math.sqrt(6.0 / (in_features + out_features))
        self.weight = Parameter.of(
            _RNG.uniform(-bound, bound, (in_features, out_features)).astype(np.float32),
            f"linear_{k}.w_0")
        self.bias = None if bias_attr is False else Parameter.of(
            np.zeros(out_features, np.float32), f"linear_{k}.b_0")

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        out = matmul(input, self.weight)
        return out + self.bias if self.bias is not None else out
