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
from reference_engine import ops as F
from reference_engine.torch import return_types
from reference_engine.torch._core import Tensor, tensor

__all__ = ["addbmm", "addmv", "addr", "aminmax", "baddbmm", "count_nonzero", "cummax", "cummin", "diag_embed",
           "kron", "logcumsumexp", "rot90", "take_along_dim"]


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


TENSOR_METHODS = {name: globals()[name] for name in __all__}
