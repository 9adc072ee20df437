"""``torch.optim.SGD`` and ``Adam``: the updates a training loop applies between backward passes."""

from __future__ import annotations

from typing import Any, Iterable, Optional

from reference_engine import ops as F
from reference_engine.torch import Tensor, no_grad
from reference_engine.torch.nn.modules import clear_grads

__all__ = ["SGD", "Adam"]


class SGD:
    """Stochastic gradient descent with optional momentum and weight decay (torch's rule)."""

    def __init__(self, params: Iterable[Tensor], lr: float = 1e-3, momentum: float = 0.0,
                 dampening: float = 0.0, weight_decay: float = 0.0,
                 nesterov: bool = False) -> None:
        self.params = list(params)
        self.lr, self.momentum, self.dampening = lr, momentum, dampening
        self.weight_decay, self.nesterov = weight_decay, nesterov
        self._buffers: dict[int, Optional[Tensor]] = {}

    def step(self, closure: Any = None) -> Any:
        loss = closure() if closure is not None else None
        with no_grad():
            for p in self.params:
                if p.grad is None:
                    continue
                # torch's steps, each ``add(..., alpha=)`` one fused multiply-add
                d_p = p.grad
                if self.weight_decay:
                    d_p = d_p.add(p, alpha=self.weight_decay)
                if self.momentum:
                    buf = self._buffers.get(id(p))
                    buf = d_p.clone() if buf is None else (buf * self.momentum).add(
                        d_p, alpha=1 - self.dampening)
                    self._buffers[id(p)] = buf
                    d_p = d_p.add(buf, alpha=self.momentum) if self.nesterov else buf
                p.add_(d_p, alpha=-self.lr)
        return loss

    def zero_grad(self, set_to_none: bool = True) -> None:
        clear_grads(self.params, set_to_none)


class Adam:
    """Adam with torch's bias-corrected update, ``amsgrad`` (the largest second moment so far)
    and ``maximize`` (ascent)."""

    def __init__(self, params: Iterable[Tensor], lr: float = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0.0, amsgrad: bool = False, *,
                 foreach: Optional[bool] = None, maximize: bool = False,
                 capturable: bool = False, differentiable: bool = False,
                 fused: Optional[bool] = None) -> None:
        """``foreach``, ``capturable``, ``differentiable`` and ``fused`` choose torch's
        implementation, not the result: they are accepted and ignored."""
        self.params = list(params)
        self.lr, self.betas, self.eps, self.weight_decay = lr, betas, eps, weight_decay
        self.amsgrad, self.maximize = amsgrad, maximize
        self._state: dict[int, list[Any]] = {}

    def step(self, closure: Any = None) -> Any:
        loss = closure() if closure is not None else None
        beta1, beta2 = self.betas
        with no_grad():
            for p in self.params:
                if p.grad is None:
                    continue
                g = -p.grad if self.maximize else p.grad
                g = g if not self.weight_decay else g + p * self.weight_decay
                # step, first moment, second moment, largest second moment (amsgrad)
                state = self._state.setdefault(id(p), [0, g * 0, g * 0, g * 0])
                state[0] += 1
                state[1] = state[1] * beta1 + g * (1 - beta1)
                state[2] = state[2] * beta2 + g * g * (1 - beta2)
                if self.amsgrad:
                    state[3] = F.maximum(state[3], state[2])
                step = state[0]
                second = state[3] if self.amsgrad else state[2]
                denominator = (second / (1 - beta2 ** step)).sqrt() + self.eps
                p.sub_(state[1] / denominator * (self.lr / (1 - beta1 ** step)))
        return loss

    def zero_grad(self, set_to_none: bool = True) -> None:
        clear_grads(self.params, set_to_none)
