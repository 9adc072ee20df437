"""Engine operations: validate arguments, then compute and record through the recorder.

Every function takes engine tensors (or Python numbers where the frameworks accept them) and
returns a new tensor of the same dialect class as its first tensor argument. Argument errors are
raised through the dialect's policy, so a wrong shape gets the framework's own message and never
a numpy traceback. Derivative rules (``reference_engine.rules``) call these same functions, which
is what makes a backward pass recordable with ``create_graph=True``.
"""

from __future__ import annotations

import math
import weakref
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence, Union

import numpy as np

from reference_engine import devices, grad_mode
from reference_engine import rule as R
from reference_engine.dtypes import is_floating, note_dtype
from reference_engine.graph import Node, SavedTensor
from reference_engine.messages import not_supported
from reference_engine.recorder import apply, graph_copy, tensor_type

if TYPE_CHECKING:
    from reference_engine.dialects.policy import Policy
    from reference_engine.tensor import Tensor

Scalar = Union[bool, int, float]
Operand = Union["Tensor", Scalar]
Dims = Union[int, Sequence[int], None]

_EMPTY: dict[str, Any] = {}
# one operand was a Python number: which one (paddle names the node by it)
_SCALAR_RIGHT: dict[str, Any] = {"scalar": "right"}
_SCALAR_LEFT: dict[str, Any] = {"scalar": "left"}


# --- argument handling ----------------------------------------------------------------------

def _cls_of(*operands: Any) -> type:
    base = tensor_type()
    for x in operands:
        if isinstance(x, base):
            return type(x)
    raise TypeError("expected at least one tensor operand")


def _coerce(x: Operand, cls: type, dtype: np.dtype) -> Tensor:
    """A number as a tensor of the operation's dtype; an integer beyond an integer dtype's
    range becomes what the dialect's cast makes of it (``Policy.out_of_range_integer``)."""
    if isinstance(x, tensor_type()):
        return x
    if isinstance(x, int) and not isinstance(x, bool) and np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        if not info.min <= x <= info.max:
            return cls._from_array(np.asarray(cls._policy.out_of_range_integer(x, np.dtype(dtype)),
                                              dtype=dtype))
    return cls._from_array(np.asarray(x, dtype=dtype))


def _check_operand(x: Any, cls: type, op: str, position: int) -> None:
    if not isinstance(x, (tensor_type(), bool, int, float, np.number)):
        raise cls._policy.not_tensor(op, x, position - 1)


def broadcast_shape(cls: type, *shapes: tuple[int, ...]) -> tuple[int, ...]:
    """The broadcast of ``shapes``, or the dialect's size-mismatch error."""
    ndim = max(len(s) for s in shapes)
    padded = [(1,) * (ndim - len(s)) + tuple(s) for s in shapes]
    out = []
    for i, sizes in enumerate(zip(*padded)):
        stretched = [s for s in sizes if s != 1]  # a size of 1 stretches to any other, 0 included
        target = max(stretched) if stretched else 1
        for j, s in enumerate(sizes):
            if s != target and s != 1:
                other = next(t for t in sizes if t != s)
                raise cls._policy.error("broadcast", size_a=sizes[0] if j else s,
                                        size_b=s if j else other, dim=i,
                                        shape_a=list(shapes[0]), shape_b=list(shapes[-1]))
        out.append(target)
    return tuple(out)


def normalize_dim(cls: type, dim: int, ndim: int) -> int:
    """A dimension index in ``[0, ndim)``, or the dialect's out-of-range error."""
    low, high = (-1, 0) if ndim == 0 else (-ndim, ndim - 1)
    if not isinstance(dim, (int, np.integer)) or not low <= dim <= high:
        raise cls._policy.error("dim_range", low=low, high=high, dim=dim, ndim=ndim, index=0)
    return int(dim) % max(ndim, 1)


def normalize_dims(cls: type, dims: Dims, ndim: int) -> tuple[int, ...]:
    """A sorted tuple of distinct dimensions; ``None`` means all of them."""
    if dims is None:
        return tuple(range(ndim))
    if isinstance(dims, (int, np.integer)):
        dims = (dims,)
    normalized = {normalize_dim(cls, d, ndim) for d in dims}
    return tuple(sorted(normalized)) if ndim else ()  # a 0-d tensor's one "dim" holds no axis


# --- elementwise arithmetic -----------------------------------------------------------------

def _binary(op: str, a: Operand, b: Operand, extra: dict[str, Any] = _EMPTY) -> Tensor:
    """``op`` of two operands (tensors or numbers), promoted and broadcast as the dialect does;
    ``extra``: attributes of the call (add's ``alpha``)."""
    base = tensor_type()
    a_tensor, b_tensor = isinstance(a, base), isinstance(b, base)
    # fast paths: same-dtype tensors, or a float tensor with a Python float (same category)
    if a_tensor and b_tensor and a._data.dtype == b._data.dtype:
        if a._data.shape != b._data.shape and a._data.ndim and b._data.ndim:
            broadcast_shape(type(a), a._data.shape, b._data.shape)
        return apply(R.RULES[op], (a, b), extra)
    if a_tensor and type(b) is float and is_floating(a._data.dtype):
        return apply(R.RULES[op], (a, type(a)._from_array(np.array(b, a._data.dtype))),
                     {**_SCALAR_RIGHT, **extra} if extra else _SCALAR_RIGHT)
    if b_tensor and type(a) is float and is_floating(b._data.dtype):
        return apply(R.RULES[op], (type(b)._from_array(np.array(a, b._data.dtype)), b),
                     {**_SCALAR_LEFT, **extra} if extra else _SCALAR_LEFT)
    cls = _cls_of(a, b)
    _check_operand(a, cls, op, 1)
    _check_operand(b, cls, op, 2)
    dtype = cls._policy.result_dtype(a, b, op=op)
    ta, tb = _coerce(a, cls, dtype), _coerce(b, cls, dtype)
    if ta._data.shape != tb._data.shape:
        broadcast_shape(cls, ta._data.shape, tb._data.shape)
    arrays = None
    if ta._data.dtype != dtype or tb._data.dtype != dtype:
        if cls._policy.promotes_by_casting:  # the op then saves the cast copy, not the operand
            ta, tb = (t if t._data.dtype == dtype else cast(t, dtype) for t in (ta, tb))
        else:
            arrays = (_promoted_array(ta._data, dtype), _promoted_array(tb._data, dtype))
    attrs = _EMPTY if a_tensor and b_tensor else (_SCALAR_RIGHT if a_tensor else _SCALAR_LEFT)
    return apply(R.RULES[op], (ta, tb), {**attrs, **extra} if extra else attrs, arrays)


def _promoted_array(data: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """``data`` in ``dtype`` with its broadcast (zero-stride) dimensions kept broadcast: the
    layout of an elementwise result is computed from its operands' strides, and numpy's
    ``astype`` would lay an expanded operand out densely in an order of its own."""
    if data.dtype == dtype:
        return data
    broadcast = [n > 1 and st == 0 for n, st in zip(data.shape, data.strides)]
    if not any(broadcast):
        return data.astype(dtype, copy=False)
    core = data[tuple(slice(0, 1) if b else slice(None) for b in broadcast)]
    return np.broadcast_to(core.astype(dtype), data.shape)


def add(a: Operand, b: Operand) -> Tensor:
    return _binary("add", a, b)


def scaled(op: str, a: Operand, b: Operand, alpha: Scalar) -> Tensor:
    """torch's ``add`` / ``sub`` with ``alpha``: ``a + alpha * b`` (``a - alpha * b``), one node."""
    cls = _cls_of(a, b)
    if isinstance(alpha, float) and cls._policy.is_integral(a) and cls._policy.is_integral(b):
        raise cls._policy.error("alpha_float")
    return _binary(op + "_scaled", a, b, {"alpha": alpha})


def _is_bool_tensor(x: Any) -> bool:
    return isinstance(x, tensor_type()) and x._data.dtype == np.bool_


def sub(a: Operand, b: Operand) -> Tensor:
    bools = _is_bool_tensor(a) + _is_bool_tensor(b)
    if bools:
        policy = _cls_of(a, b)._policy
        if policy.refuses_bool_negation:
            raise policy.error("sub_two_bools" if bools == 2 else "sub_bool")
        policy.check_bool_operands("sub", a, b)
    return _binary("sub", a, b)


def mul(a: Operand, b: Operand) -> Tensor:
    out = _binary("mul", a, b)
    policy = out._policy
    if any(isinstance(x, tensor_type()) and policy.is_zero_tensor(x) for x in (a, b)):
        policy.mark_zero_tensor(out)  # torch: a product with a ZeroTensor is one
    return out


def div(a: Operand, b: Operand) -> Tensor:
    cls = _cls_of(a, b)
    if cls._policy.is_integral(a) and cls._policy.is_integral(b):
        cls._policy.result_dtype(a, b, op="div")  # operands the framework cannot promote are refused first
        # true division of integers: both operands as the default float
        a, b = (cast(x, cls._policy.default_float) if isinstance(x, tensor_type()) else float(x)
                for x in (a, b))
    return _binary("div", a, b)


def _require_tensor_operands(op: str, *operands: Any) -> None:
    """Ops that take no Python numbers (maximum, minimum) refuse them as the framework does."""
    cls = _cls_of(*operands)
    for index, x in enumerate(operands):
        if not isinstance(x, tensor_type()):
            raise cls._policy.not_tensor(op, x, index)


def masked_fill(a: Tensor, mask: Any, value: Any) -> Tensor:
    """``value`` where ``mask`` (a bool tensor or array broadcasting to ``a``), ``a`` elsewhere:
    one node (MaskedFillBackward0, MaskedFillGradNode) for a number; a tensor value is a
    ``where`` of the two."""
    keep = mask._data if isinstance(mask, tensor_type()) else np.asarray(mask)
    if isinstance(value, tensor_type()):
        return where(constant_like(a, keep), value, a)
    return apply(R.RULES["masked_fill"], (a,), {"mask": keep, "value": value})


def div_number(a: Tensor, number: Scalar) -> Tensor:
    """``a / number`` as a framework's own kernels divide in a derivative: torch's
    ``div(Tensor, Scalar)`` (DivBackward1, whose only input is ``a``), paddle's scale."""
    return apply(R.RULES["div_number"], (a,), {"divisor": number})


def maximum(a: Tensor, b: Tensor) -> Tensor:
    _require_tensor_operands("maximum", a, b)
    a._policy.check_bool_operands("maximum", a, b)
    return _binary("maximum", a, b)


def minimum(a: Tensor, b: Tensor) -> Tensor:
    _require_tensor_operands("minimum", a, b)
    a._policy.check_bool_operands("minimum", a, b)
    return _binary("minimum", a, b)


def pow(a: Operand, b: Operand) -> Tensor:  # noqa: A001 - the frameworks' name
    base = tensor_type()
    if isinstance(a, base) and not isinstance(b, base):
        _check_operand(b, type(a), "pow", 2)
        dtype = a._policy.result_dtype(a, b, op="pow")
        if a._data.dtype != dtype:
            a = cast(a, dtype)
        return apply(R.RULES["pow_scalar"], (a,), {"exponent": b})
    if isinstance(b, base) and not isinstance(a, base):
        _check_operand(a, type(b), "pow", 1)
        dtype = b._policy.result_dtype(a, b, op="pow")
        if b._data.dtype != dtype:
            b = cast(b, dtype)
        return apply(R.RULES["rpow"], (b,), {"base": a})
    a._policy.check_bool_operands("pow", a, b)
    return _binary("pow", a, b)


def rsub(a: Tensor, minuend: float) -> Tensor:
    """``minuend - a`` as torch computes a float minus a float tensor (one input)."""
    return apply(R.RULES["rsub"], (a,), {"minuend": minuend})


def reciprocal(a: Tensor) -> Tensor:
    return apply(R.RULES["reciprocal"], (_floating(a),))


def _unary(op: str, a: Tensor) -> Tensor:
    return apply(R.RULES[op], (_floating(a),))


def _floating(a: Tensor) -> Tensor:
    return a if is_floating(a._data.dtype) else cast(a, a._policy.default_float)


def elementwise_function(op: str) -> Callable[[Tensor], Tensor]:
    """The engine function of a rule declared ``elementwise_function`` (``exp``, ``acos``, …):
    the op on the tensor, an integer or boolean one first cast to the default float dtype."""
    def function(a: Tensor) -> Tensor:
        return _unary(op, a)
    function.__name__ = function.__qualname__ = op
    function.__doc__ = f"``{op}`` elementwise (its rule: ``reference_engine.rules``)."
    return function


def __getattr__(name: str) -> Callable[[Tensor], Tensor]:
    """``F.exp``, ``F.acos``, …: the functions of the table's elementwise-function rules, made
    on first use."""
    entry = R.RULES.get(name)
    if entry is None or not entry.elementwise_function:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    made = globals()[name] = elementwise_function(name)
    return made


def conj(a: Tensor) -> Tensor:
    return apply(R.RULES["conj"], (a,))


def neg(a: Tensor) -> Tensor:
    if _is_bool_tensor(a):
        if a._policy.refuses_bool_negation:
            raise a._policy.error("neg_bool")
        return clone(a)  # paddle scales by -1 and casts back to bool: the same values
    return apply(R.RULES["neg"], (a,))


def tanh(a: Tensor) -> Tensor:
    return apply(R.RULES["tanh"], (_floating(a),), dialect_attrs("tanh", a._policy))


def dialect_attrs(op: str, policy: Any) -> dict[str, Any]:
    """The attributes an op's forward takes from the dialect rather than from the call (paddle's
    float32 tanh), for every path that runs the op, in place or not."""
    if op == "tanh":
        return {"fast": policy.fast_float32_tanh}
    return _EMPTY


def sigmoid(a: Tensor) -> Tensor:
    return _unary("sigmoid", a)


def abs(a: Tensor) -> Tensor:  # noqa: A001 - the frameworks' name
    if _is_bool_tensor(a) and a._policy.refuses_bool_abs:
        raise a._policy.error("abs_bool")
    return apply(R.RULES["abs"], (a,))


def sign(a: Tensor) -> Tensor:
    return apply(R.RULES["sign"], (a,))


def sgn(a: Tensor) -> Tensor:
    return apply(R.RULES["sgn"], (a,))


def floor(a: Tensor) -> Tensor:
    return apply(R.RULES["floor"], (a,))


def ceil(a: Tensor) -> Tensor:
    return apply(R.RULES["ceil"], (a,))


def rint(a: Tensor) -> Tensor:
    """The frameworks' ``round``: to the nearest integer, halves to even."""
    return apply(R.RULES["round"], (a,))


def round_decimals(a: Tensor, decimals: int) -> Tensor:
    """torch's ``round(decimals=...)``; 0 decimals is ``rint``."""
    return rint(a) if decimals == 0 else apply(R.RULES["round_decimals"], (a,), {"decimals": decimals})


def relu(a: Tensor) -> Tensor:
    return apply(R.RULES["relu"], (a,))


def relu_grad(grad: Tensor, result: Tensor) -> Tensor:
    """relu's gradient: torch's ``threshold_backward`` (linked to the result, a nan gradient
    masked where the result is 0) or paddle's kernel, which multiplies by the mask (nan stays
    nan)."""
    if "relu" in grad._policy.zero_derivative_links:
        return apply(R.RULES["relu_backward"], (grad, result))
    return mul(grad, constant_like(grad, (result._data > 0).astype(grad._data.dtype)))


def leaky_relu(a: Tensor, slope: float) -> Tensor:
    return apply(R.RULES["leaky_relu"], (_floating(a),), {"slope": slope})


def leaky_relu_grad(grad: Tensor, a: Tensor, slope: float) -> Tensor:
    """leaky_relu's gradient, one node: torch's keeps the input as an edge (with a zero
    derivative), paddle's double-grad kernel is not connected to it."""
    policy = grad._policy
    if "leaky_relu" not in policy.zero_derivative_links:
        a = a._detached()
    return apply(R.RULES["leaky_relu_backward"], (grad, a),
                 {"slope": slope, "zero_passes": policy.leaky_relu_passes_at_zero})


def activation(op: str, a: Tensor, **attrs: Any) -> Tensor:
    """softplus, elu, gelu or silu of ``a`` with its attributes."""
    return apply(R.RULES[op], (_floating(a),), attrs)


def activation_grad(op: str, grad: Tensor, a: Tensor, **attrs: Any) -> Tensor:
    """The gradient of activation ``op`` at ``a``: one node of its own (``op_backward``)."""
    return apply(R.RULES[op + "_backward"], (grad, a), attrs)


def prelu(a: Tensor, weight: Tensor) -> Tensor:
    """torch's prelu kernel of ``a`` and a weight already viewed to broadcast over its channels."""
    return apply(R.RULES["prelu"], (a, weight))


def prelu_grad(which: str, grad: Tensor, a: Tensor, weight: Optional[Tensor] = None) -> Tensor:
    """The prelu kernel's gradient for its input (``which="input"``) or its weight (before the
    sum over the broadcast dimensions)."""
    inputs = (grad, a) if weight is None else (grad, a, weight)
    return apply(R.RULES[f"prelu_{which}_backward"], inputs)


def silu_grad(grad: Tensor, a: Tensor) -> Tensor:
    """silu's gradient: torch composes it while recording (one fused kernel otherwise, the same
    values); paddle records one node."""
    if "silu" in grad._policy.fused_gradients or not grad_mode.is_grad_enabled():
        return activation_grad("silu", grad, a)
    s = sigmoid(a)
    return mul(mul(grad, s), add(mul(a, sub(1, s)), 1))


def fused_grad(op: str, grad: Tensor, result: Tensor, **attrs: Any) -> Tensor:
    """The gradient of tanh, sigmoid, softmax or log_softmax from its output, or of log from
    its input: one node where the dialect records its backward kernel as one (torch's
    tanh_backward, sigmoid_backward, _softmax_backward_data, _log_softmax_backward_data;
    paddle's log_grad, whose own derivatives are its composite double grad), composed
    otherwise."""
    if op in grad._policy.fused_gradients:
        return apply(R.RULES[op + "_backward"], (grad, result), attrs or _EMPTY)
    if op == "log":
        return div(grad, result)
    if op == "tanh":
        return mul(grad, sub(1, mul(result, result)))
    if op == "sigmoid":
        return mul(grad, mul(sub(1, result), result))
    dims = (attrs["dim"],)
    if op == "softmax":
        return mul(result, sub(grad, sum(mul(grad, result), dims, True)))
    return sub(grad, mul(_unary("exp", result), sum(grad, dims, True)))


def abs_grad(grad: Tensor, a: Tensor) -> Tensor:
    """abs's gradient: torch's ``grad * sgn(a)`` (differentiable sgn; a nan gradient stays nan
    at 0), paddle's kernel (0 at 0 whatever the gradient, elsewhere times the constant
    ``a / |a|``, which is nan at infinities)."""
    if "abs" in a._policy.zero_derivative_links:
        return mul(grad, sgn(a))
    zero = a._data == 0
    with np.errstate(invalid="ignore", divide="ignore"):
        direction = np.where(zero, 0, a._data / np.abs(a._data)).astype(a._data.dtype)
    # (0, not nan, at 0: what the where passes on there differentiates to 0, as paddle's does)
    return where(constant_like(a, zero), 0, mul(grad, constant_like(a, direction)))


def link(grad: Tensor, source: Tensor, unrecorded: bool = False) -> Tensor:
    """``grad`` connected to ``source`` with a zero derivative: what a backward kernel that reads
    ``source`` returns (see ``Policy.zero_derivative_links``). Only recorded in create_graph.
    ``unrecorded``: the zeros it sends to ``source`` have no node of their own."""
    if not grad_mode._State.enabled:
        return grad
    return apply(R.RULES["zero_link"], (grad, source),
                 {"b_shape": source._data.shape, "unrecorded": unrecorded})


def unrecorded_zeros(like: Tensor, shape: tuple[int, ...]) -> Tensor:
    """Zeros that require grad while recording, with no node: nothing flows through them."""
    out = made_like(like, np.zeros(shape, like._data.dtype))
    out._requires_grad = grad_mode._State.enabled
    return out


def clamp(a: Tensor, low: Any = None, high: Any = None) -> Tensor:
    """Clamp to number bounds, or to tensor bounds (which get gradients too); a missing tensor
    bound is an infinite one, which gives torch's one-sided formulas."""
    if low is None and high is None and a._policy.clamp_needs_a_bound:
        raise a._policy.error("clamp_no_bounds")
    base = tensor_type()
    if isinstance(low, base) or isinstance(high, base):
        def bound(b: Any, infinity: float) -> Tensor:
            return b if isinstance(b, base) else constant_like(
                a, np.array(infinity if b is None else b, a._data.dtype))
        return apply(R.RULES["clamp_tensor"], (a, bound(low, -np.inf), bound(high, np.inf)))
    return apply(R.RULES["clamp"], (a,), {"low": low, "high": high})


def where(condition: Tensor, a: Operand, b: Operand) -> Tensor:
    cls = _cls_of(condition, a, b)
    dtype = cls._policy.result_dtype(a, b, op="where")
    ta, tb = _coerce(a, cls, dtype), _coerce(b, cls, dtype)
    if condition._data.dtype != np.bool_:
        raise cls._policy.error("where_condition", dtype=cls._policy.dtype_name(condition._data.dtype))
    broadcast_shape(cls, condition._data.shape, ta._data.shape, tb._data.shape)
    if cls._policy.promotes_by_casting:  # (as ``_binary``: a recorded cast of the narrower one)
        ta, tb = (t if t._data.dtype == dtype else cast(t, dtype) for t in (ta, tb))
    arrays = (condition._data, ta._data.astype(dtype, copy=False), tb._data.astype(dtype, copy=False))
    inputs = (condition, ta, tb)
    if type(condition) is not cls:
        inputs = (cls._from_array(condition._data), ta, tb)
    return apply(R.RULES["where"], inputs, _EMPTY, arrays)


def cast(a: Tensor, dtype: Any, same_dtype_copies: bool = False) -> Tensor:
    """``a`` in ``dtype``: ``a`` itself where it has that dtype already, unless
    ``same_dtype_copies`` (paddle's cast kernel runs anyway: a new tensor, a node)."""
    dtype = note_dtype(np.dtype(dtype))
    if a._data.dtype == dtype and not same_dtype_copies:
        return a
    if dtype.kind in "biu" and not a._policy.integer_casts_record:
        with grad_mode.no_grad():  # integers cannot require grad
            return apply(R.RULES["cast"], (a,), {"dtype": dtype})
    return apply(R.RULES["cast"], (a,), {"dtype": dtype})


def clone(a: Tensor) -> Tensor:
    return apply(R.RULES["clone"], (a,))


def to_device(a: Tensor, device: Optional[str]) -> Tensor:
    """A copy of ``a`` on ``device`` (recorded): the same tensor where it is there already."""
    source = a._device
    if (source or devices.CPU) == (device or devices.CPU):
        return a
    if source == devices.META:
        raise a._policy.error("meta_copy_out")
    out = apply(R.RULES["to_device"], (a,), {"source": source})
    devices.place(out, device)
    return out


# --- comparisons and constants (never differentiable) ---------------------------------------

def _compare(ufunc: Any, a: Operand, b: Operand) -> Tensor:
    cls = _cls_of(a, b)
    cls._policy.result_dtype(a, b, op="compare")  # operands the framework cannot promote are refused
    x = a._data if isinstance(a, tensor_type()) else a
    y = b._data if isinstance(b, tensor_type()) else b
    operands = [np.asarray(x), np.asarray(y)]
    out = cls._from_array(cls._policy.computed_layout("compare", operands,
                                                      np.asarray(ufunc(x, y))))
    out._device = devices.of_result("compare", [t for t in (a, b) if isinstance(t, tensor_type())])
    return out


def eq(a: Operand, b: Operand) -> Any:
    if a is None or b is None:  # both frameworks answer a comparison with None in Python
        return False
    return _compare(np.equal, a, b)


def ne(a: Operand, b: Operand) -> Any:
    if a is None or b is None:
        return True
    return _compare(np.not_equal, a, b)


def lt(a: Operand, b: Operand) -> Tensor:
    return _compare(np.less, a, b)


def le(a: Operand, b: Operand) -> Tensor:
    return _compare(np.less_equal, a, b)


def gt(a: Operand, b: Operand) -> Tensor:
    return _compare(np.greater, a, b)


def ge(a: Operand, b: Operand) -> Tensor:
    return _compare(np.greater_equal, a, b)


def logical_and(a: Tensor, b: Tensor) -> Tensor:
    return _compare(np.logical_and, a, b)


def logical_or(a: Tensor, b: Tensor) -> Tensor:
    return _compare(np.logical_or, a, b)


def position(find: Any, data: np.ndarray, dim: Optional[int], keepdim: bool) -> np.ndarray:
    """Where ``find`` (np.argmax / np.argmin) is, flat or along ``dim``, as int64."""
    if dim is None:
        return np.asarray(find(data), dtype=np.int64)
    found = find(data, axis=dim)
    return (np.expand_dims(found, dim) if keepdim else found).astype(np.int64)


def bitwise(function: Any, a: Tensor, *others: Any) -> Tensor:
    """``&``, ``|``, ``^`` and ``~`` of boolean or integer tensors (logical for booleans),
    outside any graph; floating operands are refused as both frameworks' kernels refuse them."""
    arrays = [a._data, *(o._data if isinstance(o, type(a)) else np.asarray(o, a._data.dtype) for o in others)]
    if any(array.dtype.kind not in "biu" for array in arrays):
        raise a._policy.error("bitwise_float", name=function.__name__)
    return type(a)._from_array(np.asarray(function(*arrays)))


def truth(a: Tensor, reduce: Any, dim: Dims = None, keepdim: bool = False) -> Tensor:
    """``all`` / ``any`` (``reduce``: ``np.all`` / ``np.any``): a bool tensor, outside any
    graph; over every element, or along ``dim``."""
    axis = None if dim is None else tuple(normalize_dims(type(a), dim, a._data.ndim))
    return made_like(a, np.asarray(reduce(a._data, axis=axis, keepdims=keepdim)))


def linspace_values(start: float, end: float, steps: int, dtype: np.dtype, fused: bool = False) -> np.ndarray:
    """``steps`` evenly spaced values from ``start`` to ``end``: the first half forwards from
    ``start``, the rest backwards from ``end``, by a step rounded to ``dtype``. Each value is
    computed in ``dtype`` (paddle's kernel) or, ``fused``, with one rounding of the exact
    ``start + step * i`` (torch's CPU kernel, a fused multiply-add; measured on float32, where
    the two differ in about two linspaces of three)."""
    first, last = dtype.type(start), dtype.type(end)
    if steps == 1:
        return np.array([first], dtype)
    step = (last - first) / dtype.type(steps - 1)
    forwards = np.arange(steps) < steps // 2
    if fused:
        wide = np.longdouble if dtype == np.float64 else np.float64
        index = np.arange(steps).astype(wide)
        values = np.where(forwards, wide(first) + wide(step) * index,
                          wide(last) - wide(step) * (wide(steps - 1) - index))
        return values.astype(dtype)
    index = np.arange(steps).astype(dtype)
    backwards = last - step * (dtype.type(steps - 1) - index)
    return np.where(forwards, first + step * index, backwards).astype(dtype)


def constant_like(like: Tensor, data: np.ndarray) -> Tensor:
    """A tensor of ``like``'s dialect holding ``data``, outside any graph."""
    return made_like(like, np.asarray(data))


def made_like(a: Tensor, data: np.ndarray) -> Tensor:
    """A new tensor of ``a``'s class on ``a``'s device holding ``data``, with no history."""
    out = type(a)._from_array(data)
    out._device = a._device
    return out


def zeros_like(a: Tensor) -> Tensor:
    return made_like(a, np.zeros(a._data.shape, a._data.dtype))


def ones_like(a: Tensor) -> Tensor:
    data = np.empty(a._data.shape, a._data.dtype)
    data.fill(1)
    return made_like(a, data)


# --- reductions -----------------------------------------------------------------------------

def _reduction(op: str, a: Tensor, dim: Dims, keepdim: bool, api: Optional[str] = None) -> Tensor:
    in_shape = a._data.shape
    if dim is None:
        attrs: dict[str, Any] = {"in_shape": in_shape, "summation": a._policy.summation}
        if api is not None:  # the kernel a framework runs for this reduction
            attrs["api"] = api
        return apply(R.RULES[op + "_all"], (a,), attrs)
    dims = normalize_dims(type(a), dim, a._data.ndim)
    return apply(R.RULES[op], (a,), {"in_shape": in_shape, "dims": dims, "keepdim": keepdim,
                                     "summation": a._policy.summation})


def sum(a: Tensor, dim: Dims = None, keepdim: bool = False) -> Tensor:  # noqa: A001
    if a._data.dtype.kind in "biu":
        a = cast(a, np.int64)
    return _reduction("sum", a, dim, keepdim)


def mean(a: Tensor, dim: Dims = None, keepdim: bool = False, api: Optional[str] = None) -> Tensor:
    """The mean over ``dim`` (all elements when None; ``api``: the framework's kernel for that)."""
    if a._data.dtype.kind != "f":
        raise a._policy.error("mean_dtype", dtype=a._data.dtype)
    return _reduction("mean", a, dim, keepdim, api)


def _extremum(kind: str, a: Tensor, dim: Dims, keepdim: bool, api: Optional[str] = None) -> Tensor:
    """amax / amin over ``dim`` (every dim when None). ``api`` records which public function ran
    it where a framework names the node by that (paddle's max and amax share one kernel)."""
    if a._data.size == 0:
        raise a._policy.error("empty_reduction", op=kind)
    in_shape = a._data.shape
    dims = normalize_dims(type(a), dim, a._data.ndim)
    attrs: dict[str, Any] = {"in_shape": in_shape, "dims": dims}
    if api is not None:
        attrs["api"] = api
    if dim is None:
        return apply(R.RULES[kind[1:] + "_all"], (a,), attrs)
    return apply(R.RULES[kind], (a,), {**attrs, "keepdim": keepdim})


def amax(a: Tensor, dim: Dims = None, keepdim: bool = False, api: Optional[str] = None) -> Tensor:
    return _extremum("amax", a, dim, keepdim, api)


def amin(a: Tensor, dim: Dims = None, keepdim: bool = False, api: Optional[str] = None) -> Tensor:
    return _extremum("amin", a, dim, keepdim, api)


def max_all(a: Tensor) -> Tensor:
    return _extremum("amax", a, None, False)


def min_all(a: Tensor) -> Tensor:
    return _extremum("amin", a, None, False)


def _extremum_dim(kind: str, a: Tensor, dim: int, keepdim: bool) -> tuple[Tensor, Tensor]:
    if a._data.size == 0:
        raise a._policy.error("empty_reduction", op=kind)
    cls = type(a)
    d = normalize_dim(cls, dim, a._data.ndim)
    data = a._data if a._data.ndim else a._data.reshape(1)
    arg = np.argmax if kind == "max" else np.argmin
    idx = arg(data, axis=d, keepdims=True)
    indices = cls._from_array(idx.astype(np.int64))
    values = apply(R.RULES[kind + "_dim"], (a,), {"in_shape": a._data.shape, "dims": (d,),
                                                   "keepdim": keepdim, "indices": indices})
    out_idx = idx if keepdim else np.squeeze(idx, d) if a._data.ndim else idx.reshape(())
    return values, made_like(a, out_idx.astype(np.int64))


def max_dim(a: Tensor, dim: int, keepdim: bool = False) -> tuple[Tensor, Tensor]:
    return _extremum_dim("max", a, dim, keepdim)


def min_dim(a: Tensor, dim: int, keepdim: bool = False) -> tuple[Tensor, Tensor]:
    return _extremum_dim("min", a, dim, keepdim)


def softmax(a: Tensor, dim: int) -> Tensor:
    d = normalize_dim(type(a), dim, a._data.ndim)
    return apply(R.RULES["softmax"], (_floating(a),), {"dim": d, "floor": a._policy.softmax_floor,
                                                        "kernel": a._policy.softmax_kernel})


def log_softmax(a: Tensor, dim: int) -> Tensor:
    d = normalize_dim(type(a), dim, a._data.ndim)
    return apply(R.RULES["log_softmax"], (_floating(a),), {"dim": d, "floor": a._policy.softmax_floor,
                                                            "kernel": a._policy.softmax_kernel})


# --- linear algebra -------------------------------------------------------------------------

_MATMUL_KIND = {(1, 1): "dot", (2, 1): "mv", (2, 2): "mm", (1, 2): "vm"}


def matmul(a: Tensor, b: Tensor) -> Tensor:
    base = tensor_type()
    if not isinstance(b, base) or not isinstance(a, base):
        cls = _cls_of(a, b)
        which, bad = (2, b) if isinstance(a, base) else (1, a)
        raise cls._policy.error("matmul_type", position=which, type_name=type(bad).__name__,
                                arg="other" if which == 2 else "input")
    cls = type(a)
    sa, sb = a._data.shape, b._data.shape
    if not sa or not sb:
        raise cls._policy.error("matmul_0d", ndim_a=len(sa), ndim_b=len(sb))
    k_a = sa[-1]
    k_b = sb[0] if len(sb) == 1 else sb[-2]
    kind = _MATMUL_KIND.get((len(sa), len(sb)), "bmm")
    if kind == "dot":  # torch checks a dot's dtypes before its sizes
        cls._policy.check_product_dtypes(a._data.dtype, b._data.dtype, sa, sb)
    batch = ()
    if kind == "bmm":
        batch = broadcast_shape(cls, sa[:-2], sb[:-2] if len(sb) > 1 else ())
    if k_a != k_b:
        # torch folds leading dimensions before multiplying; its message shows the folded shapes
        rows = math.prod(sa[:-1])
        message = {"dot": "dot", "mv": "mv", "mm": "mm", "vm": "mm"}.get(kind, "mv" if len(sb) == 1
                                                                         else "bmm")
        raise cls._policy.error("matmul_" + message + "_shape", numel_a=math.prod(sa),
                                numel_b=math.prod(sb), rows=rows, k_a=k_a, k_b=k_b,
                                b="x".join(map(str, sb)), batch=math.prod(batch),
                                x_axis=len(sa) - 1, y_axis=0 if len(sb) == 1 else len(sb) - 2)
    cls._policy.check_product_dtypes(a._data.dtype, b._data.dtype, sa, sb, a._device)
    out = apply(R.RULES[kind], (a, b), {"a_shape": sa, "b_shape": sb})
    out._counter.value += cls._policy.matmul_result_writes.get(kind, 0)
    if out._grad_fn is not None:
        # a framework may save its operands reshaped: as views, or as copies that later writes
        # to the operands do not reach
        for name, layout in zip("ab", cls._policy.matmul_saved_layouts(a._data, b._data)):
            slot = out._grad_fn.saved.get(name)
            if slot is None or layout is None:
                continue
            out._grad_fn.saved[name] = SavedTensor(graph_copy(slot.tensor)) if layout == "copy" \
                else SavedTensor(slot.tensor, view_shape=layout)
    return out


# --- shape and view operations --------------------------------------------------------------

def reshape(a: Tensor, shape: Sequence[int], api: Optional[str] = None) -> Tensor:
    """``a``'s elements in ``shape`` (one -1 stands for what is left); ``api`` records the public
    function that ran it where a framework names the node by that (paddle's view)."""
    for s in shape:
        _require(type(a), s, (int, np.integer), "reshape", "shape", 1, "tuple of ints")
    shape = tuple(int(s) for s in shape)
    size = a._data.size
    known = math.prod(s for s in shape if s != -1)
    if shape.count(-1) > 1 or (-1 in shape and (known == 0 or size % known)) or (
            -1 not in shape and known != size) or any(s < -1 for s in shape):
        raise a._policy.error("reshape", shape=list(shape), size=size, in_shape=list(a._data.shape),
                              capacity=math.prod(shape))
    if -1 in shape:
        shape = tuple(size // known if s == -1 else s for s in shape)
    attrs: dict[str, Any] = {"shape": shape, "in_shape": a._data.shape}
    if api is not None:
        attrs["api"] = api
    if a._policy.reshape_copies_are_new and a._data.size and \
            not np.may_share_memory(np.reshape(a._data, shape), a._data):
        # torch: no view has that layout (a transposed input): a copy, then a view of it
        return apply(R.RULES["unsafe_view"], (clone(a),), attrs)
    return apply(R.RULES["reshape"], (a,), attrs)


def t(a: Tensor, fn: str = "t") -> Tensor:
    """Transpose of a tensor of at most two dimensions (``torch.t``; ``fn``: the method the
    error names, ``t_`` for the in-place form)."""
    if a._data.ndim > 2:
        raise a._policy.error("t_rank", fn=fn, ndim=a._data.ndim)
    return apply(R.RULES["t"], (a,))


def _require(cls: type, value: Any, kinds: Any, fn: str, arg: str, position: int,
             expected: str) -> None:
    if not isinstance(value, kinds) or isinstance(value, bool):
        raise cls._policy.error("arg_type", fn=fn, arg=arg, position=position, expected=expected,
                                type_name=type(value).__name__)


def transpose(a: Tensor, dim0: int, dim1: int) -> Tensor:
    _require(type(a), dim0, (int, np.integer), "transpose", "dim0", 1, "int")
    _require(type(a), dim1, (int, np.integer), "transpose", "dim1", 2, "int")
    n = a._data.ndim
    d0, d1 = normalize_dim(type(a), dim0, n), normalize_dim(type(a), dim1, n)
    return apply(R.RULES["transpose"], (a,), {"dim0": d0, "dim1": d1})


def permute(a: Tensor, dims: Sequence[int]) -> Tensor:
    n = a._data.ndim
    if len(dims) != n:
        raise a._policy.error("permute_len", ndim=n, count=len(dims))
    norm = tuple(normalize_dim(type(a), d, n) for d in dims)
    if len(set(norm)) != n:
        raise a._policy.error("permute_repeat")
    return apply(R.RULES["permute"], (a,), {"dims": norm})


def squeeze(a: Tensor, dim: Dims = None) -> Tensor:
    shape = a._data.shape
    overload = 0 if dim is None else (2 if isinstance(dim, (tuple, list)) else 1)
    dims = normalize_dims(type(a), dim, a._data.ndim)
    dims = tuple(d for d in dims if shape[d] == 1)
    return apply(R.RULES["squeeze"], (a,), {"dims": dims, "in_shape": shape, "overload": overload})


def unsqueeze(a: Tensor, dim: int) -> Tensor:
    d = normalize_dim(type(a), dim, a._data.ndim + 1)
    return apply(R.RULES["unsqueeze"], (a,), {"dim": d, "in_shape": a._data.shape})


def unsqueeze_dims(a: Tensor, dims: tuple[int, ...]) -> Tensor:
    """New dimensions of size one at ``dims`` (positions in the result), in one node."""
    if len(dims) == 1:
        return unsqueeze(a, dims[0])
    return apply(R.RULES["unsqueeze"], (a,), {"dim": tuple(dims), "in_shape": a._data.shape})


def expand(a: Tensor, shape: Sequence[int]) -> Tensor:
    shape = tuple(int(s) for s in shape)
    old = a._data.shape
    lead = len(shape) - len(old)
    if lead < 0:
        raise a._policy.error("expand_rank", old=list(old), shape=list(shape), count=len(shape),
                              ndim=len(old))
    target: list[int] = [0] * len(shape)
    for i in reversed(range(len(shape))):  # torch reports the last mismatching dimension
        s = shape[i]
        if i < lead:
            if s < 0:
                raise a._policy.error("expand_negative", shape=list(shape))
            target[i] = s
            continue
        have = old[i - lead]
        if s == -1:
            target[i] = have
        elif have != s and have != 1:
            raise a._policy.error("expand", size=s, have=have, dim=i, shape=list(shape),
                                  old=list(old))
        else:
            target[i] = s
    out = apply(R.RULES["expand"], (a,), {"shape": tuple(target)})
    if a._policy.expand_copies:  # paddle's expand makes a new tensor
        out._data = out._data.copy()
    return out


def flatten(a: Tensor, start: int = 0, end: int = -1) -> Tensor:
    """Dimensions ``start`` to ``end`` (inclusive) merged into one, as a reshape."""
    shape = a._data.shape
    if not shape:
        return reshape(a, (1,))
    first, last = start % len(shape), end % len(shape)
    return reshape(a, (*shape[:first], math.prod(shape[first:last + 1]), *shape[last + 1:]))


def norm2(a: Tensor, dim: Dims = None, keepdim: bool = False) -> Tensor:
    """The 2-norm over ``dim`` (everything by default); its gradient is 0 where it is 0."""
    dims = None if dim is None else normalize_dims(type(a), dim, a._data.ndim)
    return apply(R.RULES["norm2"], (_floating(a),), {"dims": dims, "keepdim": keepdim})


def norm(a: Tensor, p: Any = 2, dim: Dims = None, keepdim: bool = False) -> Tensor:
    """The ``p``-norm over ``dim`` (everything by default): 2 ("fro"), 1, inf, -inf or any
    other positive order. p = 0 (the count of nonzero elements) is not modelled."""
    if p in (2, 2.0, "fro"):
        return norm2(a, dim, keepdim)
    if not isinstance(p, (int, float)) or p <= 0 and not math.isinf(p):
        raise not_supported(f"norm with p={p!r}")
    dims = None if dim is None else normalize_dims(type(a), dim, a._data.ndim)
    return apply(R.RULES["norm_p"], (_floating(a),), {"p": float(p), "dims": dims,
                                                        "keepdim": keepdim})


def linear_addmm(x: Tensor, weight: Tensor, bias: Optional[Tensor]) -> Tensor:
    """``x @ weight.T + bias`` as torch records it: with a bias, one ``addmm`` over ``x``'s rows
    (a vector or a batch is viewed as a matrix first, and the result viewed back); without one,
    a product. (paddle's linear is a product and an addition, composed in its facade.)"""
    if bias is None or x._data.ndim == 0:
        out = matmul(x, transpose(weight, 0, 1))
        return out if bias is None else add(out, bias)
    rows = reshape(x, (-1, x._data.shape[-1])) if x._data.ndim != 2 else x
    out = apply(R.RULES["addmm"], (bias, rows, t(weight)))
    shape = (*x._data.shape[:-1], weight._data.shape[0])
    return out if x._data.ndim == 2 else reshape(out, shape)


def variance_node(a: Tensor, dim: Dims = None, correction: int = 1, keepdim: bool = False,
                  root: bool = False) -> Tensor:
    """The variance over ``dim`` (everything by default), ``sum((a - mean)²) / (n - correction)``,
    or its square root with ``root``, as torch records it: one node (VarBackward0, StdBackward0)."""
    dims = normalize_dims(type(a), dim, a._data.ndim)
    return apply(R.RULES["std" if root else "var"], (_floating(a),),
                 {"dims": dims, "correction": correction, "keepdim": keepdim})


def variance_composed(a: Tensor, dim: Dims = None, correction: int = 1, keepdim: bool = False,
                      root: bool = False) -> Tensor:
    """The same as paddle computes it: composed of a mean, a product, a sum and a division by
    the count as a tensor (and a square root with ``root``)."""
    dims = normalize_dims(type(a), dim, a._data.ndim)
    count = math.prod(a._data.shape[d] for d in dims)
    centred = sub(a, mean(a, dims, True))
    squares = sum(mul(centred, centred), dims, keepdim)
    result = div(squares, constant_like(squares, np.asarray(count - correction, squares._data.dtype)))
    return _unary("sqrt", result) if root else result


def index_select(a: Tensor, dim: int, index: Sequence[int]) -> Tensor:
    """The entries at ``index`` along ``dim`` (an advanced index)."""
    dim %= a._data.ndim
    return getitem(a, (slice(None),) * dim + ([int(i) for i in index],))


def gather(a: Tensor, dim: int, index: np.ndarray) -> Tensor:
    """torch's gather: ``out[i][j] = a[i][index[i][j]]`` along ``dim`` (GatherBackward0)."""
    return apply(R.RULES["gather"], (a,), {"dim": dim % a._data.ndim, "index": np.asarray(index)})


def scatter_add_zeros(a: Tensor, shape: tuple[int, ...], dim: int, index: np.ndarray) -> Tensor:
    """Zeros of ``shape`` with ``a`` added at ``index`` along ``dim``: gather's gradient
    (ScatterAddBackward0)."""
    return apply(R.RULES["scatter_add_zeros"], (a,), {"shape": shape, "dim": dim, "index": index})


def tile(a: Tensor, times: Sequence[int]) -> Tensor:
    """``times`` copies along each dimension: a new axis before each, expanded, then merged."""
    times = tuple(times)
    shape = (1,) * (len(times) - a._data.ndim) + a._data.shape
    out = reshape(a, tuple(v for s in shape for v in (1, s)))
    out = expand(out, tuple(v for r, s in zip(times, shape) for v in (r, s)))
    return reshape(out, tuple(r * s for r, s in zip(times, shape)))


def cumsum(a: Tensor, dim: int) -> Tensor:
    """Running sums along ``dim``."""
    return apply(R.RULES["cumsum"], (a,), {"dim": dim % max(a._data.ndim, 1)})


def prod(a: Tensor, dim: Dims = None, keepdim: bool = False) -> Tensor:
    """The product over ``dim`` (every element when None)."""
    if a._data.dtype.kind in "biu":
        a = cast(a, np.int64)
    if dim is None:
        return apply(R.RULES["prod_all"], (a,))
    dims = normalize_dims(type(a), dim, a._data.ndim)
    return apply(R.RULES["prod"], (a,), {"dims": dims, "keepdim": keepdim})


# --- several outputs ------------------------------------------------------------------------

def split(a: Tensor, sizes: Sequence[int], dim: int, with_sizes: bool) -> list[Tensor]:
    """Pieces of ``a`` along ``dim`` with these sizes (already checked to add up). One node
    makes them all: torch's SplitBackward0 (``with_sizes``: SplitWithSizesBackward0), paddle's
    SplitWithNumGradNode (SplitGradNode)."""
    d = normalize_dim(type(a), dim, a._data.ndim)
    starts = np.cumsum((0, *sizes))
    lead = (slice(None),) * d
    indices = [lead + (slice(int(start), int(start) + n),) for start, n in zip(starts, sizes)]
    rule = R.RULES["split_with_sizes" if with_sizes else "split"]
    return several_outputs(rule, a, {"sizes": tuple(sizes), "dim": d, "in_shape": a._data.shape},
                           indices)


def unbind(a: Tensor, dim: int, op: str = "unbind") -> list[Tensor]:
    """The slices of ``a`` along ``dim``, that dimension removed (UnbindBackward0 / UnbindGradNode;
    ``op`` "unstack": paddle's UnstackGradNode)."""
    d = normalize_dim(type(a), dim, a._data.ndim)
    # (the Ellipsis keeps a piece of a vector a 0-d view, where numpy would hand out a scalar)
    indices = [(slice(None),) * d + (i, Ellipsis) for i in range(a._data.shape[d])]
    return several_outputs(R.RULES[op], a, {"dim": d, "in_shape": a._data.shape}, indices)


def several_outputs(rule: R.Rule, a: Tensor, attrs: dict[str, Any],
                    indices: Sequence[tuple[Any, ...]]) -> list[Tensor]:
    """Record one node of ``rule`` for ``a`` whose outputs are ``a`` at ``indices``: each is an
    output slot of the node (see :func:`output_slot`). The pieces are views of ``a`` (sharing
    its memory and version counter) where the policy says so (torch's split / chunk / unbind,
    paddle's unbind), else copies. Made without recording, views are what a basic index makes."""
    cls = type(a)
    views = rule.op in cls._policy.split_ops_making_views
    node = apply(rule, (a,), attrs)._grad_fn
    if node is None:
        return [getitem(a, index) if views else made_like(a, a._data[index].copy())
                for index in indices]
    arrays = [a._data[index] if views else a._data[index].copy() for index in indices]
    outputs = [output_slot(node, array, i, len(arrays), a) for i, array in enumerate(arrays)]
    if views:
        name = node.name().removesuffix("Backward0")
        for i, out in enumerate(outputs):
            out._counter = a._counter
            out._view_base = a._view_base if a._view_base is not None else a
            if cls._policy.split_views_refuse_rebuild:
                out._split_piece = (a._counter.value, i, name)
    return outputs


def output_slot(node: Node, data: np.ndarray, index: int, count: int, like: Tensor) -> Tensor:
    """Output ``index`` of ``count`` that ``node`` computes (a tensor of ``like``'s class, on its
    device). The output's tensor gets a node of
    its own (its tensor hooks and retained gradient live there) whose only edge is ``node``, and
    the engine collects what each slot passes on into ``node``'s gradient buffer at the slot's
    place (``engine._send``). To a program the slot is invisible: ``grad_fn`` shows ``node``."""
    node.attrs["outputs"] = count
    stand_in = type(like)._from_array(data)  # a tensor whose only history is the node
    stand_in._requires_grad, stand_in._grad_fn, stand_in._device = True, node, like._device
    # the slot belongs to the node's op (its origin), as the output of a kernel with several
    out = apply(_slot_rule(node.rule), [stand_in], {"slot": index, "of": node, "api": node.origin})
    # the node finds the slots no gradient reached (``engine._missing_outputs``)
    node.attrs.setdefault("slot_nodes", [None] * count)[index] = weakref.ref(out._grad_fn)
    return out


def factorization(op: str, a: Tensor, attrs: dict[str, Any], arrays: Sequence[np.ndarray],
                  saved: Sequence[str]) -> list[Tensor]:
    """One node of rule ``op`` for ``a`` whose outputs are ``arrays`` (each an output slot, see
    :func:`output_slot`), saved under the names ``saved`` for its rule to read, as torch's
    factorization nodes save their outputs."""
    node = apply(R.RULES[op], (a,), {**attrs, "count": len(arrays)})._grad_fn
    if node is None:
        return [made_like(a, array) for array in arrays]
    outputs = [output_slot(node, array, i, len(arrays), a) for i, array in enumerate(arrays)]
    for name, out in zip(saved, outputs):
        node.saved[name] = SavedTensor(out)
    return outputs


SPLIT_OPS = frozenset({"split", "split_with_sizes", "unbind", "unstack"})


def split_output_of(t: Tensor) -> Optional[tuple[Node, int]]:
    """The split / unbind node ``t`` is a piece of, and which piece."""
    node = t._grad_fn
    if node is None or node.rule.op != "output_slot" or node.attrs["of"].rule.op not in SPLIT_OPS:
        return None
    return node.attrs["of"], node.attrs["slot"]


_SLOT_RULES: dict[int, R.Rule] = {}


def _slot_rule(rule: R.Rule) -> R.Rule:
    if id(rule) not in _SLOT_RULES:
        _SLOT_RULES[id(rule)] = R.Rule("output_slot", rule.node_name, _given_slot, (_pass_slot,))
    return _SLOT_RULES[id(rule)]


def _given_slot(a: np.ndarray, *, slot: int, of: Node, api: str) -> np.ndarray:
    return a


def _pass_slot(g: Tensor) -> Tensor:
    return g


def sum_to_shape(a: Tensor, shape: tuple[int, ...]) -> Tensor:
    """Sum a broadcast gradient back to ``shape`` (differentiable: a sum and a reshape; paddle
    sums leading dimensions away in one sum)."""
    have = a._data.shape
    if have == shape:
        return a
    summation = a._policy.summation
    if not shape:  # to a 0-d tensor: one plain sum, as torch's sum_to
        return apply(R.RULES["sum_all"], (a,), {"in_shape": have, "summation": summation})
    lead = len(have) - len(shape)
    if lead < 0:  # the operand had leading 1s the op dropped (setitem's value)
        return reshape(a, shape)
    inner = tuple(i + lead for i, s in enumerate(shape) if s == 1 and have[i + lead] != 1)
    if lead and not inner and a._policy.sums_leading_dims_away:
        return apply(R.RULES["sum"], (a,), {"in_shape": have, "dims": tuple(range(lead)),
                                            "keepdim": False, "summation": summation})
    dims = tuple(range(lead)) + inner
    out = apply(R.RULES["sum"], (a,), {"in_shape": have, "dims": dims, "keepdim": True,
                                       "summation": summation}) \
        if dims else a
    return reshape(out, shape) if out._data.shape != shape else out


def _index_kind(index: Any) -> str:
    parts = index if isinstance(index, tuple) else (index,)
    if any(isinstance(p, (list, np.ndarray)) for p in parts):
        return "index"
    if all(isinstance(p, (int, np.integer)) for p in parts):
        return "select"
    return "slice"


def getitem(a: Tensor, index: Any) -> Tensor:
    index = _normalize_index(a, _uint8_as_masks(a, index))
    try:
        a._data[index]
    except IndexError as exc:
        raise a._policy.index_error(a._data.shape, index, exc) from None
    rule = R.RULES["getitem_" + _index_kind(index)]
    return apply(rule, (a,), {"index": index, "in_shape": a._data.shape})


def index_put(a: Tensor, index: Any, value: Tensor) -> Tensor:
    """A copy of ``a`` with ``value`` at ``index``, recorded (setitem's rule, out of place)."""
    return apply(R.RULES["setitem"], (a, value), {"index": index})


def _uint8_as_masks(a: Tensor, index: Any) -> Any:
    """torch reads a uint8 index tensor as a mask, warning each time that it is deprecated."""
    if not a._policy.uint8_indices_are_masks:
        return index
    parts = index if isinstance(index, tuple) else (index,)
    masked = []
    for p in parts:
        if isinstance(p, tensor_type()) and p._data.dtype == np.uint8:
            a._policy.warn("uint8_index", stacklevel=5)
            p = type(p)._from_array(p._data.astype(bool))
        masked.append(p)
    return tuple(masked) if isinstance(index, tuple) else masked[0]


def _normalize_index(a: Tensor, index: Any) -> Any:
    base = tensor_type()
    parts = index if isinstance(index, tuple) else (index,)
    out = []
    for p in parts:
        if isinstance(p, base):
            p = p._data if p._data.ndim else p._data.item()
        if isinstance(p, (list, range, np.ndarray)):  # (both read a range as its list)
            p = np.asarray(p) if not isinstance(p, (list, range)) or len(p) else np.asarray(p, np.int64)
            if p.dtype.kind not in "biu":
                raise a._policy.error("index_type", type_name=type(p).__name__)
        elif not (p is None or p is Ellipsis or isinstance(p, (int, np.integer, slice))):
            raise a._policy.error("index_type", type_name=type(p).__name__)
        out.append(p)
    return tuple(out) if isinstance(index, tuple) else out[0]


def index_backward(g: Tensor, shape: tuple[int, ...], index: Any) -> Tensor:
    return apply(R.RULES["index_backward"], (g,), {"shape": shape, "index": index})


def _same_dtype(tensors: Sequence[Tensor]) -> tuple[list[Tensor], np.dtype]:
    cls = type(tensors[0])
    dtype = cls._policy.result_dtype(*tensors)
    return [cast(t, dtype) for t in tensors], dtype


def _tensor_list(tensors: Any, fn: str) -> list[Tensor]:
    if isinstance(tensors, tensor_type()):
        policy = tensors._policy
        raise policy.error("tensor_list_type", fn=policy.list_function_name(fn),
                           type_name=type(tensors).__name__)
    return list(tensors)


def _non_empty(tensors: list[Tensor], fn: str, policy: Optional[Policy]) -> None:
    """No tensors at all: the dialect's error (its facade names the dialect: a list says none)."""
    if not tensors:
        raise policy.empty_list_error(fn) if policy is not None else \
            TypeError(f"{fn}(): expected a non-empty list of Tensors")


def cat(tensors: Sequence[Tensor], dim: int = 0, policy: Optional[Policy] = None) -> Tensor:
    tensors = _tensor_list(tensors, "cat")
    _non_empty(tensors, "cat", policy)
    cls = type(tensors[0])
    cls._policy.check_list_dtypes("cat", tensors)  # paddle checks dtypes before shapes
    first = tensors[0]._data.shape
    for t in tensors[1:]:
        if t._data.ndim != len(first):
            raise cls._policy.error("cat_rank", ndim_a=len(first), ndim_b=t._data.ndim)
    d = normalize_dim(cls, dim, len(first))
    for i, t in enumerate(tensors[1:], 1):
        for j, (x, y) in enumerate(zip(first, t._data.shape)):
            if j != d and x != y:
                raise cls._policy.error("cat_size", dim=d, expected=x, got=y, index=i)
    tensors, _ = _same_dtype(tensors)
    sizes = tuple(t._data.shape[d] for t in tensors)
    return apply(R.RULES["cat"], tensors, {"sizes": sizes, "dim": d})


def stack(tensors: Sequence[Tensor], dim: int = 0, policy: Optional[Policy] = None) -> Tensor:
    tensors = _tensor_list(tensors, "stack")
    _non_empty(tensors, "stack", policy)
    cls = type(tensors[0])
    first = tensors[0]._data.shape
    for i, t in enumerate(tensors[1:], 1):
        shape = t._data.shape
        if shape != first:
            differs = next((d for d, (m, n) in enumerate(zip(first, shape)) if m != n), None)
            raise cls._policy.error("stack_rank" if differs is None else "stack_size", shape_a=list(first),
                                    shape_b=list(shape), index=i, dim=differs)
    d = normalize_dim(cls, dim, len(first) + 1)
    cls._policy.check_list_dtypes("stack", tensors)
    tensors, _ = _same_dtype(tensors)
    return apply(R.RULES["stack"], tensors, {"sizes": (1,) * len(tensors), "dim": d})


# --- linear algebra -------------------------------------------------------------------------

def _square(a: Tensor, api: str) -> None:
    """Refuse what the reference does not model: a non-square or non-float operand."""
    shape = a._data.shape
    if len(shape) < 2 or shape[-1] != shape[-2] or a._data.dtype.kind != "f":
        raise not_supported(f"{api} of a tensor of shape {list(shape)} and dtype {a._data.dtype}",
                            a._policy.dialect)


def _nonsingular(api: str, compute: Callable[[], Tensor], a: Tensor) -> Tensor:
    """``compute()``; a singular matrix (the frameworks' errors differ) is refused by name."""
    try:
        return compute()
    except np.linalg.LinAlgError:
        raise not_supported(f"{api} of a singular matrix", a._policy.dialect) from None


def linalg_solve(a: Tensor, b: Tensor) -> Tensor:
    """``X`` with ``A X = B`` (a 1-D ``b``: one right-hand side), for square ``a`` (batch)."""
    _square(a, "linalg.solve")
    return _nonsingular("linalg.solve", lambda: apply(R.RULES["linalg_solve"], (a, b)), a)


def inverse(a: Tensor) -> Tensor:
    """``A⁻¹`` of a square matrix (batch)."""
    _square(a, "linalg.inv")
    return _nonsingular("linalg.inv", lambda: apply(R.RULES["inverse"], (a,)), a)


def cholesky(a: Tensor) -> Tensor:
    """The lower Cholesky factor ``L`` of a Hermitian positive-definite matrix (batch); one that
    is not positive-definite raises the dialect's error naming the first leading minor that
    is not."""
    _square(a, "linalg.cholesky")
    for matrix in (a._data.reshape(-1, *a._data.shape[-2:]) if a._data.size else ()):
        for order in range(1, matrix.shape[0] + 1):
            try:
                np.linalg.cholesky(matrix[:order, :order])
            except np.linalg.LinAlgError:
                raise a._policy.error("not_positive_definite", api="linalg.cholesky", order=order) from None
    return apply(R.RULES["cholesky"], (a,))


def det(a: Tensor) -> Tensor:
    """The determinant of a square matrix (batch)."""
    _square(a, "linalg.det")
    return apply(R.RULES["det"], (a,))


def logabsdet(a: Tensor) -> Tensor:
    """``log|det A|``: slogdet's differentiable half."""
    _square(a, "linalg.slogdet")
    return apply(R.RULES["slogdet"], (a,))


def slogdet_sign(a: Tensor) -> Tensor:
    """The sign of the determinant: recorded, passing no gradient (torch ignores it)."""
    _square(a, "linalg.slogdet")
    return apply(R.RULES["slogdet_sign"], (a,))


def slogdet_stacked(a: Tensor) -> Tensor:
    """``[sign, log|det|]`` stacked along a new first axis, as paddle's slogdet returns them."""
    _square(a, "linalg.slogdet")
    return apply(R.RULES["slogdet_stacked"], (a,))



# --- special functions and products ------------------------------------------------------------

def erfinv(a: Tensor) -> Tensor:
    """The inverse error function (outside [-1, 1] what the dialect gives: ``erfinv_saturates``)."""
    return apply(R.RULES["erfinv"], (_floating(a),), {"saturates": a._policy.erfinv_saturates})


def polygamma(a: Tensor, n: int) -> Tensor:
    """The ``n``-th derivative of digamma, elementwise."""
    return apply(R.RULES["polygamma"], (_floating(a),), {"n": int(n)})


def logit(a: Tensor, eps: Optional[float] = None) -> Tensor:
    """``log(p / (1 - p))`` of ``a`` clamped to ``[eps, 1 - eps]``."""
    return apply(R.RULES["logit"], (_floating(a),), {"eps": None if eps is None else float(eps)})


def atan2(a: Tensor, b: Operand) -> Tensor:
    return _binary("atan2", _floating(a), b)


def xlogy(a: Operand, b: Operand) -> Tensor:
    """``a · log(b)``, 0 where ``a`` is 0 (torch's xlogy; a number on either side selects its
    Scalar overloads, XlogyBackward1 and XlogyBackward2)."""
    base = tensor_type()
    if isinstance(a, base) and isinstance(b, base):
        return _binary("xlogy", a, b)
    return _binary("xlogy", a, b, {"overload": 2 if isinstance(a, base) else 1})


def elementwise(op: str, a: Tensor) -> Tensor:
    """A rule of one floating-point operand (erfc, entr, sinc): an integer tensor as float."""
    return apply(R.RULES[op], (_floating(a),))


def binary(op: str, a: Operand, b: Operand, number_overload: Optional[int] = None) -> Tensor:
    """A rule of two operands (copysign, fmax, fmin, logaddexp2), promoted and broadcast; a
    number as the second selects torch's Scalar overload where it has one."""
    number = number_overload is not None and not isinstance(b, tensor_type())
    return _binary(op, a, b, {"overload": number_overload} if number else _EMPTY)


def check_divisor(a: Operand, b: Operand, op: Optional[str] = None) -> None:
    """Refuse an integer division by zero as the frameworks do (numpy would give 0)."""
    cls = _cls_of(a, b)
    if cls._policy.result_dtype(a, b, op=op).kind in "iub":
        divisor = b._data if isinstance(b, tensor_type()) else np.asarray(b)
        if not np.all(divisor):
            raise cls._policy.error("integer_division_by_zero")


def _divided(op: str, a: Operand, b: Operand, extra: dict[str, Any] = _EMPTY) -> Tensor:
    check_divisor(a, b, op)
    return _binary(op, a, b, extra)


def number_divisor(b: Operand) -> dict[str, Any]:
    """A number divisor selects torch's Scalar overload (RemainderBackward0, FmodBackward0)."""
    return _EMPTY if isinstance(b, tensor_type()) else {"overload": 0}


def remainder(a: Operand, b: Operand) -> Tensor:
    """``a - floor(a / b) * b``, Python's ``%``: the sign of the divisor."""
    return _divided("remainder", a, b, number_divisor(b))


def fmod(a: Operand, b: Operand) -> Tensor:
    """C's ``fmod``: ``a - trunc(a / b) * b``, the sign of the dividend."""
    return _divided("fmod", a, b, number_divisor(b))


def rounded_division(a: Operand, b: Operand, mode: str) -> Tensor:
    """``a / b`` rounded down (``mode="floor"``) or towards zero (``"trunc"``): torch's
    ``div(rounding_mode=)``, whose node passes zeros back."""
    return _divided("div_rounded", a, b, {"mode": mode})


def floor_divide(a: Operand, b: Operand) -> Tensor:
    """``a // b``: torch records a node whose derivative is not implemented; paddle's result
    stops gradient."""
    if _cls_of(a, b)._policy.floor_division_records:
        return _divided("floor_divide", a, b)
    with grad_mode.no_grad():
        return _divided("floor_divide", a, b)


def remainder_of_number(dividend: Union[int, float], b: Tensor) -> Tensor:
    """torch's ``number % tensor`` (remainder's Scalar_Tensor overload): a node without
    derivative."""
    _check_operand(dividend, type(b), "remainder", 1)
    check_divisor(dividend, b)
    dtype = b._policy.result_dtype(dividend, b)
    return apply(R.RULES["remainder_of_number"], (b if b._data.dtype == dtype else cast(b, dtype),),
                 {"dividend": dividend})


def cumprod(a: Tensor, dim: int) -> Tensor:
    """Running products along ``dim``."""
    return apply(R.RULES["cumprod"], (a,), {"dim": normalize_dim(type(a), dim, max(a._data.ndim, 1))})


def cross(a: Tensor, b: Tensor, dim: int) -> Tensor:
    """The cross product of 3-vectors along ``dim`` (the operands broadcast)."""
    ndim = max(a._data.ndim, b._data.ndim)
    return _binary("cross", a, b, {"dim": normalize_dim(type(a), dim, ndim)})


def deg2rad(a: Tensor) -> Tensor:
    return apply(R.RULES["deg2rad"], (_floating(a),))


def rad2deg(a: Tensor) -> Tensor:
    return apply(R.RULES["rad2deg"], (_floating(a),))


def frac(a: Tensor) -> Tensor:
    return apply(R.RULES["frac"], (a,))


def pixel_shuffle(a: Tensor, factor: int) -> Tensor:
    """(*, C·r², H, W) → (*, C, H·r, W·r)."""
    if a._data.ndim < 3 or a._data.shape[-3] % (factor * factor):
        raise not_supported(f"pixel_shuffle of shape {list(a._data.shape)} by {factor}", a._policy.dialect)
    return apply(R.RULES["pixel_shuffle"], (a,), {"factor": int(factor)})


def pixel_unshuffle(a: Tensor, factor: int) -> Tensor:
    """(*, C, H·r, W·r) → (*, C·r², H, W)."""
    if a._data.ndim < 3 or a._data.shape[-1] % factor or a._data.shape[-2] % factor:
        raise not_supported(f"pixel_unshuffle of shape {list(a._data.shape)} by {factor}", a._policy.dialect)
    return apply(R.RULES["pixel_unshuffle"], (a,), {"factor": int(factor)})
