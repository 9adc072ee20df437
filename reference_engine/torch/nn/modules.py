"""``torch.nn.Module``, ``Linear`` and ``MSELoss``: what training loops need on the way to their
autograd. Parameters are registered by assignment, as torch registers them; ``Linear`` draws its
initial values from torch's scheme (uniform in ±1/√in_features) with torch's generator, so a
seeded program starts from torch's weights."""

from __future__ import annotations

import math
from collections import OrderedDict
from typing import Any, Callable, Iterable, Iterator, NamedTuple, Optional

import numpy as np

from reference_engine import devices
from reference_engine import modules as shared
from reference_engine.dtypes import numpy_dtype
from reference_engine.framework_names import instance_getattr
from reference_engine.messages import not_supported
from reference_engine.torch._core import (
    TORCH,
    Tensor,
    _np_dtype,
    get_default_dtype,
    no_grad,
    sigmoid,
    tanh,
    tensor,
)
from reference_engine.torch._core import dtype as torch_dtype
from reference_engine.torch.devices import placement
from reference_engine.torch.nn import functional
from reference_engine.torch.nn.parameter import Parameter, UninitializedParameter
from reference_engine.torch.random import drawing

__all__ = ["LazyLinear", "BCELoss", "Bilinear", "BCEWithLogitsLoss", "CrossEntropyLoss", "ELU", "Flatten",
           "GELU", "GLU",
           "Hardsigmoid", "Hardswish", "Hardtanh", "Identity", "L1Loss", "LeakyReLU", "Linear",
           "LogSigmoid", "LogSoftmax", "MSELoss", "Mish", "Module", "ModuleDict", "ModuleList", "NLLLoss",
           "ParameterDict", "ParameterList", "ReLU", "ReLU6", "SELU", "Sequential", "SiLU", "Sigmoid",
           "SmoothL1Loss", "Softmax", "Softmin", "Softplus", "Softshrink", "Softsign", "Tanh",
           "Tanhshrink", "Threshold", "Unflatten", "clear_grads", "Hardshrink"]

def clear_grads(params: Iterable[Tensor], set_to_none: bool) -> None:
    """``zero_grad``: drop each gradient, or zero it in place (detached from any graph)."""
    for param in params:
        if param.grad is None:
            continue
        if set_to_none:
            param.grad = None
        else:
            param.grad.detach_().zero_()


class _IncompatibleKeys(NamedTuple):
    """What ``load_state_dict`` returns."""

    missing_keys: list[str]
    unexpected_keys: list[str]

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return f"_IncompatibleKeys(missing_keys={self.missing_keys}, unexpected_keys={self.unexpected_keys})"

    __str__ = __repr__


class Module(shared.ModuleBase):
    """``torch.nn.Module``."""

    __getattr__ = instance_getattr("torch.nn.Module")
    parameter_type = Parameter
    tensor_type = Tensor

    @property
    def _modules(self) -> dict[str, shared.ModuleBase]:
        return self._children

    def register_buffer(self, name: str, tensor: Optional[Tensor], persistent: bool = True) -> None:
        self._add_buffer(name, tensor, persistent)

    def register_parameter(self, name: str, param: Optional[Parameter]) -> None:
        if param is not None and not isinstance(param, Parameter):
            raise TORCH.error("parameter_type", type_name=type(param).__name__, name=name)
        self._parameters[name] = param
        object.__setattr__(self, name, param)

    def register_module(self, name: str, module: Optional[shared.ModuleBase]) -> None:
        self.add_module(name, module)

    def register_forward_pre_hook(self, hook: Callable[..., Any], *, prepend: bool = False,
                                  with_kwargs: bool = False) -> Any:
        """``hook(module, args)`` (``with_kwargs``: ``hook(module, args, kwargs)``, returning both)
        before ``forward``; what it returns replaces the arguments."""
        return self._forward_hook("forward_pre", hook, prepend, with_kwargs)

    def register_forward_hook(self, hook: Callable[..., Any], *, prepend: bool = False,
                              with_kwargs: bool = False, always_call: bool = False) -> Any:
        """``hook(module, args, output)`` (``with_kwargs``: ``hook(module, args, kwargs,
        output)``) after ``forward``; what it returns replaces the output."""
        return self._forward_hook("forward", hook, prepend, with_kwargs, always_call)

    def register_full_backward_hook(self, hook: Callable[..., Any], prepend: bool = False) -> Any:
        """``hook(module, grad_input, grad_output)`` once the gradients with respect to the
        module's tensor arguments are computed; a tuple it returns replaces ``grad_input``."""
        if prepend:
            raise not_supported("register_full_backward_hook(prepend=True)", "torch")
        return self._hook("backward", hook)

    def register_full_backward_pre_hook(self, hook: Callable[..., Any], prepend: bool = False) -> Any:
        """``hook(module, grad_output)`` when the gradients of the module's outputs are known; a
        tuple it returns replaces them."""
        if prepend:
            raise not_supported("register_full_backward_pre_hook(prepend=True)", "torch")
        return self._hook("backward_pre", hook)

    def register_backward_hook(self, hook: Callable[..., Any]) -> Any:
        raise not_supported("Module.register_backward_hook (deprecated): use "
                            "register_full_backward_hook", "torch")

    def _backward_hook(self) -> Any:
        from reference_engine.torch.nn.backward_hook import BackwardHook  # needs torch.autograd

        return BackwardHook(self, list(self._backward_hooks.values()),
                            list(self._backward_pre_hooks.values()))

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_modules(self, memo: Any = None, prefix: str = "") -> Iterator[tuple[str, shared.ModuleBase]]:
        return self._named_modules(prefix)

    def modules(self) -> Iterator[shared.ModuleBase]:
        for _, module in self._named_modules():
            yield module

    def get_submodule(self, target: str) -> shared.ModuleBase:
        module: shared.ModuleBase = self
        for part in target.split(".") if target else ():
            if part not in module._children:
                raise TORCH.error("no_submodule", module=type(module).__name__, name=part)
            module = module._children[part]
        return module

    def zero_grad(self, set_to_none: bool = True) -> None:
        clear_grads(self.parameters(), set_to_none)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        for param in self.parameters():
            param.requires_grad_(requires_grad)
        return self

    def train(self, mode: bool = True) -> Module:
        if not isinstance(mode, bool):
            raise TORCH.error("training_mode")
        self._set_training(mode)
        return self

    def eval(self) -> Module:
        return self.train(False)

    def state_dict(self, *, destination: Any = None, prefix: str = "",
                   keep_vars: bool = False) -> OrderedDict[str, Tensor]:
        """Parameters and persistent buffers by dotted name, detached (sharing storage) unless
        ``keep_vars``."""
        out = OrderedDict() if destination is None else destination
        for name, value in self._state_items():
            out[prefix + name] = value if keep_vars else value.detach()
        return out

    def load_state_dict(self, state_dict: Any, strict: bool = True,
                        assign: bool = False) -> _IncompatibleKeys:
        """Copy the values in without recording; ``strict``: missing or unexpected keys are an
        error (a size mismatch always is)."""
        missing, unexpected, mismatches = self._load_state(state_dict)
        errors = list(mismatches)
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: "
                              + ", ".join(f'"{k}"' for k in unexpected) + ". ")
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: "
                              + ", ".join(f'"{k}"' for k in missing) + ". ")
        if errors:
            raise TORCH.error("load_state_dict", module=type(self).__name__, errors="\n\t".join(errors))
        return _IncompatibleKeys(missing, unexpected)

    def to(self, *args: Any, **kwargs: Any) -> Module:
        """``to(dtype)``, ``to(device)``, ``to(device, dtype)``, ``to(tensor)``: floating
        parameters and buffers take the dtype, all of them the device, in place."""
        dtype, device = kwargs.get("dtype"), kwargs.get("device")
        for arg in args:
            if isinstance(arg, Tensor):
                dtype, device = arg.dtype, arg.device
            elif isinstance(arg, torch_dtype):
                dtype = arg
            else:
                device = arg
        if dtype is not None:
            self._cast_floating(_np_dtype(dtype, "to"))
        if device is not None:
            self._place(placement(device) or devices.CPU)
        return self

    def double(self) -> Module:
        self._cast_floating(np.dtype(np.float64))
        return self

    def half(self) -> Module:
        self._cast_floating(np.dtype(np.float16))
        return self

    def bfloat16(self) -> Module:
        self._cast_floating(numpy_dtype("bfloat16"))
        return self

    def share_memory(self) -> Module:
        """The tensors are in memory the process can share already (a CPU engine)."""
        return self

    def _get_name(self) -> str:
        return type(self).__name__

    def _owner_and_name(self, target: str) -> tuple[shared.ModuleBase, str]:
        path, _, name = target.rpartition(".")
        owner = self.get_submodule(path)
        if not hasattr(owner, name):
            raise AttributeError(f"{type(owner).__name__} has no attribute `{name}`")
        return owner, name

    def get_parameter(self, target: str) -> Any:
        """The parameter at the dotted path ``target``, with torch's errors."""
        owner, name = self._owner_and_name(target)
        if name not in owner._parameters:
            raise AttributeError(f"`{name}` is not an nn.Parameter")
        return owner._parameters[name]

    def get_buffer(self, target: str) -> Any:
        """The buffer at the dotted path ``target``, with torch's errors."""
        owner, name = self._owner_and_name(target)
        if name not in owner._buffers:
            raise AttributeError(f"`{name}` is not a buffer")
        return owner._buffers[name]

    def set_submodule(self, target: str, module: shared.ModuleBase, strict: bool = False) -> None:
        """Put ``module`` at the dotted path ``target`` (``strict``: only in place of one)."""
        path, _, name = target.rpartition(".")
        owner = self.get_submodule(path)
        if strict and not hasattr(owner, name):
            raise AttributeError(f"{type(owner).__name__} has no attribute `{name}`")
        if hasattr(owner, name) and not isinstance(getattr(owner, name), shared.ModuleBase):
            raise AttributeError(f"`{name}` is not an nn.Module")
        setattr(owner, name, module)

    def float(self) -> Module:  # noqa: A003
        self._cast_floating(np.dtype(np.float32))
        return self

    def type(self, dst_type: Any) -> Module:  # noqa: A003
        return self.to(dst_type)

    def cpu(self) -> Module:
        return self.to("cpu")

    def cuda(self, device: Any = None) -> Module:
        return self.to(device if device is not None else "cuda")


class Linear(Module):
    """``y = x Wᵀ + b`` with ``W`` of shape (out_features, in_features)."""

    def __init__(self, in_features: int, out_features: int, bias: bool = True) -> None:
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        bound = 1 / math.sqrt(in_features) if in_features else 0.0
        self.weight = Parameter(_uniform((out_features, in_features), bound))
        self.bias = Parameter(_uniform((out_features,), bound)) if bias else None

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return functional.linear(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class LazyLinear(Linear):
    """A Linear whose ``in_features`` is read from its first input: until then its parameters
    are uninitialized; its first forward draws them as ``Linear(in_features, out_features)``
    would and makes the module a Linear."""

    def __init__(self, out_features: int, bias: bool = True, device: Any = None, dtype: Any = None) -> None:
        Module.__init__(self)
        self.in_features, self.out_features = 0, out_features
        self.weight = UninitializedParameter()
        self.bias = UninitializedParameter() if bias else None

    def has_uninitialized_params(self) -> bool:
        return any(isinstance(p, UninitializedParameter) for p in self._parameters.values())

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        self.in_features = int(input.shape[-1])
        bound = 1 / math.sqrt(self.in_features) if self.in_features else 0.0
        self.weight = Parameter(_uniform((self.out_features, self.in_features), bound))
        if self.bias is not None:
            self.bias = Parameter(_uniform((self.out_features,), bound))
        self.__class__ = Linear
        return Linear.forward(self, input)


class Bilinear(Module):
    """``y = x1ᵀ W x2 + b`` with ``W`` of shape (out_features, in1_features, in2_features), both
    drawn uniform in ±1/√in1_features (the weight first)."""

    def __init__(self, in1_features: int, in2_features: int, out_features: int, bias: bool = True,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.in1_features, self.in2_features, self.out_features = in1_features, in2_features, out_features
        bound = 1 / math.sqrt(in1_features) if in1_features else 0.0
        self.weight = Parameter(_uniform((out_features, in1_features, in2_features), bound))
        self.bias = Parameter(_uniform((out_features,), bound)) if bias else None

    def forward(self, input1: Tensor, input2: Tensor) -> Tensor:
        return functional.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")


def _uniform(shape: tuple[int, ...], bound: float) -> Tensor:
    with no_grad():
        return initialised(tensor(drawing(None).uniform(-bound, bound, shape, get_default_dtype().numpy)))


def initialised(t: Tensor, writes: int = 1) -> Tensor:
    """``t`` as torch's modules hand out their new parameters and buffers: filled in place by
    ``reset_parameters`` (``kaiming_uniform_``, ``ones_``, ``zero_``, …), so at version 1, and
    2 for an Embedding whose padding row is zeroed after (measured)."""
    t._counter.value += writes
    return t


class Sequential(shared.SequentialBase, Module):
    """``torch.nn.Sequential``."""


class ModuleList(shared.ListBase, Module):
    """``torch.nn.ModuleList``."""


class ModuleDict(shared.DictBase, Module):
    """``torch.nn.ModuleDict``."""


def _parameter_line(key: Any, p: Tensor, dtype_name: str) -> str:
    """One entry of a parameter container's printout, as torch writes it."""
    size = "x".join(str(n) for n in p.shape)
    kind = "Parameter" if isinstance(p, Parameter) else "Tensor"
    return f"  ({key}): {kind} containing: [{dtype_name} of size {size}]"


class ParameterList(shared.ParameterListBase, Module):
    """``torch.nn.ParameterList``: a plain tensor put in becomes a Parameter."""

    def as_parameter(self, value: Any) -> Any:
        return value if isinstance(value, Parameter) or not isinstance(value, Tensor) else Parameter(value)

    def extra_repr(self) -> str:
        return "\n".join(_parameter_line(k, p, str(p.dtype)) for k, p in enumerate(self))


class ParameterDict(Module):
    """``torch.nn.ParameterDict``: parameters by name, in insertion order; a plain tensor put in
    becomes a Parameter."""

    def __init__(self, parameters: Any = None) -> None:
        super().__init__()
        if parameters is not None:
            self.update(parameters)

    def update(self, parameters: Any) -> None:
        for key, value in (parameters.items() if hasattr(parameters, "items") else parameters):
            self[key] = value

    def __getitem__(self, key: str) -> Any:
        return self._parameters[key]

    def __setitem__(self, key: str, value: Any) -> None:
        setattr(self, key, value if isinstance(value, Parameter) else Parameter(value))

    def __contains__(self, key: object) -> bool:
        return key in self._parameters

    def __len__(self) -> int:
        return len(self._parameters)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._parameters))

    def keys(self) -> Iterable[str]:
        return self._parameters.keys()

    def values(self) -> Iterable[Any]:
        return self._parameters.values()

    def items(self) -> Iterable[tuple[str, Any]]:
        return self._parameters.items()

    def extra_repr(self) -> str:
        return "\n".join(_parameter_line(k, p, p.type()) for k, p in self.items())


class Identity(shared.IdentityBase, Module):
    """``torch.nn.Identity``."""


class Flatten(Module):
    """``torch.nn.Flatten``: dimensions ``start_dim`` (1: the batch stays) to ``end_dim``."""

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        from reference_engine.torch.extras import flatten  # loaded after torch.nn

        return flatten(input, self.start_dim, self.end_dim)


(ReLU, Tanh, Sigmoid, LeakyReLU, ELU, GELU, SiLU, Softplus, Softmax,
 LogSoftmax) = shared.function_modules(
    Module, shared.ActivationBase, ReLU=functional.relu, Tanh=tanh, Sigmoid=sigmoid,
    LeakyReLU=functional.leaky_relu, ELU=functional.elu, GELU=functional.gelu,
    SiLU=functional.silu, Softplus=functional.softplus, Softmax=functional.softmax,
    LogSoftmax=functional.log_softmax)
# what each activation's printout shows (measured on torch 2.13.0)
for _module, _shown in ((ReLU, (("inplace", True),)), (SiLU, (("inplace", True),)),
                        (LeakyReLU, (("negative_slope", False), ("inplace", True))),
                        (ELU, (("alpha", False), ("inplace", True))), (GELU, (("approximate", False),)),
                        (Softplus, (("beta", False), ("threshold", False))), (Softmax, (("dim", False),)),
                        (LogSoftmax, (("dim", False),))):
    _module.shown = _shown

(ReLU6, Hardtanh, Hardswish, Hardsigmoid, Mish, LogSigmoid, Softsign, SELU, GLU) = shared.function_modules(
    Module, shared.ActivationBase, ReLU6=functional.relu6, Hardtanh=functional.hardtanh,
    Hardswish=functional.hardswish, Hardsigmoid=functional.hardsigmoid, Mish=functional.mish,
    LogSigmoid=functional.logsigmoid, Softsign=functional.softsign, SELU=functional.selu,
    GLU=functional.glu)
for _module, _shown in ((ReLU6, (("inplace", True),)), (SELU, (("inplace", True),)),
                        (Hardtanh, (("min_val", False), ("max_val", False), ("inplace", True))),
                        (GLU, (("dim", False),))):
    _module.shown = _shown

(Softmin,) = shared.function_modules(Module, shared.ActivationBase, Softmin=functional.softmin)
Softmin.shown = (("dim", False),)

(Softshrink, Hardshrink, Tanhshrink, Threshold) = shared.function_modules(
    Module, shared.ActivationBase, Softshrink=functional.softshrink, Hardshrink=functional.hardshrink,
    Tanhshrink=functional.tanhshrink, Threshold=functional.threshold)
Threshold.shown = (("threshold", False), ("value", False), ("inplace", True))


def _lambd_shown(self: Any) -> str:
    """torch prints a shrink module's λ by value alone: ``Softshrink(0.4)``."""
    settings, named = self._settings
    return str(settings[0] if settings else named.get("lambd", 0.5))


Softshrink.extra_repr = Hardshrink.extra_repr = _lambd_shown


class Unflatten(Module):
    """``dim`` viewed as ``unflattened_size``."""

    def __init__(self, dim: int, unflattened_size: Any) -> None:
        super().__init__()
        self.dim, self.unflattened_size = dim, tuple(unflattened_size)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        dim = self.dim % input.dim()
        return input.reshape(*input.shape[:dim], *self.unflattened_size, *input.shape[dim + 1:])

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"


class _PlainLoss(shared.LossBase, Module):
    """A loss of (input, target) and its reduction, made with torch's legacy positional
    arguments first (``MSELoss(None, None, "sum")``)."""

    def __init__(self, size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> None:
        super().__init__(reduction)


# the reduced losses, each the functional's node (MSELoss: MseLossBackward0)
(MSELoss, L1Loss) = shared.function_modules(Module, _PlainLoss, MSELoss=functional.mse_loss,
                                            L1Loss=functional.l1_loss)


class BCELoss(Module):
    """``torch.nn.BCELoss``: the element ``weight`` a buffer, as torch's weighted losses keep it."""

    def __init__(self, weight: Optional[Tensor] = None, size_average: Any = None, reduce: Any = None,
                 reduction: str = "mean") -> None:
        super().__init__()
        self.register_buffer("weight", weight)
        self.reduction = reduction

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return functional.binary_cross_entropy(input, target, self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(BCELoss):
    """``torch.nn.BCEWithLogitsLoss``: ``weight`` and ``pos_weight`` buffers."""

    def __init__(self, weight: Optional[Tensor] = None, size_average: Any = None, reduce: Any = None,
                 reduction: str = "mean", pos_weight: Optional[Tensor] = None) -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return functional.binary_cross_entropy_with_logits(
            input, target, self.weight, reduction=self.reduction, pos_weight=self.pos_weight)


class SmoothL1Loss(shared.LossBase, Module):
    """``torch.nn.SmoothL1Loss(reduction, beta)``."""

    def __init__(self, size_average: Any = None, reduce: Any = None, reduction: str = "mean",
                 beta: float = 1.0) -> None:
        super().__init__(reduction)
        self.beta = beta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return functional.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class NLLLoss(Module):
    """``torch.nn.NLLLoss``: the class ``weight`` is a buffer, as torch's weighted losses keep it."""

    function = staticmethod(functional.nll_loss)

    def __init__(self, weight: Optional[Tensor] = None, size_average: Any = None,
                 ignore_index: int = -100, reduce: Any = None, reduction: str = "mean") -> None:
        super().__init__()
        self.register_buffer("weight", weight)
        self.ignore_index, self.reduction = ignore_index, reduction

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return type(self).function(input, target, self.weight, ignore_index=self.ignore_index,
                                   reduction=self.reduction)


class CrossEntropyLoss(NLLLoss):
    """``torch.nn.CrossEntropyLoss``: ``NLLLoss`` of the log-softmax over dimension 1."""

    function = staticmethod(functional.cross_entropy)

    def __init__(self, weight: Optional[Tensor] = None, size_average: Any = None,
                 ignore_index: int = -100, reduce: Any = None, reduction: str = "mean",
                 label_smoothing: float = 0.0) -> None:
        super().__init__(weight, size_average, ignore_index, reduce, reduction)
        self.label_smoothing = label_smoothing

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        return functional.cross_entropy(input, target, self.weight, ignore_index=self.ignore_index,
                                        reduction=self.reduction, label_smoothing=self.label_smoothing)
