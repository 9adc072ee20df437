"""``torch.linalg``: the norms, ``vector_norm`` (any order), ``matrix_norm`` and ``norm`` for the
Frobenius norm and vector orders, each one LinalgVectorNormBackward0 as torch records them
(the spectral and nuclear norms, which need an SVD, and the induced 1- and inf-norms of a
matrix are refused by name); and the square-matrix functions ``inv``, ``det``, ``slogdet`` and
``solve`` (left-hand, float matrices or batches of them; a singular matrix is refused by name)."""

from __future__ import annotations

from typing import Any

import numpy as np

from reference_engine import composed as C
from reference_engine import factorizations
from reference_engine import ops as F
from reference_engine import rule_helpers as H
from reference_engine.framework_names import module_getattr
from reference_engine.messages import _LinAlgError, not_supported
from reference_engine.tensor import Tensor
from reference_engine.torch import return_types

__all__ = ["LinAlgError", "cholesky", "cross", "det", "eigh", "eigvalsh", "inv", "matrix_norm",
           "matrix_power", "matrix_rank", "multi_dot", "norm", "pinv", "qr", "slogdet", "solve",
           "solve_triangular", "svd", "svdvals", "vecdot", "vector_norm"]

LinAlgError = _LinAlgError


def cholesky(A: Tensor, *, upper: bool = False, out: Any = None) -> Tensor:  # noqa: N803 - torch's name
    """The lower Cholesky factor of a symmetric positive-definite matrix (batch), or with
    ``upper`` its transpose, from one node (LinalgCholeskyExBackward0)."""
    lower = F.cholesky(A)
    return C.named(H.matrix_transpose(lower), "LinalgCholeskyExBackward0", lower) if upper else lower


def vecdot(x: Tensor, y: Tensor, *, dim: int = -1) -> Tensor:
    """The dot products along ``dim`` (of real vectors: a product, then a sum; of two vectors,
    one node, VdotBackward0)."""
    out = F.sum(F.mul(x, y), [dim])
    return C.named(out, "VdotBackward0", x, y) if x.dim() == 1 and y.dim() == 1 else out


def multi_dot(tensors: Any, *, out: Any = None) -> Tensor:
    """The product of a chain of matrices, the first and last of which may be vectors (made a
    row and a column, and viewed back at the end: ViewBackward0). Three are multiplied in the
    cheaper order, as torch chooses; longer chains left to right."""
    tensors = list(tensors)
    if len(tensors) < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {len(tensors)}")
    first_vector, last_vector = tensors[0].dim() == 1, tensors[-1].dim() == 1
    chain = [F.unsqueeze(tensors[0], 0) if first_vector else tensors[0], *tensors[1:-1],
             F.unsqueeze(tensors[-1], 1) if last_vector else tensors[-1]]
    if len(chain) == 3:
        (a, b), (_, c), (_, d) = (m._data.shape for m in chain)
        left_first = a * c * (b + d) <= b * d * (a + c)
        out = F.matmul(F.matmul(chain[0], chain[1]), chain[2]) if left_first else \
            F.matmul(chain[0], F.matmul(chain[1], chain[2]))
    else:
        out = chain[0]
        for matrix in chain[1:]:
            out = F.matmul(out, matrix)
    rows, columns = out._data.shape
    return F.reshape(out, (() if first_vector else (rows,)) + (() if last_vector else (columns,)))


def matrix_power(A: Tensor, n: int) -> Tensor:  # noqa: N803 - torch's name
    """``A`` multiplied by itself ``n`` times in torch's order (2 and 3 directly, then by the
    bits of ``n`` from the lowest); a negative ``n`` of the inverse; 0: the identity written
    over a copy of ``A`` (a zero gradient, torch's CopyBackwards)."""
    if n == 0:
        identity = np.broadcast_to(np.eye(A.shape[-1], dtype=A._data.dtype), A._data.shape).copy()
        return C.named(F.clone(A).copy_(F.constant_like(A, identity)), "torch::autograd::CopyBackwards")
    if n == 1:
        return F.clone(A)
    base = inv(A) if n < 0 else A
    n = abs(n)
    if n == 1:
        return base
    if n == 2:
        return F.matmul(base, base)
    if n == 3:
        return F.matmul(F.matmul(base, base), base)
    square: Any = None
    result: Any = None
    while n > 0:
        bit, n = n % 2, n // 2
        square = base if square is None else F.matmul(square, square)
        if bit:
            result = square if result is None else F.matmul(result, square)
    return result


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


def solve_triangular(A: Tensor, B: Tensor, *, upper: bool, left: bool = True,  # noqa: N803 - torch's names
                     unitriangular: bool = False, out: Any = None) -> Tensor:
    """``X`` with ``A X = B`` (``X A = B`` with ``left=False``) for triangular ``A``, of which only
    the triangle is read, its diagonal taken as ones with ``unitriangular``: a solve with the
    triangle (so ``A``'s gradient lies in it, as torch's does), one
    LinalgSolveTriangularBackward0."""
    triangle = C.triangle(A, 0, lower=not upper)
    if unitriangular:
        eye = np.eye(A._data.shape[-1], dtype=bool)
        triangle = F.where(F.constant_like(A, eye), 1.0, triangle)
    if left:
        out_ = F.linalg_solve(triangle, B)
    else:  # X A = B is Aᵀ Xᵀ = Bᵀ
        out_ = H.matrix_transpose(F.linalg_solve(H.matrix_transpose(triangle), H.matrix_transpose(B)))
    return C.named(out_, "LinalgSolveTriangularBackward0", A, B)


def eigh(A: Tensor, UPLO: str = "L", *, out: Any = None) -> Any:  # noqa: N803 - torch's names
    """``(eigenvalues, eigenvectors)`` of a symmetric matrix (batch), one LinalgEighBackward0."""
    return return_types.linalg_eigh(*factorizations.eigh(A, upper=UPLO.upper() == "U"))


def eigvalsh(A: Tensor, UPLO: str = "L", *, out: Any = None) -> Tensor:  # noqa: N803 - torch's names
    """The eigenvalues alone: eigh's first output (its node computes the vectors too)."""
    return factorizations.eigh(A, upper=UPLO.upper() == "U")[0]


def svd(A: Tensor, full_matrices: bool = True, *, driver: Any = None, out: Any = None) -> Any:  # noqa: N803
    """``(U, S, Vh)``, one LinalgSvdBackward0 (a full factorization's extra vectors pass no
    gradient)."""
    return return_types.linalg_svd(*factorizations.svd(A, full_matrices))


def svdvals(A: Tensor, *, driver: Any = None, out: Any = None) -> Tensor:  # noqa: N803 - torch's name
    """The singular values alone: a reduced svd's second output."""
    return factorizations.svd(A, full_matrices=False)[1]


def qr(A: Tensor, mode: str = "reduced", *, out: Any = None) -> Any:  # noqa: N803 - torch's name
    """``(Q, R)``, one LinalgQrBackward0 (``mode="r"``: an empty Q); the derivative refuses "r"
    and a complete factorization of a tall matrix, as torch's does."""
    return return_types.linalg_qr(*factorizations.qr(A, mode))


def pinv(A: Tensor, *, atol: Any = None, rtol: Any = None, hermitian: bool = False,  # noqa: N803
         out: Any = None) -> Tensor:
    """The pseudo-inverse at torch's default tolerance (LinalgPinvBackward0)."""
    if atol is not None or rtol is not None:
        raise not_supported("linalg.pinv with atol or rtol", "torch")
    return factorizations.pinv(A, hermitian)


def matrix_rank(A: Tensor, *, atol: Any = None, rtol: Any = None, hermitian: bool = False,  # noqa: N803
                out: Any = None) -> Tensor:
    """The numerical rank at torch's default tolerance (int64, not recorded)."""
    if atol is not None or rtol is not None:
        raise not_supported("linalg.matrix_rank with atol or rtol", "torch")
    return type(A)._from_array(factorizations.matrix_rank(A, hermitian))


def cross(input: Tensor, other: Tensor, *, dim: int = -1, out: Any = None) -> Tensor:  # noqa: A002
    """The cross product of 3-vectors along ``dim`` (LinalgCrossBackward0)."""
    a, b = input._data.shape, other._data.shape
    size_a, size_b = (a[dim] if a else 0), (b[dim] if b else 0)
    if size_a != 3 or size_b != 3:
        raise input._policy.error("cross_length", dim=dim, a=size_a, b=size_b)
    return F.cross(input, other, dim)


__getattr__ = module_getattr("torch.linalg")
