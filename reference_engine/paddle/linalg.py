"""``paddle.linalg``: ``norm`` (the same function as ``paddle.norm``), the square-matrix
functions ``inv`` (also ``paddle.inverse``), ``det``, ``slogdet`` (sign and log of the
absolute value stacked in one tensor, as paddle returns them) and ``solve``, for float
matrices or batches of them (a singular matrix is refused by name), and the factorizations
``cholesky``, ``eigh`` / ``eigvalsh``, ``svd``, ``qr`` with ``pinv`` and ``matrix_rank``.
paddle 3.3.1's kernels for them have no double grad (qr's crashes when asked to record)."""

from __future__ import annotations

from typing import Any, Optional

from reference_engine import composed as C
from reference_engine import factorizations
from reference_engine import ops as F
from reference_engine import rule_helpers as H
from reference_engine.framework_names import module_getattr
from reference_engine.messages import not_supported
from reference_engine.paddle.extras import norm
from reference_engine.tensor import Tensor

__all__ = ["cholesky", "det", "eigh", "eigvalsh", "inv", "matrix_rank", "norm", "pinv", "qr", "slogdet",
           "solve", "svd"]


def inv(x: Tensor, name: Optional[str] = None) -> Tensor:
    """``x⁻¹`` (InverseGradNode)."""
    return F.inverse(x)


def det(x: Tensor, name: Optional[str] = None) -> Tensor:
    """The determinant (DetGradNode)."""
    return F.det(x)


def slogdet(x: Tensor, name: Optional[str] = None) -> Tensor:
    """``[sign, log|det|]`` stacked along a new first axis (SlogdetGradNode); the sign passes
    no gradient."""
    return F.slogdet_stacked(x)


def solve(x: Tensor, y: Tensor, left: bool = True, name: Optional[str] = None) -> Tensor:
    """``X`` with ``x X = y`` (SolveGradNode)."""
    if not left:
        raise NotImplementedError("reference_engine.paddle does not model linalg.solve with left=False")
    return F.linalg_solve(x, y)


def cholesky(x: Tensor, upper: bool = False, name: Optional[str] = None) -> Tensor:
    """The lower Cholesky factor, or with ``upper`` its transpose, from one CholeskyGradNode."""
    lower = F.cholesky(x)
    if not upper:
        return lower
    return C.named(H.matrix_transpose(lower), "CholeskyGradNode", lower)


def eigh(x: Tensor, UPLO: str = "L", name: Optional[str] = None) -> tuple[Tensor, Tensor]:  # noqa: N803
    """``(eigenvalues, eigenvectors)`` of a symmetric matrix (batch), one EighGradNode."""
    values, vectors = factorizations.eigh(x, upper=UPLO.upper() == "U")
    return values, vectors


def eigvalsh(x: Tensor, UPLO: str = "L", name: Optional[str] = None) -> Tensor:  # noqa: N803
    """The eigenvalues alone, from a kernel of their own (EigvalshGradNode)."""
    return factorizations.eigh(x, upper=UPLO.upper() == "U", api="eigvalsh")[0]


def svd(x: Tensor, full_matrices: bool = False, name: Optional[str] = None) -> tuple[Tensor, Tensor, Tensor]:
    """``(U, S, VH)``, one SvdGradNode (reduced unless ``full_matrices``)."""
    u, s, vh = factorizations.svd(x, full_matrices)
    return u, s, vh


def qr(x: Tensor, mode: str = "reduced", name: Optional[str] = None) -> Any:
    """``(Q, R)``, one QrGradNode; ``mode="r"``: R alone."""
    q, r = factorizations.qr(x, mode)
    return r if mode == "r" else (q, r)


def pinv(x: Tensor, rcond: float = 1e-15, hermitian: bool = False, name: Optional[str] = None) -> Tensor:
    """The pseudo-inverse composed as paddle composes it: ``Vᴴ diag(1/s) Uᴴ`` from a reduced
    svd, singular values at most ``rcond · max(s)`` dropped (the last node a MatmulGradNode)."""
    from reference_engine.paddle import _core as P

    if hermitian:
        raise not_supported("linalg.pinv with hermitian=True", "paddle")
    u, s, vt = svd(x)
    cutoff = P.to_tensor(rcond, dtype=x.dtype) * P.max(s, axis=-1, keepdim=True)
    singular = P.where(s > cutoff, 1 / s, 1 / P.to_tensor(float("inf"), dtype=x.dtype))
    rank = vt._data.ndim
    v = P.transpose(vt, [*range(rank - 2), rank - 1, rank - 2])
    return P.matmul(v * P.unsqueeze(singular, -2), u, transpose_y=True)


def matrix_rank(x: Tensor, tol: Any = None, hermitian: bool = False, atol: Any = None, rtol: Any = None,
                name: Optional[str] = None) -> Tensor:
    """The numerical rank at the default tolerance (int64, stops gradient)."""
    if tol is not None or atol is not None or rtol is not None:
        raise not_supported("linalg.matrix_rank with tol, atol or rtol", "paddle")
    return type(x)._from_array(factorizations.matrix_rank(x, hermitian))


TENSOR_METHODS: dict[str, Any] = {"inverse": inv, "slogdet": slogdet, "solve": solve, "cholesky": cholesky}

__getattr__ = module_getattr("paddle.linalg")
