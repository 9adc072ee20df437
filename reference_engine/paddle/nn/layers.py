"""``paddle.nn.Layer`` and ``Linear``: what training loops need on the way to their autograd.
Parameters are registered by assignment; ``Linear``'s weight has shape (in_features,
out_features), drawn from paddle's Xavier-uniform scheme by paddle's generator (so a seeded
program starts from paddle's weights), and its bias starts at zero, as in paddle."""

from __future__ import annotations

import math
import re
import warnings
from collections import OrderedDict
from typing import Any, Callable, Iterator, Optional

import numpy as np

from reference_engine import modules as shared
from reference_engine import rng
from reference_engine.framework_names import instance_getattr
from reference_engine.messages import not_supported
from reference_engine.paddle import param_attr
from reference_engine.paddle._core import (
    Tensor,
    created,
    get_default_dtype,
    matmul,
    no_grad,
    tanh,
)
from reference_engine.paddle.nn import functional
from reference_engine.paddle.nn.initializer import Constant, XavierUniform
from reference_engine.paddle.utils import unique_name

__all__ = ["Bilinear", "CrossEntropyLoss", "ELU", "Flatten", "GELU", "Identity", "L1Loss", "Layer",
           "LayerDict", "SmoothL1Loss",
           "LayerList", "ParameterList", "LeakyReLU", "Linear", "LogSoftmax", "MSELoss", "Parameter", "ReLU",
           "Sequential", "Sigmoid", "SiLU", "Silu", "Softmax", "Softplus", "Tanh"]



class Parameter(Tensor):
    """paddle's parameter (``EagerParamBase``): a leaf that does not stop gradient."""

    __slots__ = ()

    @classmethod
    def _from_array(cls, data: Any) -> Tensor:
        return Tensor._from_array(data)

    @staticmethod
    def of(values: np.ndarray, name: str) -> Parameter:
        with no_grad():
            param = created(values)  # (not made from data: a seed of another dtype is cast)
        param.__class__ = Parameter
        param._requires_grad = True
        param._name = name
        return param  # type: ignore[return-value]

    @property
    def trainable(self) -> bool:
        """Whether an optimizer updates it: paddle's flag for ``not stop_gradient``."""
        return not self.stop_gradient

    @trainable.setter
    def trainable(self, value: bool) -> None:
        self.stop_gradient = not value

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()


def create_parameter(shape: Any, dtype: Any, name: Optional[str] = None, attr: Any = None,
                     is_bias: bool = False, default_initializer: Any = None) -> Parameter:
    """``paddle.create_parameter``: a parameter of ``shape`` made by ``attr``'s initializer, or
    ``default_initializer``, or paddle's default: zeros for a bias, ``XavierUniform`` (drawn by
    paddle's generator) for a weight."""
    attr = param_attr.resolved(attr)
    if attr is not None and attr.initializer is not None:
        default_initializer = attr.initializer
    if default_initializer is None and is_bias:
        default_initializer = Constant(0.0)
    if default_initializer is None:
        default_initializer = XavierUniform()
    values = default_initializer.values(list(shape), str(np.dtype(str(dtype).split(".")[-1])))
    made = Parameter.of(values, name or unique_name.generate("create_parameter") + ".w_0")
    return param_attr.applied(made, attr)


def _snake_case(name: str) -> str:
    """``CamelCaseNet`` → ``camel_case_net``, as paddle names a layer after its class."""
    return re.sub("([a-z0-9])([A-Z])", r"\1_\2", re.sub("(.)([A-Z][a-z]+)", r"\1_\2", name)).lower()


class Layer(shared.ModuleBase):
    """``paddle.nn.Layer``."""

    __getattr__ = instance_getattr("paddle.nn.Layer")
    repr_style = "paddle"
    table_type = OrderedDict
    parameter_type = Parameter
    tensor_type = Tensor

    def __init__(self, name_scope: Optional[str] = None, dtype: Any = "float32") -> None:
        """The layer's full name is ``name_scope`` (or its class's name in snake case) numbered
        by ``paddle.utils.unique_name``: ``linear_0``; its parameters are named under it."""
        super().__init__()
        name = unique_name.generate(name_scope or _snake_case(type(self).__name__))
        object.__setattr__(self, "_full_name", name)

    def full_name(self) -> str:
        return self._full_name

    @property
    def _sub_layers(self) -> dict[str, shared.ModuleBase]:
        return self._children

    def register_buffer(self, name: str, tensor: Optional[Tensor], persistable: bool = True) -> None:
        self._add_buffer(name, tensor, persistable)

    def add_sublayer(self, name: str, sublayer: shared.ModuleBase) -> shared.ModuleBase:
        self.add_module(name, sublayer)
        return sublayer

    def add_parameter(self, name: str, parameter: Optional[Parameter]) -> Optional[Parameter]:
        self._parameters[name] = parameter
        object.__setattr__(self, name, parameter)
        return parameter

    def register_forward_pre_hook(self, hook: Callable[..., Any]) -> Any:
        """``hook(layer, inputs)`` before ``forward``; what it returns replaces the inputs."""
        return self._hook("forward_pre", hook)

    def register_forward_post_hook(self, hook: Callable[..., Any]) -> Any:
        """``hook(layer, inputs, output)`` after ``forward``; what it returns replaces the output."""
        return self._hook("forward", hook)

    def register_forward_hook(self, hook: Callable[..., Any], *, prepend: bool = False,
                              with_kwargs: bool = False, always_call: bool = False) -> Any:
        """paddle's torch-style forward hook: ``hook(layer, args, output)`` (``with_kwargs``:
        ``hook(layer, args, kwargs, output)``)."""
        return self._forward_hook("forward", hook, prepend, with_kwargs, always_call)

    def named_modules(self, memo: Any = None, prefix: str = "",
                      remove_duplicate: bool = True) -> Iterator[tuple[str, shared.ModuleBase]]:
        """paddle's torch-style walk: the layer and every sublayer, with dotted names."""
        return self.named_sublayers(prefix, include_self=True)

    def get_sublayer(self, target: str) -> shared.ModuleBase:
        """The sublayer at the dotted path ``target`` (the layer itself for "")."""
        layer: shared.ModuleBase = self
        for name in target.split(".") if target else ():
            if name not in layer._children:
                raise AttributeError(f"{type(layer).__name__} has no attribute `{name}`")
            layer = layer._children[name]
        return layer

    def requires_grad_(self, requires_grad: bool = True) -> Layer:
        """Every parameter made to need gradient (or stop it)."""
        for parameter in self.parameters():
            parameter.stop_gradient = not requires_grad
        return self

    def parameters(self, include_sublayers: bool = True) -> list[Parameter]:
        return [param for _, param in self.named_parameters(recurse=include_sublayers)]

    def named_parameters(self, prefix: str = "", include_sublayers: bool = True,  # type: ignore[override]
                         recurse: Optional[bool] = None) -> Iterator[tuple[str, Any]]:
        return super().named_parameters(prefix, include_sublayers if recurse is None else recurse)

    def named_sublayers(self, prefix: str = "", include_self: bool = False,
                        layers_set: Any = None) -> Iterator[tuple[str, shared.ModuleBase]]:
        for name, layer in self._named_modules(prefix):
            if layer is not self or include_self:
                yield name, layer

    def sublayers(self, include_self: bool = False) -> list[shared.ModuleBase]:
        return [layer for _, layer in self.named_sublayers(include_self=include_self)]

    def modules(self) -> list[shared.ModuleBase]:
        """The layer and every layer below it (paddle's alias of ``sublayers(include_self=True)``)."""
        return self.sublayers(include_self=True)

    def register_parameter(self, name: str, parameter: Optional[Parameter]) -> Optional[Parameter]:
        return self.add_parameter(name, parameter)

    @property
    def _modules(self) -> dict[str, shared.ModuleBase]:
        return self._sub_layers

    def clear_gradients(self, set_to_zero: bool = True) -> None:
        for param in self.parameters():
            if param.trainable:
                param.clear_gradient(set_to_zero)

    def train(self) -> None:
        self._set_training(True)

    def eval(self) -> None:
        self._set_training(False)

    def state_dict(self, destination: Any = None, include_sublayers: bool = True,
                   structured_name_prefix: str = "", use_hook: bool = True,
                   keep_vars: bool = True) -> OrderedDict[str, Tensor]:
        """Parameters and persistable buffers by dotted name (the tensors themselves)."""
        out = OrderedDict() if destination is None else destination
        for name, tensor in self._state_items():
            out[structured_name_prefix + name] = tensor
        return out

    def set_state_dict(self, state_dict: Any, use_structured_name: bool = True
                       ) -> tuple[list[str], list[str]]:
        """Copy the values in; returns the missing and the unexpected keys (each missing one
        warned about, as paddle does)."""
        missing, unexpected, mismatches = self._load_state(state_dict)
        if mismatches:
            raise ValueError(mismatches[0])
        for key in missing:
            warnings.warn(f"Skip loading for {key}. {key} is not found in the provided dict.",
                          stacklevel=2)
        return missing, unexpected

    set_dict = load_dict = load_state_dict = set_state_dict

    def buffers(self, include_sublayers: bool = True) -> list[Tensor]:  # type: ignore[override]
        """A list, as paddle's (torch's is a generator)."""
        return list(super().buffers(recurse=include_sublayers))

    def create_parameter(self, shape: Any, attr: Any = None, dtype: Any = None, is_bias: bool = False,
                         default_initializer: Any = None) -> Parameter:
        """``paddle.create_parameter`` in the layer's default dtype, named under the layer
        (``net_0.w_0``, ``net_0.b_0``; not registered until it is assigned to an attribute)."""
        return create_parameter(shape, dtype or get_default_dtype(), attr=attr, is_bias=is_bias,
                                default_initializer=default_initializer,
                                name=self._parameter_name(is_bias))

    def _parameter_name(self, is_bias: bool = False) -> str:
        return unique_name.generate(f"{self._full_name}.{'b' if is_bias else 'w'}")

    def zero_grad(self, set_to_none: bool = True) -> None:
        """``clear_gradients``: each trainable parameter's gradient dropped (its storage freed),
        or zeroed with ``set_to_none=False`` (measured on 3.3.1)."""
        self.clear_gradients(set_to_zero=not set_to_none)

    def to(self, device: Any = None, dtype: Any = None, blocking: Any = None) -> Layer:
        if dtype is not None:
            self._cast_floating(np.dtype(str(dtype).split(".")[-1]))
        return self

    def float(self) -> Layer:  # noqa: A003
        return self.to(dtype="float32")

    def double(self) -> Layer:
        return self.to(dtype="float64")


class Linear(Layer):
    """``y = x W + b`` with ``W`` of shape (in_features, out_features)."""

    def __init__(self, in_features: int, out_features: int, weight_attr: Any = None,
                 bias_attr: Optional[bool] = None, name: Optional[str] = None) -> None:
        super().__init__()
        bound = math.sqrt(6.0 / (in_features + out_features))
        dtype = get_default_dtype()
        shape = (in_features, out_features)
        weight = param_attr.initial_values(weight_attr, shape, dtype, lambda: rng.generator("paddle").uniform(
            -bound, bound, shape, np.dtype(dtype)))
        self.weight = param_attr.applied(Parameter.of(weight, self._parameter_name()), weight_attr)
        self.bias = None if bias_attr is False else param_attr.applied(Parameter.of(param_attr.initial_values(
            bias_attr, (out_features,), dtype, lambda: np.zeros(out_features, dtype)),
            self._parameter_name(True)),
            bias_attr)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        out = matmul(input, self.weight)
        return out + self.bias if self.bias is not None else out

    def extra_repr(self) -> str:
        rows, columns = self.weight.shape
        return f"in_features={rows}, out_features={columns}, dtype={self.weight._data.dtype}"


class Bilinear(Layer):
    """``out = x1ᵀ W_o x2 + b``: a weight of shape (out, in1, in2) drawn as
    ``paddle.create_parameter`` draws a weight, and a bias of shape (1, out), zeros."""

    def __init__(self, in1_features: int, in2_features: int, out_features: int, weight_attr: Any = None,
                 bias_attr: Any = None, name: Optional[str] = None) -> None:
        super().__init__()
        self._name = name
        self.weight = self.create_parameter([out_features, in1_features, in2_features], attr=weight_attr)
        self.bias = None if bias_attr is False else self.create_parameter(
            [1, out_features], attr=bias_attr, is_bias=True)

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        from reference_engine.paddle.nn.functional import bilinear  # (it imports this module)

        return bilinear(x1, x2, self.weight, self.bias, self._name)

    def extra_repr(self) -> str:
        out, in1, in2 = self.weight.shape
        return f"in1_features={in1}, in2_features={in2}, out_features={out}, dtype={self.weight._data.dtype}"


class Sequential(shared.SequentialBase, Layer):
    """``paddle.nn.Sequential``."""


class LayerList(shared.ListBase, Layer):
    """``paddle.nn.LayerList``."""


class LayerDict(shared.DictBase, Layer):
    """``paddle.nn.LayerDict``."""


class ParameterList(shared.ParameterListBase, Layer):
    """``paddle.nn.ParameterList``: parameters registered as ``0``, ``1``, ...; it prints no
    entries (measured)."""


class Identity(shared.IdentityBase, Layer):
    """``paddle.nn.Identity``."""


class Flatten(Layer):
    """``paddle.nn.Flatten``: axes ``start_axis`` (1: the batch stays) to ``stop_axis``."""

    def __init__(self, start_axis: int = 1, stop_axis: int = -1) -> None:
        super().__init__()
        self.start_axis, self.stop_axis = start_axis, stop_axis

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        from reference_engine.paddle.extras import flatten  # loaded after paddle.nn

        return flatten(input, self.start_axis, self.stop_axis)


(ReLU, Tanh, Sigmoid, LeakyReLU, ELU, GELU, Softplus, Softmax,
 LogSoftmax) = shared.function_modules(
    Layer, shared.ActivationBase, ReLU=functional.relu, Tanh=tanh, Sigmoid=functional.sigmoid,
    LeakyReLU=functional.leaky_relu, ELU=functional.elu, GELU=functional.gelu,
    Softplus=functional.softplus, Softmax=functional.softmax, LogSoftmax=functional.log_softmax)


class Silu(Layer):
    """``paddle.nn.Silu``: ``x · sigmoid(x)``; paddle 3.3.1's printout shows ``inplace``."""

    def __init__(self, inplace: bool = False, name: Optional[str] = None) -> None:
        super().__init__()
        if inplace:
            raise not_supported("Silu(inplace=True)", "paddle")
        self._inplace = inplace

    def forward(self, x: Tensor) -> Tensor:
        return functional.silu(x)

    def extra_repr(self) -> str:
        return f"inplace={self._inplace}"


SiLU = Silu
# what each activation's printout shows (measured on paddle 3.3.1)
for _layer, _shown in ((LeakyReLU, (("negative_slope", False),)), (ELU, (("alpha", False),)),
                       (GELU, (("approximate", False),)), (Softplus, (("beta", False), ("threshold", False))),
                       (Softmax, (("axis", False),)), (LogSoftmax, (("axis", False),))):
    _layer.shown = _shown

(MSELoss, L1Loss) = shared.function_modules(Layer, shared.LossBase, MSELoss=functional.mse_loss,
                                            L1Loss=functional.l1_loss)


class CrossEntropyLoss(shared.LossBase, Layer):
    """``cross_entropy`` with the settings it was made with."""

    def __init__(self, weight: Optional[Tensor] = None, ignore_index: int = -100, reduction: str = "mean",
                 soft_label: bool = False, axis: int = -1, use_softmax: bool = True,
                 label_smoothing: float = 0.0, name: Optional[str] = None) -> None:
        super().__init__(reduction)
        self.weight, self.ignore_index, self.soft_label = weight, ignore_index, soft_label
        self.axis, self.use_softmax, self.label_smoothing = axis, use_softmax, label_smoothing

    def forward(self, input: Any, label: Any) -> Any:  # noqa: A002
        return functional.cross_entropy(input, label, self.weight, self.ignore_index, self.reduction,
                                        self.soft_label, self.axis, self.use_softmax, self.label_smoothing)


class SmoothL1Loss(shared.LossBase, Layer):
    """``smooth_l1_loss`` with the reduction and ``delta`` it was made with."""

    def __init__(self, reduction: str = "mean", delta: float = 1.0, name: Optional[str] = None) -> None:
        super().__init__(reduction)
        self.delta = delta

    def forward(self, input: Any, label: Any) -> Any:  # noqa: A002
        return functional.smooth_l1_loss(input, label, self.reduction, self.delta)
