"""The core of the torch facade: its Tensor, dtypes, constructors and top-level functions.

A thin layer: every function here validates torch's argument conventions and calls the shared
engine (``reference_engine.ops`` for operations, ``TorchPolicy`` for backward/grad semantics).
The package (``reference_engine.torch``) adds the submodules; they import from here, never from
the package, so no import goes round in a circle.
"""

from __future__ import annotations

import builtins
import functools
import warnings
from typing import Any, Optional, Sequence, Union

import numpy as np

from reference_engine import composed, devices, grad_mode, recorder
from reference_engine import ops as F
from reference_engine import rules as R
from reference_engine.dialects import torch_layout
from reference_engine.dialects.torch_policy import TORCH, tensor_type_name, torch_size
from reference_engine.dtypes import (
    REDUCED_NAMES,
    SMALL_INTEGERS,
    STANDARD,
    DialectDtype,
    by_numpy,
    is_floating,
    standard_dtypes,
    to_numpy,
)
from reference_engine.framework_names import instance_getattr
from reference_engine.graph import Node, RemovableHandle, shown_node
from reference_engine.messages import TORCH_SIGNATURES, not_supported, type_name
from reference_engine.tensor import Tensor as _CoreTensor
from reference_engine.tensor import VersionCounter
from reference_engine.torch import autocast_ops, return_types
from reference_engine.torch.devices import (
    cuda,
    device,
    get_default_device,
    of_tensor,
    placement,
    set_default_device,
)
from reference_engine.torch.devices import device as _Device
from reference_engine.torch.from_data import array_from_data, is_sequence

__all__ = [
    "Size", "Tensor", "abs", "cuda", "device", "equal", "get_default_device", "set_default_device",
    "layout", "strided", "memory_format", "preserve_format", "contiguous_format", "channels_last",
    "inference_mode",
    "is_anomaly_enabled", "linspace", "mm",
    "add", "amax", "amin", "bool", "cat", "ceil", "clamp", "clamp_max", "clamp_min", "clone",
    "detach", "div", "double", "dtype", "enable_grad", "expand_copy", "float",
    "bfloat16", "float16", "float32", "float64", "floor", "half", "int", "int32", "int64", "is_grad_enabled",
    "int16", "short", "int8", "uint8",
    "is_tensor", "arange", "clip", "concat", "divide", "full", "multiply", "subtract",
    "is_inference_mode_enabled",
    "log_softmax", "long", "matmul", "max", "maximum", "mean", "min", "minimum", "mul", "neg",
    "no_grad", "ones", "ones_like", "permute", "pow", "relu", "reshape", "round",
    "set_grad_enabled", "sigmoid", "sgn", "sign", "softmax", "squeeze", "stack", "sub", "sum",
    "t", "tanh", "tensor", "transpose", "unsqueeze", "where", "zeros", "zeros_like", "empty",
    "get_default_dtype", "set_default_dtype", "reciprocal",
    *R.elementwise_functions(),
]

no_grad = grad_mode.no_grad
enable_grad = grad_mode.enable_grad
set_grad_enabled = grad_mode.set_grad_enabled
is_grad_enabled = grad_mode.is_grad_enabled


class dtype(DialectDtype):  # noqa: N801 - torch's name
    """A torch dtype object (``torch.float32``)."""

    prefix = "torch"


_NAMED = standard_dtypes(dtype, (*STANDARD, *SMALL_INTEGERS, *REDUCED_NAMES))
float32 = float = _NAMED["float32"]  # noqa: A001 - torch's names
float64 = double = _NAMED["float64"]
float16 = half = _NAMED["float16"]
bfloat16 = _NAMED["bfloat16"]
int64 = long = _NAMED["int64"]
int32 = int = _NAMED["int32"]  # noqa: A001
int16 = short = _NAMED["int16"]
int8 = _NAMED["int8"]
uint8 = _NAMED["uint8"]
bool = _NAMED["bool"]  # noqa: A001
_DTYPES = by_numpy(_NAMED)


_PYTHON_TYPE_DTYPES = {builtins.bool: np.dtype(np.bool_), builtins.int: np.dtype(np.int64),
                       builtins.float: np.dtype(np.float64)}


class memory_format:  # noqa: N801 - torch's name
    """``torch.preserve_format``, ``contiguous_format`` and ``channels_last``: how a copy lays
    its elements out. The reference keeps dense row-major arrays: the first two are what it
    does, the last is refused."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"torch.{self.name}"


preserve_format, contiguous_format, channels_last = (
    memory_format(name) for name in ("preserve_format", "contiguous_format", "channels_last"))


def _dense_layout(requested: Any) -> None:
    """Refuse a ``memory_format`` other than the dense layouts the reference keeps."""
    if requested is not None and requested is not preserve_format and requested is not contiguous_format:
        raise not_supported(f"memory_format={requested!r}", "torch")


class layout:  # noqa: N801 - torch's name
    """``torch.strided``, the one memory layout here."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"torch.{self.name}"


strided = layout("strided")


# the legacy tensor types (``torch.FloatTensor``) and their names, as ``Tensor.type`` takes them,
# by the dtype each stands for: filled by ``legacy_types``, which makes tensors of this module's
LEGACY_TYPE_DTYPES: dict[Any, dtype] = {}


def _np_dtype(d: Any, api: str) -> Optional[np.dtype]:
    """The numpy dtype for the ``dtype`` argument of ``api``: a torch dtype, or a Python type
    standing for one (``float`` is float64), as torch's argument parser reads it."""
    return to_numpy(d, dtype, lambda other: _python_type_dtype(other, api))


def _python_type_dtype(d: Any, api: str) -> np.dtype:
    if isinstance(d, builtins.type) and d in _PYTHON_TYPE_DTYPES:
        return _PYTHON_TYPE_DTYPES[d]
    raise TORCH.error("dtype_argument", api=api, type_name=type_name(d))


class Size(tuple):
    """``torch.Size``: a tuple that prints as ``torch.Size([2, 3])``."""

    def __repr__(self) -> str:
        return torch_size(self)

    def numel(self) -> builtins.int:
        return builtins.int(np.prod(self, dtype=np.int64))


Size.__name__ = "torch.Size"  # the type's name in messages ("'torch.Size' object has no attribute")




def _shape_args(shape: tuple[Any, ...]) -> tuple[builtins.int, ...]:
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        return tuple(shape[0])
    return tuple(shape)


def _float_on_float(number: Any, t: Any) -> builtins.bool:
    return type(number) in (builtins.int, builtins.float) and is_floating(t._data.dtype)


def _in_place_method(op: str) -> Any:
    """``Tensor.<op>_``: ``op`` applied in place."""
    def method(self: Tensor) -> Tensor:
        return self._in_place(op)
    method.__name__ = f"{op}_"
    return method


_WARNED_SCALAR = [False]


def _warn_scalar_of_tensor_requiring_grad() -> None:
    """torch warns the first time a tensor requiring grad becomes a Python float (once per
    process, as its C++ warning is)."""
    if not _WARNED_SCALAR[0]:
        _WARNED_SCALAR[0] = True
        warnings.warn("Converting a tensor with requires_grad=True to a scalar may lead to unexpected "
                      "behavior.\nConsider using tensor.detach() first.", UserWarning, stacklevel=3)


class Tensor(_CoreTensor):
    """``torch.Tensor`` over the reference engine."""

    __slots__ = ()
    __getattr__ = instance_getattr("torch.Tensor")
    _size_type = Size
    _policy = TORCH
    _dtype_objects = _DTYPES

    def __new__(cls, *args: Any) -> Tensor:
        """``torch.Tensor(data)``: a leaf of the default float dtype holding ``data``;
        ``torch.Tensor(*sizes)``: one of those sizes (torch leaves the values uninitialised;
        here they are zeros)."""
        if len(args) == 1 and (isinstance(args[0], builtins.bool)
                               or not isinstance(args[0], (builtins.int, np.integer))):
            if not isinstance(args[0], _CoreTensor) and not is_sequence(args[0]):
                raise TORCH.error("data_ctor_not_sequence", type_name=type_name(args[0]))
            return _new(_infer(args[0], TORCH.default_float, infer=False), None, False)
        return zeros(*args)

    # --- a Python float on the left: torch calls the tensor's own operation ------------------

    def __radd__(self, other: Any) -> Tensor:
        """``n + t`` is ``t + n``: the node's inputs are (t, n)."""
        return F.add(self, other) if _float_on_float(other, self) else super().__radd__(other)

    def __rmul__(self, other: Any) -> Tensor:
        """``n * t`` is ``t * n``."""
        return F.mul(self, other) if _float_on_float(other, self) else super().__rmul__(other)

    def __rsub__(self, other: Any) -> Tensor:
        """``n - t`` is ``rsub(t, n)``: a node with one input."""
        return F.rsub(self, other) if _float_on_float(other, self) else super().__rsub__(other)

    def __rtruediv__(self, other: Any) -> Tensor:
        """``n / t`` is ``t.reciprocal() * n``: two nodes."""
        if _float_on_float(other, self):
            return F.mul(F.reciprocal(self), other)
        return super().__rtruediv__(other)

    def __rmod__(self, other: Any) -> Tensor:
        """``n % t`` is remainder's Scalar_Tensor overload: a node without derivative."""
        if type(other) in (builtins.int, builtins.float):
            return F.remainder_of_number(other, self)
        return super().__rmod__(other)

    # --- autograd state -------------------------------------------------------------------

    @property
    def requires_grad(self) -> builtins.bool:
        self._follow_base()
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value: builtins.bool) -> None:
        if self._grad_fn is not None:
            raise TORCH.error("non_leaf_flag_on" if value else "non_leaf_flag")
        if value and not is_floating(self._data.dtype):
            raise TORCH.error("int_requires_grad_setter")
        self._requires_grad = builtins.bool(value)

    def requires_grad_(self, requires_grad: builtins.bool = True) -> Tensor:
        if self._grad_fn is not None and not requires_grad:
            raise TORCH.error("non_leaf_flag")
        if requires_grad and not is_floating(self._data.dtype):
            raise TORCH.error("int_requires_grad_method")
        if self._grad_fn is None:
            self._requires_grad = builtins.bool(requires_grad)
        return self

    @property
    def grad(self) -> Optional[Tensor]:
        if self._grad_fn is not None and not self._retains_grad:
            TORCH.warn("non_leaf_grad")
        return self._grad  # type: ignore[return-value]

    @grad.setter
    def grad(self, value: Optional[Tensor]) -> None:
        if value is not None:
            if not isinstance(value, _CoreTensor):
                raise TORCH.error("grad_assign_type", type_name=type(value).__name__)
            if value._data.dtype != self._data.dtype:
                raise TORCH.error("grad_assign_dtype", grad_dtype=value._data.dtype.name,
                                  dtype=TORCH.dtype_name(self._data.dtype))
            if value._data.shape != self._data.shape:
                raise TORCH.error("grad_assign_shape", grad_shape=list(value._data.shape),
                                  shape=list(self._data.shape))
            got, expected = devices.device_of(value), devices.device_of(self)
            if got != expected:
                raise TORCH.error("grad_assign_device", got=devices.device_type(got),
                                  expected=devices.device_type(expected))
        self._grad = value

    @property
    def grad_fn(self) -> Optional[Node]:
        self._check_history()
        if self._view_base is not None:
            self._refresh_view_node()
        return shown_node(self._grad_fn)

    @property
    def _base(self) -> Optional[Tensor]:
        """The tensor this one is a view of (None for a tensor that is no view)."""
        return self._view_base

    def stride(self, dim: Optional[builtins.int] = None) -> Any:
        """The step in elements between neighbours along each dimension (or ``dim``'s), as
        torch reports them: a tuple, and an expanded dimension's 0."""
        steps = tuple(st // self._data.itemsize for st in self._data.strides)
        return steps if dim is None else steps[dim]

    @property
    def is_leaf(self) -> builtins.bool:
        self._check_history()
        return self._grad_fn is None

    def _check_history(self) -> None:
        """A view torch cannot rebuild the history of (a piece of split or a view made without
        recording, its base written to since) refuses to show it."""
        if self._split_piece is not None:
            recorder.check_split_piece(self)
        if self._no_grad_view or self._untracked_view:
            recorder.check_no_grad_view(self)

    @property
    def retains_grad(self) -> builtins.bool:
        return self._retains_grad

    @property
    def data(self) -> Tensor:
        """``x.data``: a tensor of the same memory outside autograd, with a version counter of its
        own (torch's ``variable_data``): a write through it leaves ``x``'s version, so a backward
        that saved ``x`` reads the new values without an error (``detach()`` shares the counter)."""
        out = self._detached()
        out._counter = VersionCounter()
        return out  # type: ignore[return-value]

    @data.setter
    def data(self, value: Tensor) -> None:
        """``x.data = y``: ``x`` holds ``y``'s storage from now on; it keeps its autograd state
        and its own version counter."""
        if not isinstance(value, Tensor):
            raise TORCH.error("variable_data", type_name=type(value).__name__)
        self._data = value._data

    def backward(self, gradient: Optional[Tensor] = None, retain_graph: Optional[builtins.bool] = None,
                 create_graph: builtins.bool = False, inputs: Any = None) -> None:
        """``Tensor.backward``: accumulate the gradient of this tensor into the leaves."""
        TORCH.backward(self, gradient, retain_graph, create_graph, inputs)

    def register_post_accumulate_grad_hook(self, hook: Any) -> Any:
        """``hook(tensor)`` after a backward pass accumulated into this leaf's ``.grad``."""
        if self._grad_fn is not None:
            raise TORCH.error("post_accumulate_non_leaf")
        if not self._requires_grad:
            raise TORCH.error("hook_no_grad")
        return RemovableHandle(self._accumulator_node().hooks("post_accumulate"), hook)

    def retain_grad(self) -> None:
        if not self._requires_grad:
            raise TORCH.error("retain_no_grad")
        self._retain_grad()

    # --- metadata -------------------------------------------------------------------------

    def size(self, dim: Optional[builtins.int] = None) -> Union[Size, builtins.int]:
        if dim is None:
            return Size(self._data.shape)
        return self._data.shape[F.normalize_dim(Tensor, dim, self._data.ndim)]

    @property
    def device(self) -> device:
        return of_tensor(devices.device_of(self))

    # the storage kinds the reference does not have: every tensor is dense, on a real device
    is_sparse = is_quantized = is_mkldnn = is_nested = False

    @property
    def layout(self) -> Any:
        return strided

    @property
    def is_cuda(self) -> builtins.bool:
        return devices.device_type(devices.device_of(self)) == "cuda"

    def get_device(self) -> builtins.int:
        """The device's index: -1 on the CPU."""
        index = self.device.index
        return -1 if index is None else index

    def type(self, dtype: Any = None) -> Any:  # noqa: A003 - torch's name
        """``Tensor.type()``: the legacy type name (``torch.cuda.FloatTensor``); with a dtype,
        a cast to it."""
        if dtype is None:
            return tensor_type_name(self)
        legacy = isinstance(dtype, (str, builtins.type))
        return self.to(LEGACY_TYPE_DTYPES.get(dtype, dtype) if legacy else dtype)

    def cpu(self) -> Tensor:
        return F.to_device(self, devices.CPU)

    def data_ptr(self) -> builtins.int:
        """The address of the first element: equal for tensors that start at the same memory
        (a view at offset 0 and its base), apart by the byte offset for others."""
        return builtins.int(self._data.__array_interface__["data"][0])

    def cuda(self, device: Any = None) -> Tensor:
        return F.to_device(self, placement(device if device is not None else "cuda"))

    def numpy(self, *, force: builtins.bool = False) -> np.ndarray:
        """The data as an array (``force``: of a tensor that requires grad, on another device,
        or a ZeroTensor too: a copy)."""
        if force:
            return self._data.copy()
        if devices.device_of(self) != devices.CPU:
            raise TORCH.error("numpy_device", device=devices.device_of(self))
        if self._requires_grad:
            raise TORCH.error("numpy_requires_grad")
        if TORCH.is_zero_tensor(self):
            raise TORCH.error("zero_tensor_numpy")
        return self._data

    def _is_zerotensor(self) -> builtins.bool:
        """Whether this is a ZeroTensor (torch's private query, which its tests use)."""
        return TORCH.is_zero_tensor(self)

    def __float__(self) -> builtins.float:
        return builtins.float(self._python_scalar())

    def __complex__(self) -> builtins.complex:
        return builtins.complex(self._python_scalar())

    def __int__(self) -> builtins.int:
        if self._data.size != 1:
            raise TORCH.error("python_scalar")
        return builtins.int(self.item())

    def __index__(self) -> builtins.int:
        """A one-element integer (or bool) tensor as a list index or slice bound."""
        if self._data.size != 1 or self._data.dtype.kind not in "biu":
            raise TORCH.error("index_conversion")
        return builtins.int(self.item())

    def __bool__(self) -> builtins.bool:
        if self._data.size != 1:
            raise TORCH.error("bool_ambiguous")
        return builtins.bool(self.item())

    def _python_scalar(self) -> Any:
        """float() / complex(): one element (torch's ValueError otherwise), warning once when
        the tensor requires grad while grad mode is on (not under no_grad or inference_mode)."""
        if self._data.size != 1:
            raise TORCH.error("python_scalar")
        if self.requires_grad and grad_mode.is_grad_enabled():
            _warn_scalar_of_tensor_requiring_grad()
        return self.item()

    def tolist(self) -> Any:
        if TORCH.is_zero_tensor(self):
            raise TORCH.error("zero_tensor_tolist")
        if self._device == devices.META:
            raise TORCH.error("meta_copy_out")
        return self._data.tolist()

    def item(self) -> Any:
        if self._device == devices.META and self._data.size == 1:
            raise TORCH.error("meta_item")
        return super().item()

    @property
    def is_meta(self) -> builtins.bool:
        """Whether the tensor is on the meta device (a shape without data)."""
        return self._device == devices.META

    def to(self, *args: Any, dtype: Any = None, device: Any = None, non_blocking: builtins.bool = False,
           copy: builtins.bool = False, memory_format: Any = None) -> Tensor:
        """``to(dtype)``, ``to(device[, dtype])``, ``to(tensor)`` (its dtype and device), and the
        same as keywords: a recorded copy where the device or the dtype changes, else the
        tensor itself (a copy with ``copy=True``)."""
        _dense_layout(memory_format)
        for arg in args:
            if isinstance(arg, _CoreTensor):
                dtype, device = _DTYPES[arg._data.dtype], devices.device_of(arg)
            elif isinstance(arg, (str, builtins.int, _Device)) and not isinstance(arg, builtins.bool):
                device = arg
            else:
                dtype = arg
        out = self if dtype is None else F.cast(self, _np_dtype(dtype, "to"))
        if device is not None:
            out = F.to_device(out, placement(device))
        return F.clone(out) if copy and out is self else out

    def copy_(self, src: Any) -> Tensor:
        """Write ``src``'s values (broadcast) into this tensor, in place."""
        self[...] = src
        return self

    @property
    def _version(self) -> builtins.int:
        """torch's in-place version counter, as programs inspect it (inference tensors have none)."""
        if self._inference:
            raise self._policy.error("inference_version")
        return self._counter.value

    def is_inference(self) -> builtins.bool:
        return self._inference

    def mm(self, mat2: Tensor) -> Tensor:
        return mm(self, mat2)

    __matmul__ = autocast_ops.lower_precision(_CoreTensor.__matmul__)
    __rmatmul__ = autocast_ops.lower_precision(_CoreTensor.__rmatmul__)
    matmul = autocast_ops.lower_precision(F.matmul)

    def exp_(self) -> Tensor:
        return self._in_place("exp")

    abs_, neg_, log_, sqrt_, sin_, cos_, tanh_, sigmoid_, relu_ = (
        _in_place_method(op) for op in ("abs", "neg", "log", "sqrt", "sin", "cos", "tanh",
                                        "sigmoid", "relu"))

    def pow_(self, exponent: Any) -> Tensor:
        return self._in_place("pow", exponent)

    def masked_fill_(self, mask: Tensor, value: Any) -> Tensor:
        return self._in_place("masked_fill", mask=mask._data, value=value)

    def clamp_min(self, min: Any) -> Tensor:  # noqa: A002
        """ClampMinBackward0 for a number bound, ClampMinBackward1 for a tensor (which gets
        the gradient where it clamps)."""
        node = "ClampMinBackward1" if isinstance(min, Tensor) else "ClampMinBackward0"
        return composed.named(F.clamp(self, min, None), node, self)

    def clamp_max(self, max: Any) -> Tensor:  # noqa: A002
        node = "ClampMaxBackward1" if isinstance(max, Tensor) else "ClampMaxBackward0"
        return composed.named(F.clamp(self, None, max), node, self)

    def clamp_min_(self, min: Any) -> Tensor:  # noqa: A002
        return self._bounded_in_place(min, None, "ClampMinBackward0")

    def clamp_max_(self, max: Any) -> Tensor:  # noqa: A002
        return self._bounded_in_place(None, max, "ClampMaxBackward0")

    def _bounded_in_place(self, low: Any, high: Any, node: str) -> Tensor:
        """clamp_min_ / clamp_max_ by a number: the tensor written, its node torch's."""
        if isinstance(low, Tensor) or isinstance(high, Tensor):
            raise not_supported("clamp_min_ / clamp_max_ by a tensor", "torch")
        return composed.named(self._in_place("clamp", low=low, high=high), node)  # type: ignore[arg-type]

    def view_as(self, other: Tensor) -> Tensor:
        return F.reshape(self, other._data.shape)

    reshape_as = view_as

    def maximum(self, other: Tensor) -> Tensor:
        return F.maximum(self, other)

    def minimum(self, other: Tensor) -> Tensor:
        return F.minimum(self, other)

    def equal(self, other: Tensor) -> builtins.bool:
        if not isinstance(other, Tensor):
            raise TORCH.error("equal_argument", arg="other", position=1,
                              type_name=type(other).__name__)
        return equal(self, other)

    eq, ne, lt, le, gt, ge = F.eq, F.ne, F.lt, F.le, F.gt, F.ge

    def all(self, dim: Any = None, keepdim: builtins.bool = False) -> Tensor:
        return F.truth(self, np.all, dim, keepdim)

    def any(self, dim: Any = None, keepdim: builtins.bool = False) -> Tensor:
        return F.truth(self, np.any, dim, keepdim)

    def float(self, memory_format: Any = None) -> Tensor:
        _dense_layout(memory_format)
        return F.cast(self, np.float32)

    def double(self, memory_format: Any = None) -> Tensor:
        _dense_layout(memory_format)
        return F.cast(self, np.float64)

    def half(self, memory_format: Any = None) -> Tensor:
        _dense_layout(memory_format)
        return F.cast(self, np.float16)

    def bfloat16(self, memory_format: Any = None) -> Tensor:
        _dense_layout(memory_format)
        return F.cast(self, bfloat16.numpy)

    # --- operations -----------------------------------------------------------------------

    def add(self, other: Any, *, alpha: Any = 1) -> Tensor:
        return add(self, other, alpha=alpha)

    def sub(self, other: Any, *, alpha: Any = 1) -> Tensor:
        return sub(self, other, alpha=alpha)
    mul = F.mul

    def div(self, other: Any, *, rounding_mode: Optional[str] = None) -> Tensor:
        return div(self, other, rounding_mode=rounding_mode)
    neg = F.neg
    pow = F.pow
    sigmoid = F.sigmoid
    relu = F.relu
    sign = F.sign
    floor, ceil = F.floor, F.ceil

    def round(self, decimals: builtins.int = 0) -> Tensor:  # noqa: A003 - torch's name
        return F.round_decimals(self, decimals)  # type: ignore[return-value]
    transpose = F.transpose
    unsqueeze = F.unsqueeze

    def sum(self, dim: Any = None, keepdim: builtins.bool = False) -> Tensor:
        return sum(self, dim, keepdim)

    def mean(self, dim: Any = None, keepdim: builtins.bool = False) -> Tensor:
        return mean(self, dim, keepdim)

    def max(self, dim: Any = None, keepdim: builtins.bool = False) -> Any:
        return max(self, dim, keepdim)

    def min(self, dim: Any = None, keepdim: builtins.bool = False) -> Any:
        return min(self, dim, keepdim)

    def amax(self, dim: Any = (), keepdim: builtins.bool = False) -> Tensor:
        return amax(self, dim, keepdim)

    def amin(self, dim: Any = (), keepdim: builtins.bool = False) -> Tensor:
        return amin(self, dim, keepdim)

    def clamp(self, min: Optional[builtins.float] = None, max: Optional[builtins.float] = None) -> Tensor:  # noqa: A002
        return F.clamp(self, min, max)

    clip = clamp
    def clamp_(self, min: Optional[builtins.float] = None,  # noqa: A002
               max: Optional[builtins.float] = None) -> Tensor:  # noqa: A002
        return self._in_place("clamp", low=min, high=max)  # type: ignore[return-value]

    def where(self, condition: Tensor, other: Any) -> Tensor:
        """``t.where(condition, other)`` is ``torch.where(condition, t, other)``."""
        return F.where(condition, self, other)

    def type_as(self, other: Tensor) -> Tensor:
        """This tensor in ``other``'s dtype: itself when it already is."""
        return self if self._data.dtype == other._data.dtype else F.cast(self, other._data.dtype)

    def reshape(self, *shape: Any) -> Tensor:
        return F.reshape(self, _shape_args(shape))

    view = reshape

    def permute(self, *dims: Any) -> Tensor:
        return F.permute(self, _shape_args(dims))

    def expand(self, *sizes: Any) -> Tensor:
        return F.expand(self, _shape_args(sizes))

    def expand_as(self, other: Tensor) -> Tensor:
        return F.expand(self, other._data.shape)

    def squeeze(self, dim: Any = None) -> Tensor:
        return F.squeeze(self, dim)

    def t(self) -> Tensor:
        return t(self)

    @property
    def T(self) -> Tensor:  # noqa: N802 - torch's name
        return F.permute(self, tuple(reversed(range(self._data.ndim))))

    @property
    def mT(self) -> Tensor:  # noqa: N802 - torch's name
        """The last two dimensions swapped (a view), of a matrix or a batch of them."""
        return self._matrices_transposed("mT", batches=True)

    @property
    def mH(self) -> Tensor:  # noqa: N802 - torch's name
        """``mT`` conjugated: the same for the real dtypes the reference computes in."""
        return self._matrices_transposed("mH", batches=True)

    @property
    def H(self) -> Tensor:  # noqa: N802 - torch's name
        """A matrix's conjugate transpose (a view); batches are refused (``mH``)."""
        return self._matrices_transposed("H", batches=False)

    def _matrices_transposed(self, name: str, batches: builtins.bool) -> Tensor:
        ndim = self._data.ndim
        if ndim < 2 or (ndim > 2 and not batches):
            what = "matrices or batches of matrices" if batches else "matrices (2-D tensors)"
            hint = " For batches of matrices, consider using tensor.mH" if ndim > 2 else ""
            raise TORCH.error("matrix_attribute", name=name, what=what, ndim=ndim, hint=hint)
        return F.transpose(self, ndim - 2, ndim - 1)

    def softmax(self, dim: builtins.int) -> Tensor:
        return F.softmax(self, dim)

    def log_softmax(self, dim: builtins.int) -> Tensor:
        return F.log_softmax(self, dim)

    # --- in-place operations --------------------------------------------------------------

    # ``x += y`` and friends are in-place in torch (paddle has none: they rebind the name)
    def __iadd__(self, other: Any) -> Tensor:
        return self.add_(other)

    def __isub__(self, other: Any) -> Tensor:
        return self.sub_(other)

    def __imul__(self, other: Any) -> Tensor:
        return self.mul_(other)

    def __itruediv__(self, other: Any) -> Tensor:
        return self.div_(other)

    def add_(self, other: Any, *, alpha: Any = 1) -> Tensor:
        if alpha != 1:
            return self._in_place("add_scaled", other, alpha=alpha)  # type: ignore[return-value]
        return self._in_place("add", other)  # type: ignore[return-value]

    def sub_(self, other: Any, *, alpha: Any = 1) -> Tensor:
        if alpha != 1:
            return self._in_place("sub_scaled", other, alpha=alpha)  # type: ignore[return-value]
        return self._in_place("sub", other)  # type: ignore[return-value]

    def mul_(self, other: Any) -> Tensor:
        return self._in_place("mul", other)  # type: ignore[return-value]

    def div_(self, other: Any, *, rounding_mode: Optional[str] = None) -> Tensor:
        if rounding_mode is None:
            return self._in_place("div", other)  # type: ignore[return-value]
        F.check_divisor(self, other)
        return self._in_place("div_rounded", other, mode=_rounding(rounding_mode))  # type: ignore[return-value]

    def zero_(self) -> Tensor:
        return self._in_place("fill", value=0, api="zero")  # type: ignore[return-value]

    def fill_(self, value: Any) -> Tensor:
        return self._in_place("fill", value=value)  # type: ignore[return-value]

    def normal_(self, mean: builtins.float = 0.0, std: builtins.float = 1.0, *,
                generator: Any = None) -> Tensor:
        """Normal draws written in place."""
        return self._drawn_in_place("normal", mean, std, generator=generator)  # type: ignore[return-value]

    def exponential_(self, lambd: builtins.float = 1.0, *, generator: Any = None) -> Tensor:
        """Exponential draws of rate ``lambd`` written in place."""
        return self._drawn_in_place("exponential", lambd, generator=generator)  # type: ignore[return-value]

    def uniform_(self, from_: builtins.float = 0.0, to: builtins.float = 1.0, *,
                 generator: Any = None) -> Tensor:
        """Uniform draws written in place."""
        return self._drawn_in_place("uniform", from_, to, generator=generator)  # type: ignore[return-value]


# --- creation -----------------------------------------------------------------------------

def _infer(data: Any, target: Optional[np.dtype], infer: builtins.bool = True) -> np.ndarray:
    """The array for ``torch.tensor(data, dtype)`` (``infer``) or ``torch.Tensor(data)``: a copy
    of a tensor's or an array's values, or ``data`` read as torch reads it
    (``from_data.array_from_data``)."""
    if isinstance(data, _CoreTensor):
        array = data._data.copy()
    elif isinstance(data, np.ndarray):
        array = data.copy()
    else:
        return array_from_data(data, target, infer)
    return array if target is None else array.astype(target)


def _new(array: np.ndarray, target: Optional[np.dtype], requires_grad: builtins.bool,
         on: Any = None) -> Tensor:
    """A new leaf holding ``array`` (cast to ``target`` where given) on the device ``on``
    (a ``device=`` argument: the CPU by default)."""
    where = placement(on) or devices.CPU
    if target is not None:
        array = array.astype(target)
    if array.dtype not in _DTYPES:
        array = array.astype(np.float32 if array.dtype.kind == "f" else np.int64)
    out = devices.place(Tensor._from_array(array), where)
    if requires_grad:
        if not is_floating(array.dtype):
            raise TORCH.error("int_requires_grad_ctor")
        out._requires_grad = True
    return out  # type: ignore[return-value]


def tensor(data: Any, dtype: Optional[dtype] = None, device: Any = None,
           requires_grad: builtins.bool = False) -> Tensor:
    """``torch.tensor``: a new leaf holding a copy of ``data``."""
    return _new(_infer(data, _np_dtype(dtype, "tensor")), None, requires_grad, device)


def is_tensor(obj: Any) -> builtins.bool:
    return isinstance(obj, Tensor)


def _filled(value: builtins.float, size: tuple[Any, ...], dtype_: Any,
            requires_grad: builtins.bool, api: str, on: Any) -> Tensor:
    shape = _shape_args(size)
    return _new(np.full(shape, value, dtype=_np_dtype(dtype_, api) or TORCH.default_float), None,
                requires_grad, on)


def zeros(*size: Any, dtype: Optional[dtype] = None, device: Any = None,
          requires_grad: builtins.bool = False) -> Tensor:
    return _filled(0, size, dtype, requires_grad, "zeros", device)


def ones(*size: Any, dtype: Optional[dtype] = None, device: Any = None,
         requires_grad: builtins.bool = False) -> Tensor:
    return _filled(1, size, dtype, requires_grad, "ones", device)


def empty(*size: Any, dtype: Optional[dtype] = None, device: Any = None,
          requires_grad: builtins.bool = False) -> Tensor:
    """torch leaves the values unset; programs fill them before reading them. Zeros here."""
    return _filled(0, size, dtype, requires_grad, "empty", device)


def full(size: Sequence[builtins.int], fill_value: builtins.float, dtype: Optional[dtype] = None,
         device: Any = None, requires_grad: builtins.bool = False) -> Tensor:
    return _filled(fill_value, (tuple(size),), dtype, requires_grad, "full", device)


def _like(value: builtins.float, input: Tensor, dtype_: Any, requires_grad: builtins.bool,
          api: str, on: Any) -> Tensor:
    """A tensor of ``input``'s shape, dtype and device (unless given) filled with ``value``."""
    target = _np_dtype(dtype_, api) or input._data.dtype
    values = torch_layout.like(input._data, np.full(input._data.shape, value, dtype=target))
    return _new(values, None, requires_grad, on if on is not None else input._device)


def zeros_like(input: Tensor, dtype: Optional[dtype] = None, device: Any = None,  # noqa: A002
               requires_grad: builtins.bool = False) -> Tensor:
    return _like(0, input, dtype, requires_grad, "zeros_like", device)


def ones_like(input: Tensor, dtype: Optional[dtype] = None, device: Any = None,  # noqa: A002
              requires_grad: builtins.bool = False) -> Tensor:
    return _like(1, input, dtype, requires_grad, "ones_like", device)


def arange(start: builtins.float, end: Optional[builtins.float] = None, step: builtins.float = 1,
           dtype: Optional[dtype] = None, device: Any = None,
           requires_grad: builtins.bool = False) -> Tensor:
    values = np.arange(start, end, step) if end is not None else np.arange(start)
    if values.dtype.kind == "f":
        values = values.astype(TORCH.default_float)
    return _new(values, _np_dtype(dtype, "arange"), requires_grad, device)


def linspace(start: builtins.float, end: builtins.float, steps: builtins.int,
             dtype: Optional[dtype] = None, device: Any = None,
             requires_grad: builtins.bool = False) -> Tensor:
    values = F.linspace_values(start, end, steps, _np_dtype(dtype, "linspace") or TORCH.default_float,
                               fused=True)
    return _new(values, None, requires_grad, device)


def get_default_dtype() -> dtype:
    """The dtype Python floats and float constructors make (float32 unless set)."""
    return _NAMED[str(TORCH.default_float)]


def set_default_dtype(d: dtype) -> None:
    """``torch.set_default_dtype``: float32 or float64 (the reference engine's float dtypes)."""
    if not isinstance(d, dtype):
        raise TORCH.error("default_dtype_object")
    if not d.is_floating_point:
        raise TORCH.error("default_dtype_kind")
    TORCH.default_float = d.numpy


inference_mode = grad_mode.inference_mode
is_inference_mode_enabled = grad_mode.is_inference_mode_enabled


def is_anomaly_enabled() -> builtins.bool:
    return grad_mode._State.anomaly


def equal(input: Tensor, other: Tensor) -> builtins.bool:  # noqa: A002
    for position, (arg, value) in enumerate((("input", input), ("other", other)), 1):
        if not isinstance(value, Tensor):
            raise TORCH.error("equal_argument", arg=arg, position=position,
                              type_name=type(value).__name__)
    return input._data.shape == other._data.shape and builtins.bool(
        np.array_equal(input._data, other._data))


# --- operations ---------------------------------------------------------------------------

def _tensor_first(fn: Any) -> Any:
    return TORCH.tensor_function(fn, fn.__name__)


def _numbers_made_tensors(fn: Any) -> Any:
    """``fn`` taking two numbers as torch's arithmetic takes them: the first becomes a 0-d
    tensor (an int64 one for an int), so ``torch.add(1, 2)`` is ``tensor(3)``."""
    @functools.wraps(fn)
    def arithmetic(input: Any, other: Any, *args: Any, **kwargs: Any) -> Tensor:  # noqa: A002
        if not isinstance(input, _CoreTensor) and not isinstance(other, _CoreTensor) \
                and isinstance(input, (builtins.int, builtins.float)):
            input = tensor(input)
        return fn(input, other, *args, **kwargs)
    return arithmetic


def _overloads(fn: Any, name: str, signatures: str, accepted: Any) -> Any:
    """``fn`` refusing the argument kinds none of torch's ``signatures`` for ``name`` takes
    (``accepted(first_is_tensor, second_is_tensor)`` is False), in its argument parser's
    words."""
    @functools.wraps(fn)
    def checked(input: Any, other: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: A002
        if not accepted(isinstance(input, _CoreTensor), isinstance(other, _CoreTensor)):
            listed = "\n".join(f" * ({s}, *, Tensor out = None)" for s in TORCH_SIGNATURES[signatures])
            raise TORCH.error("invalid_combination", fn=name, signatures=listed,
                              got=f"{type_name(input)}, {type_name(other)}")
        return fn(input, other, *args, **kwargs)
    return checked


@_numbers_made_tensors
def add(input: Any, other: Any, *, alpha: Any = 1) -> Tensor:  # noqa: A002
    """``input + alpha * other``."""
    return F.add(input, other) if alpha == 1 else F.scaled("add", input, other, alpha)


@_numbers_made_tensors
def sub(input: Any, other: Any, *, alpha: Any = 1) -> Tensor:  # noqa: A002
    """``input - alpha * other``."""
    return F.sub(input, other) if alpha == 1 else F.scaled("sub", input, other, alpha)


subtract = sub
mul = multiply = _numbers_made_tensors(F.mul)
def _rounding(mode: str) -> str:
    """``mode`` if torch's div takes it as a rounding mode."""
    if mode not in ("floor", "trunc"):
        raise TORCH.error("rounding_mode", mode=mode)
    return mode


@_numbers_made_tensors
def div(input: Any, other: Any, *, rounding_mode: Optional[str] = None) -> Tensor:  # noqa: A002
    """``input / other``, rounded down or towards zero where ``rounding_mode`` says (a
    DivBackward2 node, whose gradients are zeros)."""
    if rounding_mode is None:
        return F.div(input, other)
    return F.rounded_division(input, other, _rounding(rounding_mode))


divide = div
neg = TORCH.tensor_function(F.neg, "neg")
pow = _overloads(F.pow, "pow", "pow", lambda a, b: a or b)  # noqa: A001
matmul = TORCH.tensor_function(autocast_ops.lower_precision(F.matmul), "matmul")
abs = TORCH.tensor_function(F.abs, "abs")
tanh = TORCH.tensor_function(F.tanh, "tanh")
# a function for each elementwise function of the rule table (torch.exp, torch.acos, …)
for _op in R.elementwise_functions():
    globals()[_op] = TORCH.tensor_function(getattr(F, _op), _op)
reciprocal = TORCH.tensor_function(F.reciprocal, "reciprocal")
sigmoid = TORCH.tensor_function(F.sigmoid, "sigmoid")
relu = TORCH.tensor_function(F.relu, "relu")
sign = TORCH.tensor_function(F.sign, "sign")
sgn = TORCH.tensor_function(F.sgn, "sgn")
floor = TORCH.tensor_function(F.floor, "floor")
ceil = TORCH.tensor_function(F.ceil, "ceil")
round = TORCH.tensor_function(lambda a, decimals=0: F.round_decimals(a, decimals), "round")  # noqa: A001
maximum = TORCH.tensor_function(F.maximum, "maximum")
minimum = TORCH.tensor_function(F.minimum, "minimum")
where = F.where
clone = TORCH.tensor_function(F.clone, "clone")
transpose = TORCH.tensor_function(F.transpose, "transpose")
unsqueeze = TORCH.tensor_function(F.unsqueeze, "unsqueeze")


@_tensor_first
def detach(input: Tensor) -> Tensor:  # noqa: A002
    return input.detach()


@_tensor_first
def sum(input: Tensor, dim: Any = None, keepdim: builtins.bool = False) -> Tensor:  # noqa: A001,A002
    return F.sum(input, dim, keepdim)


@_tensor_first
def mean(input: Tensor, dim: Any = None, keepdim: builtins.bool = False) -> Tensor:  # noqa: A002
    return F.mean(input, dim, keepdim)


def _extremum(kind: str, input: Tensor, dim: Any, keepdim: builtins.bool) -> Any:  # noqa: A002
    if not isinstance(input, _CoreTensor):
        raise TORCH.not_tensor(kind, input)
    if isinstance(dim, _CoreTensor):
        return (F.maximum if kind == "max" else F.minimum)(input, dim)
    if dim is None:
        return F.max_all(input) if kind == "max" else F.min_all(input)
    values, indices = (F.max_dim if kind == "max" else F.min_dim)(input, dim, keepdim)
    return getattr(return_types, kind)(values, indices)


def max(input: Tensor, dim: Any = None, keepdim: builtins.bool = False) -> Any:  # noqa: A001,A002
    """``torch.max(input)``, ``torch.max(input, dim, keepdim)`` or ``torch.max(input, other)``."""
    return _extremum("max", input, dim, keepdim)


def min(input: Tensor, dim: Any = None, keepdim: builtins.bool = False) -> Any:  # noqa: A001,A002
    """``torch.min(input)``, ``torch.min(input, dim, keepdim)`` or ``torch.min(input, other)``."""
    return _extremum("min", input, dim, keepdim)


def _all_if_empty(input: Tensor, dim: Any) -> Any:  # noqa: A002
    return tuple(range(input._data.ndim)) if dim == () or dim == [] else dim


@_tensor_first
def amax(input: Tensor, dim: Any = (), keepdim: builtins.bool = False) -> Tensor:  # noqa: A002
    return F.amax(input, _all_if_empty(input, dim), keepdim)


@_tensor_first
def amin(input: Tensor, dim: Any = (), keepdim: builtins.bool = False) -> Tensor:  # noqa: A002
    return F.amin(input, _all_if_empty(input, dim), keepdim)


@_tensor_first
def clamp(input: Tensor, min: Optional[builtins.float] = None,  # noqa: A002
          max: Optional[builtins.float] = None) -> Tensor:  # noqa: A002
    return F.clamp(input, min, max)


clip = clamp


@_tensor_first
def clamp_min(input: Tensor, min: Any) -> Tensor:  # noqa: A002
    return input.clamp_min(min)


@_tensor_first
def clamp_max(input: Tensor, max: Any) -> Tensor:  # noqa: A002
    return input.clamp_max(max)



@_tensor_first
def reshape(input: Tensor, shape: Sequence[builtins.int]) -> Tensor:  # noqa: A002
    return F.reshape(input, shape)


@_tensor_first
def permute(input: Tensor, dims: Sequence[builtins.int]) -> Tensor:  # noqa: A002
    return F.permute(input, dims)


@_tensor_first
def squeeze(input: Tensor, dim: Any = None) -> Tensor:  # noqa: A002
    return F.squeeze(input, dim)


@_tensor_first
@autocast_ops.lower_precision
def mm(input: Tensor, mat2: Tensor) -> Tensor:  # noqa: A002
    """``torch.mm``: matrices only."""
    if input._data.ndim != 2 or mat2._data.ndim != 2:
        raise TORCH.error("mm_matrix", name="self" if input._data.ndim != 2 else "mat2")
    return F.matmul(input, mat2)


def t(input: Tensor) -> Tensor:  # noqa: A002
    return F.t(input)


def expand_copy(input: Tensor, size: Sequence[builtins.int]) -> Tensor:  # noqa: A002
    """A copy of the expanded tensor, one node of torch's copy variant (ExpandBackward0_copy)."""
    return composed.named(F.clone(F.expand(input, size)), "ExpandBackward0_copy", input)


def cat(tensors: Sequence[Tensor], dim: builtins.int = 0) -> Tensor:
    return F.cat(tensors, dim, policy=TORCH)


concat = cat


def stack(tensors: Sequence[Tensor], dim: builtins.int = 0) -> Tensor:
    return F.stack(tensors, dim, policy=TORCH)


@_tensor_first
def softmax(input: Tensor, dim: builtins.int) -> Tensor:  # noqa: A002
    return F.softmax(input, dim)


@_tensor_first
def log_softmax(input: Tensor, dim: builtins.int) -> Tensor:  # noqa: A002
    return F.log_softmax(input, dim)
