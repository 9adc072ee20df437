"""Tensor functions real paddle programs reach for around their autograd: constructors,
comparisons, and differentiable functions composed from the core's operations (the derivative
table stays the single source of rules; node names are those of the composing operations)."""

from __future__ import annotations

import builtins
from collections import namedtuple
from typing import Any, Optional, Sequence

import numpy as np

from reference_engine import checkpoint, kernel_node, rng
from reference_engine import composed as C
from reference_engine import ops as F
from reference_engine.dialects.paddle_policy import PADDLE
from reference_engine.graph import as_kernel
from reference_engine.paddle._core import (
    _DEFAULT_FLOAT,
    Tensor,
    _filled,
    _made,
    _np_dtype,
    cast,
    created,
    matmul,
    nonzero,
    square,
    unsigned_zeros,
)
from reference_engine.tensor import in_place_method

__all__ = ["add_n", "all", "allclose", "any", "arange", "argmax", "argmin", "argsort", "assign", "bmm",
           "bitwise_and", "bitwise_not", "bitwise_or", "bitwise_xor", "broadcast_tensors", "unstack",
           "einsum", "load", "save",
           "masked_select", "meshgrid", "nonzero", "normal", "randint", "randperm", "uniform",
           "broadcast_to", "ceil", "chunk", "cumsum", "diag", "diagonal", "dot", "mv", "equal", "equal_all",
           "eye", "flatten", "flip", "floor", "full", "gather", "hypot", "index_select", "is_tensor",
           "isfinite", "isinf", "isnan", "lerp", "linspace", "logaddexp", "logsumexp", "masked_fill",
           "mm", "neg", "norm", "numel", "outer", "prod", "roll", "round", "scale", "sign", "sort",
           "split", "std", "t", "tile", "topk", "trace", "tril", "triu", "unbind", "var", "mode",
           "repeat_interleave", "shape", "slice", "unique"]


def arange(start: Any = 0, end: Any = None, step: Any = 1, dtype: Any = None) -> Tensor:
    values = np.arange(start, end, step) if end is not None else np.arange(start)
    kind = _DEFAULT_FLOAT[0] if values.dtype.kind == "f" else np.int64
    return created(values.astype(_np_dtype(dtype) or kind))  # with a node, as paddle's


def linspace(start: float, stop: float, num: builtins.int, dtype: Any = None) -> Tensor:
    return _made(F.linspace_values(start, stop, num, _np_dtype(dtype) or _DEFAULT_FLOAT[0]))


def eye(num_rows: builtins.int, num_columns: Optional[builtins.int] = None,
        dtype: Any = None) -> Tensor:
    return _made(np.eye(num_rows, num_columns).astype(_np_dtype(dtype) or _DEFAULT_FLOAT[0]))


def full(shape: Any, fill_value: float, dtype: Any = None) -> Tensor:
    return _filled(fill_value, shape, dtype)


def numel(x: Tensor) -> Tensor:
    return _made(np.asarray(x._data.size, dtype=np.int64))


def is_tensor(x: Any) -> builtins.bool:
    return isinstance(x, Tensor)


def argmax(x: Tensor, axis: Optional[builtins.int] = None, keepdim: builtins.bool = False) -> Tensor:
    return _made(F.position(np.argmax, x._data, axis, keepdim))


def argmin(x: Tensor, axis: Optional[builtins.int] = None, keepdim: builtins.bool = False) -> Tensor:
    return _made(F.position(np.argmin, x._data, axis, keepdim))


def floor(x: Tensor) -> Tensor:
    return F.floor(x)


def ceil(x: Tensor) -> Tensor:
    return F.ceil(x)


def round(x: Tensor, decimals: builtins.int = 0, name: Optional[str] = None) -> Tensor:  # noqa: A001
    return F.round_decimals(x, decimals)


def allclose(x: Tensor, y: Tensor, rtol: float = 1e-05, atol: float = 1e-08,
             equal_nan: builtins.bool = False) -> Tensor:
    """A 0-D bool tensor, as paddle returns it."""
    return _made(np.allclose(x._data, y._data, rtol, atol, equal_nan))


def equal(x: Tensor, y: Any) -> Tensor:
    """Elementwise ``x == y`` (paddle's ``equal``; ``equal_all`` compares whole tensors)."""
    other = y._data if isinstance(y, Tensor) else y
    return _made(np.equal(x._data, other))


def equal_all(x: Tensor, y: Tensor) -> Tensor:
    """Whether ``x`` and ``y`` have the same shape and values (a 0-D bool tensor); operands of
    one shape and different dtypes are paddle's error (of different shapes, False)."""
    for position, (arg, value) in enumerate((("x", x), ("y", y))):
        if not isinstance(value, Tensor):
            raise Tensor._policy.error("equal_all_argument", arg=arg, position=position,
                                       got="None" if value is None else type(value).__name__)
    if x._data.shape != y._data.shape:
        return _made(np.asarray(False))
    if x._data.dtype != y._data.dtype:
        raise x._policy.error("dtype_container", want=y._data.dtype, have=x._data.dtype)
    return _made(np.asarray(np.array_equal(x._data, y._data)))


def assign(x: Any) -> Tensor:
    """A copy of ``x`` that records (``AssignGradNode``); data is taken in numpy's dtype
    (Python floats as float64), a number as shape [1]."""
    if isinstance(x, Tensor):
        return F.clone(x)
    array = np.array(x)
    return created(array.reshape(1) if array.ndim == 0 else array)


def mm(input: Tensor, mat2: Tensor) -> Tensor:  # noqa: A002
    return matmul(input, mat2)


def dot(x: Tensor, y: Tensor) -> Tensor:
    """Its kernel reads ``x`` as ``y``'s type: a mismatch names them the other way round from
    matmul's."""
    if x._data.dtype != y._data.dtype:
        raise x._policy.error("dtype_container", want=x._data.dtype, have=y._data.dtype)
    return C.named(matmul(x, y), "DotGradNode", x, y)


def bmm(x: Tensor, y: Tensor) -> Tensor:
    return C.named(matmul(x, y), "BmmGradNode", x, y)


def mv(x: Tensor, vec: Tensor) -> Tensor:
    """A matrix times a vector, recorded as one ``MvGradNode``."""
    return C.named(matmul(x, vec), "MvGradNode", x, vec)


def t(input: Tensor) -> Tensor:  # noqa: A002
    """The transpose of a matrix; a vector or a 0-d tensor as it is; more dimensions refused."""
    if input._data.ndim > 2:
        raise PADDLE.error("t_rank", ndim=input._data.ndim)
    return F.permute(input, (1, 0)) if input._data.ndim == 2 else input


def neg(x: Tensor) -> Tensor:
    return F.neg(x)


def sign(x: Tensor) -> Tensor:
    return F.sign(x)


def scale(x: Tensor, scale: float = 1.0, bias: float = 0.0,
          bias_after_scale: builtins.bool = True) -> Tensor:
    """``x * scale + bias`` (or ``(x + bias) * scale``)."""
    if bias_after_scale:
        return F.add(F.mul(x, scale), bias) if bias else unsigned_zeros(F.mul(x, scale), scale)
    return F.mul(F.add(x, bias), scale) if bias else F.mul(x, scale)


def flatten(x: Tensor, start_axis: builtins.int = 0, stop_axis: builtins.int = -1) -> Tensor:
    return C.named(F.flatten(x, start_axis, stop_axis), "FlattenGradNode", x)


def norm(x: Tensor, p: Any = "fro", axis: Any = None, keepdim: builtins.bool = False,
         name: Optional[str] = None) -> Tensor:
    """The ``p``-norm over ``axis`` (everything by default): one PNormGradNode."""
    return F.norm(x, p, tuple(axis) if isinstance(axis, (list, tuple)) else axis, keepdim)


def var(x: Tensor, axis: Any = None, unbiased: builtins.bool = True,
        keepdim: builtins.bool = False) -> Tensor:
    return F.variance_composed(x, axis, 1 if unbiased else 0, keepdim)


def std(x: Tensor, axis: Any = None, unbiased: builtins.bool = True,
        keepdim: builtins.bool = False) -> Tensor:
    return F.variance_composed(x, axis, 1 if unbiased else 0, keepdim, root=True)


def cumsum(x: Tensor, axis: Optional[builtins.int] = None, dtype: Any = None) -> Tensor:
    """Running sums along ``axis``; without one, over the flattened tensor."""
    return C.named(F.cumsum(F.flatten(x) if axis is None else x, 0 if axis is None else axis),
                   "CumsumGradNode", x)


def prod(x: Tensor, axis: Any = None, keepdim: builtins.bool = False, dtype: Any = None,
         name: Optional[str] = None) -> Tensor:
    """The product over ``axis`` (every element when None): one ProdGradNode."""
    return F.prod(x, tuple(axis) if isinstance(axis, (list, tuple)) else axis, keepdim)


def split(x: Tensor, num_or_sections: Any, axis: builtins.int = 0,
          name: Optional[str] = None) -> list[Tensor]:
    """``num`` equal pieces along ``axis`` (SplitWithNumGradNode), or pieces of the listed
    sizes, one of which may be -1 for the rest (SplitGradNode); new tensors, all outputs of one
    node."""
    d = F.normalize_dim(type(x), axis, x._data.ndim)
    shape = list(x._data.shape)
    size, policy = shape[d], x._policy
    if isinstance(num_or_sections, (list, tuple)):
        sizes = [builtins.int(s) for s in num_or_sections]
        if sizes.count(-1) == 1:
            sizes[sizes.index(-1)] = size - (builtins.sum(sizes) + 1)
        if builtins.sum(sizes) != size:
            raise policy.error("split_sections", sections=list(num_or_sections), shape=shape,
                               dim=d)
        return F.split(x, sizes, d, with_sizes=True)
    num = builtins.int(num_or_sections)
    if num <= 0 or size % num:
        raise policy.error("split_num", num=num, shape=shape, dim=d)
    return F.split(x, [size // num] * num, d, with_sizes=False)


def chunk(x: Tensor, chunks: builtins.int, axis: builtins.int = 0,
          name: Optional[str] = None) -> list[Tensor]:
    """``split`` into ``chunks`` equal pieces."""
    size = x._data.shape[F.normalize_dim(type(x), axis, x._data.ndim)]
    if not 0 < chunks <= size:
        raise x._policy.error("chunk_count", chunks=chunks, size=size)
    return split(x, chunks, axis)


def unbind(input: Tensor, axis: builtins.int = 0) -> list[Tensor]:  # noqa: A002
    """The slices along ``axis``, without it: new tensors, all outputs of one UnbindGradNode."""
    ndim = input._data.ndim
    if not -ndim <= axis < ndim:
        raise input._policy.error("unbind_axis", low=-ndim, high=ndim)
    return F.unbind(input, axis)


def unstack(x: Tensor, axis: builtins.int = 0, num: Optional[builtins.int] = None,
            name: Optional[str] = None) -> list[Tensor]:
    """The slices along ``axis``, without it, as new memory (UnstackGradNode; ``num`` is the
    count, which the shape already gives)."""
    ndim = x._data.ndim
    if not -ndim <= axis < ndim:
        raise x._policy.error("unstack_axis", low=-ndim, high=ndim)
    return F.unbind(x, axis, op="unstack")


def broadcast_tensors(input: Sequence[Tensor], name: Optional[str] = None) -> list[Tensor]:  # noqa: A002
    """Each tensor expanded to the shape they broadcast to, each a new tensor, all outputs of
    one BroadcastTensorsGradNode (whose kernel crashes unless every input needs a gradient and
    every output gets one: the policy refuses those passes)."""
    shape = F.broadcast_shape(Tensor, *(t._data.shape for t in input))

    def expanded(*tensors: Tensor) -> list[Tensor]:
        return [F.expand(t, shape) if t._data.shape != shape else F.clone(t) for t in tensors]

    return list(kernel_node.one_node("BroadcastTensorsGradNode", list(input), expanded))


def bitwise_and(x: Tensor, y: Tensor, out: Any = None, name: Optional[str] = None) -> Tensor:
    """``x & y`` of integer or boolean tensors."""
    return F.bitwise(np.bitwise_and, x, y)


def bitwise_or(x: Tensor, y: Tensor, out: Any = None, name: Optional[str] = None) -> Tensor:
    return F.bitwise(np.bitwise_or, x, y)


def bitwise_xor(x: Tensor, y: Tensor, out: Any = None, name: Optional[str] = None) -> Tensor:
    return F.bitwise(np.bitwise_xor, x, y)


def bitwise_not(x: Tensor, out: Any = None, name: Optional[str] = None) -> Tensor:
    return F.bitwise(np.invert, x)


def index_select(x: Tensor, index: Tensor, axis: builtins.int = 0) -> Tensor:
    return C.named(F.index_select(x, axis, index._data.reshape(-1)), "IndexSelectGradNode", x)


def tile(x: Tensor, repeat_times: Any) -> Tensor:
    return C.named(F.tile(x, repeat_times), "TileGradNode", x)


def repeat(x: Tensor, *sizes: Any) -> Tensor:
    """``Tensor.repeat(2, 3)`` or ``repeat([2, 3])``: ``tile`` as torch spells it."""
    return tile(x, list(sizes[0]) if len(sizes) == 1 and isinstance(sizes[0], (list, tuple)) else list(sizes))


def repeat_interleave(x: Tensor, repeats: Any, axis: Optional[builtins.int] = None,
                      name: Optional[str] = None, *, output_size: Any = None) -> Tensor:
    """Each element (or slice along ``axis``; the flattened tensor without one) repeated
    ``repeats`` times, a number or one count per element."""
    source = F.reshape(x, [-1]) if axis is None else x
    d = 0 if axis is None else F.normalize_dim(type(x), axis, x._data.ndim)
    counts = repeats._data if isinstance(repeats, Tensor) else repeats
    positions = np.repeat(np.arange(source._data.shape[d]), counts)
    picked = F.getitem(source, (builtins.slice(None),) * d + (positions,))
    by_tensor = isinstance(repeats, Tensor)
    return C.named(picked, f"RepeatInterleave{'WithTensorIndex' if by_tensor else ''}GradNode", x)


def unique(x: Tensor, return_index: builtins.bool = False, return_inverse: builtins.bool = False,
           return_counts: builtins.bool = False, axis: Optional[builtins.int] = None, dtype: Any = "int64",
           sorted: builtins.bool = True, name: Optional[str] = None) -> Any:  # noqa: A002
    """The distinct values sorted (or distinct slices along ``axis``), stopping gradient; with
    each value's first position, each element's value's position and the counts."""
    values, index, inverse, counts = np.unique(x._data, return_index=True, return_inverse=True,
                                               return_counts=True, axis=axis)
    extra = [Tensor._from_array(np.asarray(a).reshape(-1).astype(_np_dtype(dtype)))
             for a, wanted in ((index, return_index), (inverse, return_inverse), (counts, return_counts))
             if wanted]
    out = Tensor._from_array(values)
    return (out, *extra) if extra else out


def mode(x: Tensor, axis: builtins.int = -1, keepdim: builtins.bool = False,
         name: Optional[str] = None) -> Any:
    """The most frequent value along ``axis`` (the smallest of equally frequent ones) and the
    last position it holds; the gradient goes to that position (ModeGradNode)."""
    d = F.normalize_dim(type(x), axis, x._data.ndim)
    moved = np.moveaxis(x._data, d, -1)
    positions = np.empty(moved.shape[:-1], dtype=np.int64)
    for where in np.ndindex(*moved.shape[:-1]):
        row = moved[where]
        values, counts = np.unique(row, return_counts=True)
        chosen = values[np.argmax(counts)]
        positions[where] = len(row) - 1 - int(np.argmax(row[::-1] == chosen))
    index = np.expand_dims(positions, d)
    values = C.take_along(x, d, index)
    if not keepdim:
        values, index = F.squeeze(values, d), np.squeeze(index, d)
    return C.named(values, "ModeGradNode", x), Tensor._from_array(index)


def softmax_compat(x: Tensor, dim: Optional[builtins.int] = None, dtype: Any = None) -> Tensor:
    """``Tensor.softmax``: torch's signature (``dim``, the last axis by default)."""
    source = x if dtype is None else x.astype(dtype)
    return F.softmax(source, -1 if dim is None else dim)


def shape(input: Tensor) -> Tensor:  # noqa: A002
    """The shape as an int64 tensor."""
    return Tensor._from_array(np.asarray(input._data.shape, dtype=np.int64))


def slice(input: Tensor, axes: Any, starts: Any, ends: Any) -> Tensor:  # noqa: A001,A002
    """``input[starts[i]:ends[i]]`` along each of ``axes`` (SliceGradNode)."""
    index = [builtins.slice(None)] * input._data.ndim
    for axis, start, end in zip(axes, starts, ends):
        index[axis] = builtins.slice(int(start), int(end))
    return C.named(F.getitem(input, tuple(index)), "SliceGradNode", input)


def masked_fill(x: Tensor, mask: Tensor, value: Any) -> Tensor:
    return F.masked_fill(x, mask, value)


def flip(x: Tensor, axis: Any, name: Optional[str] = None) -> Tensor:
    return C.named(C.flip(x, C.dims_list(x, axis)), "FlipGradNode")


def roll(x: Tensor, shifts: Any, axis: Any = None, name: Optional[str] = None) -> Tensor:
    return C.named(C.roll(x, shifts, axis), "RollGradNode")


def tril(x: Tensor, diagonal: builtins.int = 0, name: Optional[str] = None) -> Tensor:
    return C.named(C.triangle(x, diagonal, lower=True), "TrilGradNode")


def triu(x: Tensor, diagonal: builtins.int = 0, name: Optional[str] = None) -> Tensor:
    return C.named(C.triangle(x, diagonal, lower=False), "TriuGradNode")


def diag(x: Tensor, offset: builtins.int = 0, padding_value: Any = 0,
         name: Optional[str] = None) -> Tensor:
    """A vector on a diagonal of a square matrix (``padding_value`` elsewhere), or a matrix's
    diagonal: one DiagGradNode either way."""
    if x._data.ndim == 1:
        return C.named(C.diagonal_matrix(x, offset, padding_value), "DiagGradNode")
    if x._data.ndim != 2:
        raise x._policy.error("diag_rank", ndim=x._data.ndim)
    return C.named(C.diagonal(x, offset), "DiagGradNode")


def diagonal(x: Tensor, offset: builtins.int = 0, axis1: builtins.int = 0, axis2: builtins.int = 1,
             name: Optional[str] = None) -> Tensor:
    return C.named(C.diagonal(x, offset, *C.dims_list(x, [axis1, axis2])), "DiagonalGradNode")


def trace(x: Tensor, offset: builtins.int = 0, axis1: builtins.int = 0, axis2: builtins.int = 1,
          name: Optional[str] = None) -> Tensor:
    if x._data.ndim < 2:
        raise x._policy.error("trace_rank", ndim=x._data.ndim)
    return C.named(F.sum(C.diagonal(x, offset, *C.dims_list(x, [axis1, axis2])), -1),
                   "TraceGradNode")


def outer(x: Tensor, y: Tensor, name: Optional[str] = None) -> Tensor:
    return C.outer(x, y)


def logsumexp(x: Tensor, axis: Any = None, keepdim: builtins.bool = False,
              name: Optional[str] = None) -> Tensor:
    axes = list(range(x._data.ndim)) if axis is None or axis == [] else C.dims_list(x, axis)
    return C.named(C.logsumexp(x, axes, keepdim), "LogsumexpGradNode")


def lerp(x: Tensor, y: Tensor, weight: Any, name: Optional[str] = None) -> Tensor:
    """``x + weight * (y - x)`` (LerpGradNode); paddle differentiates it for ``x`` and ``y``
    only: a weight tensor is no input of the graph."""
    if isinstance(weight, Tensor):
        weight = weight._detached()
    return C.named(C.lerp(x, y, weight), "LerpGradNode")


def hypot(x: Tensor, y: Tensor, name: Optional[str] = None) -> Tensor:
    """``sqrt(x**2 + y**2)``, composed as paddle composes it."""
    return C.hypot(x, y)


def logaddexp(x: Tensor, y: Tensor, name: Optional[str] = None) -> Tensor:
    """Composed as paddle composes it."""
    return C.logaddexp(x, y)


def gather(x: Tensor, index: Tensor, axis: Any = None, name: Optional[str] = None) -> Tensor:
    """The entries at ``index`` along ``axis`` (0 by default): one GatherGradNode."""
    axis = 0 if axis is None else builtins.int(axis)
    return C.named(F.index_select(x, axis, index._data.reshape(-1)), "GatherGradNode")


def add_n(inputs: Any, name: Optional[str] = None) -> Tensor:
    inputs = [inputs] if isinstance(inputs, Tensor) else list(inputs)
    if not inputs:
        raise Tensor._policy.error("empty_tensor_list", fn="add_n", arg="inputs")
    return C.named(C.add_all(inputs), "AddNGradNodeFinal")


def broadcast_to(x: Tensor, shape: Any, name: Optional[str] = None) -> Tensor:
    return F.expand(x, tuple(shape))


# paddle 3.3's result of topk: a named tuple of the values and the indices
TopKRetType = namedtuple("TopKRetType", ["values", "indices"])


def topk(x: Tensor, k: builtins.int, axis: Optional[builtins.int] = None,
         largest: builtins.bool = True, sorted: builtins.bool = True,  # noqa: A002
         name: Optional[str] = None) -> tuple[Tensor, Tensor]:
    """The ``k`` largest (or smallest) entries along ``axis`` (the last by default) and their
    indices (TopkGradNode)."""
    d = F.normalize_dim(type(x), -1 if axis is None else axis, x._data.ndim) if x._data.ndim else 0
    size = x._data.shape[d] if x._data.ndim else 1
    if k < 1:
        raise x._policy.error("topk_positive", k=k)
    if k > size:
        raise x._policy.error("topk_range", k=k, size=size)
    values, indices = C.top(x, k, d, largest)
    # the indices are an output of paddle's node too: recorded (stop_gradient False), though no
    # gradient flows back through them
    return TopKRetType(C.named(values, "TopkGradNode"), C.named(F.link(indices, x), "TopkGradNode"))


def sort(x: Tensor, axis: builtins.int = -1, descending: builtins.bool = False,
         stable: builtins.bool = False, name: Optional[str] = None) -> Tensor:
    """The entries sorted along ``axis`` (ArgsortGradNode)."""
    d = F.normalize_dim(type(x), axis, x._data.ndim) if x._data.ndim else 0
    if not x._data.ndim:
        return C.named(F.clone(x), "ArgsortGradNode")
    return C.named(C.take_along(x, d, C.sorted_positions(x, d, descending)), "ArgsortGradNode")


isnan, isinf, isfinite = (C.elementwise_test(t) for t in (np.isnan, np.isinf, np.isfinite))


def any(x: Tensor, axis: Any = None, keepdim: builtins.bool = False,  # noqa: A001
        name: Optional[str] = None) -> Tensor:
    return _made(np.any(x._data, axis=None if axis is None else tuple(C.dims_list(x, axis)),
                        keepdims=keepdim))


def all(x: Tensor, axis: Any = None, keepdim: builtins.bool = False,  # noqa: A001
        name: Optional[str] = None) -> Tensor:
    return _made(np.all(x._data, axis=None if axis is None else tuple(C.dims_list(x, axis)),
                        keepdims=keepdim))


def einsum(equation: str, *operands: Any) -> Tensor:
    """Einstein summation (composed), one EinsumGradNode, without a double grad as paddle's."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    with as_kernel("einsum_kernel"):
        out, _ = C.einsum(equation, operands)
    return C.named(out, "EinsumGradNode", *operands)


def uniform(shape: Any, dtype: Any = None, min: float = 0.0, max: float = 1.0,  # noqa: A002
            seed: int = 0, name: Optional[str] = None) -> Tensor:
    """Uniform draws in [min, max) of paddle's generator."""
    target = np.dtype(_np_dtype(dtype) or _DEFAULT_FLOAT[0])
    return _made(rng.generator("paddle").uniform(min, max, list(shape), target))


def normal(mean: float = 0.0, std: float = 1.0, shape: Any = None, name: Optional[str] = None) -> Tensor:
    """Normal draws of paddle's generator."""
    return _made(rng.generator("paddle").normal(mean, std, list(shape or [1]), np.dtype(_DEFAULT_FLOAT[0])))


def randint(low: int = 0, high: Any = None, shape: Any = (1,), dtype: Any = None,
            name: Optional[str] = None) -> Tensor:
    """Integers in [low, high) (``randint(high)`` from 0), int64 unless ``dtype``."""
    if high is None:
        low, high = 0, low
    drawn = rng.generator("paddle").integers(low, high, list(shape))
    return _made(drawn.astype(_np_dtype(dtype) or np.int64))


def randperm(n: int, dtype: Any = "int64", name: Optional[str] = None) -> Tensor:
    return _made(rng.generator("paddle").permutation(n).astype(_np_dtype(dtype) or np.int64))


def argsort(x: Tensor, axis: int = -1, descending: bool = False, stable: bool = False,
            name: Optional[str] = None) -> Tensor:
    """The positions that sort ``x`` along ``axis`` (int64): an output of paddle's argsort node
    (ArgsortGradNode, whose other output is the sorted values), so recorded where ``x`` requires
    grad, as topk's indices are."""
    positions = _made(C.sorted_positions(x, axis, descending).astype(np.int64))
    return C.named(F.link(positions, x), "ArgsortGradNode")


def masked_select(x: Tensor, mask: Tensor, name: Optional[str] = None) -> Tensor:
    """The entries where ``mask`` (broadcast to ``x``) is true, as one vector."""
    chosen = np.broadcast_to(mask._data.astype(bool), x._data.shape)
    return C.named(F.getitem(x, np.nonzero(chosen)), "MaskedSelectGradNode", x)


def meshgrid(*args: Any, name: Optional[str] = None) -> list[Tensor]:
    """Each 1-D tensor expanded over the grid of all of them ("ij" indexing)."""
    tensors = list(args[0]) if len(args) == 1 and isinstance(args[0], (list, tuple)) else list(args)
    sizes = [t._data.size for t in tensors]
    out = []
    for i, t in enumerate(tensors):
        shape = [1] * len(tensors)
        shape[i] = sizes[i]
        out.append(F.expand(F.reshape(t, shape), sizes))
    return out


# Tensor methods that are these functions (the facade attaches them)
TENSOR_METHODS = {
    **{name: globals()[name] for name in (
        "bitwise_and", "bitwise_not", "bitwise_or", "bitwise_xor", "broadcast_tensors", "unstack",
        "all", "any", "argmax", "argmin", "broadcast_to", "ceil", "cumsum", "diag", "diagonal",
        "flatten", "flip", "floor", "gather", "index_select", "isfinite", "isinf", "isnan", "lerp",
        "logsumexp", "masked_fill", "chunk", "neg", "norm", "outer", "prod", "roll", "round",
        "scale", "sign", "sort", "split", "std", "t", "tile", "topk", "trace", "tril", "triu",
        "unbind", "var", "argsort", "nonzero", "masked_select", "dot", "repeat", "repeat_interleave",
        "unique", "mode")},
    "eq": equal,
    "sigmoid": lambda self: F.sigmoid(self),
    "softmax": lambda self, dim=None, dtype=None: softmax_compat(self, dim, dtype),
    "T": property(t),
    "cast": cast,
    "square": square,
    "cpu": lambda self: self,
    **{f"{name}_": in_place_method(name, globals()[name]) for name in ("tril", "triu", "lerp")},
}


def save(obj: Any, path: Any, protocol: int = 4, **configs: Any) -> None:
    """``paddle.save`` over the engine's own checkpoint format (``reference_engine.checkpoint``)."""
    checkpoint.save(obj, path, "paddle")


def load(path: Any, **configs: Any) -> Any:
    """What ``save`` wrote, tensors as new tensors."""
    return checkpoint.load(path, Tensor, "paddle")
