"""``paddle.nn.Layer`` and ``Linear``: what training loops need on the way to their autograd.
Parameters are registered by assignment; ``Linear``'s weight has shape (in_features,
out_features), drawn from paddle's Xavier-uniform scheme with numpy's generator (a program that
compares values with paddle sets them itself), and its bias starts at zero, as in paddle."""

from __future__ import annotations

import itertools
import math
from typing import Any, Optional

import numpy as np

from reference_engine import rng
from reference_engine.modules import ActivationBase, ModuleBase, SequentialBase
from reference_engine.paddle import Tensor, matmul, no_grad, tanh, to_tensor
from reference_engine.paddle.nn.functional import cross_entropy, mse_loss, relu, sigmoid
from reference_engine.paddle.nn.initializer import Constant

__all__ = ["CrossEntropyLoss", "Layer", "Linear", "MSELoss", "Parameter", "ReLU", "Sequential",
           "Sigmoid", "Tanh"]

_LINEAR_NAMES = itertools.count()
_CREATED_NAMES = itertools.count()


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


def create_parameter(shape: Any, dtype: Any, name: Optional[str] = None, attr: Any = None,
                     is_bias: bool = False, default_initializer: Any = None) -> Parameter:
    """``paddle.create_parameter``: a parameter of ``shape`` made by ``default_initializer``
    (``Assign`` or ``Constant``; a bias defaults to zeros). paddle's random default for a
    weight is not modelled: say how to initialize it."""
    if default_initializer is None and is_bias:
        default_initializer = Constant(0.0)
    if default_initializer is None:
        raise NotImplementedError("create_parameter without default_initializer: paddle's "
                                  "random initialization is not modelled")
    values = default_initializer.values(list(shape), str(np.dtype(str(dtype).split(".")[-1])))
    return Parameter.of(values, name or f"create_parameter_{next(_CREATED_NAMES)}.w_0")


class Layer(ModuleBase):
    """``paddle.nn.Layer``."""

    parameter_type = Parameter

    @property
    def _sub_layers(self) -> dict[str, ModuleBase]:
        return self._children

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
            rng.generator().uniform(-bound, bound, (in_features, out_features)).astype(np.float32),
            f"linear_{k}.w_0")
        self.bias = None if bias_attr is False else Parameter.of(
            np.zeros(out_features, np.float32), f"linear_{k}.b_0")

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        out = matmul(input, self.weight)
        return out + self.bias if self.bias is not None else out


class Sequential(SequentialBase, Layer):
    """``paddle.nn.Sequential``."""


class ReLU(ActivationBase, Layer):
    function = staticmethod(relu)


class Tanh(ActivationBase, Layer):
    function = staticmethod(tanh)


class Sigmoid(ActivationBase, Layer):
    function = staticmethod(sigmoid)


class MSELoss(Layer):
    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        self.reduction = reduction

    def forward(self, input: Tensor, label: Tensor) -> Tensor:  # noqa: A002
        return mse_loss(input, label, self.reduction)


class CrossEntropyLoss(Layer):
    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        self.reduction = reduction

    def forward(self, input: Tensor, label: Tensor) -> Tensor:  # noqa: A002
        return cross_entropy(input, label, reduction=self.reduction)
