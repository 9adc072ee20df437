"""``torch.optim.LBFGS`` over the shared L-BFGS (``reference_engine.lbfgs``), with torch's
arithmetic: ``dot``, ``add_(other, alpha=...)``, the step size a Python number or a 0-d tensor
as torch leaves it."""

from __future__ import annotations

from typing import Any, Callable, Optional

from reference_engine import lbfgs
from reference_engine.torch import _core as T
from reference_engine.torch._core import TORCH, Tensor, enable_grad, no_grad
from reference_engine.torch.optim.optimizer import Optimizer, Params

__all__ = ["LBFGS"]


class _TorchVectors:
    """torch's spelling of L-BFGS's vector operations (``lbfgs.VectorOps``)."""

    state_names: dict[str, str] = {}

    def __init__(self, params: list[Tensor]) -> None:
        self.params = params

    def dot(self, a: Tensor, b: Tensor) -> Tensor:
        return a.dot(b)

    def scale(self, v: Tensor, t: Any) -> Tensor:
        return v.mul(t)

    def add_scaled(self, v: Tensor, w: Tensor, a: Any) -> None:
        v.add_(w, alpha=a)

    def initial_h_diag(self, loss: Any) -> Any:
        return 1

    def flat_grad(self) -> Tensor:
        """Every parameter's gradient flattened and joined (zeros for one without)."""
        return T.cat([p.new_zeros(p.numel()) if p.grad is None else p.grad.view(-1) for p in self.params], 0)

    def add_grad(self, t: Any, d: Tensor) -> None:
        offset = 0
        for p in self.params:
            numel = p.numel()
            p.add_(d[offset:offset + numel].view_as(p), alpha=t)
            offset += numel

    def clone_params(self) -> list[Tensor]:
        return [p.clone() for p in self.params]

    def set_params(self, saved: list[Tensor]) -> None:
        for p, value in zip(self.params, saved):
            p.copy_(value)

    def copy_into(self, target: Tensor, source: Tensor) -> None:
        target.copy_(source)

    def line_search_budget(self, max_eval: int, current_evals: int) -> int:
        return max_eval - current_evals

    def refuse_line_search(self) -> Exception:
        return TORCH.error("lbfgs_line_search")


class LBFGS(Optimizer):
    """L-BFGS (one parameter group): ``step(closure)`` runs up to ``max_iter`` iterations."""

    def __init__(self, params: Params, lr: float = 1, max_iter: int = 20, max_eval: Optional[int] = None,
                 tolerance_grad: float = 1e-7, tolerance_change: float = 1e-9, history_size: int = 100,
                 line_search_fn: Optional[str] = None) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise TORCH.error("optim_tensor_lr")
        if not lr >= 0.0:
            raise TORCH.error("optim_invalid", what="learning rate", value=lr)
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        super().__init__(params, {"lr": lr, "max_iter": max_iter, "max_eval": max_eval,
                                  "tolerance_grad": tolerance_grad, "tolerance_change": tolerance_change,
                                  "history_size": history_size, "line_search_fn": line_search_fn})
        if len(self.param_groups) != 1:
            raise TORCH.error("lbfgs_groups")
        self._params = self.param_groups[0]["params"]

    def step(self, closure: Callable[[], Any]) -> Any:  # type: ignore[override]
        group = self.param_groups[0]
        settings = lbfgs.Settings(float(group["lr"]), group["max_iter"], group["max_eval"],
                                  group["tolerance_grad"], group["tolerance_change"], group["history_size"],
                                  group["line_search_fn"])
        with no_grad():
            return lbfgs.run_step(_TorchVectors(self._params), settings, self.state[self._params[0]],
                                  enable_grad()(closure))
