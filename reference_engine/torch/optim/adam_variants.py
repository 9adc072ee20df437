"""``torch.optim.Adamax``, ``NAdam`` and ``RAdam``: Adam's first moment with another second
statistic or step size, each as torch 2.13's single-tensor implementation writes it (the one
torch runs for CPU tensors). NAdam keeps its momentum product as torch does, a float32 number."""

from __future__ import annotations

import math
from typing import Any, Optional

import numpy as np

from reference_engine import ops as F
from reference_engine.torch._core import TORCH
from reference_engine.torch.optim.optimizer import Params, PerParameter

__all__ = ["Adamax", "NAdam", "RAdam"]


def _adam_checks(lr: float, betas: tuple[float, float], eps: float, weight_decay: float) -> None:
    """torch's checks, in its order: rate, epsilon, each beta, weight decay."""
    if lr < 0.0:
        raise TORCH.error("optim_invalid", what="learning rate", value=lr)
    if eps < 0.0:
        raise TORCH.error("optim_invalid", what="epsilon value", value=eps)
    for index, beta in enumerate(betas):
        if not 0.0 <= beta < 1.0:
            raise TORCH.error("optim_invalid", what=f"beta parameter at index {index}", value=beta)
    if weight_decay < 0.0:
        raise TORCH.error("optim_invalid", what="weight_decay value", value=weight_decay)


def _lerp(start: Any, end: Any, weight: float) -> Any:
    """``start.lerp_(end, weight)`` as torch's kernel computes it for a number weight."""
    if weight < 0.5:
        return start + (end - start) * weight
    return end - (end - start) * (1 - weight)


class _AdamFamily(PerParameter):
    """The hyperparameters Adam's variants share, checked as torch checks them."""

    def __init__(self, params: Params, lr: float, betas: tuple[float, float], eps: float,
                 weight_decay: float, **extra: Any) -> None:
        _adam_checks(lr, betas, eps, weight_decay)
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, **extra))

    def _moments(self, g: Any, state: dict[str, Any], beta1: float, beta2: float) -> None:
        state["exp_avg"] = _lerp(state["exp_avg"], g, 1 - beta1)
        state["exp_avg_sq"] = state["exp_avg_sq"] * beta2 + g * g * (1 - beta2)


class Adamax(_AdamFamily):
    """Adam with the infinity norm: the second statistic is the decayed largest |gradient|."""

    def __init__(self, params: Params, lr: float = 2e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, foreach: Optional[bool] = None, *,
                 maximize: bool = False, differentiable: bool = False, capturable: bool = False) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, foreach=foreach, maximize=maximize,
                         differentiable=differentiable, capturable=capturable)

    def _update(self, p: Any, g: Any, group: dict[str, Any], state: dict[str, Any]) -> None:
        beta1, beta2 = group["betas"]
        if not state:
            state.update(step=0, exp_avg=p.detach() * 0, exp_inf=p.detach() * 0)
        state["step"] += 1
        if group["weight_decay"]:
            g = g + p * group["weight_decay"]
        state["exp_avg"] = _lerp(state["exp_avg"], g, 1 - beta1)
        state["exp_inf"] = F.maximum(state["exp_inf"] * beta2, g.abs() + group["eps"])
        rate = group["lr"] / (1 - beta1 ** state["step"])
        p.sub_(state["exp_avg"] / state["exp_inf"] * rate)


class NAdam(_AdamFamily):
    """Adam with Nesterov momentum, its momentum decaying by ``momentum_decay`` a step."""

    def __init__(self, params: Params, lr: float = 2e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, momentum_decay: float = 4e-3,
                 decoupled_weight_decay: bool = False, *, foreach: Optional[bool] = None,
                 maximize: bool = False, capturable: bool = False, differentiable: bool = False) -> None:
        if momentum_decay < 0.0:
            raise TORCH.error("optim_invalid", what="momentum_decay value", value=momentum_decay)
        super().__init__(params, lr, betas, eps, weight_decay, momentum_decay=momentum_decay,
                         decoupled_weight_decay=decoupled_weight_decay, maximize=maximize, foreach=foreach,
                         capturable=capturable, differentiable=differentiable)

    def _update(self, p: Any, g: Any, group: dict[str, Any], state: dict[str, Any]) -> None:
        beta1, beta2 = group["betas"]
        lr, decay = group["lr"], group["momentum_decay"]
        if not state:
            state.update(step=0, mu_product=np.float32(1.0), exp_avg=p.detach() * 0,
                         exp_avg_sq=p.detach() * 0)
        state["step"] += 1
        step = state["step"]
        if group["weight_decay"]:
            if group["decoupled_weight_decay"]:
                p.mul_(1 - lr * group["weight_decay"])
            else:
                g = g + p * group["weight_decay"]
        mu = beta1 * (1.0 - 0.5 * 0.96 ** (step * decay))
        mu_next = beta1 * (1.0 - 0.5 * 0.96 ** ((step + 1) * decay))
        state["mu_product"] = np.float32(state["mu_product"] * np.float32(mu))
        self._moments(g, state, beta1, beta2)
        denominator = (state["exp_avg_sq"] / (1 - beta2 ** step)).sqrt() + group["eps"]
        product = float(state["mu_product"])
        p.add_(g / denominator * (-lr * (1.0 - mu) / (1.0 - product)))
        p.add_(state["exp_avg"] / denominator * ((-lr * mu_next) / (1.0 - product * mu_next)))


class RAdam(_AdamFamily):
    """Adam whose adaptive step is rectified by the variance of its length, and left out (a
    plain momentum step) while that length is 5 or less."""

    def __init__(self, params: Params, lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, decoupled_weight_decay: bool = False, *,
                 foreach: Optional[bool] = None, maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, maximize=maximize, foreach=foreach,
                         capturable=capturable, decoupled_weight_decay=decoupled_weight_decay,
                         differentiable=differentiable)

    def _update(self, p: Any, g: Any, group: dict[str, Any], state: dict[str, Any]) -> None:
        beta1, beta2 = group["betas"]
        lr = group["lr"]
        if not state:
            state.update(step=0, exp_avg=p.detach() * 0, exp_avg_sq=p.detach() * 0)
        state["step"] += 1
        step = state["step"]
        if group["weight_decay"]:
            if group["decoupled_weight_decay"]:
                p.mul_(1 - lr * group["weight_decay"])
            else:
                g = g + p * group["weight_decay"]
        self._moments(g, state, beta1, beta2)
        correction1, correction2 = 1 - beta1 ** step, 1 - beta2 ** step
        corrected = state["exp_avg"] / correction1
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2 ** step) / correction2
        if rho_t > 5.0:
            adaptive = math.sqrt(correction2) / (state["exp_avg_sq"].sqrt() + group["eps"])
            rect = ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
            p.sub_(corrected * lr * adaptive * rect)
        else:
            p.sub_(corrected * lr)
