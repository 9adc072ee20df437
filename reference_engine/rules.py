"""The derivative table: every differentiable operation, its forward and its vector-Jacobian rules.

Each :class:`Rule` names its forward (a numpy function of the input arrays and the call's
attributes) and one rule per tensor input, written in engine operations so that a backward pass
run with ``create_graph=True`` is itself recorded and can be differentiated again. A rule's
parameter names say what it needs, as in PyTorch's ``derivatives.yaml``: ``g`` (the incoming
gradient, always first), an input name (``a``, ``b``, ``c``), ``result``, or an attribute of the
call. The engine saves exactly the inputs and the result that the rules it will run refer to,
which is what decides whether a node can run a second time after its saved tensors were freed.

Broadcasting is undone once, by the engine (a gradient is summed to its input's shape and cast
to its input's dtype), never inside a rule.
"""

from __future__ import annotations

import inspect
import math
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

import numpy as np

from reference_engine import ops as F

VJP = Callable[..., Any]


@dataclass(frozen=True)
class Rule:
    """One operation: forward on arrays, one VJP per tensor input (``None``: not differentiable)."""

    op: str
    node_name: str
    forward: Callable[..., np.ndarray]
    vjps: tuple[Optional[VJP], ...]
    inputs: tuple[str, ...] = ("a",)
    variadic: bool = False
    view: bool = False
    saved_attrs: tuple[str, ...] = ()
    # a pass frees it even without saved tensors: torch's IndexBackward0 (its index tensors)
    # and CopySlices (the function of the copy it wraps)
    holds_state: bool = False
    # its rules read which inputs the pass differentiates (``needed``), as a framework's kernel
    # that is told which gradients to compute may compute the others differently
    reads_needed: bool = False
    # inputs the node does not list (next_functions, what its hooks see): where's condition
    unlisted: tuple[str, ...] = ()
    uses: tuple[tuple[str, ...], ...] = field(init=False)
    differentiable: tuple[bool, ...] = field(init=False)
    forward_attrs: tuple[str, ...] = field(init=False)
    # what its nodes save, per dialect and inputs needing grad (``ops._saved_plan``)
    plans: dict[Any, Any] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        uses = []
        for vjp in self.vjps:
            names = tuple(inspect.signature(vjp).parameters)[1:] if vjp else ()
            uses.append(names)
        object.__setattr__(self, "uses", tuple(uses))
        object.__setattr__(self, "differentiable", tuple(v is not None for v in self.vjps))
        object.__setattr__(self, "forward_attrs", _keyword_names(self.forward))
        object.__setattr__(self, "plans", {})

    @property
    def listed(self) -> tuple[int, ...]:
        """The positions of the inputs the node lists."""
        return tuple(i for i, name in enumerate(self.inputs) if name not in self.unlisted)

    def saved_names(self, needed: tuple[bool, ...]) -> frozenset[str]:
        """Inputs, ``result`` and saved attributes the rules for the ``needed`` inputs read."""
        cache = _SAVED_NAMES.setdefault(id(self), {})
        if needed not in cache:
            cache[needed] = frozenset(self._saved_names(needed))
        return cache[needed]

    def _saved_names(self, needed: tuple[bool, ...]) -> set[str]:
        if self.variadic:
            needed = (any(needed),)
        names: set[str] = set()
        for uses, need in zip(self.uses, needed):
            if need:
                names.update(n for n in uses if n in self.inputs or n == "result"
                             or n in self.saved_attrs)
        return names


def _keyword_names(forward: Callable[..., np.ndarray]) -> tuple[str, ...]:
    """The attributes a forward takes: its parameters after the input arrays."""
    if isinstance(forward, np.ufunc) or forward in (np.where, np.array):
        return ()
    params = inspect.signature(forward).parameters.values()
    return tuple(p.name for p in params if not p.name.startswith("_") and (
        p.kind is p.KEYWORD_ONLY or (p.kind is p.POSITIONAL_OR_KEYWORD and p.name not in "abcg")))


RULES: dict[str, Rule] = {}
_SAVED_NAMES: dict[int, dict[tuple[bool, ...], frozenset[str]]] = {}


def rule(op: str, node_name: str, forward: Callable[..., np.ndarray], *vjps: Optional[VJP],
         **options: Any) -> Rule:
    """Add one operation to the table (the table is the single source of derivative rules)."""
    entry = Rule(op, node_name, forward, tuple(vjps), **options)
    RULES[op] = entry
    return entry


# --- helpers shared by several rules (engine operations, so they are differentiable) --------

def kept_shape(shape: tuple[int, ...], dims: tuple[int, ...]) -> tuple[int, ...]:
    """The shape a reduction over ``dims`` gives with ``keepdim=True``."""
    return tuple(1 if i in dims else s for i, s in enumerate(shape))


def restore_reduced(t: Any, in_shape: tuple[int, ...], dims: tuple[int, ...]) -> Any:
    """Give a reduced tensor its reduced dimensions back (as size 1), ready to broadcast."""
    return F.reshape(t, kept_shape(in_shape, dims))


def _reduce_count(in_shape: tuple[int, ...], dims: tuple[int, ...]) -> int:
    return math.prod(in_shape[d] for d in dims)


def _tanh(a: np.ndarray, saturation: Optional[float]) -> np.ndarray:
    """tanh; with ``saturation``, float32 values at or beyond it are exactly ±1, as paddle's CPU
    kernel (Eigen's fast float tanh) gives them."""
    out = np.tanh(a)
    if saturation is not None and a.dtype == np.float32:
        out = np.where(np.abs(a) >= saturation, np.sign(a), out).astype(a.dtype)
    return out


def _one_minus_square(b: np.ndarray) -> np.ndarray:
    """``1 - b * b`` rounded once, as torch's CPU tanh_backward kernel computes it (a fused
    multiply-add; exact in float64 for float32 values, then rounded to float32)."""
    if b.dtype == np.float32:
        return (1.0 - b.astype(np.float64) ** 2).astype(np.float32)
    return 1 - b * b


def _where_zero(mask: Any, g: Any) -> Any:
    return F.where(mask, g, 0)


def _evenly_to_ties(g: Any, a: Any, result: Any, in_shape: tuple[int, ...],
                    dims: tuple[int, ...]) -> Any:
    """Split the gradient of a max/min evenly between the entries equal to the extremum: the
    mask times the gradient over the count of ties, as the kernels compute it, so where no entry
    equals it any more (paddle: a saved input written without a version change) the gradient
    is NaN, or zero over reduced dims of size 1, which divide by nothing."""
    mask = F.cast(F.eq(a, restore_reduced(result, in_shape, dims)), g._data.dtype)
    share = restore_reduced(g, in_shape, dims)
    if _reduce_count(in_shape, dims) > 1:
        share = F.div(share, F.sum(mask, dims, True))
    return F.mul(mask, share)


def _to_index(g: Any, in_shape: tuple[int, ...], dims: tuple[int, ...], indices: Any) -> Any:
    """Send the gradient of ``max(dim)`` / ``min(dim)`` to the index each slice selected."""
    dim = dims[0]
    positions = np.arange(in_shape[dim]).reshape([-1 if i == dim else 1 for i in range(len(in_shape))])
    mask = F.constant_like(g, positions == indices._data)
    return _where_zero(mask, F.expand(restore_reduced(g, in_shape, dims), in_shape))


def _matmul_grad_a(g: Any, b: Any, a_shape: tuple[int, ...]) -> Any:
    if len(a_shape) == 1 and b.ndim == 1:
        return F.mul(g, b)
    if b.ndim == 1:
        g, b = F.unsqueeze(g, -1), F.unsqueeze(b, -1)
    if len(a_shape) == 1:
        g = F.unsqueeze(g, -2)
    grad = F.matmul(g, F.transpose(b, -1, -2))
    if len(a_shape) == 1:
        grad = F.reshape(F.sum_to_shape(grad, (1, a_shape[0])), a_shape)
    return grad


def _matmul_grad_b(g: Any, a: Any, b_shape: tuple[int, ...]) -> Any:
    if a.ndim == 1 and len(b_shape) == 1:
        return F.mul(g, a)
    if a.ndim == 1:
        g, a = F.unsqueeze(g, -2), F.unsqueeze(a, 0)
    if len(b_shape) == 1:
        g = F.unsqueeze(g, -1)
    grad = F.matmul(F.transpose(a, -1, -2), g)
    if len(b_shape) == 1:
        grad = F.reshape(F.sum_to_shape(grad, (b_shape[0], 1)), b_shape)
    return grad


def _np_fused(a: np.ndarray, b: np.ndarray, alpha: Any) -> np.ndarray:
    """``a + alpha * b`` rounded once, as torch's kernel computes it (a fused multiply-add with
    ``alpha`` in the operands' dtype). float64 holds the product of two float32 exactly, so
    float32 is computed there; other dtypes round twice."""
    if a.dtype == np.float32 and b.dtype == np.float32:
        scale = np.float64(np.float32(alpha))
        return (a.astype(np.float64) + scale * b.astype(np.float64)).astype(np.float32)
    return a + np.asarray(alpha, b.dtype) * b


def _np_sum(a: np.ndarray, *, dims: tuple[int, ...], keepdim: bool) -> np.ndarray:
    return np.add.reduce(a, axis=dims, keepdims=keepdim)


def _np_mean(a: np.ndarray, *, dims: tuple[int, ...], keepdim: bool) -> np.ndarray:
    return np.mean(a, axis=dims, keepdims=keepdim)


def _np_expand(a: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """A view of ``a`` with stride 0 along the expanded dimensions, as torch's expand: later
    writes to ``a`` show in it, and a write through it reaches ``a`` (elements that share
    memory hold the last value written). Writeable, unlike numpy's ``broadcast_to``."""
    lead = len(shape) - a.ndim
    strides = (0,) * lead + tuple(0 if n == 1 and s != 1 else st
                                  for n, s, st in zip(a.shape, shape[lead:], a.strides))
    if a.flags.c_contiguous and a.size:  # over its buffer: the quick way
        return np.ndarray(shape, a.dtype, a, 0, strides)
    return np.lib.stride_tricks.as_strided(a, shape, strides, writeable=a.flags.writeable)


def _np_prod_others(a: np.ndarray, *, dim: int) -> np.ndarray:
    """Each element's product of the other elements along ``dim`` (exact where ``a`` has zeros):
    the running product before it times the running product after it."""
    before = np.cumprod(np.concatenate([np.ones_like(np.take(a, [0], dim)),
                                        np.take(a, range(a.shape[dim] - 1), dim)], dim), dim)
    reversed_rest = np.flip(np.take(a, range(1, a.shape[dim]), dim), dim)
    after = np.flip(np.cumprod(np.concatenate([np.ones_like(np.take(a, [0], dim)), reversed_rest],
                                              dim), dim), dim)
    return before * after


_ERF = np.frompyfunc(math.erf, 1, 1)


def _np_erf(a: np.ndarray) -> np.ndarray:
    """The error function elementwise (numpy has none), in ``a``'s dtype."""
    return np.asarray(_ERF(a), dtype=a.dtype)


def _shifted(a: np.ndarray, dim: int, floor: Optional[float]) -> np.ndarray:
    """``a`` minus its maximum along ``dim``; paddle's kernels clip it from below at ``floor``."""
    shifted = a - np.max(a, axis=dim, keepdims=True)
    return shifted if floor is None else np.maximum(shifted, np.asarray(floor, a.dtype))


def _np_softmax(a: np.ndarray, *, dim: int, floor: Optional[float] = None) -> np.ndarray:
    shifted = np.exp(_shifted(a, dim, floor))
    return shifted / np.sum(shifted, axis=dim, keepdims=True)


def _np_log_softmax(a: np.ndarray, *, dim: int, floor: Optional[float] = None) -> np.ndarray:
    shifted = _shifted(a, dim, floor)
    return shifted - np.log(np.sum(np.exp(shifted), axis=dim, keepdims=True))


def _np_index_backward(g: np.ndarray, *, shape: tuple[int, ...], index: Any) -> np.ndarray:
    out = np.zeros(shape, dtype=g.dtype)
    np.add.at(out, index, g)
    return out


def _np_clamp(a: np.ndarray, *, low: Optional[float], high: Optional[float]) -> np.ndarray:
    out = a if low is None else np.maximum(a, np.asarray(low, a.dtype))
    return out if high is None else np.minimum(out, np.asarray(high, a.dtype))


def _clamp_mask(a: Any, low: Optional[float], high: Optional[float]) -> Any:
    masks = ([F.ge(a, low)] if low is not None else []) + ([F.le(a, high)] if high is not None else [])
    return masks[0] if len(masks) == 1 else F.logical_and(*masks)


def _pow_grad_base(g: Any, a: Any, b: Any) -> Any:
    return F.where(F.eq(b, 0), 0, F.mul(g, F.mul(b, F.pow(a, F.sub(b, 1)))))


def _rpow_grad(g: Any, a: Any, result: Any, base: float) -> Any:
    """``base ** a`` by its exponent. With base 0 both frameworks give 0 where the exponent is
    not negative and ``-inf`` (``inf * log 0``) where it is, so the exponent is saved as well."""
    if base == 0:
        return F.where(F.ge(a, 0), 0, F.mul(g, F.mul(result, -math.inf)))
    return F.mul(g, F.mul(result, math.log(base)))


def _pow_grad_exponent(g: Any, a: Any, b: Any, result: Any) -> Any:
    at_zero = F.logical_and(F.eq(a, 0), F.ge(b, 0))
    return F.where(at_zero, 0, F.mul(g, F.mul(result, F.log(a))))


def _maximum_grad(g: Any, mine: Any, other: Any, loses: Callable[[Any, Any], Any],
                  first: bool) -> Any:
    """The winner's gradient, half each at a tie; paddle's kernel multiplies by the weights (a
    nan gradient reaches the loser too), torch's selects.

    paddle's double-grad kernel differentiates that gradient by the seed with whole masks, not
    the halves: at a tie the first operand's gradient has derivative 0 and the second's 1
    (``maximum_double_grad``: ``ddout = ddx * (x > y) + ddy * (x <= y)``). The recorded gradient
    keeps the halves' values and the masks' derivative: ``g * mask`` plus the difference as a
    constant."""
    if g._policy.masks_by_multiplying:
        lost, tied = loses(mine, other)._data, mine._data == other._data
        weights = np.where(lost, 0.0, np.where(tied, 0.5, 1.0)).astype(g._data.dtype)
        if not (g._requires_grad and tied.any()):
            return F.mul(g, F.constant_like(g, weights))
        mask = np.where(lost | tied, 0.0, 1.0) if first else np.where(lost, 0.0, 1.0)
        recorded = F.mul(g, F.constant_like(g, mask.astype(g._data.dtype)))
        return F.add(recorded, F.constant_like(g, (g._data * (weights - mask)).astype(g._data.dtype)))
    split = F.where(F.eq(mine, other), F.div_number(g, 2), g)
    return F.masked_fill(split, loses(mine, other), 0)


def _cat_grads(g: Any, sizes: tuple[int, ...], dim: int) -> list[Any]:
    starts = np.cumsum((0,) + sizes)
    lead = (slice(None),) * dim
    return [F.getitem(g, lead + (slice(int(s), int(s) + n),)) for s, n in zip(starts, sizes)]


def _stack_grads(g: Any, sizes: tuple[int, ...], dim: int) -> list[Any]:
    lead = (slice(None),) * dim
    return [F.getitem(g, lead + (i,)) for i in range(len(sizes))]


def _inverse(perm: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(int(i) for i in np.argsort(perm))


# --- the table ----------------------------------------------------------------------------

AB = {"inputs": ("a", "b")}

rule("add", "AddBackward0", np.add, lambda g: g, lambda g: g, **AB)
# torch's addmm, c + a @ b (two matrices): what a linear layer with a bias records
rule("addmm", "AddmmBackward0", lambda c, a, b: c + a @ b, lambda g: g,
     lambda g, b: F.matmul(g, F.t(b)), lambda g, a: F.matmul(F.t(a), g), inputs=("c", "a", "b"))
rule("sub", "SubBackward0", np.subtract, lambda g: g, lambda g: F.neg(g), **AB)
# torch's add / sub with alpha: the other operand's gradient is scaled
rule("add_scaled", "AddBackward0", lambda a, b, *, alpha: _np_fused(a, b, alpha),
     lambda g: g, lambda g, alpha: F.mul(g, alpha), **AB)
rule("sub_scaled", "SubBackward0", lambda a, b, *, alpha: _np_fused(a, b, -alpha),
     lambda g: g, lambda g, alpha: F.mul(F.neg(g), alpha), **AB)
rule("mul", "MulBackward0", np.multiply, lambda g, b: F.mul(g, b), lambda g, a: F.mul(g, a), **AB)
# paddle 3.3.1's layer_norm kernel scales the input's gradient by the weight only when the pass
# computes the weight's gradient too (measured: with the weight stopping gradient, or left out
# of paddle.grad's inputs, x's gradient is the unscaled normalisation's)
rule("layer_norm_scale", "LayerNormGradNode", np.multiply,
     lambda g, b, needed: F.mul(g, b) if needed[1] else g, lambda g, a: F.mul(g, a),
     reads_needed=True, **AB)
rule("div", "DivBackward0", np.divide, lambda g, b: F.div(g, b),
     lambda g, a, b: F.mul(F.neg(g), F.div(F.div(a, b), b)), **AB)
rule("neg", "NegBackward0", np.negative, lambda g: F.neg(g))
# a derivative's division by a count (mean's): the number is an attribute, not an input
rule("div_number", "DivBackward1", lambda a, *, divisor: a / np.asarray(divisor, a.dtype),
     lambda g, divisor: F.div_number(g, divisor))
# torch's number - tensor: one input, the number an attribute
rule("rsub", "RsubBackward1", lambda a, *, minuend: np.subtract(np.asarray(minuend, a.dtype), a),
     lambda g: F.neg(g))
# torch's number / tensor is the tensor's reciprocal times the number
rule("reciprocal", "ReciprocalBackward0", np.reciprocal,
     lambda g, result: F.mul(F.neg(g), F.mul(result, result)))
rule("pow_scalar", "PowBackward0", lambda a, *, exponent: np.power(a, np.asarray(exponent, a.dtype)),
     lambda g, a, exponent: F.zeros_like(g) if exponent == 0
     else F.mul(g, F.mul(exponent, F.pow(a, exponent - 1))))
rule("pow", "PowBackward1", np.power, _pow_grad_base, _pow_grad_exponent, **AB)
rule("rpow", "PowBackward2", lambda a, *, base: np.power(np.asarray(base, a.dtype), a),
     _rpow_grad)
for _op, _name in (("dot", "DotBackward0"), ("mv", "MvBackward0"), ("mm", "MmBackward0"),
                   ("vm", "SqueezeBackward4"), ("bmm", "UnsafeViewBackward0")):
    rule(_op, _name, np.matmul,
         _matmul_grad_a, _matmul_grad_b, **AB)

rule("sum", "SumBackward1", _np_sum,
     lambda g, in_shape, dims: F.expand(restore_reduced(g, in_shape, dims), in_shape))
rule("sum_all", "SumBackward0", lambda a: a.sum(),
     lambda g, in_shape: F.expand(g, in_shape))
rule("mean", "MeanBackward1", _np_mean,
     lambda g, in_shape, dims: F.div_number(F.expand(restore_reduced(g, in_shape, dims), in_shape),
                                            _reduce_count(in_shape, dims)))
# the 2-norm over dims (None: every element); its derivative a / norm is 0 where the norm is
rule("norm2", "LinalgVectorNormBackward0", lambda a, *, dims, keepdim: np.sqrt(
         np.sum(a * a, axis=dims, keepdims=keepdim)),
     lambda g, a, result, dims, keepdim: _norm_grad(g, a, result, dims, keepdim))
rule("prod", "ProdBackward1", lambda a, *, dims, keepdim: np.prod(a, axis=dims, keepdims=keepdim),
     lambda g, a, result, dims, keepdim: _prod_grad(g, a, result, dims, keepdim))
rule("prod_all", "ProdBackward0", lambda a: np.prod(a),
     lambda g, a, result: _prod_grad(g, a, result, None, False))
# each element's product of the others along dim (torch's prod gradient where an input is zero)
rule("prod_others", "MulBackward0", _np_prod_others, lambda g, a, dim: _prod_others_grad(g, a, dim))
# split / unbind: the node's forward hands the input on; each piece is an output slot of the
# node (``ops.several_outputs``), whose backward gets one gradient per piece
rule("split", "SplitBackward0", lambda a, *, sizes, dim: a,
     lambda grads, in_shape, sizes, dim: _split_grad(grads, in_shape, sizes, dim))
rule("split_with_sizes", "SplitWithSizesBackward0", lambda a, *, sizes, dim: a,
     lambda grads, in_shape, sizes, dim: _split_grad(grads, in_shape, sizes, dim))
rule("unbind", "UnbindBackward0", lambda a, *, dim: a,
     lambda grads, in_shape, dim: _unbind_grad(grads, in_shape, dim))
# the p-norm for p other than 2: |x|_1, max |x| (inf), min |x| (-inf), (sum |x|^p)^(1/p)
rule("norm_p", "LinalgVectorNormBackward0", lambda a, *, p, dims, keepdim: _np_norm_p(a, p, dims, keepdim),
     lambda g, a, result, p, dims, keepdim: _norm_p_grad(g, a, result, p, dims, keepdim))
rule("mean_all", "MeanBackward0", lambda a: np.mean(a),
     lambda g, in_shape: F.div_number(F.expand(g, in_shape), math.prod(in_shape)))
for _op, _np_fn in (("amax", np.amax), ("amin", np.amin)):
    rule(_op, _op.capitalize() + "Backward0",
         lambda a, *, dims, keepdim, _f=_np_fn: _f(a, axis=dims, keepdims=keepdim),
         _evenly_to_ties)
    rule(_op[1:] + "_all", _op[1:].capitalize() + "Backward1",
         lambda a, _f=_np_fn: _f(a), _evenly_to_ties)
    rule(_op[1:] + "_dim", _op[1:].capitalize() + "Backward0",
         lambda a, *, dims, keepdim, _f=_np_fn: _f(a, axis=dims, keepdims=keepdim),
         _to_index, saved_attrs=("indices",))

rule("exp", "ExpBackward0", np.exp, lambda g, result: F.mul(g, result))
rule("log", "LogBackward0", np.log, lambda g, a: F.div(g, a))
rule("sqrt", "SqrtBackward0", np.sqrt, lambda g, result: F.div(g, F.mul(result, 2)))
rule("abs", "AbsBackward0", np.abs, lambda g, a: F.abs_grad(g, a))
rule("sign", "SignBackward0", np.sign, lambda g: F.zeros_like(g))
rule("floor", "FloorBackward0", np.floor, lambda g: F.zeros_like(g))
rule("ceil", "CeilBackward0", np.ceil, lambda g: F.zeros_like(g))
rule("round", "RoundBackward0", np.rint, lambda g: F.zeros_like(g))  # halves to even
rule("sin", "SinBackward0", np.sin, lambda g, a: F.mul(g, F.cos(a)))
rule("cos", "CosBackward0", np.cos, lambda g, a: F.mul(g, F.neg(F.sin(a))))
# more elementwise functions, with torch's formulas (what they save decides version errors)
rule("tan", "TanBackward0", np.tan, lambda g, result: F.mul(g, F.add(F.mul(result, result), 1.0)))
rule("sinh", "SinhBackward0", np.sinh, lambda g, a: F.mul(g, F.cosh(a)))
rule("cosh", "CoshBackward0", np.cosh, lambda g, a: F.mul(g, F.sinh(a)))
rule("atan", "AtanBackward0", np.arctan, lambda g, a: F.div(g, F.add(F.mul(a, a), 1.0)))
rule("asin", "AsinBackward0", np.arcsin,
     lambda g, a: F.mul(g, F.rsqrt(F.add(F.mul(F.neg(a), a), 1.0))))
rule("acos", "AcosBackward0", np.arccos,
     lambda g, a: F.mul(g, F.neg(F.rsqrt(F.add(F.mul(F.neg(a), a), 1.0)))))
rule("log1p", "Log1PBackward0", np.log1p, lambda g, a: F.div(g, F.add(a, 1.0)))
rule("expm1", "Expm1Backward0", np.expm1, lambda g, result: F.mul(g, F.add(result, 1.0)))
rule("log2", "Log2Backward0", np.log2, lambda g, a: F.div(g, F.mul(a, math.log(2.0))))
rule("log10", "Log10Backward0", np.log10, lambda g, a: F.div(g, F.mul(a, math.log(10.0))))
rule("rsqrt", "RsqrtBackward0", lambda a: np.reciprocal(np.sqrt(a)),
     lambda g, result: F.mul(F.mul(g, -0.5), F.pow(result, 3)))
rule("erf", "ErfBackward0", lambda a: _np_erf(a),
     lambda g, a: F.mul(F.mul(F.exp(F.neg(F.pow(a, 2))), 2.0 / math.sqrt(math.pi)), g))
rule("tanh", "TanhBackward0", lambda a, *, saturation: _tanh(a, saturation),
     lambda g, result: F.fused_grad("tanh", g, result))
rule("sigmoid", "SigmoidBackward0", lambda a: 1 / (1 + np.exp(-a)),
     lambda g, result: F.fused_grad("sigmoid", g, result))
# tanh's and sigmoid's gradients as torch records them: one node each (tanh_backward,
# sigmoid_backward), differentiable in the gradient and in the saved output
rule("tanh_backward", "TanhBackwardBackward0", lambda a, b: a * _one_minus_square(b),
     lambda g, b: F.fused_grad("tanh", g, b), lambda g, a, b: F.mul(g, F.mul(F.mul(b, -2.0), a)),
     **AB)
rule("sigmoid_backward", "SigmoidBackwardBackward0", lambda a, b: a * (1 - b) * b,
     lambda g, b: F.fused_grad("sigmoid", g, b),
     lambda g, a, b: F.mul(F.mul(g, a), F.add(F.mul(b, -2.0), 1.0)), **AB)
rule("relu", "ReluBackward0", lambda a: np.maximum(a, np.zeros((), a.dtype)),
     lambda g, result: F.relu_grad(g, result))
# torch's threshold_backward: differentiable in the gradient, and (with a zero derivative) in the
# result, so gradients of any order through relu stay connected to the graph as in torch
rule("relu_backward", "ThresholdBackwardBackward0",
     lambda a, b: np.where(b > 0, a, np.zeros((), a.dtype)),
     lambda g, b: F.relu_grad(g, b), lambda g: F.zeros_like(g), **AB)
rule("leaky_relu", "LeakyReluBackward0",
     lambda a, *, slope: np.where(a > 0, a, a * np.asarray(slope, a.dtype)),
     lambda g, a, slope: F.leaky_relu_grad(g, a, slope))
# torch's leaky_relu_backward: like threshold_backward, a zero derivative in the input. At 0
# torch's kernel takes the slope, paddle's (``zero_passes``) the gradient itself
rule("leaky_relu_backward", "LeakyReluBackwardBackward0",
     lambda a, b, *, slope, zero_passes: np.where((b >= 0) if zero_passes else (b > 0), a,
                                                  a * np.asarray(slope, a.dtype)),
     lambda g, b, slope: F.leaky_relu_grad(g, b, slope), lambda g: F.zeros_like(g), **AB)
# softplus, elu and gelu: each gradient is one node (torch's XBackwardBackward0, paddle's
# XDoubleGradNode) whose own derivatives are the gradient op again (for the incoming gradient)
# and the second derivative times both gradients (for the input)
rule("softplus", "SoftplusBackward0",
     lambda a, *, beta, threshold: np.where(a * beta > threshold, a, np.log1p(np.exp(a * beta)) / beta),
     lambda g, a, beta, threshold: F.activation_grad("softplus", g, a, beta=beta, threshold=threshold))
rule("softplus_backward", "SoftplusBackwardBackward0",
     lambda a, b, *, beta, threshold: np.where(b * beta > threshold, a,
                                               a * np.exp(b * beta) / (np.exp(b * beta) + 1)),
     lambda g, b, beta, threshold: F.activation_grad("softplus", g, b, beta=beta, threshold=threshold),
     lambda g, a, b, beta, threshold: F.mul(F.mul(g, a), _softplus_curvature(b, beta, threshold)),
     **AB)
rule("elu", "EluBackward0", lambda a, *, alpha: np.where(a > 0, a, alpha * np.expm1(a)),
     lambda g, a, alpha: F.activation_grad("elu", g, a, alpha=alpha))
rule("elu_backward", "EluBackwardBackward0",
     lambda a, b, *, alpha: np.where(b > 0, a, a * alpha * np.exp(b)),
     lambda g, b, alpha: F.activation_grad("elu", g, b, alpha=alpha),
     lambda g, a, b, alpha: F.mul(F.mul(g, a), _elu_curvature(b, alpha)),
     **AB)
rule("gelu", "GeluBackward0", lambda a, *, approximate: _np_gelu(a, approximate)[0],
     lambda g, a, approximate: F.activation_grad("gelu", g, a, approximate=approximate))
rule("gelu_backward", "GeluBackwardBackward0",
     lambda a, b, *, approximate: a * _np_gelu(b, approximate)[1],
     lambda g, b, approximate: F.activation_grad("gelu", g, b, approximate=approximate),
     lambda g, a, b, approximate: F.mul(F.mul(g, a), _gelu_curvature(b, approximate)), **AB)
# silu's gradient: torch records it composed (sigmoid, products); paddle as one node
rule("silu", "SiluBackward0", lambda a: a / (1 + np.exp(-a)), lambda g, a: F.silu_grad(g, a))
rule("silu_backward", "SiluBackwardBackward0",
     lambda a, b: a * _np_silu_slope(b),
     lambda g, b: F.silu_grad(g, b),
     lambda g, a, b: F.mul(F.mul(g, a), _silu_curvature(b)), **AB)
# Where a framework's backward kernel reads an operand it does not differentiate (paddle's
# multiply_grad reads both operands), the gradient it returns is still connected to that operand;
# the engine records this edge with ``F.link`` for the ops the dialect's policy lists.
# ``unrecorded``: the zeros come from no kernel (paddle's multiply_grad with a constant operand):
# they require grad but have no node, so nothing flows further
rule("zero_link", "ZeroLinkBackward", lambda a, b: a,
     lambda g: g,
     lambda g, b_shape, unrecorded=False: F.unrecorded_zeros(g, b_shape) if unrecorded
     else F.expand(F.mul(F.sum(g), 0.0), b_shape), **AB)
rule("clamp", "ClampBackward1", _np_clamp,
     lambda g, a, low, high: g if low is None and high is None else
     _where_zero(_clamp_mask(a, low, high), g))
# torch's clamp.Tensor: a bound gets the gradient where it clamps (and, with both bounds, only
# while min < max); the input keeps it within [min, max], ties included
rule("clamp_tensor", "ClampBackward0", lambda a, b, c: np.minimum(np.maximum(a, b), c),
     lambda g, a, low, high: _where_zero(F.logical_and(F.ge(a, low), F.le(a, high)), g),
     lambda g, a, low, high: _where_zero(F.logical_and(F.lt(a, low), F.lt(low, high)), g),
     lambda g, a, low, high: _where_zero(F.logical_or(F.gt(a, high), F.lt(high, low)), g),
     inputs=("a", "low", "high"))
rule("maximum", "MaximumBackward0", np.maximum,
     lambda g, a, b: _maximum_grad(g, a, b, F.lt, True), lambda g, a, b: _maximum_grad(g, b, a, F.lt, False),
     **AB)
rule("minimum", "MinimumBackward0", np.minimum,
     lambda g, a, b: _maximum_grad(g, a, b, F.gt, True), lambda g, a, b: _maximum_grad(g, b, a, F.gt, False),
     **AB)
# torch's loss functions: one node each, the loss reduced ("mean", "sum" or "none")
rule("mse_loss", "MseLossBackward0", lambda a, b, *, reduction: _np_reduce((a - b) ** 2, reduction),
     lambda g, a, b, reduction: _mse_grad(g, F.sub(a, b), reduction),
     lambda g, a, b, reduction: _mse_grad(g, F.sub(b, a), reduction), **AB)
rule("nll_loss", "NllLossBackward0",
     lambda a, *, classes, reduction: _np_reduce(-a[np.arange(len(classes)), list(classes)],
                                                 reduction),
     lambda g, a, classes, reduction: _nll_grad(g, a, classes, reduction))
rule("binary_cross_entropy", "BinaryCrossEntropyBackward0",
     lambda a, b, *, reduction: _np_reduce(-(b * np.maximum(np.log(a), -100)
                                             + (1 - b) * np.maximum(np.log1p(-a), -100)),
                                           reduction),
     lambda g, a, b, reduction: F.mul(F.div(F.sub(a, b), F.clamp(F.mul(F.sub(1.0, a), a), 1e-12)),
                                      _loss_grad(g, a, reduction)),
     lambda g, a, b, reduction: F.mul(F.sub(F.clamp(F.log(F.sub(1.0, a)), -100.0),
                                            F.clamp(F.log(a), -100.0)), _loss_grad(g, b, reduction)),
     **AB)
rule("binary_cross_entropy_with_logits", "BinaryCrossEntropyWithLogitsBackward0",
     lambda a, b, *, reduction: _np_reduce(np.maximum(a, 0) - a * b + np.log1p(np.exp(-np.abs(a))),
                                           reduction),
     lambda g, a, b, reduction: F.mul(F.sub(F.sigmoid(a), b), _loss_grad(g, a, reduction)),
     lambda g, a, b, reduction: F.mul(F.neg(a), _loss_grad(g, b, reduction)), **AB)
# torch's var and std over dims (all of them when None): one node each
rule("var", "VarBackward0",
     lambda a, *, dims, correction, keepdim: np.var(a, axis=dims, ddof=correction, keepdims=keepdim),
     lambda g, a, dims, correction, keepdim: _var_grad(g, a, dims, correction, keepdim))
rule("std", "StdBackward0",
     lambda a, *, dims, correction, keepdim: np.sqrt(np.var(a, axis=dims, ddof=correction,
                                                           keepdims=keepdim)),
     lambda g, a, result, dims, correction, keepdim: _var_grad(
         F.masked_fill(F.div(g, F.mul(result, 2.0)), result._data == 0, 0), a, dims, correction,
         keepdim))
# torch's gather along dim, and its gradient: the gradient added into zeros at the gathered
# places (scatter_add), whose own gradient gathers again
rule("gather", "GatherBackward0", lambda a, *, dim, index: np.take_along_axis(a, index, axis=dim),
     lambda g, a, dim, index: F.scatter_add_zeros(g, a._data.shape, dim, index))
rule("scatter_add_zeros", "ScatterAddBackward0",
     lambda a, *, shape, dim, index: _np_scatter_add(a, shape, dim, index),
     lambda g, dim, index: F.gather(g, dim, index))
# masked_fill with a number: the mask and the number are attributes, the tensor the only input
rule("masked_fill", "MaskedFillBackward0",
     lambda a, *, mask, value: np.where(mask, np.asarray(value, a.dtype), a),
     lambda g, mask: F.masked_fill(g, mask, 0))
rule("where", "WhereBackward0", np.where, None,
     lambda g, c: _where_zero(c, g), lambda g, c: F.where(c, 0, g), inputs=("c", "a", "b"),
     unlisted=("c",))
rule("softmax", "SoftmaxBackward0", _np_softmax,
     lambda g, result, dim: F.fused_grad("softmax", g, result, dim=dim))
rule("log_softmax", "LogSoftmaxBackward0", _np_log_softmax,
     lambda g, result, dim: F.fused_grad("log_softmax", g, result, dim=dim))
# torch's _softmax_backward_data and _log_softmax_backward_data: one node each, differentiable
# in the gradient (a) and the saved output (b)
rule("softmax_backward", "SoftmaxBackwardDataBackward0",
     lambda a, b, *, dim: b * (a - np.sum(a * b, axis=dim, keepdims=True)),
     lambda g, b, dim: F.fused_grad("softmax", g, b, dim=dim),
     lambda g, a, b, dim: F.sub(F.sub(F.mul(a, g), F.mul(F.sum(F.mul(b, a), (dim,), True), g)),
                                F.mul(a, F.sum(F.mul(g, b), (dim,), True))), **AB)
rule("log_softmax_backward", "LogSoftmaxBackwardDataBackward0",
     lambda a, b, *, dim: a - np.exp(b) * np.sum(a, axis=dim, keepdims=True),
     lambda g, b, dim: F.sub(g, F.sum(F.mul(g, F.exp(b)), (dim,), True)),  # its transpose
     lambda g, a, b, dim: F.mul(F.mul(F.neg(F.sum(a, (dim,), True)), F.exp(b)), g), **AB)

rule("reshape", "ViewBackward0", lambda a, *, shape: np.reshape(a, shape),
     lambda g, in_shape: F.reshape(g, in_shape), view=True)
# torch's reshape of a layout no view has: of a contiguous copy (a new tensor, not a view)
rule("unsafe_view", "UnsafeViewBackward0", lambda a, *, shape: np.reshape(a, shape),
     lambda g, in_shape: F.reshape(g, in_shape))
rule("transpose", "TransposeBackward0", lambda a, *, dim0, dim1: np.swapaxes(a, dim0, dim1),
     lambda g, dim0, dim1: F.transpose(g, dim0, dim1), view=True)
rule("t", "TBackward0", lambda a: a.T, lambda g: F.t(g), view=True)
rule("permute", "PermuteBackward0", lambda a, *, dims: np.transpose(a, dims),
     lambda g, dims: F.permute(g, _inverse(dims)), view=True)
rule("squeeze", "SqueezeBackward1", lambda a, *, dims: np.squeeze(a, dims),
     lambda g, dims: _unsqueezed(g, dims), view=True)
rule("unsqueeze", "UnsqueezeBackward0", lambda a, *, dim: np.expand_dims(a, dim),
     lambda g, dim: F.squeeze(g, dim), view=True)
rule("expand", "ExpandBackward0", lambda a, *, shape: _np_expand(a, shape), lambda g: g, view=True)
def _np_getitem(a: np.ndarray, index: Any) -> np.ndarray:
    """``a[index]``; integers on every dimension give a 0-d view (numpy would give a scalar
    copy), so a write to the selected element reaches ``a`` as it does in the frameworks."""
    if isinstance(index, (int, np.integer)) or (
            isinstance(index, tuple) and all(isinstance(p, (int, np.integer)) for p in index)):
        return a[(*(index if isinstance(index, tuple) else (index,)), Ellipsis)]
    return a[index]


for _kind, _name in (("select", "SelectBackward0"), ("slice", "SliceBackward0"),
                     ("index", "IndexBackward0")):
    rule("getitem_" + _kind, _name, _np_getitem,
         lambda g, index, in_shape: F.index_backward(g, in_shape, index), view=_kind != "index",
         holds_state=_kind == "index")
rule("index_backward", "SelectBackwardBackward0", _np_index_backward,
     lambda g, index: F.getitem(g, index))
rule("cat", "CatBackward0", lambda *arrays, dim: np.concatenate(arrays, axis=dim),
     _cat_grads, variadic=True)
rule("stack", "StackBackward0", lambda *arrays, dim: np.stack(arrays, axis=dim),
     _stack_grads, variadic=True)
rule("clone", "CloneBackward0", np.array, lambda g: g)
# torch's AccumulateGrad copies a first gradient that requires grad into .grad (create_graph)
rule("grad_copy", "torch::autograd::CopyBackwards", np.array, lambda g: g)
# torch's once_differentiable: what such a backward returns from a gradient that requires grad
# comes out of an Error node, which refuses to be differentiated
rule("once_differentiable_error", "torch::autograd::Error", np.array, lambda g: _differentiated_twice(g))
rule("cast", "ToCopyBackward0", lambda a, *, dtype: a.astype(dtype), lambda g: g)
rule("fill", "FillBackward2", lambda a, *, value: np.full_like(a, value), lambda g: F.zeros_like(g))
rule("setitem", "torch::autograd::CopySlices", lambda a, b, *, index: _np_setitem(a, b, index),
     lambda g, index: _where_zero(F.constant_like(g, _setitem_mask(g._data.shape, index)), g),
     lambda g, index: F.getitem(g, index), holds_state=True, **AB)


def _norm_grad(g: Any, a: Any, result: Any, dims: Any, keepdim: bool) -> Any:
    shape = a._data.shape
    axes = tuple(range(len(shape))) if dims is None else dims
    if not keepdim:
        g, result = restore_reduced(g, shape, axes), restore_reduced(result, shape, axes)
    zero = F.constant_like(result, result._data == 0)
    return F.mul(F.expand(g, shape), F.where(zero, 0.0, F.div(a, result)))


def _prod_others_grad(g: Any, a: Any, dim: int) -> Any:
    """The derivative of ``prod_others``, recorded: element j receives the sum over i != j of
    g_i times the product of the elements other than i and j, which is ``prod_others`` of
    ``a`` with a_j set to 1 (so it differentiates again, to any order)."""
    pieces = []
    for j in range(a._data.shape[dim]):
        others = np.ones(a._data.shape, a._data.dtype)
        np.moveaxis(others, dim, 0)[j] = 0  # 0 at j along dim, 1 elsewhere
        without_j = F.add(F.mul(a, F.constant_like(a, others)), F.constant_like(a, 1 - others))
        products = F.apply(RULES["prod_others"], (without_j,), {"dim": dim})
        pieces.append(F.sum(F.mul(F.mul(g, products), F.constant_like(a, others)), (dim,), True))
    return F.cat(pieces, dim)


def _prod_grad(g: Any, a: Any, result: Any, dims: Optional[tuple[int, ...]], keepdim: bool) -> Any:
    """torch's prod_backward: ``g * (result / a)`` when no element is zero; otherwise each
    element's gradient is g times the product of the others (exact at zeros). paddle's kernel
    always divides (``g * result / a``), which gives nan where an element is zero."""
    shape = a._data.shape
    if not shape:
        return g
    zeros = not a._policy.prod_grad_divides and (a._data == 0).any()
    if zeros and dims is None:  # torch takes the products along the flattened input
        flat = F.reshape(a, (a._data.size,))
        return F.reshape(F.mul(g, _products_of_others(flat, 0)), shape)
    axes = tuple(range(len(shape))) if dims is None else dims
    if not keepdim:
        g, result = restore_reduced(g, shape, axes), restore_reduced(result, shape, axes)
    if zeros:
        return F.mul(g, _products_of_others(a, dims[0]))
    if a._policy.prod_grad_divides:
        return F.div(F.mul(g, result), a)
    return F.mul(g, F.div(result, a))


def _products_of_others(a: Any, dim: int) -> Any:
    """Each element's product of the others along ``dim``; along a dimension of one element,
    the empty product: ones that no input reaches (torch's cumulative products of nothing)."""
    if a._data.shape[dim] == 1:
        return F.constant_like(a, np.ones(a._data.shape, a._data.dtype))
    return F.apply(RULES["prod_others"], (a,), {"dim": dim})


def _split_grad(grads: list[Any], in_shape: tuple[int, ...], sizes: tuple[int, ...],
                dim: int) -> Any:
    """The gradient of the input of a split: the pieces' gradients joined again along ``dim``,
    zeros for a piece no gradient reached."""
    pieces = [_piece_grad(g, grads, in_shape[:dim] + (n,) + in_shape[dim + 1:])
              for g, n in zip(grads, sizes)]
    return F.cat(pieces, dim)


def _unbind_grad(grads: list[Any], in_shape: tuple[int, ...], dim: int) -> Any:
    """The gradient of the input of unbind: the slices' gradients stacked again along ``dim``."""
    piece = in_shape[:dim] + in_shape[dim + 1:]
    return F.stack([_piece_grad(g, grads, piece) for g in grads], dim)


def _piece_grad(g: Any, grads: list[Any], shape: tuple[int, ...]) -> Any:
    """One output's gradient, or zeros of its shape where none (or an undefined one) arrived."""
    if isinstance(g, F._tensor_type()):
        return g
    like = next(t for t in grads if isinstance(t, F._tensor_type()))
    return F.constant_like(like, np.zeros(shape, like._data.dtype))


_GELU_K = math.sqrt(2.0 / math.pi)  # the tanh approximation: tanh(k (x + c x^3))
_GELU_C = 0.044715


def _np_gelu(a: np.ndarray, approximate: str) -> tuple[np.ndarray, np.ndarray]:
    """gelu's value and slope at ``a``: exact (``x Phi(x)``) or by tanh ("tanh")."""
    if approximate == "tanh":
        t = np.tanh(_GELU_K * (a + _GELU_C * a ** 3))
        slope = 0.5 * (1 + t) + 0.5 * a * (1 - t * t) * _GELU_K * (1 + 3 * _GELU_C * a * a)
        return (0.5 * a * (1 + t)).astype(a.dtype), slope.astype(a.dtype)
    cdf = 0.5 * (1 + _np_erf(a / math.sqrt(2.0)))
    pdf = np.exp(-0.5 * a * a) / math.sqrt(2 * math.pi)
    return (a * cdf).astype(a.dtype), (cdf + a * pdf).astype(a.dtype)


def _gelu_curvature(x: Any, approximate: str) -> Any:
    """gelu's second derivative at ``x``, recorded."""
    square = F.mul(x, x)
    if approximate == "tanh":
        du = F.mul(F.add(F.mul(square, 3 * _GELU_C), 1.0), _GELU_K)
        t = F.tanh(F.mul(F.add(x, F.mul(F.mul(square, x), _GELU_C)), _GELU_K))
        inner = F.add(F.sub(du, F.mul(F.mul(x, t), F.mul(du, du))),
                      F.mul(F.mul(x, x), 3 * _GELU_C * _GELU_K))
        return F.mul(F.sub(1.0, F.mul(t, t)), inner)
    pdf = F.mul(F.exp(F.mul(square, -0.5)), 1 / math.sqrt(2 * math.pi))
    return F.mul(pdf, F.sub(2.0, square))


def _softplus_curvature(x: Any, beta: float, threshold: float) -> Any:
    """softplus's second derivative at ``x`` (0 above the threshold; torch's double backward
    counts the threshold itself as above it, unlike its backward and paddle), recorded."""
    s = F.sigmoid(F.mul(x, beta))
    below = F.lt if x._policy.double_backward_thresholds_inclusive else F.le
    return F.where(below(F.mul(x, beta), threshold), F.mul(F.mul(s, F.sub(1.0, s)), beta), 0.0)


def _elu_curvature(x: Any, alpha: float) -> Any:
    """elu's second derivative at ``x`` (torch's double backward counts 0 with the positive
    side, its backward with the negative), recorded."""
    negative = F.lt if x._policy.double_backward_thresholds_inclusive else F.le
    return F.where(negative(x, 0), F.mul(F.exp(x), alpha), 0.0)


def _unsqueezed(g: Any, dims: tuple[int, ...]) -> Any:
    """The squeezed dimensions given back, one unsqueeze each (torch's unsqueeze_to)."""
    for d in sorted(dims):
        g = F.unsqueeze(g, d)
    return g


def _np_silu_slope(x: np.ndarray) -> np.ndarray:
    s = 1 / (1 + np.exp(-x))
    return s * (1 + x * (1 - s))


def _silu_curvature(x: Any) -> Any:
    """silu's second derivative ``s (1 - s) (2 + x (1 - 2 s))`` at ``x``, recorded."""
    s = F.sigmoid(x)
    return F.mul(F.mul(s, F.sub(1.0, s)), F.add(F.mul(x, F.sub(1.0, F.mul(s, 2.0))), 2.0))


def _np_norm_p(a: np.ndarray, p: float, dims: Any, keepdim: bool) -> np.ndarray:
    magnitude = np.abs(a)
    if math.isinf(p):
        reduce = np.amax if p > 0 else np.amin
        return reduce(magnitude, axis=dims, keepdims=keepdim)
    return np.sum(magnitude ** p, axis=dims, keepdims=keepdim) ** (1 / p)


def _norm_p_grad(g: Any, a: Any, result: Any, p: float, dims: Any, keepdim: bool) -> Any:
    """torch's norm_backward for p other than 2. paddle's p_norm_grad is alike, except that it
    does not mask the zeros (nan there for p < 1) and does not share among ties (inf)."""
    shape = a._data.shape
    axes = tuple(range(len(shape))) if dims is None else dims
    if not keepdim:
        g, result = restore_reduced(g, shape, axes), restore_reduced(result, shape, axes)
    if p == 1:
        return F.mul(F.sign(a), g)
    if math.isinf(p):  # torch shares the gradient among ties, paddle gives each all of it
        at_extreme = F.cast(F.eq(F.abs(a), result), a._data.dtype)
        if a._policy.norm_grad_masks_zeros:
            g = F.div(g, F.sum(at_extreme, axes, True))
        return F.mul(F.mul(F.sign(a), at_extreme), g)
    if p < 2:
        scaled = F.mul(F.sign(a), F.pow(F.abs(a), p - 1))
        if p < 1 and a._policy.norm_grad_masks_zeros:
            scaled = F.where(F.constant_like(a, a._data == 0), 0.0, scaled)
    else:
        scaled = F.mul(a, F.pow(F.abs(a), p - 2))
    scale = F.div(g, F.pow(result, p - 1))
    if a._policy.norm_grad_masks_zeros:
        scale = F.where(F.constant_like(result, result._data == 0), 0.0, scale)
    return F.mul(scaled, scale)


def _np_reduce(loss: np.ndarray, reduction: str) -> np.ndarray:
    if reduction == "none":
        return loss
    return (np.sum(loss) if reduction == "sum" else np.mean(loss)).astype(loss.dtype)


def _loss_grad(g: Any, like: Any, reduction: str) -> Any:
    """A reduced loss's gradient spread over the elements of ``like`` (divided by their count
    for "mean")."""
    if reduction == "none":
        return g
    spread = F.expand(g, like._data.shape)
    return spread if reduction == "sum" else F.div_number(spread, like._data.size)


def _mse_grad(g: Any, difference: Any, reduction: str) -> Any:
    """torch's ``mse_loss_backward``: ``norm * (a - b) * grad``, with ``norm`` 2 divided by the
    count for "mean" (one number in the tensors' dtype), in that order, as its kernel rounds."""
    norm = 2.0 / difference._data.size if reduction == "mean" else 2.0
    spread = g if reduction == "none" else F.expand(g, difference._data.shape)
    return F.mul(F.mul(difference, norm), spread)


def _nll_grad(g: Any, a: Any, classes: tuple[int, ...], reduction: str) -> Any:
    """Minus the gradient at each row's class, zeros elsewhere."""
    rows = len(classes)
    picked = np.zeros(a._data.shape, a._data.dtype)
    picked[np.arange(rows), list(classes)] = -1
    per_row = g if reduction == "none" else F.expand(g, (rows,))
    if reduction == "mean":
        per_row = F.div_number(per_row, rows)
    grad = F.mul(F.unsqueeze(per_row, 1), F.constant_like(a, picked))
    # torch's kernel reads the input: the gradient stays connected to it, a zero derivative
    return F.link(grad, a) if "nll_loss" in a._policy.zero_derivative_links else grad


def _var_grad(g: Any, a: Any, dims: tuple[int, ...], correction: int, keepdim: bool) -> Any:
    """torch's var_backward: ``2 / (n - correction) * g * (a - mean(a))``."""
    shape = a._data.shape
    if not keepdim:
        g = restore_reduced(g, shape, dims)
    count = _reduce_count(shape, dims)
    return F.mul(F.mul(g, 2.0 / (count - correction)), F.sub(a, F.mean(a, dims, True)))


def _np_scatter_add(a: np.ndarray, shape: tuple[int, ...], dim: int,
                    index: np.ndarray) -> np.ndarray:
    out = np.zeros(shape, a.dtype)
    grids = np.indices(index.shape)
    np.add.at(out, tuple(index if d == dim else grids[d] for d in range(len(shape))), a)
    return out


def _differentiated_twice(g: Any) -> Any:
    raise g._policy.error("differentiated_twice")


def _np_setitem(a: np.ndarray, b: np.ndarray, index: Any) -> np.ndarray:
    out = a.copy()
    slot = out[index]
    while b.ndim > np.ndim(slot) and b.shape[0] == 1:  # both frameworks drop leading 1s
        b = b[0]
    out[index] = b
    return out


def _setitem_mask(shape: tuple[int, ...], index: Any) -> np.ndarray:
    mask = np.ones(shape, dtype=bool)
    mask[index] = False
    return mask
