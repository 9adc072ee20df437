"""More of torch's namespace, as aliases and compositions of what the facade has: each is
checked against torch's own OpInfo samples where torch has them (values, dtypes, node names,
first derivatives and errors; ``tests/test_opinfo.py``). A form one of them does not model is
refused by name. Functions here are also Tensor methods where torch has the method."""

from __future__ import annotations

import builtins
from typing import Any, Optional, Sequence

import numpy as np

from reference_engine import composed as C
from reference_engine import grad_mode, recorder
from reference_engine import ops as F
from reference_engine import rule_helpers as H
from reference_engine.messages import not_supported
from reference_engine.rule import RULES
from reference_engine.torch import extras, small_ops
from reference_engine.torch._core import TORCH, Tensor, abs, neg, tensor  # noqa: A004

__all__ = ["absolute", "addmm", "argwhere", "atleast_1d", "atleast_2d", "atleast_3d", "column_stack",
           "conj", "corrcoef", "cov", "dist", "dsplit", "dstack", "fliplr", "flipud", "ger", "hsplit",
           "inner", "is_complex", "is_floating_point", "is_nonzero", "isneginf", "isposinf", "isreal",
           "nanmean", "nansum", "narrow_copy", "negative", "not_equal", "positive", "ravel", "real",
           "resolve_conj", "resolve_neg", "row_stack", "signbit", "swapdims", "take", "tensor_split",
           "trapezoid", "trapz", "tril_indices", "triu_indices", "unflatten", "vdot", "vsplit"]

absolute = abs
negative = neg
row_stack = small_ops.vstack
ger = extras.outer  # (torch's older name)


def tensor_split(input: Tensor, indices_or_sections: Any, dim: builtins.int = 0) -> tuple[Tensor, ...]:  # noqa: A002
    """Views of ``input`` along ``dim`` (SliceBackward0 each): ``n`` sections, the first
    ``size % n`` one longer, or pieces cut at the listed indices."""
    d = F.normalize_dim(type(input), dim, input._data.ndim)
    size = input._data.shape[d]
    if isinstance(indices_or_sections, builtins.int):
        if indices_or_sections <= 0:
            raise TORCH.error("sections_positive", count=indices_or_sections)
        base, extra = divmod(size, indices_or_sections)
        lengths = [base + (i < extra) for i in range(indices_or_sections)]
        cuts = list(np.cumsum([0, *lengths]))
    else:
        cuts = [0, *[builtins.min(builtins.max(int(i), 0), size) for i in indices_or_sections], size]
    return tuple(extras.narrow(input, d, int(start), builtins.max(int(end) - int(start), 0))
                 for start, end in zip(cuts[:-1], cuts[1:]))


def _split_along(name: str, dim: builtins.int, least: builtins.int) -> Any:
    def split(input: Tensor, indices_or_sections: Any) -> tuple[Tensor, ...]:  # noqa: A002
        along = dim if input._data.ndim >= 2 or name != "hsplit" else 0
        if input._data.ndim < least:
            raise TORCH.error("split_rank", fn=name, least=least, ndim=input._data.ndim)
        size = input._data.shape[along]
        if isinstance(indices_or_sections, builtins.int) and (
                indices_or_sections == 0 or size % indices_or_sections):
            raise TORCH.error("split_divisible", fn=name, dim=along, size=size, sections=indices_or_sections)
        return tensor_split(input, indices_or_sections, along)

    split.__name__ = name
    split.__doc__ = f"``torch.{name}``: ``tensor_split`` along dimension {dim}, equal sections only."
    return split


hsplit = _split_along("hsplit", 1, 1)
vsplit = _split_along("vsplit", 0, 2)
dsplit = _split_along("dsplit", 2, 3)


def cov(input: Tensor, *, correction: builtins.int = 1, fweights: Any = None, aweights: Any = None) -> Tensor:  # noqa: A002
    """The covariance of the rows of ``input`` (variables) over its columns (observations), as
    torch composes it: centred, multiplied by its transpose, divided by ``n - correction``,
    squeezed (SqueezeBackward0). An integer input is taken in the default float dtype; no
    degrees of freedom warn and divide by 0."""
    if fweights is not None or aweights is not None:
        raise not_supported("cov with fweights or aweights", "torch")
    if input._data.ndim > 2:
        raise TORCH.error("cov_rank", ndim=input._data.ndim)
    if not is_floating_point(input):
        input = F.cast(input, np.float32)  # noqa: A001
    observations = input if input._data.ndim == 2 else F.reshape(input, (1, -1))
    count = observations._data.shape[1]
    centred = F.sub(observations, F.unsqueeze(F.mean(observations, 1), 1))
    product = F.matmul(centred, F.t(centred))
    factor = count - correction
    if factor <= 0:
        TORCH.warn("cov_degrees_of_freedom")
        factor = 0
    return F.squeeze(F.div(product, factor))


def corrcoef(input: Tensor) -> Tensor:  # noqa: A002
    """``cov`` divided by the standard deviations along both sides, clamped to [-1, 1]
    (ClampBackward1); a single variable's is ``c / c``."""
    c = cov(input)
    if c._data.ndim == 0:
        return F.div(c, c)
    deviation = F.sqrt(extras.diagonal(c))
    c = F.div(F.div(c, F.reshape(deviation, (-1, 1))), F.reshape(deviation, (1, -1)))
    return F.clamp(c, -1.0, 1.0)


def take(input: Tensor, index: Tensor) -> Tensor:  # noqa: A002
    """``input``'s elements at ``index`` in its flattened order, in the index's shape
    (TakeBackward0)."""
    positions = np.asarray(index._data, np.int64)
    count = input._data.size
    bad = positions[(positions >= count) | (positions < -count)]
    if bad.size:
        raise TORCH.error("take_range", index=int(bad.flat[0]), count=count)
    flat = F.reshape(input, (count,))
    return C.named(F.getitem(flat, positions % builtins.max(count, 1)), "TakeBackward0", input)


def narrow_copy(input: Tensor, dim: builtins.int, start: builtins.int, length: builtins.int) -> Tensor:  # noqa: A002
    """A copy of ``narrow``'s view (NarrowCopyBackward0)."""
    return C.named(F.clone(extras.narrow(input, dim, start, length)), "NarrowCopyBackward0", input)


def addmm(input: Tensor, mat1: Tensor, mat2: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:  # noqa: A002
    """``beta * input + alpha * mat1 @ mat2`` (AddmmBackward0): two matrices, and an input that
    expands to their product's shape."""
    for name, matrix in (("mat1", mat1), ("mat2", mat2)):
        if matrix._data.ndim != 2:
            raise TORCH.error("addmm_matrix", name=name, ndim=matrix._data.ndim)
    (rows, inner), (inner_b, columns) = mat1._data.shape, mat2._data.shape
    if inner != inner_b:
        raise TORCH.error("matmul_mm_shape", rows=rows, k_a=inner, b=f"{inner_b}x{columns}")
    if input._data.shape != (rows, columns):
        with grad_mode.no_grad():
            F.expand(input, (rows, columns))  # (its refusals are addmm's)
    if beta == 1 and alpha == 1:
        return recorder.apply(RULES["addmm"], (input, mat1, mat2))
    return recorder.apply(RULES["addmm_scaled"], (input, mat1, mat2), {"beta": beta, "alpha": alpha})
not_equal = extras.ne
swapdims = small_ops.swapaxes


def positive(input: Tensor) -> Tensor:  # noqa: A002
    """The tensor itself (torch refuses a bool one)."""
    if input._data.dtype == np.bool_:
        raise TORCH.error("positive_bool")
    return input


def _itself(input: Tensor) -> Tensor:  # noqa: A002
    return input


real = conj = resolve_conj = resolve_neg = _itself  # a real tensor is its own real part and conjugate


def is_floating_point(input: Tensor) -> builtins.bool:  # noqa: A002
    return input._data.dtype.kind == "f" or input._data.dtype.name == "bfloat16"


def is_complex(input: Tensor) -> builtins.bool:  # noqa: A002
    return False  # the facade's dtypes are real


def is_nonzero(input: Tensor) -> builtins.bool:  # noqa: A002
    if input._data.size != 1:
        raise TORCH.error("is_nonzero_empty" if input._data.size == 0 else "is_nonzero_many")
    return builtins.bool(input._data.reshape(-1)[0] != 0)


def ravel(input: Tensor) -> Tensor:  # noqa: A002
    return F.reshape(input, (-1,))


def argwhere(input: Tensor) -> Tensor:  # noqa: A002
    return extras.nonzero(input)


def unflatten(input: Tensor, dim: builtins.int, sizes: Sequence[builtins.int]) -> Tensor:  # noqa: A002
    return small_ops.TENSOR_METHODS["unflatten"](input, dim, sizes)


def fliplr(input: Tensor) -> Tensor:  # noqa: A002
    if input._data.ndim < 2:
        raise TORCH.error("fliplr_rank")
    return extras.flip(input, [1])


def flipud(input: Tensor) -> Tensor:  # noqa: A002
    if input._data.ndim < 1:
        raise TORCH.error("flipud_rank")
    return extras.flip(input, [0])


def _at_least(given: Any, ndim: builtins.int) -> Any:
    if isinstance(given, (list, tuple)):
        return tuple(_at_least(t, ndim) for t in given)
    shape = given._data.shape
    if len(shape) >= ndim:
        return given
    if len(shape) == 0:
        return F.reshape(given, (1,) * ndim)
    if ndim == 2 or len(shape) == 2:
        return F.unsqueeze(given, 0) if ndim == 2 else F.unsqueeze(given, -1)
    return F.unsqueeze(F.unsqueeze(given, 0), -1)  # a vector (n,) as (1, n, 1)


def atleast_1d(*tensors: Any) -> Any:
    return _at_least(tensors[0] if len(tensors) == 1 else tensors, 1)


def atleast_2d(*tensors: Any) -> Any:
    return _at_least(tensors[0] if len(tensors) == 1 else tensors, 2)


def atleast_3d(*tensors: Any) -> Any:
    return _at_least(tensors[0] if len(tensors) == 1 else tensors, 3)


def column_stack(tensors: Sequence[Tensor]) -> Tensor:
    """The tensors side by side: vectors and scalars as columns."""
    return F.cat([F.reshape(t, (-1, 1)) if t._data.ndim <= 1 else t for t in tensors], 1)


def dstack(tensors: Sequence[Tensor]) -> Tensor:
    """Along the third dimension, each made at least 3-d."""
    return F.cat([_at_least(t, 3) for t in tensors], 2)


def inner(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    """The dot product of two vectors, which torch computes as a tensordot (its last node a
    ViewBackward0); other shapes are refused by name."""
    if input._data.ndim != 1 or other._data.ndim != 1:
        raise not_supported("inner of tensors other than two vectors", "torch")
    return C.named(extras.dot(input, other), "ViewBackward0", input)


def vdot(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    """The dot product of two real vectors (VdotBackward0)."""
    if input._data.ndim != 1 or other._data.ndim != 1:
        raise TORCH.error("vdot_rank", a=input._data.ndim, b=other._data.ndim)
    return C.named(extras.dot(input, other), "VdotBackward0", input)


def dist(input: Tensor, other: Tensor, p: Any = 2) -> Tensor:  # noqa: A002
    """The ``p``-norm of the difference (DistBackward0)."""
    return C.named(extras.norm(F.sub(input, other), p), "DistBackward0", input)


def nansum(input: Tensor, dim: Any = None, keepdim: builtins.bool = False, *,  # noqa: A002
           dtype: Any = None) -> Tensor:
    """The sum with NaNs counted as 0 (NansumBackward0)."""
    if dtype is not None:
        raise not_supported("nansum with dtype", "torch")
    kept = F.where(F.constant_like(input, ~np.isnan(input._data)), input, 0.0)
    return C.named(F.sum(kept, dim, keepdim), "NansumBackward0", input)


def nanmean(input: Tensor, dim: Any = None, keepdim: builtins.bool = False, *,  # noqa: A002
            dtype: Any = None) -> Tensor:
    """The mean of the elements that are not NaN: their sum over their count."""
    counted = F.constant_like(input, (~np.isnan(input._data)).astype(input._data.dtype))
    return F.div(nansum(input, dim, keepdim), F.sum(counted, dim, keepdim))


def signbit(input: Tensor) -> Tensor:  # noqa: A002
    return F.constant_like(input, np.signbit(input._data))


def isposinf(input: Tensor) -> Tensor:  # noqa: A002
    return F.constant_like(input, np.isposinf(input._data))


def isneginf(input: Tensor) -> Tensor:  # noqa: A002
    return F.constant_like(input, np.isneginf(input._data))


def isreal(input: Tensor) -> Tensor:  # noqa: A002
    return F.constant_like(input, np.ones(input._data.shape, np.bool_))


def _triangle_indices(row: builtins.int, col: builtins.int, offset: builtins.int, lower: builtins.bool,
                      dtype: Any) -> Tensor:
    rows, cols = (np.tril_indices if lower else np.triu_indices)(row, offset, col)
    return tensor(np.stack([rows, cols]).astype(np.int64), dtype=dtype)


def tril_indices(row: builtins.int, col: builtins.int, offset: builtins.int = 0, *, dtype: Any = None,
                 device: Any = None, layout: Any = None) -> Tensor:
    return _triangle_indices(row, col, offset, True, dtype)


def triu_indices(row: builtins.int, col: builtins.int, offset: builtins.int = 0, *, dtype: Any = None,
                 device: Any = None, layout: Any = None) -> Tensor:
    return _triangle_indices(row, col, offset, False, dtype)


def trapezoid(y: Tensor, x: Optional[Tensor] = None, *, dx: Any = None, dim: builtins.int = -1) -> Tensor:
    """The trapezoid rule along ``dim`` with spacing ``dx`` (1 by default), as torch computes it:
    ``(sum(y) - (first + last) · 0.5) · dx``; spacing by sample points ``x`` is refused."""
    if x is not None:
        raise not_supported("trapezoid with sample points x", "torch")
    d = dim % y._data.ndim
    size = y._data.shape[d]
    if size == 0:
        return F.sum(y, d) if y._data.ndim else y
    ends = F.add(F.getitem(y, (slice(None),) * d + (0,)), F.getitem(y, (slice(None),) * d + (size - 1,)))
    return H.times_scalar(F.sub(F.sum(y, d), H.times_scalar(ends, 0.5)), 1.0 if dx is None else dx)


def trapz(y: Tensor, x: Optional[Tensor] = None, *, dx: Any = None, dim: builtins.int = -1) -> Tensor:
    return trapezoid(y, x, dx=dx, dim=dim)


_METHOD_NAMES = ("absolute", "addmm", "conj", "cov", "corrcoef", "ger", "tensor_split", "hsplit",
                 "vsplit", "dsplit", "take", "dist", "fliplr", "flipud", "inner", "is_complex",
                 "is_nonzero", "isneginf", "isposinf", "isreal", "nanmean", "nansum", "negative",
                 "not_equal", "positive", "ravel", "resolve_conj", "resolve_neg", "signbit", "swapdims",
                 "vdot")
TENSOR_METHODS = {name: globals()[name] for name in _METHOD_NAMES}
