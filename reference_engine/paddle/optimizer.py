"""``paddle.optimizer.SGD``: the update a training loop applies between backward passes."""

from __future__ import annotations

from typing import Any, Optional, Sequence

from reference_engine.paddle import no_grad

__all__ = ["SGD"]


class SGD:
    """``parameter -= learning_rate * gradient`` for each parameter that has a gradient."""

    def __init__(self, learning_rate: float = 0.001, parameters: Optional[Sequence[Any]] = None,
                 weight_decay: Any = None, grad_clip: Any = None, name: Optional[str] = None) -> None:
        self.learning_rate = learning_rate
        self.parameters = list(parameters or [])

    def step(self) -> None:
        with no_grad():
            for p in self.parameters:
                if p.grad is not None:
                    p.subtract_(p.grad * self.learning_rate)

    def clear_grad(self, set_to_zero: bool = True) -> None:
        for p in self.parameters:
            p.clear_gradient(set_to_zero)

    def get_lr(self) -> float:
        return self.learning_rate
