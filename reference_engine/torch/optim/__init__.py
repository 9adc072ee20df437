"""``torch.optim``: the ``Optimizer`` base class, ``SGD`` and ``Adam`` on it, and
``lr_scheduler``: the updates a training loop applies between backward passes."""

from __future__ import annotations

from typing import Any, Callable, Optional

from reference_engine import ops as F
from reference_engine.framework_names import module_getattr
from reference_engine.torch._core import TORCH, no_grad
from reference_engine.torch.optim import lr_scheduler
from reference_engine.torch.optim.optimizer import Optimizer, Params, required

__all__ = ["SGD", "Adam", "Optimizer", "lr_scheduler", "required"]


def _closure_loss(closure: Optional[Callable[[], Any]]) -> Any:
    """What ``step(closure)`` returns: the closure's loss, computed with recording on."""
    if closure is None:
        return None
    from reference_engine.torch._core import enable_grad

    with enable_grad():
        return closure()


class SGD(Optimizer):
    """Stochastic gradient descent with optional momentum and weight decay (torch's rule)."""

    def __init__(self, params: Params, lr: float = 1e-3, momentum: float = 0.0,
                 dampening: float = 0.0, weight_decay: float = 0.0, nesterov: bool = False, *,
                 maximize: bool = False, foreach: Optional[bool] = None,
                 differentiable: bool = False, fused: Optional[bool] = None) -> None:
        if lr is not required and lr < 0.0:
            raise TORCH.error("optim_invalid", what="learning rate", value=lr)
        if momentum < 0.0:
            raise TORCH.error("optim_invalid", what="momentum value", value=momentum)
        if weight_decay < 0.0:
            raise TORCH.error("optim_invalid", what="weight_decay value", value=weight_decay)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise TORCH.error("optim_nesterov")
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening,
                                      weight_decay=weight_decay, nesterov=nesterov,
                                      maximize=maximize, foreach=foreach,
                                      differentiable=differentiable, fused=fused))

    def step(self, closure: Optional[Callable[[], Any]] = None) -> Any:
        loss = _closure_loss(closure)
        with no_grad():
            for group in self.param_groups:
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    # torch's steps, each ``add(..., alpha=)`` one fused multiply-add
                    d_p = p.grad if not group["maximize"] else -p.grad
                    if group["weight_decay"]:
                        d_p = d_p.add(p, alpha=group["weight_decay"])
                    if group["momentum"]:
                        state = self.state[p]
                        buf = state.get("momentum_buffer")
                        buf = d_p.clone() if buf is None else (buf * group["momentum"]).add(
                            d_p, alpha=1 - group["dampening"])
                        state["momentum_buffer"] = buf
                        d_p = d_p.add(buf, alpha=group["momentum"]) if group["nesterov"] else buf
                    p.add_(d_p, alpha=-group["lr"])
        return loss


class Adam(Optimizer):
    """Adam with torch's bias-corrected update, ``amsgrad`` (the largest second moment so far)
    and ``maximize`` (ascent). ``foreach``, ``capturable``, ``differentiable`` and ``fused``
    choose torch's implementation, not the result: they are kept in the groups and ignored."""

    def __init__(self, params: Params, lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0.0, amsgrad: bool = False, *,
                 foreach: Optional[bool] = None, maximize: bool = False,
                 capturable: bool = False, differentiable: bool = False,
                 fused: Optional[bool] = None) -> None:
        if lr < 0.0:
            raise TORCH.error("optim_invalid", what="learning rate", value=lr)
        if eps < 0.0:
            raise TORCH.error("optim_invalid", what="epsilon value", value=eps)
        for index, beta in enumerate(betas):
            if not 0.0 <= beta < 1.0:
                raise TORCH.error("optim_invalid", what=f"beta parameter at index {index}", value=beta)
        if weight_decay < 0.0:
            raise TORCH.error("optim_invalid", what="weight_decay value", value=weight_decay)
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                                      amsgrad=amsgrad, maximize=maximize, foreach=foreach,
                                      capturable=capturable, differentiable=differentiable,
                                      fused=fused))

    def step(self, closure: Optional[Callable[[], Any]] = None) -> Any:
        loss = _closure_loss(closure)
        with no_grad():
            for group in self.param_groups:
                beta1, beta2 = group["betas"]
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    g = -p.grad if group["maximize"] else p.grad
                    g = g if not group["weight_decay"] else g + p * group["weight_decay"]
                    state = self.state[p]
                    if not state:
                        state.update(step=0, exp_avg=g * 0, exp_avg_sq=g * 0)
                        if group["amsgrad"]:
                            state["max_exp_avg_sq"] = g * 0
                    state["step"] += 1
                    state["exp_avg"] = state["exp_avg"] * beta1 + g * (1 - beta1)
                    state["exp_avg_sq"] = state["exp_avg_sq"] * beta2 + g * g * (1 - beta2)
                    second = state["exp_avg_sq"]
                    if group["amsgrad"]:
                        second = state["max_exp_avg_sq"] = F.maximum(state["max_exp_avg_sq"], second)
                    step = state["step"]
                    denominator = (second / (1 - beta2 ** step)).sqrt() + group["eps"]
                    p.sub_(state["exp_avg"] / denominator * (group["lr"] / (1 - beta1 ** step)))
        return loss

__getattr__ = module_getattr("torch.optim")
