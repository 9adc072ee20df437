"""Matrix factorizations shared by both dialects: eigh, svd and qr as one node of several
outputs (``ops.factorization``: the outputs computed by LAPACK through numpy, which both
frameworks' CPU kernels also call), the pseudo-inverse and the numerical rank."""

from __future__ import annotations

from typing import Optional

import numpy as np

from reference_engine import ops as F
from reference_engine.recorder import apply
from reference_engine.rule import RULES
from reference_engine.tensor import Tensor

__all__ = ["eigh", "matrix_rank", "pinv", "qr", "svd"]


def _floating(a: Tensor) -> np.ndarray:
    return a._data if a._data.dtype.kind == "f" else a._data.astype(np.float32)


def eigh(a: Tensor, upper: bool = False, api: str = "eigh") -> list[Tensor]:
    """Eigenvalues (ascending) and eigenvectors of a symmetric matrix (batch), read from its
    lower triangle (``upper``: the upper); ``api`` names the kernel (paddle's eigvalsh has its
    own node)."""
    values, vectors = np.linalg.eigh(_floating(a), UPLO="U" if upper else "L")
    attrs = {} if api == "eigh" else {"api": api}
    return F.factorization("eigh", a, attrs, [values, vectors], ("eigenvalues", "eigenvectors"))


def svd(a: Tensor, full_matrices: bool = True) -> list[Tensor]:
    """``U, S, Vh`` with ``A = U diag(S) Vh``, S descending (``full_matrices``: U and Vh square)."""
    u, s, vh = np.linalg.svd(_floating(a), full_matrices=full_matrices)
    return F.factorization("svd", a, {"full_matrices": full_matrices}, [u, s, vh], ("u", "s", "vh"))


def qr(a: Tensor, mode: str = "reduced") -> list[Tensor]:
    """``Q, R`` with ``A = Q R`` (``mode``: "reduced", "complete", or "r": the reduced factors,
    which the derivative refuses)."""
    q, r = np.linalg.qr(_floating(a), mode="reduced" if mode == "r" else mode)
    if mode == "r":
        q = np.empty(0, q.dtype)  # not computed
    return F.factorization("qr", a, {"mode": mode}, [q, r], ("q", "r"))


def pinv(a: Tensor, hermitian: bool = False, rtol: Optional[float] = None) -> Tensor:
    """The Moore-Penrose pseudo-inverse (one node of its own, as torch records it), singular
    values below ``rtol · σ_max`` dropped (None: ``max(m, n) · eps``)."""
    return apply(RULES["pinv"], (a,), {"hermitian": hermitian, "rtol": rtol})


def matrix_rank(a: Tensor, hermitian: bool = False) -> np.ndarray:
    """The number of singular values above ``max(m, n) · eps · σ_max`` (int64)."""
    data = _floating(a)
    values = np.abs(np.linalg.eigvalsh(data)) if hermitian else np.linalg.svd(data, compute_uv=False)
    if values.shape[-1] == 0:
        return np.zeros(values.shape[:-1], np.int64)
    tolerance = values.max(axis=-1, keepdims=True) * max(data.shape[-2:]) * np.finfo(data.dtype).eps
    return (values > tolerance).sum(axis=-1).astype(np.int64)
