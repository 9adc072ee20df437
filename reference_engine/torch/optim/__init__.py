"""``torch.optim``: the ``Optimizer`` base class, ``SGD``, ``Adam``, ``AdamW``, ``RMSprop``,
``Adagrad`` and ``Adadelta`` on it (``Adamax``, ``NAdam`` and ``RAdam`` in ``adam_variants``,
``LBFGS`` in ``lbfgs``), and
``lr_scheduler``: the updates a training loop applies between backward passes, each as torch's
single-tensor implementation writes it."""

from __future__ import annotations

from typing import Any, Callable, Optional

from reference_engine import ops as F
from reference_engine.framework_names import module_getattr
from reference_engine.rounding import note_read_by_optimizer
from reference_engine.torch._core import TORCH, no_grad
from reference_engine.torch.optim import lr_scheduler, swa_utils
from reference_engine.torch.optim.adam_variants import *  # noqa: F403
from reference_engine.torch.optim.adam_variants import __all__ as _adam_variants
from reference_engine.torch.optim.lbfgs import LBFGS
from reference_engine.torch.optim.optimizer import (
    Optimizer,
    Params,
    PerParameter,
    check_nonnegative,
    closure_loss,
    required,
)

__all__ = ["LBFGS", "SGD", "Adadelta", "Adagrad", "Adam", "AdamW", "Optimizer", "RMSprop", "lr_scheduler",
           "required", "swa_utils", *_adam_variants]


class SGD(Optimizer):
    """Stochastic gradient descent with optional momentum and weight decay (torch's rule)."""

    def __init__(self, params: Params, lr: float = 1e-3, momentum: float = 0,
                 dampening: float = 0, weight_decay: float = 0, nesterov: bool = False, *,
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
        loss = closure_loss(closure)
        with no_grad():
            note_read_by_optimizer(p.grad for group in self.param_groups for p in group["params"])
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


class Adam(PerParameter):
    """Adam with torch's bias-corrected update, ``amsgrad`` (the largest second moment so far)
    and ``maximize`` (ascent). ``foreach``, ``capturable``, ``differentiable`` and ``fused``
    choose torch's implementation, not the result: they are kept in the groups and ignored."""

    def __init__(self, params: Params, lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 0, amsgrad: bool = False, *,
                 foreach: Optional[bool] = None, maximize: bool = False,
                 capturable: bool = False, differentiable: bool = False,
                 fused: Optional[bool] = None, decoupled_weight_decay: bool = False) -> None:
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
                                      fused=fused, decoupled_weight_decay=decoupled_weight_decay))

    def _update(self, p: Any, g: Any, group: dict[str, Any], state: dict[str, Any]) -> None:
        beta1, beta2 = group["betas"]
        if group["decoupled_weight_decay"]:  # AdamW: the parameter shrinks, the gradient is left alone
            p.mul_(1 - group["lr"] * group["weight_decay"])
        elif group["weight_decay"]:
            g = g + p * group["weight_decay"]
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


class AdamW(Adam):
    """Adam whose weight decay shrinks the parameter by ``lr * weight_decay`` before the step
    (decoupled), 0.01 by default."""

    def __init__(self, params: Params, lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 1e-2, amsgrad: bool = False,
                 **options: Any) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, **options,
                         decoupled_weight_decay=True)


class RMSprop(PerParameter):
    """A step scaled by the root of a running mean of squared gradients (centred: less the
    squared running mean), with optional momentum."""

    def __init__(self, params: Params, lr: float = 1e-2, alpha: float = 0.99, eps: float = 1e-8,
                 weight_decay: float = 0, momentum: float = 0, centered: bool = False,
                 capturable: bool = False, foreach: Optional[bool] = None, maximize: bool = False,
                 differentiable: bool = False) -> None:
        check_nonnegative({"learning rate": lr, "epsilon value": eps, "momentum value": momentum,
                           "weight_decay value": weight_decay, "alpha value": alpha})
        super().__init__(params, dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                                      weight_decay=weight_decay, capturable=capturable, foreach=foreach,
                                      maximize=maximize, differentiable=differentiable))

    def _update(self, p: Any, g: Any, group: dict[str, Any], state: dict[str, Any]) -> None:
        if group["weight_decay"]:
            g = g + p * group["weight_decay"]
        if not state:
            state.update(step=0, square_avg=g * 0, grad_avg=g * 0, momentum_buffer=g * 0)
        state["step"] += 1
        alpha = group["alpha"]
        state["square_avg"] = state["square_avg"] * alpha + g * g * (1 - alpha)
        if group["centered"]:
            state["grad_avg"] = state["grad_avg"] + (g - state["grad_avg"]) * (1 - alpha)
            avg = (state["square_avg"] - state["grad_avg"] * state["grad_avg"]).sqrt() + group["eps"]
        else:
            avg = state["square_avg"].sqrt() + group["eps"]
        if group["momentum"] > 0:
            state["momentum_buffer"] = state["momentum_buffer"] * group["momentum"] + g / avg
            p.sub_(state["momentum_buffer"] * group["lr"])
        else:
            p.sub_(g / avg * group["lr"])


class Adagrad(PerParameter):
    """A step scaled by the root of the summed squared gradients, the rate decayed by step."""

    def __init__(self, params: Params, lr: float = 1e-2, lr_decay: float = 0,
                 weight_decay: float = 0, initial_accumulator_value: float = 0, eps: float = 1e-10,
                 foreach: Optional[bool] = None, *, maximize: bool = False, differentiable: bool = False,
                 fused: Optional[bool] = None) -> None:
        check_nonnegative({"learning rate": lr, "lr_decay value": lr_decay,
                           "weight_decay value": weight_decay,
                           "initial_accumulator_value value": initial_accumulator_value,
                           "epsilon value": eps})
        super().__init__(params, dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                                      initial_accumulator_value=initial_accumulator_value, foreach=foreach,
                                      maximize=maximize, differentiable=differentiable, fused=fused))
        for group in self.param_groups:
            for p in group["params"]:
                self.state[p].update(step=0, sum=p.detach() * 0 + initial_accumulator_value)

    def _update(self, p: Any, g: Any, group: dict[str, Any], state: dict[str, Any]) -> None:
        state["step"] += 1
        if group["weight_decay"]:
            g = g + p * group["weight_decay"]
        rate = group["lr"] / (1 + (state["step"] - 1) * group["lr_decay"])
        state["sum"] = state["sum"] + g * g
        p.sub_(g / (state["sum"].sqrt() + group["eps"]) * rate)


class Adadelta(PerParameter):
    """Steps of the ratio of two running roots: of the squared steps so far and of the squared
    gradients."""

    def __init__(self, params: Params, lr: float = 1.0, rho: float = 0.9, eps: float = 1e-6,
                 weight_decay: float = 0, foreach: Optional[bool] = None, *, capturable: bool = False,
                 maximize: bool = False, differentiable: bool = False) -> None:
        check_nonnegative({"learning rate": lr, "epsilon value": eps, "weight_decay value": weight_decay})
        if not 0.0 <= rho <= 1.0:
            raise TORCH.error("optim_invalid", what="rho value", value=rho)
        super().__init__(params, dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize,
                                      capturable=capturable, foreach=foreach, differentiable=differentiable))

    def _update(self, p: Any, g: Any, group: dict[str, Any], state: dict[str, Any]) -> None:
        if group["weight_decay"]:
            g = g + p * group["weight_decay"]
        if not state:
            state.update(step=0, square_avg=g * 0, acc_delta=g * 0)
        state["step"] += 1
        rho, eps = group["rho"], group["eps"]
        state["square_avg"] = state["square_avg"] * rho + g * g * (1 - rho)
        delta = (state["acc_delta"] + eps).sqrt() / (state["square_avg"] + eps).sqrt() * g
        state["acc_delta"] = state["acc_delta"] * rho + delta * delta * (1 - rho)
        p.sub_(delta * group["lr"])

__getattr__ = module_getattr("torch.optim")
