"""``paddle.linalg``: ``norm`` (the same function as ``paddle.norm``) and the square-matrix
functions ``inv`` (also ``paddle.inverse``), ``det``, ``slogdet`` (sign and log of the
absolute value stacked in one tensor, as paddle returns them) and ``solve``, for float
matrices or batches of them; a singular matrix is refused by name. paddle 3.3.1's kernels for
them have no double grad."""

from __future__ import annotations

from typing import Any, Optional

from reference_engine import ops as F
from reference_engine.framework_names import module_getattr
from reference_engine.paddle.extras import norm
from reference_engine.tensor import Tensor

__all__ = ["det", "inv", "norm", "slogdet", "solve"]


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


TENSOR_METHODS: dict[str, Any] = {"inverse": inv, "slogdet": slogdet, "solve": solve}

__getattr__ = module_getattr("paddle.linalg")
