"""The core of the paddle facade: its Tensor, dtypes, constructors and top-level functions.

A thin layer like ``reference_engine.torch._core``: the same engine and derivative table, with
``PaddlePolicy`` answering wherever paddle's semantics differ from torch's. The package
(``reference_engine.paddle``) adds the submodules; they import from here, never from the
package, so no import goes round in a circle.
"""

from __future__ import annotations

import builtins
import functools
import itertools
import weakref
from typing import Any, Optional, Sequence

import numpy as np

from reference_engine import composed, grad_mode, recorder, rng
from reference_engine import ops as F
from reference_engine import rule_helpers as H
from reference_engine import rules as R
from reference_engine.dialects.paddle_policy import (
    CLEARED,
    FROM_DATA,
    PADDLE,
    WIDENED_BY_MULTIPLY,
    stopped,
)
from reference_engine.dtypes import (
    REDUCED_NAMES,
    STANDARD,
    DialectDtype,
    by_numpy,
    is_floating,
    numpy_dtype,
    standard_dtypes,
    to_numpy,
)
from reference_engine.framework_names import instance_getattr
from reference_engine.graph import UNLINKED_WHILE_PACKING, Node, shown_node
from reference_engine.messages import not_supported
from reference_engine.tensor import Tensor as _CoreTensor

__all__ = [
    "disable_static", "enable_static", "in_dynamic_mode",
    "Tensor", "abs", "add", "bernoulli", "rand", "randn", "seed",
    "square", "full_like",
    "amax", "amin", "bool", "cast", "clip", "concat", "divide", "dtype", "enable_grad", "expand",
    "expand_as", "float", "float16", "bfloat16", "float32", "float64",
    "get_default_dtype", "grad", "int32", "set_default_dtype",
    "int64", "is_grad_enabled", "matmul", "max", "maximum", "mean", "min", "minimum",
    "multiply", "no_grad", "ones", "ones_like", "pow", "reshape", "set_grad_enabled",
    "squeeze", "stack", "subtract", "sum", "tanh", "to_tensor", "transpose", "unsqueeze",
    "view", "view_as", "where", "zeros", "zeros_like", "reciprocal",
    *R.elementwise_functions(),
]

no_grad = grad_mode.no_grad
enable_grad = grad_mode.enable_grad
set_grad_enabled = grad_mode.set_grad_enabled
is_grad_enabled = grad_mode.is_grad_enabled

_generated = itertools.count()
_eager_tmp = itertools.count()
_eager_in_tmp = itertools.count()


class dtype(DialectDtype):  # noqa: N801 - paddle's name
    """A paddle dtype object (``paddle.float32``); it never equals its name as a string."""

    prefix = "paddle"

    def __eq__(self, other: object) -> builtins.bool:
        return self is other

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        """paddle's ``DataType`` enum member: ``<DataType.FLOAT32: 10>`` (its str stays
        ``paddle.float32``)."""
        return f"<DataType.{self.name.upper()}: {_DATA_TYPE_CODES.get(self.name, -1)}>"

    def __str__(self) -> str:
        return f"{self.prefix}.{self.name}"


# the codes of paddle 3.3.1's DataType enum (measured)
_DATA_TYPE_CODES = {"bool": 1, "uint8": 2, "int8": 3, "int16": 5, "int32": 7, "int64": 9, "float32": 10,
                    "float64": 11, "complex64": 12, "float16": 15, "bfloat16": 16}


_NAMED = standard_dtypes(dtype, (*STANDARD, *REDUCED_NAMES))
float16 = _NAMED["float16"]
bfloat16 = _NAMED["bfloat16"]
float32 = _NAMED["float32"]
float = float32  # noqa: A001 - paddle.float is paddle.float32
float64 = _NAMED["float64"]
int64 = _NAMED["int64"]
int32 = _NAMED["int32"]
bool = _NAMED["bool"]  # noqa: A001
_DTYPES = by_numpy(_NAMED)


def _np_dtype(d: Any) -> Optional[np.dtype]:
    """The numpy dtype for a ``dtype`` argument: a paddle dtype, or anything numpy reads as one
    (``"float32"``, ``float``, ``np.int64``), with numpy's error otherwise, as paddle."""
    return to_numpy(d, dtype, lambda other: numpy_dtype(other) if other == "bfloat16" else np.dtype(other))


# the dtype of Python floats and float constructors (paddle.set_default_dtype); promotion does
# not follow it (an integer division stays float32, as in paddle)
_DEFAULT_FLOAT = [np.dtype(np.float32)]


def get_default_dtype() -> str:
    return str(_DEFAULT_FLOAT[0])


def set_default_dtype(d: Any) -> None:
    """``paddle.set_default_dtype``: a float dtype, by name or object, or a numpy float type
    (paddle refuses a Python type, ``float`` included, in other words)."""
    if isinstance(d, builtins.type):
        if d not in (np.float16, np.float32, np.float64):
            raise PADDLE.error("default_dtype_type", name=d.__name__)
        target = np.dtype(d)
    else:
        named = _NAMED.get(d) if isinstance(d, str) else d if isinstance(d, dtype) else None
        target = named.numpy if named is not None else None
        if target is None or not is_floating(target):
            raise PADDLE.error("default_dtype", dtype=str(d).split(".")[-1])
    _DEFAULT_FLOAT[0] = target


class Size(list):
    """``paddle.Size``: a list that prints as ``paddle.Size([2, 3])``."""

    def __repr__(self) -> str:
        return f"paddle.Size({list(self)})"


def _axes(axis: Any) -> Any:
    return tuple(axis) if isinstance(axis, (list, tuple)) else axis


# storage paddle released (a gradient cleared to None): tensors still viewing it are
# uninitialized
_RELEASED: weakref.WeakValueDictionary[int, np.ndarray] = weakref.WeakValueDictionary()


def unsigned_zeros(out: Any, number: Any) -> Any:
    """What paddle's scale kernel, ``x * number + 0.0``, makes of a product by a number: a zero
    comes out +0.0 whatever the signs (measured: ``t * -1.0`` of 0.0 is 0.0, where a product of
    two tensors, or a division by a number, gives -0.0). Changes the result in place."""
    if isinstance(number, (builtins.int, builtins.float)) and not isinstance(number, builtins.bool) \
            and isinstance(out, _CoreTensor) and out._data.dtype in (np.float32, np.float64):
        np.add(out._data, 0.0, out=out._data)
    return out


def _operand_as(other: Any, tensor: _CoreTensor) -> Any:
    """A floating-point tensor operand of another dtype cast to ``tensor``'s (paddle's operator
    methods' own promotion for matmul); anything else as it is."""
    if isinstance(other, _CoreTensor) and other._data.dtype != tensor._data.dtype and \
            other._data.dtype.kind == "f" and tensor._data.dtype.kind == "f":
        return F.cast(other, tensor._data.dtype)
    return other


class Tensor(_CoreTensor):
    """``paddle.Tensor`` over the reference engine."""

    __slots__ = ("_dropped_grad",)  # the gradient last cleared to None (unset: none)
    __getattr__ = instance_getattr("paddle.Tensor")
    _size_type = Size
    _policy = PADDLE

    def __index__(self) -> builtins.int:
        """A one-element tensor of any dtype as a list index (paddle's ``int(np.array(x))``)."""
        if self._data.size != 1:
            raise AssertionError("only one element variable can be converted to python index.")
        return builtins.int(np.array(self._data))

    def __float__(self) -> builtins.float:
        """paddle's ``float(np.array(x))`` of a one-element tensor: what numpy makes of an array
        of more dimensions decides (numpy 2 refuses it as not 0-dimensional)."""
        return builtins.float(self._one_element_array("float"))

    def __int__(self) -> builtins.int:
        """paddle's ``int(np.array(x))``, as ``__float__``."""
        return builtins.int(self._one_element_array("int"))

    def __bool__(self) -> builtins.bool:
        if self._data.size != 1:
            raise AssertionError("When Variable is used as the condition of if/while , Variable can "
                                 "only contain one element.")
        return builtins.bool(self._data.reshape(()))

    def _one_element_array(self, kind: str) -> np.ndarray:
        if self._data.size != 1:
            raise AssertionError(f"only one element variable can be converted to {kind}.")
        return np.array(self._data)
    _dtype_objects = _DTYPES

    # --- a product by a number is paddle's scale kernel ----------------------------------------

    def __mul__(self, other: Any) -> Any:
        return unsigned_zeros(super().__mul__(other), other)

    def __rmul__(self, other: Any) -> Any:
        return unsigned_zeros(super().__rmul__(other), other)

    def __neg__(self) -> Any:
        return unsigned_zeros(super().__neg__(), -1)

    # --- autograd state -------------------------------------------------------------------

    @property
    def stop_gradient(self) -> builtins.bool:
        return not self._requires_grad

    @stop_gradient.setter
    def stop_gradient(self, value: builtins.bool) -> None:
        self.requires_grad = not value  # paddle allows it on non-leaves too

    @property
    def requires_grad(self) -> builtins.bool:
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value: builtins.bool) -> None:
        """Setting the flag (either way) on a tensor no node made gives it its accumulation
        node, which ``grad_fn`` shows from then on (``linspace``, ``eye``, ``detach`` make none)."""
        self._requires_grad = builtins.bool(value)
        if self._grad_fn is None:
            self._accumulator_node()

    @property
    def grad(self) -> Optional[Tensor]:
        """A new tensor sharing the gradient's storage on each access, as paddle hands out."""
        if self._grad is None:
            return None
        view = Tensor._from_array(self._grad._data)
        view._requires_grad = not stopped(self._grad)  # a PyLayer's gradient stops gradient
        view._grad_fn = self._grad._grad_fn  # a gradient a hook recorded keeps its history
        view._accumulator = self._grad._accumulator  # a seed stored unchanged keeps its node
        return view  # type: ignore[return-value]

    @grad.setter
    def grad(self, value: Optional[Tensor]) -> None:
        """Assigning copies the values: into the gradient there is (of the same dtype only; of
        another shape, it takes that shape), or into a new one with the
        flag and history of the gradient held before (dropped by ``clear_gradient(False)`` or by assigning
        None), or, for a tensor that never had one, a new one that stops gradient; later passes
        accumulate into them."""
        if value is None:
            self._drop_grad()
        elif self._grad is not None and self._grad._data.dtype != value._data.dtype:
            raise PADDLE.error("grad_set_dtype", name=value.name)  # it copies into the gradient
        elif self._grad is not None and self._grad._data.shape == value._data.shape:
            np.copyto(self._grad._data, value._data, casting="unsafe")
        elif self._grad is not None:  # the same gradient tensor, of the new shape
            held = self._grad._data
            if held.size == value._data.size and held.flags.c_contiguous:
                held.shape = value._data.shape  # (so the tensors handed out before see it too)
                np.copyto(held, value._data, casting="unsafe")
            else:
                self._grad._data = value._data.copy()
        else:
            previous = self._grad if self._grad is not None else getattr(
                self, "_dropped_grad", None)
            self._grad = Tensor._from_array(value._data.copy())
            if previous is None or stopped(previous):
                PADDLE.mark_stopped(self._grad)
            if previous is not None:  # and its history, as clear_gradient(True) keeps it
                self._grad._grad_fn, self._grad._accumulator = (previous._grad_fn,
                                                                previous._accumulator)

    def _drop_grad(self) -> None:
        """paddle keeps the gradient's tensor (its flag) while it holds no value, and releases
        its storage: a gradient tensor handed out before is left uninitialized."""
        if self._grad is not None:
            self._dropped_grad = self._grad
            _RELEASED[id(self._grad._data)] = self._grad._data
        self._grad = None

    def gradient(self) -> Optional[np.ndarray]:
        """``Tensor.gradient()`` (deprecated in paddle, which warns on every call): the
        gradient's values as numpy."""
        PADDLE.warn("gradient_deprecated")
        return None if self._grad is None else self._grad._data.copy()

    @property
    def grad_fn(self) -> Optional[Node]:
        """The creating node; a tensor made by ``to_tensor`` shows its accumulation node (once
        there: ``graph.UNLINKED_WHILE_PACKING``)."""
        if self._grad_fn is not None:
            return shown_node(self._grad_fn)
        return None if id(self._accumulator) in UNLINKED_WHILE_PACKING else self._accumulator

    @property
    def name(self) -> str:
        """Named when first asked (``eager_tmp_N``), except a tensor to_tensor made from data
        (``generated_tensor_N``) or detach made (``eager_in_tmp_N``), named at once: so only
        those show their name in an error about them before it was read."""
        if self._name is None:
            self._name = f"eager_tmp_{next(_eager_tmp)}"
        return self._name

    def detach(self) -> Tensor:
        out = super().detach()
        out._name = f"eager_in_tmp_{next(_eager_in_tmp)}"
        return out  # type: ignore[return-value]

    def backward(self, grad_tensor: Optional[Tensor] = None, retain_graph: builtins.bool = False) -> None:
        PADDLE.tensor_backward(self, grad_tensor, retain_graph)

    def clear_grad(self) -> None:
        self.clear_gradient(True)

    def set_value(self, value: Any) -> None:
        """Write ``value`` into the tensor's storage: no version change and no record, so
        saved references to it see the new values in a later backward."""
        data = value._data if isinstance(value, _CoreTensor) else np.asarray(value)
        if data.shape != self._data.shape:
            raise PADDLE.error("set_value_shape", name=self.name, shape=repr(Size(self._data.shape)),
                               given=tuple(data.shape))
        np.copyto(self._data, data, casting="unsafe")

    def clear_gradient(self, set_to_zero: builtins.bool = True) -> None:
        """Zero the gradient (the storage handed out so far sees the zeros); the next backward
        accumulates into fresh storage. ``set_to_zero=False`` drops the gradient."""
        if self._grad is not None and set_to_zero:
            old = self._grad
            old._data[...] = 0
            self._grad = Tensor._from_array(np.zeros_like(old._data))
            # the gradient keeps the history a hook recorded on it: only its storage is new
            self._grad._grad_fn, self._grad._accumulator = old._grad_fn, old._accumulator
            CLEARED[id(self._grad)] = self._grad
            if stopped(old):  # and its flag: zeros from a PyLayer's gradient stop gradient
                PADDLE.mark_stopped(self._grad)
        elif not set_to_zero:
            self._drop_grad()

    def retain_grads(self) -> None:
        self._retain_grad()

    # --- metadata -------------------------------------------------------------------------

    @property
    def inplace_version(self) -> builtins.int:
        """How many in-place ops have changed this tensor's data (paddle's version counter)."""
        return self._counter.value

    @property
    def place(self) -> str:
        return "Place(cpu)"

    @property
    def size(self) -> builtins.int:
        return builtins.int(self._data.size)

    def numpy(self) -> np.ndarray:
        """A copy of the values (paddle's numpy() does not share the tensor's memory, measured)."""
        if _RELEASED.get(id(self._data)) is self._data:  # paddle reads no values: none left
            return np.empty((*self._data.shape, 0), dtype=self._data.dtype)
        return self._data.copy()

    equal, not_equal, less_than, less_equal, greater_than, greater_equal = (
        F.eq, F.ne, F.lt, F.le, F.gt, F.ge)

    def all(self, axis: Any = None, keepdim: builtins.bool = False) -> Tensor:
        return F.truth(self, np.all, axis, keepdim)

    def any(self, axis: Any = None, keepdim: builtins.bool = False) -> Tensor:
        return F.truth(self, np.any, axis, keepdim)

    def astype(self, dtype: Any) -> Tensor:
        """This tensor in ``dtype`` (itself where it has that dtype already)."""
        return F.cast(self, _np_dtype(dtype))

    # --- operations -----------------------------------------------------------------------

    add = F.add
    subtract = F.sub
    multiply = F.mul
    divide = F.div

    def pow(self, y: Any) -> Tensor:
        return F.pow(self, y)

    def sum(self, axis: Any = None, dtype: Any = None, keepdim: builtins.bool = False) -> Tensor:
        return sum(self, axis, dtype, keepdim)

    def mean(self, axis: Any = None, keepdim: builtins.bool = False) -> Tensor:
        return mean(self, axis, keepdim)

    def max(self, axis: Any = None, keepdim: builtins.bool = False) -> Tensor:
        return max(self, axis, keepdim)

    def min(self, axis: Any = None, keepdim: builtins.bool = False) -> Tensor:
        return min(self, axis, keepdim)

    def clip(self, min: Optional[builtins.float] = None, max: Optional[builtins.float] = None) -> Tensor:  # noqa: A002
        return F.clamp(self, min, max)

    def amax(self, axis: Any = None, keepdim: builtins.bool = False) -> Tensor:
        return amax(self, axis, keepdim)

    def amin(self, axis: Any = None, keepdim: builtins.bool = False) -> Tensor:
        return amin(self, axis, keepdim)

    def maximum(self, y: Tensor) -> Tensor:
        return F.maximum(self, y)

    def minimum(self, y: Tensor) -> Tensor:
        return F.minimum(self, y)

    def reshape(self, shape: Sequence[builtins.int]) -> Tensor:
        return reshape(self, shape)

    def transpose(self, perm: Sequence[builtins.int]) -> Tensor:
        return F.permute(self, perm)

    def squeeze(self, axis: Any = None) -> Tensor:
        return F.squeeze(self, _axes(axis))

    def unsqueeze(self, axis: builtins.int) -> Tensor:
        return F.unsqueeze(self, axis)

    def _inplace_version(self) -> builtins.int:
        """How many in-place writes the tensor's memory has had (its version counter)."""
        return self._counter.value

    # the in-place shape methods (``Tensor._restrided_in_place``), under the view's own node
    def unsqueeze_(self, axis: builtins.int) -> Tensor:
        return self._restrided_in_place("unsqueeze_", lambda t: t.unsqueeze(axis))  # type: ignore[return-value]

    def squeeze_(self, axis: Any = None) -> Tensor:
        return self._restrided_in_place("squeeze_", lambda t: t.squeeze(axis))  # type: ignore[return-value]

    def reshape_(self, shape: Sequence[builtins.int]) -> Tensor:
        return self._restrided_in_place("reshape_", lambda t: t.reshape(shape))  # type: ignore[return-value]

    def flatten_(self, start_axis: builtins.int = 0, stop_axis: builtins.int = -1) -> Tensor:
        return self._restrided_in_place(  # type: ignore[return-value]
            "flatten_", lambda t: t.flatten(start_axis, stop_axis))

    def t_(self) -> Tensor:
        return self._restrided_in_place("t_", lambda t: t.t())  # type: ignore[return-value]

    def transpose_(self, perm: Sequence[builtins.int]) -> Tensor:
        return self._restrided_in_place("transpose_", lambda t: t.transpose(perm))  # type: ignore[return-value]

    def __getitem__(self, index: Any) -> Tensor:
        return _getitem(self, index)

    def __floordiv__(self, other: Any) -> Tensor:
        return _floor_divided(super().__floordiv__(other), self, other)

    def __rfloordiv__(self, other: Any) -> Tensor:
        return _floor_divided(super().__rfloordiv__(other), self, other)

    def __and__(self, other: Any) -> Tensor:
        return super().__and__(_bitwise_operand("bitwise_and", other))

    def __or__(self, other: Any) -> Tensor:
        return super().__or__(_bitwise_operand("bitwise_or", other))

    def __xor__(self, other: Any) -> Tensor:
        return super().__xor__(_bitwise_operand("bitwise_xor", other))

    def __matmul__(self, other: Any) -> Any:
        """``self @ other``: unlike ``paddle.matmul``, which refuses operands of two dtypes, the
        operator casts ``other`` to ``self``'s dtype first, a recorded cast (measured on 3.3.1)."""
        return super().__matmul__(_operand_as(other, self))

    def __rmatmul__(self, other: Any) -> Any:
        """``other @ self``, ``other`` cast to ``self``'s dtype as ``__matmul__`` casts."""
        return super().__rmatmul__(_operand_as(other, self))

    def expand(self, shape: Sequence[builtins.int]) -> Tensor:
        return F.expand(self, shape)

    def expand_as(self, y: Tensor) -> Tensor:
        return expand_as(self, y)

    def is_contiguous(self) -> builtins.bool:
        """Whether the tensor's strides are the row-major ones of its shape: a computed result's
        always are, a transposed view's need not be. paddle compares every stride, a size-1
        dimension's too (measured on 3.3.1: a [1, 3] matrix's transpose is not contiguous)."""
        return self._data.strides == recorder.row_major_strides(self._data.shape, self._data.itemsize)

    @property
    def strides(self) -> list[builtins.int]:
        """The tensor's strides in elements (a view's are its base's, permuted or stepped)."""
        return [s // self._data.itemsize for s in self._data.strides]

    def view(self, shape_or_dtype: Any) -> Tensor:
        return view(self, shape_or_dtype)

    def view_as(self, other: Tensor) -> Tensor:
        return view_as(self, other)

    # --- in-place operations --------------------------------------------------------------

    def add_(self, y: Any) -> Tensor:
        return self._in_place("add", y)  # type: ignore[return-value]

    def subtract_(self, y: Any) -> Tensor:
        return self._in_place("sub", y)  # type: ignore[return-value]

    def multiply_(self, y: Any) -> Tensor:
        before = self._data.dtype
        try:
            return self._in_place("mul", y)  # type: ignore[return-value]
        finally:  # (a refused write still widens)
            if self._data.dtype != before and self not in WIDENED_BY_MULTIPLY:
                WIDENED_BY_MULTIPLY[self] = before

    def divide_(self, y: Any) -> Tensor:
        return self._in_place("div", y)  # type: ignore[return-value]

    mul_, sub_, div_ = multiply_, subtract_, divide_

    def fill_(self, value: builtins.float) -> Tensor:
        return self._in_place("fill", value=value)  # type: ignore[return-value]

    def scale_(self, scale: builtins.float = 1.0, bias: builtins.float = 0.0) -> Tensor:
        self._in_place("mul", scale)
        return self._in_place("add", bias) if bias else self  # type: ignore[return-value]

    def exp_(self) -> Tensor:
        return self._in_place("exp")  # type: ignore[return-value]

    def sqrt_(self) -> Tensor:
        return self._in_place("sqrt")  # type: ignore[return-value]

    def tanh_(self) -> Tensor:
        return self._in_place("tanh")  # type: ignore[return-value]

    def reciprocal_(self) -> Tensor:
        return self._in_place("reciprocal")  # type: ignore[return-value]

    def erfinv_(self) -> Tensor:
        return self._in_place("erfinv", saturates=self._policy.erfinv_saturates)  # type: ignore[return-value]

    def masked_fill_(self, mask: Tensor, value: Any) -> Tensor:
        """``value`` written where ``mask`` holds (MaskedFillGradNode)."""
        if isinstance(value, Tensor):
            value = value.item()
        return self._in_place("masked_fill", mask=mask._data, value=value)  # type: ignore[return-value]

    def clip_(self, min: Optional[builtins.float] = None,  # noqa: A002
              max: Optional[builtins.float] = None) -> Tensor:  # noqa: A002
        return self._in_place("clamp", low=min, high=max)  # type: ignore[return-value]

    def zero_(self) -> Tensor:
        return self._in_place("fill", value=0)  # type: ignore[return-value]

    def normal_(self, mean: builtins.float = 0.0, std: builtins.float = 1.0,
                name: Optional[str] = None) -> Tensor:
        """Normal draws written in place."""
        return self._drawn_in_place("normal", mean, std)  # type: ignore[return-value]

    def uniform_(self, min: builtins.float = 0.0, max: builtins.float = 1.0, seed: builtins.int = 0,  # noqa: A002
                 name: Optional[str] = None) -> Tensor:
        """Uniform draws written in place."""
        return self._drawn_in_place("uniform", min, max)  # type: ignore[return-value]


# --- creation -----------------------------------------------------------------------------

# what to_tensor's dtype argument may name (paddle's convert_dtype)
_CONVERTIBLE = ("bool", "float16", "uint16", "float32", "float64", "int8", "int16", "int32", "int64",
                "uint8", "complex64", "complex128", "bfloat16")


def _to_tensor_dtype(d: Any) -> Optional[np.dtype]:
    """``to_tensor``'s dtype argument, read as paddle's ``convert_dtype`` reads it: a paddle dtype,
    a numpy dtype or type, Python's ``bool``, or one of the names; not ``float`` or ``int``."""
    if d is None or isinstance(d, dtype):
        return _np_dtype(d)
    name = getattr(d, "__name__", None) if isinstance(d, builtins.type) else getattr(d, "name", d)
    if isinstance(name, str) and name in _CONVERTIBLE and (
            not isinstance(d, builtins.type) or d is builtins.bool or issubclass(d, np.generic)):
        return _np_dtype(name)
    raise PADDLE.error("to_tensor_dtype", dtype=d)


_WARNED_TO_TENSOR_OF_TENSOR: list[builtins.bool] = []


def _floor_divided(out: Any, tensor: Tensor, number: Any) -> Any:
    """paddle's ``//`` makes a number operand a tensor of shape [1]: with a 0-d tensor the
    result has shape [1] (measured on 3.3.1; the result stops gradient, so it has no node)."""
    if isinstance(out, _CoreTensor) and tensor._data.ndim == 0 and not isinstance(number, _CoreTensor):
        out._data = out._data.reshape(1)
    return out


def _bitwise_operand(function: builtins.str, other: Any) -> Any:
    """``&``, ``|`` and ``^`` take a tensor on the right only (a reflected one takes numbers)."""
    if not isinstance(other, _CoreTensor):
        raise PADDLE.error("bitwise_operand", function=function, type=type(other).__name__)
    return other


def to_tensor(data: Any, dtype: Any = None, place: Any = None,
              stop_gradient: builtins.bool = True) -> Tensor:
    """``paddle.to_tensor``: a new leaf (``stop_gradient=True`` unless asked otherwise)."""
    out = created(data, dtype, stop_gradient)
    if isinstance(data, _CoreTensor):
        if not _WARNED_TO_TENSOR_OF_TENSOR:  # paddle warns once per process
            _WARNED_TO_TENSOR_OF_TENSOR.append(True)
            PADDLE.warn("to_tensor_of_tensor")
    else:
        FROM_DATA[id(out)] = out
        out._name = f"generated_tensor_{next(_generated)}"
    return out


def created(data: Any, dtype: Any = None, stop_gradient: builtins.bool = True) -> Tensor:
    """A new leaf with ``data``'s values, as the ops that create tensors make it (``to_tensor``
    of a tensor, zeros, arange): with its accumulation node from the start."""
    if isinstance(data, _CoreTensor):
        array = data._data.copy()
    elif isinstance(data, (np.ndarray, np.number)):  # a numpy scalar keeps its dtype, as an array
        array = np.array(data)
    else:  # Python values: floats in the default dtype, int32 (numpy's on some systems) int64
        array = np.array(data)
        if array.dtype.kind == "f" and dtype is None:
            array = array.astype(_DEFAULT_FLOAT[0])
        elif array.dtype == np.int32 and dtype is None:
            array = array.astype(np.int64)
    target = _to_tensor_dtype(dtype)
    if target is not None:
        array = array.astype(target)
    out = Tensor._from_array(array)
    out._requires_grad = not stop_gradient
    out._accumulator_node()  # paddle gives a created tensor its GradNodeAccumulation at once
    return out  # type: ignore[return-value]


def _filled(value: builtins.float, shape: Any, dtype_: Any) -> Tensor:
    shape = [shape] if isinstance(shape, builtins.int) else list(shape)
    return created(np.full(shape, value, dtype=_np_dtype(dtype_) or _DEFAULT_FLOAT[0]))


def zeros(shape: Any, dtype: Any = None) -> Tensor:
    return _filled(0, shape, dtype)


def ones(shape: Any, dtype: Any = None) -> Tensor:
    return _filled(1, shape, dtype)


def _made(array: Any) -> Tensor:
    """An op's output that needs no gradient: no node at all (unlike ``to_tensor``'s leaves,
    which show their accumulation node from the start)."""
    return Tensor._from_array(np.asarray(array))  # type: ignore[return-value]


def zeros_like(x: Tensor, dtype: Any = None) -> Tensor:
    return _made(np.zeros(x._data.shape, _np_dtype(dtype) or x._data.dtype))


def ones_like(x: Tensor, dtype: Any = None) -> Tensor:
    return _made(np.ones(x._data.shape, _np_dtype(dtype) or x._data.dtype))


def full_like(x: Tensor, fill_value: builtins.float, dtype: Any = None) -> Tensor:
    return _made(np.full(x._data.shape, fill_value, _np_dtype(dtype) or x._data.dtype))


# --- operations ---------------------------------------------------------------------------

def _tensor_first(fn: Any) -> Any:
    return PADDLE.tensor_function(fn, fn.__name__)


# paddle's functional arithmetic takes tensors only (``x + 1`` takes a number; ``add(x, 1)`` not)
add = PADDLE.tensor_function(F.add, "add", tensors=2)
subtract = PADDLE.tensor_function(F.sub, "subtract", tensors=2)
multiply = PADDLE.tensor_function(F.mul, "multiply", tensors=2)
divide = PADDLE.tensor_function(F.div, "divide", tensors=2)
abs = PADDLE.tensor_function(F.abs, "abs")  # noqa: A001
tanh = PADDLE.tensor_function(F.tanh, "tanh")
# a function for each elementwise function of the rule table (paddle.exp, paddle.acos, …)
for _op in R.elementwise_functions():
    globals()[_op] = PADDLE.tensor_function(getattr(F, _op), _op)
reciprocal = PADDLE.tensor_function(F.reciprocal, "reciprocal")
maximum = PADDLE.tensor_function(F.maximum, "maximum", tensors=2)
minimum = PADDLE.tensor_function(F.minimum, "minimum", tensors=2)


def where(condition: Tensor, x: Any = None, y: Any = None, name: Optional[str] = None) -> Any:
    """``paddle.where``: a Python number is made a float32 tensor first (0.893 is rounded);
    with the condition alone, the positions where it holds, one tensor per axis (``nonzero``)."""
    if x is None and y is None:
        return nonzero(condition, as_tuple=True)
    if x is None or y is None:
        raise ValueError("either both or neither of x and y should be given")
    x, y = (builtins.float(np.float32(v)) if type(v) is builtins.float else v for v in (x, y))
    return F.where(condition, x, y)


def nonzero(x: Tensor, as_tuple: bool = False) -> Any:
    """The positions of the non-zero entries: one row per entry, or one tensor per axis."""
    found = np.nonzero(x._data if x._data.ndim else x._data.reshape(1))
    if as_tuple:
        return tuple(_made(f.astype(np.int64)) for f in found)
    return _made(np.stack(found, axis=1).astype(np.int64))


def seed(value: builtins.int) -> Any:
    """``paddle.seed``: reseeds paddle's generator (``reference_engine.paddle_random``) and
    returns it."""
    rng.seed("paddle", value)
    return rng.generator("paddle")


def _draw_dtype(dtype: Any) -> np.dtype:
    return np.dtype(_np_dtype(dtype) or _DEFAULT_FLOAT[0])


def _drawn(values: np.ndarray) -> Tensor:
    """A tensor of random draws: paddle's random kernels give it no accumulation node."""
    return Tensor._from_array(values)  # type: ignore[return-value]


def randn(shape: Sequence[builtins.int], dtype: Any = None, name: Any = None) -> Tensor:
    """Standard normal draws of paddle's generator."""
    return _drawn(rng.generator("paddle").normal(0.0, 1.0, list(shape), _draw_dtype(dtype)))


def rand(shape: Sequence[builtins.int], dtype: Any = None, name: Any = None) -> Tensor:
    """Uniform draws in [0, 1) of paddle's generator."""
    return _drawn(rng.generator("paddle").uniform(0.0, 1.0, list(shape), _draw_dtype(dtype)))


def bernoulli(x: Tensor, p: Any = None, name: Any = None) -> Tensor:
    """1 where a uniform draw of paddle's generator (in ``x``'s dtype) is below ``x``'s
    probability, else 0, in ``x``'s dtype; not recorded (measured on 3.3.1)."""
    if p is not None:
        raise not_supported("bernoulli with p", "paddle")
    draws = rng.generator("paddle").uniform(0.0, 1.0, list(x._data.shape), x._data.dtype)
    return _drawn((draws < x._data).astype(x._data.dtype))


@_tensor_first
def square(x: Tensor) -> Tensor:
    """``paddle.square``: ``x ** 2`` (SquareGradNode)."""
    with recorder.strided_kernel():
        return composed.named(pow(x, 2.0), "SquareGradNode", x)


def pow(x: Tensor, y: Any) -> Tensor:  # noqa: A001
    """``paddle.pow``: ``x`` a tensor; ``y`` a number (the ``pow`` kernel) or a tensor
    (``elementwise_pow``, which names itself in the error for ``x``)."""
    if not isinstance(x, _CoreTensor):
        raise PADDLE.not_tensor("elementwise_pow" if isinstance(y, _CoreTensor) else "pow", x)
    return F.pow(x, y)


@functools.partial(PADDLE.tensor_function, name="matmul", tensors=2)
def matmul(x: Tensor, y: Tensor, transpose_x: builtins.bool = False,
           transpose_y: builtins.bool = False) -> Tensor:
    if transpose_x and x._data.ndim > 1:
        x = F.transpose(x, -1, -2)
    if transpose_y and y._data.ndim > 1:
        y = F.transpose(y, -1, -2)
    return F.matmul(x, y)


@_tensor_first
def sum(x: Tensor, axis: Any = None, dtype: Any = None, keepdim: builtins.bool = False) -> Tensor:  # noqa: A001
    out = F.sum(x, _axes(axis), keepdim)
    return out if dtype is None else cast(out, dtype)


@_tensor_first
def mean(x: Tensor, axis: Any = None, keepdim: builtins.bool = False) -> Tensor:
    return F.mean(x, _axes(axis), keepdim)


@_tensor_first
def max(x: Tensor, axis: Any = None, keepdim: builtins.bool = False) -> Tensor:  # noqa: A001
    """Paddle splits the gradient evenly between ties, with or without an axis."""
    return F.amax(x, _axes(axis), keepdim, api="max")


@_tensor_first
def min(x: Tensor, axis: Any = None, keepdim: builtins.bool = False) -> Tensor:  # noqa: A001
    return F.amin(x, _axes(axis), keepdim, api="min")


@_tensor_first
def amax(x: Tensor, axis: Any = None, keepdim: builtins.bool = False) -> Tensor:
    """paddle.max's kernel under its own node name (AmaxGradNode, amax_grad)."""
    return F.amax(x, _axes(axis), keepdim, api="amax")


@_tensor_first
def amin(x: Tensor, axis: Any = None, keepdim: builtins.bool = False) -> Tensor:
    return F.amin(x, _axes(axis), keepdim, api="amin")


@_tensor_first
def clip(x: Tensor, min: Optional[builtins.float] = None,  # noqa: A002
         max: Optional[builtins.float] = None) -> Tensor:  # noqa: A002
    """paddle fills a bound not given with the dtype's lowest or largest finite value: infinities
    are clipped to it and get no gradient, nor does NaN (measured on 3.3.1)."""
    kind = x._data.dtype
    if kind.kind in "fiu" and (min is None or max is None):
        info = np.finfo(kind) if kind.kind == "f" else np.iinfo(kind)
        min = np.asarray(info.min).item() if min is None else min  # noqa: A001
        max = np.asarray(info.max).item() if max is None else max  # noqa: A001
    return F.clamp(x, min, max)


@_tensor_first
def reshape(x: Tensor, shape: Sequence[builtins.int]) -> Tensor:
    """paddle 3.3.1 hands back ``x`` itself when ``shape`` is its shape as written; a 0 in
    ``shape`` keeps ``x``'s size at that position."""
    if list(shape) == list(x._data.shape):
        return x
    return F.reshape(x, [x._data.shape[i] if size == 0 and i < x._data.ndim else size
                         for i, size in enumerate(shape)])


@_tensor_first
def transpose(x: Tensor, perm: Sequence[builtins.int]) -> Tensor:
    """A ``perm`` shorter than the rank permutes the leading axes (paddle 3.3.1 accepts it)."""
    perm = list(perm) + list(range(len(perm), x.ndim))
    return F.permute(x, perm)


@_tensor_first
def squeeze(x: Tensor, axis: Any = None) -> Tensor:
    return F.squeeze(x, _axes(axis))


@_tensor_first
def unsqueeze(x: Tensor, axis: builtins.int) -> Tensor:
    return F.unsqueeze(x, axis)


def _getitem(x: Tensor, index: Any) -> Tensor:
    """paddle's basic indexing (measured on 3.3.1): the integers and slices first (one
    SliceGradNode), the ``None`` entries then as one unsqueeze (UnsqueezeGradNode, a view whose
    gradient kernel hands on a view too); slices that each cover their whole dimension in
    order (``x[:]``, ``x[0:2]`` of 2 rows, ``x[..., 0:9]``) select nothing, and give the tensor
    back (paddle: a tensor that shares its data and autograd state)."""
    parts = index if isinstance(index, tuple) else (index,)
    basic = all(p is None or p is Ellipsis or isinstance(p, slice) or (
        isinstance(p, (builtins.int, np.integer)) and not isinstance(p, (builtins.bool, np.bool_)))
        for p in parts)
    if not basic:
        PADDLE.check_index_rank(x, F._normalize_index(x, index), writing=False)
        return F.getitem(x, index)
    selecting = tuple(p for p in parts if p is not None)
    if _selects_everything(selecting, x._data.shape):
        base = x
    else:
        PADDLE.check_index_rank(x, selecting, writing=False)
        base = F.getitem(x, selecting if len(selecting) != 1 else selecting[0])
    added = H.added_dims(parts, x._data.ndim)
    return F.unsqueeze_dims(base, added) if added else base


def _selects_everything(selecting: tuple[Any, ...], shape: tuple[builtins.int, ...]) -> builtins.bool:
    """Whether an index of slices and ``...`` keeps every element of ``shape`` in order."""
    if any(not (p is Ellipsis or isinstance(p, slice)) for p in selecting) or \
            builtins.sum(p is Ellipsis for p in selecting) > 1:
        return False
    explicit = [p for p in selecting if p is not Ellipsis]
    if len(explicit) > len(shape):
        return False  # too many indices: getitem's error
    head = selecting.index(Ellipsis) if Ellipsis in selecting else len(explicit)
    dims = list(range(head)) + list(range(len(shape) - len(explicit) + head, len(shape)))
    return all(p.indices(shape[d]) == (0, shape[d], 1) for p, d in zip(explicit, dims))


@_tensor_first
def expand(x: Tensor, shape: Sequence[builtins.int]) -> Tensor:
    return F.expand(x, shape)


def view(x: Tensor, shape_or_dtype: Any) -> Tensor:
    """``x``'s memory in a new shape (ViewShapeGradNode, a new tensor even for ``x``'s own
    shape); a dtype reinterprets the bytes, which is modelled only for ``x``'s own dtype (``x``
    itself)."""
    if isinstance(shape_or_dtype, (list, tuple)):
        return F.reshape(x, shape_or_dtype, api="view")
    if _np_dtype(shape_or_dtype) == x._data.dtype:
        return x
    raise not_supported("view as another dtype (a reinterpretation of the bytes)", "paddle")


def view_as(x: Tensor, other: Tensor) -> Tensor:
    """``x`` viewed in ``other``'s shape."""
    return view(x, list(other._data.shape))


def expand_as(x: Tensor, y: Tensor) -> Tensor:
    """``x`` expanded to ``y``'s shape (ExpandAsGradNode)."""
    return composed.named(F.expand(x, y._data.shape), "ExpandAsGradNode", x)


def concat(x: Sequence[Tensor], axis: builtins.int = 0) -> Tensor:
    return _slots_per_input(F.cat(x, axis, policy=PADDLE))


def stack(x: Sequence[Tensor], axis: builtins.int = 0) -> Tensor:
    return _slots_per_input(F.stack(x, axis, policy=PADDLE))


def _slots_per_input(out: Tensor) -> Tensor:
    """paddle's concat and stack kernels (not the reference's compositions that join pieces,
    a padding's zeros) keep a gradient slot per input in their double grad's node."""
    if out._grad_fn is not None:
        out._grad_fn.attrs["slots_per_input"] = True
    return out


@_tensor_first
def cast(x: Tensor, dtype: Any) -> Tensor:
    """``paddle.cast``: a new tensor even in ``x``'s own dtype (``astype`` returns ``x``)."""
    return F.cast(x, _np_dtype(dtype), same_dtype_copies=True)


def grad(outputs: Any, inputs: Any, grad_outputs: Any = None, retain_graph: Optional[builtins.bool] = None,
         create_graph: builtins.bool = False, only_inputs: builtins.bool = True,
         allow_unused: builtins.bool = False, no_grad_vars: Any = None) -> list[Optional[Tensor]]:
    """``paddle.grad``: gradients of ``outputs`` with respect to ``inputs``, as a list."""
    return PADDLE.grad(outputs, inputs, grad_outputs, retain_graph, create_graph, only_inputs,
                       allow_unused, no_grad_vars)


def in_dynamic_mode() -> builtins.bool:
    """The reference engine is dygraph (eager) only."""
    return True


def disable_static(place: Any = None) -> None:
    """Dygraph is already on."""


def enable_static() -> None:
    raise not_supported("static graph mode (only dygraph)", "paddle")
