"""``torch.optim.swa_utils``: stochastic weight averaging. ``AveragedModel`` keeps a copy of a
model whose parameters are the running average of the model's (or an average of the caller's),
``SWALR`` anneals each group's rate to its ``swa_lr``, ``update_bn`` recomputes the batch-norm
statistics of a model over a loader. The averages are computed as torch computes them on the
CPU (``p + (q - p) / (n + 1)``, ``n`` an int64 tensor); the EMA and SWA helpers torch offers
for its own loop are here too."""

from __future__ import annotations

import itertools
import math
import warnings
from copy import deepcopy
from typing import Any, Callable, Optional

from reference_engine.framework_names import module_getattr
from reference_engine.torch._core import Tensor, long, no_grad, tensor
from reference_engine.torch.nn.layers import _BatchNorm
from reference_engine.torch.nn.modules import Module
from reference_engine.torch.optim.lr_scheduler import LRScheduler, _per_group

__all__ = ["SWALR", "AveragedModel", "get_ema_avg_fn", "get_ema_multi_avg_fn", "get_swa_avg_fn",
           "get_swa_multi_avg_fn", "update_bn"]


def get_ema_avg_fn(decay: float = 0.999) -> Callable[[Tensor, Tensor, Any], Tensor]:
    """An exponential moving average: ``decay * averaged + (1 - decay) * current``."""
    if decay < 0.0 or decay > 1.0:
        raise ValueError(f"Invalid decay value {decay} provided. Please provide a value in [0,1] range.")

    def ema_update(averaged: Tensor, current: Tensor, num_averaged: Any) -> Tensor:
        with no_grad():
            return decay * averaged + (1 - decay) * current
    return ema_update


def get_ema_multi_avg_fn(decay: float = 0.999) -> Callable[[list[Tensor], list[Tensor], Any], None]:
    """The moving average over lists of parameters, in place: each float average lerped toward
    the current value by ``1 - decay`` (torch's ``_foreach_lerp_``), others recomputed."""
    if decay < 0.0 or decay > 1.0:
        raise ValueError(f"Invalid decay value {decay} provided. Please provide a value in [0,1] range.")

    def ema_update(averaged: list[Tensor], current: list[Tensor], num_averaged: Any) -> None:
        with no_grad():
            for mine, theirs in zip(averaged, current):
                if mine.is_floating_point():
                    mine.lerp_(theirs, 1 - decay)
                else:
                    mine.copy_(mine * decay + theirs * (1 - decay))
    return ema_update


def get_swa_multi_avg_fn() -> Callable[[list[Tensor], list[Tensor], Any], None]:
    """The running mean over lists of parameters, in place: float averages lerped toward the
    current value by ``1 / (num_averaged + 1)``, others moved by the difference over it."""
    def swa_update(averaged: list[Tensor], current: list[Tensor], num_averaged: Any) -> None:
        with no_grad():
            for mine, theirs in zip(averaged, current):
                if mine.is_floating_point():
                    mine.lerp_(theirs, float(1 / (num_averaged + 1)))
                elif isinstance(num_averaged, Tensor):
                    mine.addcdiv_(theirs - mine, num_averaged + 1)
                else:
                    mine.add_(theirs - mine, alpha=1.0 / (num_averaged + 1))
    return swa_update


def get_swa_avg_fn() -> Callable[[Tensor, Tensor, Any], Tensor]:
    """The running mean: ``averaged + (current - averaged) / (num_averaged + 1)``."""
    def swa_update(averaged: Tensor, current: Tensor, num_averaged: Any) -> Tensor:
        with no_grad():
            return averaged + (current - averaged) / (num_averaged + 1)
    return swa_update


class AveragedModel(Module):
    """A deep copy of ``model`` whose ``update_parameters(model)`` copies the model's parameters
    the first time and averages them in after (``avg_fn``, by default the running mean), with a
    counter buffer ``n_averaged``; its buffers are copied from the model's each time (unless
    ``use_buffers``: then averaged with the parameters)."""

    def __init__(self, model: Module, device: Any = None,
                 avg_fn: Optional[Callable[[Tensor, Tensor, Any], Tensor]] = None,
                 multi_avg_fn: Any = None, use_buffers: bool = False) -> None:
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise AssertionError("Only one of avg_fn and multi_avg_fn should be provided")
        self.module = deepcopy(model)
        self.register_buffer("n_averaged", tensor(0, dtype=long))
        self.avg_fn, self.multi_avg_fn, self.use_buffers = avg_fn, multi_avg_fn, use_buffers

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        return self.module(*args, **kwargs)

    def update_parameters(self, model: Module) -> None:
        mine = list(itertools.chain(self.module.parameters(), self.module.buffers())
                    if self.use_buffers else self.parameters())
        theirs = [p.detach() for p in (itertools.chain(model.parameters(), model.buffers())
                                       if self.use_buffers else model.parameters())]
        first = bool(self.n_averaged == 0)
        with no_grad():
            for averaged, current in zip(mine, theirs):
                if first:
                    averaged.detach().copy_(current)
            if not first:
                if self.multi_avg_fn is not None:
                    self.multi_avg_fn([p.detach() for p in mine], theirs, self.n_averaged)
                else:
                    average = self.avg_fn or get_swa_avg_fn()
                    for averaged, current in zip(mine, theirs):
                        averaged.detach().copy_(average(averaged.detach(), current, self.n_averaged))
            if not self.use_buffers:
                for mine_buffer, their_buffer in zip(self.module.buffers(), model.buffers()):
                    mine_buffer.detach().copy_(their_buffer.detach())
            self.n_averaged += 1


def update_bn(loader: Any, model: Module, device: Any = None) -> None:
    """Recompute the running statistics of every batch norm in ``model`` as the cumulative
    average over ``loader``'s inputs (the first item of a list or tuple), in train mode."""
    momenta = {}
    for module in model.modules():
        if isinstance(module, _BatchNorm):
            module.reset_running_stats()
            momenta[module] = module.momentum
    if not momenta:
        return
    was_training = model.training
    model.train()
    for module in momenta:
        module.momentum = None
    with no_grad():
        for batch in loader:
            model(batch[0] if isinstance(batch, (list, tuple)) else batch)
    for module, momentum in momenta.items():
        module.momentum = momentum
    model.train(was_training)


class SWALR(LRScheduler):
    """Anneals each group's rate from its own to its ``swa_lr`` over ``anneal_epochs`` steps
    (``cos`` or ``linear``), then holds it."""

    def __init__(self, optimizer: Any, swa_lr: Any, anneal_epochs: int = 10, anneal_strategy: str = "cos",
                 last_epoch: int = -1) -> None:
        groups = optimizer.param_groups
        for rate, group in zip(_per_group(swa_lr, groups, "swa_lr"), groups):
            group["swa_lr"] = rate
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError("anneal_strategy must be one of 'cos' or 'linear', "
                             f"instead got {anneal_strategy}")
        self._anneal_strategy = anneal_strategy
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got {anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    def anneal_func(self, t: float) -> float:
        return t if self._anneal_strategy == "linear" else (1 - math.cos(math.pi * t)) / 2

    def get_lr(self) -> list[float]:
        if not getattr(self, "_in_step", False):
            warnings.warn("To get the last learning rate computed by the scheduler, please use "
                          "`get_last_lr()`.", UserWarning, stacklevel=2)
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        before = self.anneal_func(max(0, min(1, (step - 1) / max(1, self.anneal_epochs))))
        groups = self.optimizer.param_groups
        starts = [g["swa_lr"] if before == 1 else (g["lr"] - before * g["swa_lr"]) / (1 - before)
                  for g in groups]
        alpha = self.anneal_func(max(0, min(1, step / max(1, self.anneal_epochs))))
        return [g["swa_lr"] * alpha + lr * (1 - alpha) for g, lr in zip(groups, starts)]


__getattr__ = module_getattr("torch.optim.swa_utils")
