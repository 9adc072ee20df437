"""``paddle.optimizer.LBFGS`` over the shared L-BFGS (``reference_engine.lbfgs``), with paddle's
arithmetic: its ``dot`` is ``(x * y).sum()``, updates are ``x + y * a`` written back with
``paddle.assign``, the step size is made a tensor before it scales, and the line search runs at
most 25 evaluations. The state is the optimizer's one dict, in paddle's names."""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

from reference_engine import lbfgs
from reference_engine.dialects.paddle_policy import PADDLE
from reference_engine.messages import not_supported
from reference_engine.paddle._core import Tensor, concat, enable_grad, no_grad, to_tensor, zeros_like
from reference_engine.paddle.optimizer.base import Optimizer

__all__ = ["LBFGS"]


class _PaddleVectors:
    """paddle's spelling of L-BFGS's vector operations (``lbfgs.VectorOps``)."""

    state_names = {"t": "alpha", "old_dirs": "old_yk", "old_stps": "old_sk"}

    def __init__(self, params: list[Tensor]) -> None:
        self.params = params

    def dot(self, a: Tensor, b: Tensor) -> Tensor:
        return (a * b).sum(axis=-1)

    def scale(self, v: Tensor, t: Any) -> Tensor:
        return v.multiply(to_tensor(t, dtype=v.dtype))

    def add_scaled(self, v: Tensor, w: Tensor, a: Any) -> None:
        v.set_value(v.add(w * a))

    def initial_h_diag(self, loss: Any) -> Any:
        return to_tensor(1.0, dtype=loss.dtype)

    def flat_grad(self) -> Tensor:
        """Every parameter's gradient flattened and joined (zeros for one without)."""
        return concat([zeros_like(p).reshape([-1]) if p.grad is None else p.grad.reshape([-1])
                       for p in self.params], axis=0)

    def add_grad(self, t: Any, d: Tensor) -> None:
        offset = 0
        for p in self.params:
            numel = p.numel().item() if p.shape else 1
            p.set_value(p.add(d[offset:offset + numel].reshape(p.shape) * t))
            offset += numel

    def clone_params(self) -> list[Tensor]:
        return [p.clone() for p in self.params]

    def set_params(self, saved: list[Tensor]) -> None:
        for p, value in zip(self.params, saved):
            p.set_value(value)

    def copy_into(self, target: Tensor, source: Tensor) -> None:
        target.set_value(source)

    def line_search_budget(self, max_eval: int, current_evals: int) -> int:
        return 25

    def refuse_line_search(self) -> Exception:
        return PADDLE.error("lbfgs_line_search")


class LBFGS(Optimizer):
    """L-BFGS: ``step(closure)`` runs up to ``max_iter`` iterations; ``state`` counts them."""

    def state_dict(self) -> dict[str, Any]:
        raise not_supported("LBFGS.state_dict", "paddle")

    def set_state_dict(self, state_dict: dict[str, Any]) -> None:
        raise not_supported("LBFGS.set_state_dict", "paddle")

    def __init__(self, learning_rate: float = 1.0, max_iter: int = 20, max_eval: Optional[int] = None,
                 tolerance_grad: float = 1e-7, tolerance_change: float = 1e-9, history_size: int = 100,
                 line_search_fn: Optional[str] = None, parameters: Optional[Sequence[Any]] = None,
                 weight_decay: Any = None, grad_clip: Any = None, name: Optional[str] = None) -> None:
        super().__init__(learning_rate, parameters, weight_decay, grad_clip, name)
        max_eval = max_iter * 5 // 4 if max_eval is None else max_eval
        self.settings = lbfgs.Settings(learning_rate, max_iter, max_eval, tolerance_grad, tolerance_change,
                                       history_size, line_search_fn)
        self.state: dict[str, Any] = {}

    def step(self, closure: Callable[[], Any]) -> Any:  # type: ignore[override]
        with no_grad():
            return lbfgs.run_step(_PaddleVectors(self.parameters), self.settings, self.state,
                                  enable_grad()(closure))
