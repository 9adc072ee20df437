"""``torch.linalg``: the norms, ``vector_norm`` (any order), ``matrix_norm`` and ``norm`` for the
Frobenius norm and vector orders, each one LinalgVectorNormBackward0 as torch records them
(the spectral and nuclear norms, which need an SVD, and the induced 1- and inf-norms of a
matrix are refused by name); and the square-matrix functions ``inv``, ``det``, ``slogdet`` and
``solve`` (left-hand, float matrices or batches of them; a singular matrix is refused by name)."""

from __future__ import annotations

from typing import Any

from reference_engine import ops as F
from reference_engine.framework_names import module_getattr
from reference_engine.messages import not_supported
from reference_engine.tensor import Tensor
from reference_engine.torch import return_types

__all__ = ["cross", "det", "inv", "matrix_norm", "norm", "slogdet", "solve", "vector_norm"]


def vector_norm(x: Tensor, ord: Any = 2, dim: Any = None, keepdim: bool = False,  # noqa: A002
                *, dtype: Any = None) -> Tensor:
    """The ``ord``-norm of the entries over ``dim`` (every entry by default)."""
    if dtype is not None:
        raise not_supported("linalg.vector_norm with dtype", "torch")
    return F.norm(x, float(ord), dim, keepdim)


def matrix_norm(A: Tensor, ord: Any = "fro", dim: Any = (-2, -1), keepdim: bool = False,  # noqa: N803, A002
                *, dtype: Any = None) -> Tensor:
    """The Frobenius norm over the two matrix dimensions."""
    if ord != "fro" or dtype is not None:
        raise not_supported(f"linalg.matrix_norm with ord={ord!r}", "torch")
    return F.norm(A, 2.0, tuple(dim), keepdim)


def norm(A: Tensor, ord: Any = None, dim: Any = None, keepdim: bool = False,  # noqa: N803, A002
         *, dtype: Any = None) -> Tensor:
    """With neither ``ord`` nor ``dim``: the 2-norm of every entry; over one dim (or of a
    vector): the ``ord``-norm; over two dims (or of a matrix): a matrix norm."""
    two_dims = isinstance(dim, (tuple, list)) and len(dim) == 2
    if (dim is None and ord is not None and A.dim() == 2) or two_dims:
        return matrix_norm(A, "fro" if ord is None else ord, (-2, -1) if dim is None else dim, keepdim,
                           dtype=dtype)
    return vector_norm(A, 2 if ord is None else ord, dim, keepdim, dtype=dtype)


def inv(A: Tensor, *, out: Any = None) -> Tensor:  # noqa: N803 - torch's name
    """``A⁻¹`` (LinalgInvExBackward0)."""
    return F.inverse(A)


def det(A: Tensor, *, out: Any = None) -> Tensor:  # noqa: N803 - torch's name
    """The determinant (LinalgDetBackward0)."""
    return F.det(A)


def slogdet(A: Tensor, *, out: Any = None) -> Any:  # noqa: N803 - torch's name
    """``(sign, logabsdet)`` of the determinant, both from one LinalgSlogdetBackward0 to torch's
    eye; the sign passes no gradient (a real matrix's sign is piecewise constant)."""
    return return_types.linalg_slogdet(F.slogdet_sign(A), F.logabsdet(A))


def solve(A: Tensor, B: Tensor, *, left: bool = True, out: Any = None) -> Tensor:  # noqa: N803
    """``X`` with ``A X = B`` (LinalgSolveExBackward0); ``left=False`` is refused."""
    if not left:
        raise not_supported("linalg.solve with left=False", "torch")
    return F.linalg_solve(A, B)


def cross(input: Tensor, other: Tensor, *, dim: int = -1, out: Any = None) -> Tensor:  # noqa: A002
    """The cross product of 3-vectors along ``dim`` (LinalgCrossBackward0)."""
    a, b = input._data.shape, other._data.shape
    size_a, size_b = (a[dim] if a else 0), (b[dim] if b else 0)
    if size_a != 3 or size_b != 3:
        raise input._policy.error("cross_length", dim=dim, a=size_a, b=size_b)
    return F.cross(input, other, dim)


__getattr__ = module_getattr("torch.linalg")
