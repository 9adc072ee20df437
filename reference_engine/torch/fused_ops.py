"""torch's ops whose kernel records one node for what the facade composes from its own ops:
the scaled products (``addmv``, ``addr``, ``baddbmm``, ``addbmm``), ``diag_embed``, ``kron``,
``rot90``, ``take_along_dim``, the running ``logcumsumexp``, ``cummax`` / ``cummin`` and
``aminmax``, each shown under torch's node name; and ``count_nonzero``. The derivatives are
those of the composition, which are torch's formulas; ``tests/test_opinfo.py`` checks each on
torch's own samples (values, dtypes, node names, first derivatives and errors)."""

from __future__ import annotations

import builtins
from typing import Any, Optional, Sequence

import numpy as np

from reference_engine import composed as C
from reference_engine import layers
from reference_engine import ops as F
from reference_engine.messages import not_supported
from reference_engine.torch import extras, return_types
from reference_engine.torch._core import Tensor, tensor

__all__ = ["block_diag", "cartesian_prod", "std_mean", "tensordot", "var_mean", "addbmm", "addmv", "addr",
           "aminmax", "baddbmm", "count_nonzero", "cummax", "cummin", "diag_embed", "kron", "logcumsumexp",
           "rot90", "take_along_dim"]


def _scaled_sum(input: Tensor, product: Tensor, beta: Any, alpha: Any, node: str) -> Tensor:  # noqa: A002
    """``beta * input + alpha * product``, one node of torch's name."""
    scaled = product if alpha == 1 else F.mul(product, alpha)
    return C.named(F.add(input if beta == 1 else F.mul(input, beta), scaled), node, input, product)


def addmv(input: Tensor, mat: Tensor, vec: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:  # noqa: A002
    return _scaled_sum(input, F.matmul(mat, vec), beta, alpha, "AddmvBackward0")


def addr(input: Tensor, vec1: Tensor, vec2: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:  # noqa: A002
    return _scaled_sum(input, C.outer(vec1, vec2), beta, alpha, "AddrBackward0")


def baddbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:  # noqa: A002
    return _scaled_sum(input, F.matmul(batch1, batch2), beta, alpha, "BaddbmmBackward0")


def addbmm(input: Tensor, batch1: Tensor, batch2: Tensor, *, beta: Any = 1, alpha: Any = 1) -> Tensor:  # noqa: A002
    return _scaled_sum(input, F.sum(F.matmul(batch1, batch2), 0), beta, alpha, "AddbmmBackward0")


def diag_embed(input: Tensor, offset: builtins.int = 0, dim1: builtins.int = -2,  # noqa: A002
               dim2: builtins.int = -1) -> Tensor:
    """Each last-axis vector on the ``offset`` diagonal of a square plane at (``dim1``, ``dim2``):
    a gather from the vector with a zero appended, the zero everywhere off the diagonal."""
    n = input._data.shape[-1]
    size = n + builtins.abs(offset)
    padded = F.cat([input, F.zeros_like(F.getitem(input, (Ellipsis, slice(0, 1))))], -1)
    rows, cols = np.indices((size, size))
    index = np.where(cols - rows == offset, np.minimum(rows, cols), n).reshape(-1)
    lead = input._data.shape[:-1]
    flat = F.gather(padded, -1, np.broadcast_to(index, (*lead, size * size)))
    out = F.reshape(flat, (*lead, size, size))
    ndim = out._data.ndim
    first, second = dim1 % ndim, dim2 % ndim
    if (first, second) != (ndim - 2, ndim - 1):
        others = iter(range(ndim - 2))
        order = [ndim - 2 if d == first else ndim - 1 if d == second else next(others) for d in range(ndim)]
        out = F.permute(out, order)
    return C.named(out, "DiagEmbedBackward0", input)


def kron(input: Tensor, other: Tensor) -> Tensor:  # noqa: A002
    """Every product of an element of ``input`` with an element of ``other``, in blocks
    (UnsafeViewBackward0)."""
    return C.named(C.kron(input, other), "UnsafeViewBackward0", input, other)


def rot90(input: Tensor, k: builtins.int = 1, dims: Sequence[builtins.int] = (0, 1)) -> Tensor:  # noqa: A002
    """A quarter turn ``k`` times in the plane of ``dims`` (from the first towards the second)."""
    first, second = dims
    k %= 4
    if k == 1:
        out = F.transpose(C.flip(input, [second % input._data.ndim]), first, second)
    elif k == 2:
        out = C.flip(input, [first % input._data.ndim, second % input._data.ndim])
    elif k == 3:
        out = F.transpose(C.flip(input, [first % input._data.ndim]), first, second)
    else:
        out = F.clone(input)
    return C.named(out, "Rot90Backward0", input)


def take_along_dim(input: Tensor, indices: Tensor, dim: Optional[builtins.int] = None) -> Tensor:  # noqa: A002
    """The entries ``indices`` picks along ``dim`` (of the flattened tensor without one), the two
    broadcast against each other elsewhere (GatherBackward0)."""
    if dim is None:
        return F.gather(F.reshape(input, (-1,)), 0, indices._data.reshape(-1))
    d = dim % input._data.ndim
    shape = list(np.broadcast_shapes(input._data.shape[:d] + (1,) + input._data.shape[d + 1:],
                                     indices._data.shape[:d] + (1,) + indices._data.shape[d + 1:]))
    source = F.expand(input, shape[:d] + [input._data.shape[d]] + shape[d + 1:])
    index = np.broadcast_to(indices._data, shape[:d] + [indices._data.shape[d]] + shape[d + 1:])
    return F.gather(source, d, index)


def logcumsumexp(input: Tensor, dim: builtins.int) -> Tensor:  # noqa: A002
    """``log(cumsum(exp(x)))`` along ``dim`` (LogcumsumexpBackward0)."""
    return C.named(C.logcumsumexp(input, dim), "LogcumsumexpBackward0", input)


def _running(input: Tensor, dim: builtins.int, better: Any, node: str, result: type) -> Any:  # noqa: A002
    values, index = C.running_extreme(input, dim, better)
    return result(C.named(values, node, input), tensor(index))


def cummax(input: Tensor, dim: builtins.int) -> Any:  # noqa: A002
    return _running(input, dim % builtins.max(input._data.ndim, 1), np.greater_equal, "CummaxBackward0",
                    return_types.cummax)


def cummin(input: Tensor, dim: builtins.int) -> Any:  # noqa: A002
    return _running(input, dim % builtins.max(input._data.ndim, 1), np.less_equal, "CumminBackward0",
                    return_types.cummin)


def aminmax(input: Tensor, *, dim: Optional[builtins.int] = None,  # noqa: A002
            keepdim: builtins.bool = False) -> Any:
    """The smallest and the largest entries (over ``dim``, or all), their gradient shared evenly
    among ties as amin's and amax's (AminmaxBackward0)."""
    low, high = F.amin(input, dim, keepdim), F.amax(input, dim, keepdim)
    return return_types.aminmax(C.named(low, "AminmaxBackward0", input),
                                C.named(high, "AminmaxBackward0", input))


def count_nonzero(input: Tensor, dim: Any = None) -> Tensor:  # noqa: A002
    """How many entries are not zero (over ``dim``, or all): an int64 tensor."""
    axis = tuple(dim) if isinstance(dim, (list, tuple)) else dim
    return tensor(np.asarray(np.count_nonzero(input._data, axis=axis), dtype=np.int64))


def _spread_and_mean(root: builtins.bool, node: str, input: Tensor, dim: Any = None,  # noqa: A002
                     unbiased: Any = None, keepdim: builtins.bool = False, *, correction: Any = None) -> Any:
    """The variance (or standard deviation) and the mean over ``dim``, both outputs of one node
    to torch's eye; ``unbiased`` may come second, as torch's older overload takes it."""
    if isinstance(dim, builtins.bool):
        dim, unbiased = None, dim
    if correction is None:
        correction = 1 if unbiased is None or unbiased else 0
    spread = F.variance_node(input, dim, correction, keepdim, root=root)
    dims = None if dim is None else ([dim] if isinstance(dim, builtins.int) else list(dim))
    mean = F.mean(input, dims, keepdim) if dims is not None else (
        F.reshape(F.mean(input), (1,) * input._data.ndim) if keepdim else F.mean(input))
    return C.named(spread, node, input), C.named(mean, node, input)


def std_mean(input: Tensor, dim: Any = None, unbiased: Any = None, keepdim: builtins.bool = False, *,  # noqa: A002
             correction: Any = None) -> Any:
    """The standard deviation and the mean (StdMeanBackward0)."""
    return _spread_and_mean(True, "StdMeanBackward0", input, dim, unbiased, keepdim, correction=correction)


def var_mean(input: Tensor, dim: Any = None, unbiased: Any = None, keepdim: builtins.bool = False, *,  # noqa: A002
             correction: Any = None) -> Any:
    """The variance and the mean (VarMeanBackward0)."""
    return _spread_and_mean(False, "VarMeanBackward0", input, dim, unbiased, keepdim, correction=correction)


def block_diag(*tensors: Tensor) -> Tensor:
    """The tensors (each a number, a vector as a row, or a matrix) down the diagonal of a matrix
    of zeros (BlockDiagBackward0)."""
    blocks = [F.reshape(t, (1, -1) if t.dim() == 1 else (1, 1) if t.dim() == 0 else t.shape)
              for t in tensors]
    rows = builtins.sum(b._data.shape[0] for b in blocks)
    columns = builtins.sum(b._data.shape[1] for b in blocks)
    out, row, column = None, 0, 0
    for block in blocks:
        height, width = block._data.shape
        widths = [(row, rows - row - height), (column, columns - column - width)]
        padded = layers.constant_pad(block, widths, 0.0)
        out = padded if out is None else F.add(out, padded)
        row, column = row + height, column + width
    return C.named(out, "BlockDiagBackward0", *tensors)


def cartesian_prod(*tensors: Tensor) -> Tensor:
    """Every combination of one element from each vector, as rows (StackBackward0)."""
    if len(tensors) == 1:
        return tensors[0]
    grids = extras.meshgrid(*tensors)
    return F.stack([F.reshape(g, (-1,)) for g in grids], 1)


def tensordot(a: Tensor, b: Tensor, dims: Any = 2) -> Tensor:
    """The sum of products over ``dims`` of ``a``'s last and ``b``'s first axes (or the axes
    listed), as torch computes it: both permuted and viewed as matrices, one product, viewed
    back (ViewBackward0)."""
    if isinstance(dims, builtins.int):
        a_dims = list(range(a.dim() - dims, a.dim()))
        b_dims = list(range(dims))
    else:
        a_dims, b_dims = ([d] if isinstance(d, builtins.int) else list(d) for d in dims)
    a_dims = [d % builtins.max(a.dim(), 1) for d in a_dims]
    b_dims = [d % builtins.max(b.dim(), 1) for d in b_dims]
    for da, db in zip(a_dims, b_dims):  # a contracted axis of size 1 against a longer one: the
        if a.shape[da] != b.shape[db]:    # longer is summed first, as torch does
            if a.shape[da] == 1:
                b = F.sum(b, [db], keepdim=True)
            elif b.shape[db] == 1:
                a = F.sum(a, [da], keepdim=True)
            else:
                raise not_supported("tensordot of contracted axes whose sizes differ", "torch")
    a_free = [d for d in range(a.dim()) if d not in a_dims]
    b_free = [d for d in range(b.dim()) if d not in b_dims]
    contracted = int(np.prod([a.shape[d] for d in a_dims]))
    left = F.reshape(F.permute(a, a_free + a_dims), (-1, contracted))
    right = F.reshape(F.permute(b, b_dims + b_free), (contracted, -1))
    shape = tuple(a.shape[d] for d in a_free) + tuple(b.shape[d] for d in b_free)
    return F.reshape(F.matmul(left, right), shape)


TENSOR_METHODS = {name: globals()[name] for name in __all__ if name not in ("block_diag", "cartesian_prod",
                                                                            "std_mean", "var_mean",
                                                                            "tensordot")}
