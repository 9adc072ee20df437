"""torch's functions of a Cholesky factor, composed from the facade's solve and product under
torch's node for each; also Tensor methods, as torch has them."""

from __future__ import annotations

import numpy as np

from reference_engine import composed as C
from reference_engine import ops as F
from reference_engine import rule_helpers as H
from reference_engine.tensor import Tensor

__all__ = ["cholesky_inverse", "cholesky_solve"]


def cholesky_solve(B: Tensor, L: Tensor, upper: bool = False) -> Tensor:  # noqa: N803 - torch's names
    """``X`` with ``(L Lᴴ) X = B`` (``Lᴴ L`` with ``upper``) for a Cholesky factor ``L``: a solve with
    the product, whose gradient in ``L`` is torch's ``-(G Xᴴ + X Gᴴ) L`` (the whole matrix, as
    torch's CholeskySolveBackward0 gives it)."""
    product = F.matmul(H.matrix_transpose(L), L) if upper else F.matmul(L, H.matrix_transpose(L))
    return C.named(F.linalg_solve(product, B), "CholeskySolveBackward0", B, L)


def cholesky_inverse(L: Tensor, upper: bool = False) -> Tensor:  # noqa: N803 - torch's name
    """The inverse of ``L Lᴴ`` (``Lᴴ L`` with ``upper``) from its Cholesky factor
    (CholeskyInverseBackward0)."""
    eye = np.broadcast_to(np.eye(L._data.shape[-1], dtype=L._data.dtype), L._data.shape)
    return C.named(cholesky_solve(F.constant_like(L, eye.copy()), L, upper), "CholeskyInverseBackward0", L)


TENSOR_METHODS = {name: globals()[name] for name in __all__}
