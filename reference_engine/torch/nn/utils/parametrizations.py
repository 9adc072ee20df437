"""``torch.nn.utils.parametrizations``: ``weight_norm`` and ``spectral_norm`` as
parametrizations (the forms torch 2.13 recommends).

``weight_norm``: ``module.parametrizations.weight.original0`` is the norm ``g`` over every
dimension but ``dim``, ``original1`` the direction ``v``, and each access of ``module.weight``
recomposes ``v * (g / ‖v‖)`` (WeightNormInterfaceBackward0). ``spectral_norm``: the weight
divided by its largest singular value, estimated by power iteration on the weight as a matrix
(``dim`` first): vectors ``_u`` and ``_v`` drawn normal from torch's generator and normalised,
15 iterations at registration and ``n_power_iterations`` at each access in training mode, all
outside the graph; the division is recorded."""

from __future__ import annotations

from typing import Any, Optional

from reference_engine.grad_mode import no_grad
from reference_engine.torch._core import Tensor
from reference_engine.torch.extras import mv
from reference_engine.torch.more_ops import vdot
from reference_engine.torch.nn import functional
from reference_engine.torch.nn.modules import Module
from reference_engine.torch.nn.utils import parametrize
from reference_engine.torch.nn.utils.weight_norm import norm_except_dim, recomposed

__all__ = ["spectral_norm", "weight_norm"]


class _WeightNorm(Module):
    def __init__(self, dim: Optional[int] = 0) -> None:
        super().__init__()
        self.dim = -1 if dim is None else dim

    def forward(self, weight_g: Tensor, weight_v: Tensor) -> Tensor:
        return recomposed(weight_g, weight_v, self.dim)

    def right_inverse(self, weight: Tensor) -> tuple[Tensor, Tensor]:
        return norm_except_dim(weight, self.dim), weight


class _SpectralNorm(Module):
    def __init__(self, weight: Tensor, n_power_iterations: int = 1, dim: int = 0, eps: float = 1e-12) -> None:
        super().__init__()
        ndim = weight.ndim
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            matrix = self._as_matrix(weight)
            rows, cols = matrix.shape
            u = matrix.new_empty(rows).normal_(0, 1)
            v = matrix.new_empty(cols).normal_(0, 1)
            self.register_buffer("_u", functional.normalize(u, dim=0, eps=self.eps))
            self.register_buffer("_v", functional.normalize(v, dim=0, eps=self.eps))
            self._power_method(matrix, 15)

    def _as_matrix(self, weight: Tensor) -> Tensor:
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.dim()) if d != self.dim))
        return weight.flatten(1)

    def _power_method(self, matrix: Tensor, iterations: int) -> None:
        with no_grad():
            for _ in range(iterations):
                self._u.copy_(functional.normalize(mv(matrix, self._v), dim=0, eps=self.eps))
                self._v.copy_(functional.normalize(mv(matrix.H, self._u), dim=0, eps=self.eps))

    def forward(self, weight: Tensor) -> Tensor:
        if weight.ndim == 1:
            return functional.normalize(weight, dim=0, eps=self.eps)
        matrix = self._as_matrix(weight)
        if self.training:
            self._power_method(matrix, self.n_power_iterations)
        u, v = self._u.clone(), self._v.clone()
        return weight / vdot(u, mv(matrix, v))

    def right_inverse(self, value: Tensor) -> Tensor:
        return value


def spectral_norm(module: Module, name: str = "weight", n_power_iterations: int = 1, eps: float = 1e-12,
                  dim: Optional[int] = None) -> Any:
    """``module.<name>`` divided by its spectral norm (see above); ``dim`` 1 for a transposed
    convolution, else 0, by default."""
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        dim = 1 if type(module).__name__ in ("ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d") else 0
    return parametrize.register_parametrization(
        module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))


def weight_norm(module: Module, name: str = "weight", dim: Optional[int] = 0) -> Any:
    """``module.<name>`` parametrized by its norm and direction (see above)."""
    return parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)
