"""Tensor functions real programs reach for around their autograd: comparisons, constructors,
and differentiable functions composed from the core's operations (so the derivative table stays
the single source of rules; node names are those of the composing operations)."""

from __future__ import annotations

import builtins
from typing import Any, Optional

import numpy as np

from reference_engine import composed as C
from reference_engine import formatting, recorder
from reference_engine import ops as F
from reference_engine import rules as R
from reference_engine.dialects import torch_layout
from reference_engine.dialects.torch_policy import TORCH
from reference_engine.graph import as_kernel
from reference_engine.messages import not_supported
from reference_engine.torch import autocast_ops, return_types
from reference_engine.torch._core import Tensor, _new, _np_dtype, _overloads, dtype, full, ones, tensor, zeros
from reference_engine.torch.random import drawing

__all__ = ["all", "allclose", "any", "broadcast_tensors", "eq", "ge", "gt", "le", "lt", "ne", "argsort",
           "einsum", "empty_like", "logical_and", "logical_not", "logical_or", "masked_select", "meshgrid",
           "multinomial", "nan_to_num", "nonzero", "rand_like", "randint", "randn_like", "randperm", "tile",
           "argmax", "argmin", "as_tensor", "bmm", "broadcast_to", "cumsum", "diag", "diagonal", "dot", "eye",
           "flatten", "flip", "from_numpy", "full_like", "gather", "hypot", "index_select", "isclose",
           "isfinite", "isinf", "isnan", "lerp", "logaddexp", "logsumexp", "masked_fill", "mv", "narrow",
           "norm", "numel", "outer", "prod", "repeat", "repeat_interleave", "roll", "select", "arccos",
           "arcsin", "arctan", "set_printoptions", "cdist", "sort", "split", "chunk", "square", "std", "topk",
           "trace", "tril", "triu", "unbind", "unique", "var"]



def allclose(input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08,  # noqa: A002
             equal_nan: builtins.bool = False) -> builtins.bool:
    return builtins.bool(np.allclose(input._data, other._data, rtol, atol, equal_nan))


def isclose(input: Tensor, other: Tensor, rtol: float = 1e-05, atol: float = 1e-08,  # noqa: A002
            equal_nan: builtins.bool = False) -> Tensor:
    return Tensor._from_array(np.isclose(input._data, other._data, rtol, atol, equal_nan))


def _comparison(op: str) -> Any:
    def compare(input: Tensor, other: Any) -> Tensor:  # noqa: A002
        return getattr(F, op)(input, other)

    compare.__name__ = op
    compare.__doc__ = f"``torch.{op}``: elementwise, a bool tensor outside any graph."
    return compare


eq, ne, lt, le, gt, ge = (_overloads(_comparison(op), op, "comparison", lambda a, b: a)
                          for op in ("eq", "ne", "lt", "le", "gt", "ge"))


def from_numpy(array: np.ndarray) -> Tensor:
    """A tensor sharing ``array``'s memory, as torch's does."""
    return Tensor._from_array(array)


def as_tensor(data: Any, dtype: Optional[dtype] = None, device: Any = None) -> Tensor:
    """``data`` itself where it is a tensor (or an array) of that dtype and device, else a copy."""
    if isinstance(data, Tensor):
        return data.to(dtype=dtype, device=device)
    if isinstance(data, np.ndarray) and dtype is None and device is None:
        return from_numpy(data)
    return tensor(data, dtype=dtype, device=device)


def eye(n: builtins.int, m: Optional[builtins.int] = None, dtype: Optional[dtype] = None,
        device: Any = None, requires_grad: builtins.bool = False) -> Tensor:
    return _new(np.eye(n, m, dtype=np.float32), _np_dtype(dtype, "eye"), requires_grad, device)


def full_like(input: Tensor, fill_value: float, dtype: Optional[dtype] = None,  # noqa: A002
              device: Any = None, requires_grad: builtins.bool = False) -> Tensor:
    target = _np_dtype(dtype, "full_like") or input._data.dtype
    values = torch_layout.like(input._data, np.full(input._data.shape, fill_value, dtype=target))
    return _new(values, None, requires_grad, device if device is not None else input._device)


def numel(input: Tensor) -> builtins.int:  # noqa: A002
    return builtins.int(input._data.size)


def _not_bool(input: Tensor, error: str, **fields: Any) -> None:  # noqa: A002
    """torch's kernels that have no bool version refuse a bool tensor."""
    if input._data.dtype == np.bool_:
        raise TORCH.error(error, **fields)


def argmax(input: Tensor, dim: Optional[builtins.int] = None,  # noqa: A002
           keepdim: builtins.bool = False) -> Tensor:
    _not_bool(input, "arg_extremum_bool", fn="argmax")
    return Tensor._from_array(F.position(np.argmax, input._data, dim, keepdim))


def argmin(input: Tensor, dim: Optional[builtins.int] = None,  # noqa: A002
           keepdim: builtins.bool = False) -> Tensor:
    _not_bool(input, "arg_extremum_bool", fn="argmin")
    return Tensor._from_array(F.position(np.argmin, input._data, dim, keepdim))


def dot(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    return F.matmul(input, other)


def mv(input: Tensor, vec: Tensor) -> Tensor:  # noqa: A002
    return F.matmul(input, vec)


@autocast_ops.lower_precision
def bmm(input: Tensor, mat2: Tensor) -> Tensor:  # noqa: A002
    return C.named(F.matmul(input, mat2), "BmmBackward0", input, mat2)


def square(input: Tensor) -> Tensor:  # noqa: A002
    return F.pow(input, 2)


def flatten(input: Tensor, start_dim: builtins.int = 0, end_dim: builtins.int = -1) -> Tensor:  # noqa: A002
    """Dimensions ``start_dim`` to ``end_dim`` merged; torch returns the tensor itself when that
    range is one dimension."""
    ndim = input._data.ndim
    if ndim and F.normalize_dim(Tensor, start_dim, ndim) == F.normalize_dim(Tensor, end_dim, ndim):
        return input
    return F.flatten(input, start_dim, end_dim)


def norm(input: Tensor, p: Any = "fro", dim: Any = None,  # noqa: A002
         keepdim: builtins.bool = False) -> Tensor:
    """The ``p``-norm over everything or over ``dim`` (LinalgVectorNormBackward0)."""
    return F.norm(input, p, dim, keepdim)


def cdist(x1: Tensor, x2: Tensor, p: builtins.float = 2.0,
          compute_mode: str = "use_mm_for_euclid_dist_if_necessary") -> Tensor:
    """The ``p``-norm distance of every row of ``x1`` to every row of ``x2`` (batched alike),
    one CdistBackward0 over the rows' differences. Refused by name: the matrix-product path
    torch takes for Euclidean distances of more than 25 rows."""
    rows = (x1._data.shape[-2], x2._data.shape[-2])
    by_product = compute_mode == "use_mm_for_euclid_dist" or (
        compute_mode == "use_mm_for_euclid_dist_if_necessary" and builtins.max(rows) > 25)
    if p == 2 and by_product:
        raise not_supported("cdist's matrix-product path (Euclidean distances of more than 25 rows)", "torch")
    with as_kernel("cdist_kernel"):  # (differentiable once: see TorchPolicy.once_differentiable_kernels)
        differences = F.sub(F.unsqueeze(x1, -2), F.unsqueeze(x2, -3))
        return C.named(F.norm(differences, p, (-1,), False), "CdistBackward0", x1, x2)


@autocast_ops.float32
def prod(input: Tensor, dim: Optional[builtins.int] = None,  # noqa: A002
         keepdim: builtins.bool = False, *, dtype: Optional[dtype] = None) -> Tensor:
    """The product of every element (ProdBackward0), or along ``dim`` (ProdBackward1), in
    ``dtype`` when given (the input cast first)."""
    return F.prod(input if dtype is None else input.to(dtype), dim, keepdim)


def split(tensor: Tensor, split_size_or_sections: Any, dim: builtins.int = 0) -> tuple[Tensor, ...]:
    """Pieces of ``split_size`` along ``dim`` (the last one smaller), or of the listed sizes:
    views of the tensor, all outputs of one node."""
    d = F.normalize_dim(type(tensor), dim, tensor._data.ndim)
    size, policy = tensor._data.shape[d], tensor._policy
    if isinstance(split_size_or_sections, (list, tuple)):
        sizes = [builtins.int(s) for s in split_size_or_sections]
        if builtins.any(s < 0 for s in sizes):
            raise policy.error("split_sizes_negative", sizes=sizes)
        if builtins.sum(sizes) != size:
            raise policy.error("split_sizes_sum", size=size, dim=d, sizes=sizes)
        return tuple(F.split(tensor, sizes, d, with_sizes=True))
    step = builtins.int(split_size_or_sections)
    if step < 0:
        raise policy.error("split_size_negative", split=step)
    if step == 0 and size != 0:
        raise policy.error("split_size_zero", size=size)
    sizes = [step] * (size // step) + ([size % step] if size % step else [])
    return tuple(F.split(tensor, sizes, d, with_sizes=False))


def chunk(input: Tensor, chunks: builtins.int, dim: builtins.int = 0) -> tuple[Tensor, ...]:  # noqa: A002
    """At most ``chunks`` pieces along ``dim``, each ``ceil(size / chunks)`` long but the last."""
    if chunks <= 0:
        raise input._policy.error("chunk_count", chunks=chunks)
    size = input._data.shape[F.normalize_dim(type(input), dim, input._data.ndim)]
    return split(input, -(-size // chunks), dim)


def unbind(input: Tensor, dim: builtins.int = 0) -> tuple[Tensor, ...]:  # noqa: A002
    """The slices along ``dim``, without it: views of the tensor, all outputs of one node."""
    return tuple(F.unbind(input, dim))


def var(input: Tensor, dim: Any = None, unbiased: builtins.bool = True,  # noqa: A002
        keepdim: builtins.bool = False, correction: Optional[builtins.int] = None) -> Tensor:
    """``correction`` 1 (unbiased) by default."""
    correction = (1 if unbiased else 0) if correction is None else correction
    return F.variance_node(input, dim, correction, keepdim)


def std(input: Tensor, dim: Any = None, unbiased: builtins.bool = True,  # noqa: A002
        keepdim: builtins.bool = False, correction: Optional[builtins.int] = None) -> Tensor:
    correction = (1 if unbiased else 0) if correction is None else correction
    return F.variance_node(input, dim, correction, keepdim, root=True)


def masked_fill(input: Tensor, mask: Tensor, value: Any) -> Tensor:  # noqa: A002
    """A 0-d tensor ``value`` is its own kernel (MaskedFillBackward1), a number the other."""
    out = F.masked_fill(input, mask, value)
    return C.named(out, "MaskedFillBackward1", input) if isinstance(value, Tensor) else out


def gather(input: Tensor, dim: builtins.int, index: Tensor) -> Tensor:  # noqa: A002
    return F.gather(input, dim, index._data.astype(np.int64))


def index_select(input: Tensor, dim: builtins.int, index: Tensor) -> Tensor:  # noqa: A002
    return C.named(F.index_select(input, dim, index._data.reshape(-1)), "IndexSelectBackward0",
                   input)


def repeat_interleave(input: Tensor, repeats: Any = None,  # noqa: A002
                      dim: Optional[builtins.int] = None, *, output_size: Any = None) -> Tensor:
    """Each element (or slice along ``dim``; of the flattened input without one) repeated:
    a number of times as a view of an expanded copy (ViewBackward0), a tensor of counts as an
    index_select (IndexSelectBackward0); ``repeat_interleave(counts)`` alone repeats each index."""
    if repeats is None:
        counts = input._data.reshape(-1)
        return Tensor._from_array(np.repeat(np.arange(counts.size, dtype=np.int64), counts))
    source = input if dim is not None else F.reshape(input, [-1])
    d = 0 if dim is None else F.normalize_dim(type(input), dim, input._data.ndim)
    if isinstance(repeats, Tensor):
        counts = np.broadcast_to(repeats._data.reshape(-1), (source._data.shape[d],))
        index = np.repeat(np.arange(source._data.shape[d]), counts)
        return C.named(F.index_select(source, d, index), "IndexSelectBackward0", input)
    times = builtins.int(repeats)
    shape = list(source._data.shape)
    expanded = F.clone(F.expand(F.unsqueeze(source, d + 1), shape[:d + 1] + [times] + shape[d + 1:]))
    return F.reshape(expanded, shape[:d] + [shape[d] * times] + shape[d + 1:])


def _random_(self: Tensor, *bounds: builtins.int, generator: Any = None, **named: Any) -> Tensor:
    """``Tensor.random_(from, to)``, ``random_(to)`` or ``random_()``: integers in [from, to)
    written in place (with no bound: from 0 to 2^digits of a float dtype, inclusive, or the
    int64 range), by torch's generator."""
    bounds = (*bounds, *(named[k] for k in ("from", "to") if k in named))
    from_, to = (0, bounds[0]) if len(bounds) == 1 else (bounds + (0, None))[:2]
    draws, shape = drawing(generator), self._data.shape
    count = builtins.int(np.prod(shape))
    if to is None and self._data.dtype.kind == "f":
        digits = 53 if self._data.dtype == np.float64 else 24
        raw = draws.random64(count) if digits == 53 else draws.random32(count)
        values = (raw % np.uint64((1 << digits) + 1)).reshape(shape)
    elif to is None:
        values = np.array([draws.full_range_int64() for _ in range(count)]).reshape(shape)
    else:
        values = draws.integers(from_, to, shape)
    return self._in_place("fill", value=values.astype(self._data.dtype), api="random_")


def set_printoptions(precision: Any = None, threshold: Any = None, edgeitems: Any = None,
                     linewidth: Any = None, profile: Any = None, sci_mode: Any = None) -> None:
    """How tensors print from now on (``reference_engine.formatting``)."""
    formatting.set_print_options(precision, threshold, edgeitems, linewidth, profile, sci_mode)


def arccos(input: Tensor) -> Tensor:  # noqa: A002
    return input.acos()


def arcsin(input: Tensor) -> Tensor:  # noqa: A002
    return input.asin()


def arctan(input: Tensor) -> Tensor:  # noqa: A002
    return input.atan()


def repeat(input: Tensor, *sizes: Any) -> Tensor:  # noqa: A002
    sizes = tuple(sizes[0]) if len(sizes) == 1 and not isinstance(sizes[0], builtins.int) \
        else tuple(sizes)
    return C.named(F.tile(input, sizes), "RepeatBackward0", input)


def cumsum(input: Tensor, dim: builtins.int, *, dtype: Optional[dtype] = None) -> Tensor:  # noqa: A002
    """Running sums along ``dim`` (a 0-d tensor's one "dim" too), in ``dtype`` when given."""
    source = input if dtype is None else input.to(dtype)
    if source._data.ndim == 0:
        F.normalize_dim(type(source), dim, 0)
        return C.named(F.clone(source), "CumsumBackward0", source)
    return C.named(F.cumsum(source, dim), "CumsumBackward0", source)


def flip(input: Tensor, *dims: Any, **named: Any) -> Tensor:  # noqa: A002
    """``torch.flip(input, dims)``, ``flip(input, dims=...)``, ``input.flip(0, 1)``
    (FlipBackward0)."""
    dims = named.pop("dims") if "dims" in named else dims[0] if len(dims) == 1 else dims
    return C.named(C.flip(input, C.dims_list(input, dims)), "FlipBackward0")


def roll(input: Tensor, shifts: Any, dims: Any = None) -> Tensor:  # noqa: A002
    return C.named(C.roll(input, shifts, dims), "RollBackward0")


def tril(input: Tensor, diagonal: builtins.int = 0) -> Tensor:  # noqa: A002
    return C.named(C.triangle(input, diagonal, lower=True), "TrilBackward0")


def triu(input: Tensor, diagonal: builtins.int = 0) -> Tensor:  # noqa: A002
    return C.named(C.triangle(input, diagonal, lower=False), "TriuBackward0")


def diag(input: Tensor, diagonal: builtins.int = 0) -> Tensor:  # noqa: A002
    """A vector on a diagonal of a square matrix (DiagEmbedBackward0), or a matrix's diagonal
    (DiagonalBackward0_copy)."""
    if input._data.ndim == 1:
        return C.named(C.diagonal_matrix(input, diagonal), "DiagEmbedBackward0")
    if input._data.ndim != 2:
        raise input._policy.error("diag_rank", ndim=input._data.ndim)
    return C.named(C.diagonal(input, diagonal), "DiagonalBackward0_copy")


def diagonal(input: Tensor, offset: builtins.int = 0, dim1: builtins.int = 0,  # noqa: A002
             dim2: builtins.int = 1) -> Tensor:
    d1, d2 = C.dims_list(input, [dim1, dim2])
    return C.named(C.diagonal(input, offset, d1, d2), "DiagonalBackward0")


def trace(input: Tensor) -> Tensor:  # noqa: A002
    return C.named(F.sum(C.diagonal(input)), "TraceBackward0")


def outer(input: Tensor, vec2: Tensor) -> Tensor:  # noqa: A002
    return C.outer(input, vec2)


def logsumexp(input: Tensor, dim: Any, keepdim: builtins.bool = False) -> Tensor:  # noqa: A002
    return C.named(C.logsumexp(input, C.dims_list(input, dim), keepdim), "LogsumexpBackward0")


def narrow(input: Tensor, dim: builtins.int, start: builtins.int,  # noqa: A002
           length: builtins.int) -> Tensor:
    """A view of ``length`` entries from ``start`` (a number or a 0-d tensor) along ``dim``
    (SliceBackward0)."""
    d = F.normalize_dim(type(input), dim, input._data.ndim)
    size = input._data.shape[d]
    start = builtins.int(start.item()) if isinstance(start, Tensor) else start
    start = start + size if start < 0 else start
    if start + length > size:
        raise input._policy.error("narrow_range", start=start, length=length, size=size)
    return F.getitem(input, (slice(None),) * d + (slice(start, start + length),))


def select(input: Tensor, dim: builtins.int, index: builtins.int) -> Tensor:  # noqa: A002
    """A view of the entries at ``index`` along ``dim``, without it (SelectBackward0)."""
    d = F.normalize_dim(type(input), dim, input._data.ndim)
    return F.getitem(input, (slice(None),) * d + (index,))


def lerp(input: Tensor, end: Tensor, weight: Any) -> Tensor:  # noqa: A002
    """(LerpBackward0 for a number weight, LerpBackward1 for a tensor)"""
    name = "LerpBackward1" if isinstance(weight, Tensor) else "LerpBackward0"
    return C.named(C.lerp(input, end, weight), name)


def hypot(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    return C.named(C.hypot(input, other), "HypotBackward0")


def logaddexp(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    return C.named(C.logaddexp(input, other), "LogaddexpBackward0")


def broadcast_to(input: Tensor, size: Any) -> Tensor:  # noqa: A002
    return F.expand(input, tuple(size))


def broadcast_tensors(*tensors: Tensor) -> tuple[Tensor, ...]:
    """Each tensor expanded to the shape they broadcast to (ExpandBackward0); one already of
    that shape comes back itself."""
    shape = F.broadcast_shape(Tensor, *(t._data.shape for t in tensors))
    return tuple(t if t._data.shape == shape else F.expand(t, shape) for t in tensors)


def topk(input: Tensor, k: builtins.int, dim: builtins.int = -1,  # noqa: A002
         largest: builtins.bool = True, sorted: builtins.bool = True) -> Any:  # noqa: A002
    """The ``k`` largest (or smallest) entries along ``dim`` and their indices (TopkBackward0)."""
    _not_bool(input, "topk_bool")
    d = F.normalize_dim(type(input), dim, input._data.ndim) if input._data.ndim else 0
    if not 0 <= k <= (input._data.shape[d] if input._data.ndim else 1):
        raise input._policy.error("topk_range")
    values, indices = C.top(input, k, d, largest)
    return return_types.topk(C.named(values, "TopkBackward0"), indices)


def sort(input: Tensor, dim: builtins.int = -1, descending: builtins.bool = False,  # noqa: A002
         stable: builtins.bool = False) -> Any:
    """The entries sorted along ``dim`` and where each came from (SortBackward0)."""
    d = F.normalize_dim(type(input), dim, input._data.ndim) if input._data.ndim else 0
    positions = C.sorted_positions(input, d, descending)
    values = C.take_along(input, d, positions) if input._data.ndim else F.clone(input)
    return return_types.sort(C.named(values, "SortBackward0"),
                           Tensor._from_array(positions.astype(np.int64)))


def unique(input: Tensor, sorted: builtins.bool = True, return_inverse: builtins.bool = False,  # noqa: A002
           return_counts: builtins.bool = False, dim: Optional[builtins.int] = None) -> Any:
    """The distinct values, sorted (the CPU kernel sorts whatever ``sorted`` says), over all
    elements or the distinct slices along ``dim``; with the position of each element's value
    and how often each value occurs. Recorded (Unique2Backward0, UniqueDimBackward0), but
    torch has no derivative for it."""
    axis = None if dim is None else F.normalize_dim(type(input), dim, input._data.ndim)
    _, inverse, counts = np.unique(input._data, return_inverse=True, return_counts=True, axis=axis)
    op, attrs = ("unique", {}) if axis is None else ("unique_dim", {"dim": axis})
    values = recorder.apply(R.RULES[op], (input,), attrs)
    shapes = (input._data.shape if axis is None else (-1,), (-1,))
    extra = [Tensor._from_array(a.reshape(shape).astype(np.int64))
             for a, shape, wanted in zip((inverse, counts), shapes, (return_inverse, return_counts))
             if wanted]
    return (values, *extra) if extra else values


isnan, isinf, isfinite = (C.elementwise_test(t) for t in (np.isnan, np.isinf, np.isfinite))


def any(input: Tensor, dim: Optional[builtins.int] = None,  # noqa: A001,A002
        keepdim: builtins.bool = False) -> Tensor:
    return Tensor._from_array(np.asarray(np.any(input._data, axis=dim, keepdims=keepdim)))


def all(input: Tensor, dim: Optional[builtins.int] = None,  # noqa: A001,A002
        keepdim: builtins.bool = False) -> Tensor:
    return Tensor._from_array(np.asarray(np.all(input._data, axis=dim, keepdims=keepdim)))


def new_zeros(self: Tensor, *size: Any, dtype: Optional[dtype] = None, device: Any = None) -> Tensor:
    return zeros(*size, dtype=dtype or self.dtype, device=device or self._device)


def new_ones(self: Tensor, *size: Any, dtype: Optional[dtype] = None, device: Any = None) -> Tensor:
    return ones(*size, dtype=dtype or self.dtype, device=device or self._device)


def new_full(self: Tensor, size: Any, fill_value: float, dtype: Optional[dtype] = None,
             device: Any = None) -> Tensor:
    return full(size, fill_value, dtype=dtype or self.dtype, device=device or self._device)


def new_tensor(self: Tensor, data: Any, dtype: Optional[dtype] = None, device: Any = None) -> Tensor:
    return tensor(data, dtype=dtype or self.dtype, device=device or self._device)


def _integral(t: Tensor, target: Any) -> Tensor:
    """An integer copy (``long()``, ``int()``, ``short()``, ``char()``, ``byte()``): recorded by
    nothing."""
    return F.cast(t, target)


# Tensor methods that are these functions (the facade attaches them)
def _contiguous_copy(t: Tensor) -> Tensor:
    """A copy (CloneBackward0) of a tensor whose memory is not in order, laid out in order."""
    out = F.clone(t)
    out._data = np.ascontiguousarray(out._data)
    return out


@autocast_ops.lower_precision
def einsum(equation: str, *operands: Any) -> Tensor:
    """Einstein summation (composed; the result's node named as torch's einsum names it: a
    view after a contraction of several operands, a product without one, a sum or a permute
    of one operand)."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    out, contracts = C.einsum(equation, operands)
    if len(operands) > 1:
        name = "ViewBackward0" if contracts else "MulBackward0"
    else:
        name = "SumBackward1" if contracts else "PermuteBackward0"
    return C.named(out, name, *operands)


def _drawn_like(api: str, draw: Any) -> Any:
    def like(input: Tensor, dtype: Optional[dtype] = None, requires_grad: builtins.bool = False,  # noqa: A002
             **_: Any) -> Tensor:
        target = _np_dtype(dtype, api) or input._data.dtype
        return _new(np.asarray(draw(input._data.shape, target)).astype(target), None, requires_grad)

    return like


randn_like = _drawn_like("randn_like", lambda shape, d: drawing(None).normal(0.0, 1.0, shape, d))
rand_like = _drawn_like("rand_like", lambda shape, d: drawing(None).uniform(0.0, 1.0, shape, d))
empty_like = _drawn_like("empty_like", lambda shape, d: np.zeros(shape, d))  # torch leaves them unset


def randint(low: builtins.int, high: Any = None, size: Any = None, *, generator: Any = None,
            dtype: Optional[dtype] = None, device: Any = None, requires_grad: builtins.bool = False,
            **_: Any) -> Tensor:
    """Integers in [low, high) (``randint(high, size)`` from 0) of torch's generator, int64 unless
    ``dtype``."""
    if size is None:
        low, high, size = 0, low, high
    values = drawing(generator).integers(low, high, tuple(size))
    return _new(values.astype(_np_dtype(dtype, "randint") or np.int64), None, requires_grad, device)


def multinomial(input: Tensor, num_samples: builtins.int, replacement: builtins.bool = False,  # noqa: A002
                *, generator: Any = None) -> Tensor:
    """Indices drawn from each row's weights by torch's generator: with replacement and more
    than one sample, a float64 uniform per sample searched in the row's cumulative
    distribution; otherwise (torch's fast path) the largest weights divided by exponential
    draws of the weights' dtype, one per weight."""
    weights = np.atleast_2d(input._data.astype(np.float64))
    if not replacement and num_samples > weights.shape[-1]:
        raise input._policy.error("multinomial_samples")
    draws = drawing(generator)
    rows = []
    for w, given in zip(weights, np.atleast_2d(input._data)):
        if replacement and num_samples > 1:
            cumulative = np.cumsum(w) / w.sum()
            uniform = draws.uniform(0.0, 1.0, (num_samples,), np.float64)
            rows.append(np.searchsorted(cumulative, uniform, side="left"))
        else:
            exponential = (-np.log1p(-draws.uniform(0.0, 1.0, w.shape, np.float64))).astype(given.dtype)
            keys = given / exponential
            rows.append(np.argsort(-keys, kind="stable")[:num_samples])
    drawn = np.asarray(rows, dtype=np.int64)
    return Tensor._from_array(drawn if input._data.ndim == 2 else drawn[0])


def randperm(n: builtins.int, *, generator: Any = None, dtype: Optional[dtype] = None, device: Any = None,
             requires_grad: builtins.bool = False, **_: Any) -> Tensor:
    values = drawing(generator).permutation(n).astype(_np_dtype(dtype, "randperm") or np.int64)
    return _new(values, None, requires_grad, device)


def argsort(input: Tensor, dim: builtins.int = -1, descending: builtins.bool = False,  # noqa: A002
            stable: builtins.bool = False) -> Tensor:
    """The positions that sort ``input`` along ``dim`` (int64, outside any graph)."""
    return Tensor._from_array(C.sorted_positions(input, dim, descending).astype(np.int64))


def nonzero(input: Tensor, *, as_tuple: builtins.bool = False) -> Any:  # noqa: A002
    """The positions of the non-zero entries: one row per entry, or one tensor per dimension."""
    found = np.nonzero(input._data if input._data.ndim else input._data.reshape(1))
    if as_tuple:
        return tuple(Tensor._from_array(f.astype(np.int64)) for f in found)
    return Tensor._from_array(np.stack(found, axis=1).astype(np.int64))


def masked_select(input: Tensor, mask: Tensor) -> Tensor:  # noqa: A002
    """The entries where ``mask`` (broadcast to ``input``) is true, as one vector."""
    chosen = np.broadcast_to(mask._data.astype(bool), input._data.shape)
    return C.named(F.getitem(input, np.nonzero(chosen)), "MaskedSelectBackward0", input)


def nan_to_num(input: Tensor, nan: float = 0.0, posinf: Optional[float] = None,  # noqa: A002
               neginf: Optional[float] = None) -> Tensor:
    """NaN and infinities replaced by numbers (the largest finite ones by default); no gradient
    reaches the replaced entries."""
    replaced = np.nan_to_num(input._data, nan=nan, posinf=posinf, neginf=neginf)
    finite = F.constant_like(input, np.isfinite(input._data))
    return C.named(F.where(finite, input, F.constant_like(input, replaced)), "NanToNumBackward0", input)


def tile(input: Tensor, dims: Any) -> Tensor:  # noqa: A002
    """``repeat`` with ``dims`` padded with ones at the front to the tensor's rank."""
    dims = tuple(dims)
    dims = (1,) * (input._data.ndim - len(dims)) + dims
    return repeat(input, *dims)


def meshgrid(*tensors: Any, indexing: str = "ij") -> tuple[Tensor, ...]:
    """Each 1-D tensor expanded over the grid of all of them (``"xy"``: the first two swapped)."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    sizes = [t._data.size for t in tensors]
    if indexing == "xy" and len(tensors) >= 2:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    out = []
    for i, t in enumerate(tensors):
        axis = (1 - i if i < 2 else i) if indexing == "xy" and len(tensors) >= 2 else i
        shape = [1] * len(tensors)
        shape[axis] = t._data.size
        out.append(F.expand(F.reshape(t, shape), sizes))
    return tuple(out)


def _logical(test: Any) -> Any:
    def logical(input: Tensor, other: Any = None) -> Tensor:  # noqa: A002
        values = test(input._data) if other is None else test(input._data, getattr(other, "_data", other))
        return Tensor._from_array(np.asarray(values, dtype=bool))

    return logical


logical_not, logical_and, logical_or = (_logical(t) for t in (np.logical_not, np.logical_and, np.logical_or))


TENSOR_METHODS = {
    **{name: globals()[name] for name in (
        "all", "allclose", "any", "argmax", "argmin", "bmm", "broadcast_to", "cumsum", "diag",
        "diagonal", "dot", "flatten", "flip", "gather", "hypot", "index_select", "isclose",
        "isfinite", "isinf", "isnan", "lerp", "logaddexp", "logsumexp", "masked_fill", "mv",
        "narrow", "new_full", "new_ones", "new_tensor", "new_zeros", "norm", "chunk", "outer",
        "prod", "repeat", "roll", "select", "sort", "split", "square", "std", "topk", "trace",
        "tril", "triu", "unbind", "var", "eq", "ne", "lt", "le", "gt", "ge", "argsort",
        "logical_and", "logical_not", "logical_or", "masked_select", "nan_to_num", "tile", "unique",
        "multinomial", "repeat_interleave", "arccos", "arcsin", "arctan")},
    "random_": _random_,
    "is_floating_point": lambda self: builtins.bool(self._data.dtype.kind == "f"),
    "bool": lambda self: _integral(self, np.bool_),
    "nelement": lambda self: builtins.int(self._data.size),
    "new_empty": lambda self, *size, dtype=None: new_zeros(self, *size, dtype=dtype),
    "contiguous": lambda self, memory_format=None: self if self._data.flags.c_contiguous
    else _contiguous_copy(self),
    "is_contiguous": lambda self, memory_format=None: bool(self._data.flags.c_contiguous),
    "long": lambda self: _integral(self, np.int64),
    "int": lambda self: _integral(self, np.int32),
    "short": lambda self: _integral(self, np.int16),
    "char": lambda self: _integral(self, np.int8),
    "byte": lambda self: _integral(self, np.uint8),
}
