"""torch's top-level factorization functions (and Tensor methods) that call ``torch.linalg``'s:
``svd`` (``V`` rather than ``Vh``, reduced unless ``some=False``) and ``pinverse``."""

from __future__ import annotations

from reference_engine import factorizations
from reference_engine import rule_helpers as H
from reference_engine.tensor import Tensor
from reference_engine.torch import return_types

__all__ = ["pinverse", "svd"]


def svd(input: Tensor, some: bool = True, compute_uv: bool = True) -> tuple[Tensor, Tensor, Tensor]:  # noqa: A002
    """``(U, S, V)`` from one LinalgSvdBackward0, ``V`` the transpose of its ``Vh`` (a
    TransposeBackward0 view)."""
    u, s, vh = factorizations.svd(input, full_matrices=not some)
    return return_types.svd(u, s, H.matrix_transpose(vh))


def pinverse(input: Tensor, rcond: float = 1e-15) -> Tensor:  # noqa: A002
    """The pseudo-inverse, singular values below ``rcond · σ_max`` dropped (LinalgPinvBackward0)."""
    return factorizations.pinv(input, rtol=rcond)


TENSOR_METHODS = {name: globals()[name] for name in __all__}
