"""``paddle.optimizer.lr``: learning-rate schedulers. An optimizer given one as its
``learning_rate`` reads the scheduler's current rate at each step; ``scheduler.step()`` moves
it on one epoch. Each rate follows paddle's own formula (most in closed form from
``base_lr``; the cosine one recursive, as paddle writes it)."""

from __future__ import annotations

import math
from typing import Any, Callable, Sequence

from reference_engine.dialects.paddle_policy import PADDLE
from reference_engine.framework_names import module_getattr

__all__ = ["CosineAnnealingDecay", "CosineAnnealingWarmRestarts", "CyclicLR", "ExponentialDecay",
           "InverseTimeDecay",
           "LRScheduler", "LambdaDecay", "LinearLR", "LinearWarmup", "MultiplicativeDecay", "NaturalExpDecay",
           "NoamDecay", "OneCycleLR", "PolynomialDecay", "ReduceOnPlateau", "MultiStepDecay",
           "PiecewiseDecay", "StepDecay"]


class LRScheduler:
    """The base: ``base_lr``, ``last_epoch`` and ``last_lr``; calling it gives the rate."""

    def __init__(self, learning_rate: float = 0.1, last_epoch: int = -1, verbose: bool = False) -> None:
        if not isinstance(learning_rate, (float, int)):
            raise PADDLE.error("lr_type", type=type(learning_rate))
        self.base_lr = float(learning_rate)
        self.last_lr = float(learning_rate)
        self.last_epoch = last_epoch
        self.verbose = verbose
        self.step()

    def __call__(self) -> float:
        return self.last_lr

    def step(self, epoch: int | None = None) -> None:
        """One epoch on, or to ``epoch``: there a scheduler with a closed form uses it."""
        if epoch is None:
            self.last_epoch += 1
            self.last_lr = self.get_lr()
            return
        self.last_epoch = epoch
        self.last_lr = self._closed_form_lr() if hasattr(self, "_closed_form_lr") else self.get_lr()

    def get_lr(self) -> float:
        raise NotImplementedError

    def state_dict(self) -> dict[str, float]:
        return {"last_epoch": self.last_epoch, "last_lr": self.last_lr}

    def set_state_dict(self, state_dict: dict[str, float]) -> None:
        self.last_epoch, self.last_lr = state_dict["last_epoch"], state_dict["last_lr"]


class StepDecay(LRScheduler):
    """``base_lr * gamma ** (epoch // step_size)``."""

    def __init__(self, learning_rate: float, step_size: int, gamma: float = 0.1,
                 last_epoch: int = -1, verbose: bool = False) -> None:
        if not isinstance(step_size, int):
            raise PADDLE.error("lr_step_size_type", type=type(step_size))
        if gamma >= 1.0:
            raise PADDLE.error("lr_gamma")
        self.step_size, self.gamma = step_size, gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * (self.gamma ** (self.last_epoch // self.step_size))


class PiecewiseDecay(LRScheduler):
    """``values[k]`` from the k-th boundary on (``values[0]`` before the first)."""

    def __init__(self, boundaries: Sequence[int], values: Sequence[float], last_epoch: int = -1,
                 verbose: bool = False) -> None:
        self.boundaries, self.values = list(boundaries), list(values)
        super().__init__(last_epoch=last_epoch, verbose=verbose)

    def get_lr(self) -> float:
        for boundary, value in zip(self.boundaries, self.values):
            if self.last_epoch < boundary:
                return value
        return self.values[len(self.boundaries)]


class MultiStepDecay(LRScheduler):
    """``base_lr * gamma ** k`` after the k-th milestone."""

    def __init__(self, learning_rate: float, milestones: Sequence[int], gamma: float = 0.1,
                 last_epoch: int = -1, verbose: bool = False) -> None:
        if not all(milestones[i] < milestones[i + 1] for i in range(len(milestones) - 1)):
            raise PADDLE.error("lr_milestones")
        if gamma >= 1.0:
            raise PADDLE.error("lr_gamma")
        self.milestones, self.gamma = list(milestones), gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        for i, milestone in enumerate(self.milestones):
            if self.last_epoch < milestone:
                return self.base_lr * (self.gamma ** i)
        return self.base_lr * (self.gamma ** len(self.milestones))


class ExponentialDecay(LRScheduler):
    """``base_lr * gamma ** epoch``."""

    def __init__(self, learning_rate: float, gamma: float, last_epoch: int = -1,
                 verbose: bool = False) -> None:
        if not 0.0 < gamma < 1.0:
            raise PADDLE.error("lr_exponential_gamma")
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * (self.gamma ** self.last_epoch)


class LambdaDecay(LRScheduler):
    """``base_lr * lr_lambda(epoch)``."""

    def __init__(self, learning_rate: float, lr_lambda: Callable[[int], float],
                 last_epoch: int = -1, verbose: bool = False) -> None:
        if not callable(lr_lambda):
            raise PADDLE.error("lr_lambda_type", type=type(lr_lambda))
        self.lr_lambda = lr_lambda
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * self.lr_lambda(self.last_epoch)


class CosineAnnealingDecay(LRScheduler):
    """Cosine annealing from ``base_lr`` to ``eta_min`` over ``T_max`` epochs and back."""

    def __init__(self, learning_rate: float, T_max: int, eta_min: float = 0,  # noqa: N803
                 last_epoch: int = -1, verbose: bool = False) -> None:
        if not isinstance(T_max, int):
            raise PADDLE.error("lr_t_max_type", type=type(T_max))
        self.T_max, self.eta_min = T_max, float(eta_min)
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        epoch, t_max, low = self.last_epoch, self.T_max, self.eta_min
        if epoch == 0:
            return self.base_lr
        if (epoch - 1 - t_max) % (2 * t_max) == 0:
            return self.last_lr + (self.base_lr - low) * (1 - math.cos(math.pi / t_max)) / 2
        return ((1 + math.cos(math.pi * epoch / t_max)) / (1 + math.cos(math.pi * (epoch - 1) / t_max))
                * (self.last_lr - low) + low)

    def _closed_form_lr(self) -> float:
        cosine = 1 + math.cos(math.pi * self.last_epoch / self.T_max)
        return self.eta_min + (self.base_lr - self.eta_min) * cosine / 2


class LinearWarmup(LRScheduler):
    """A linear rise from ``start_lr`` to ``end_lr`` over ``warmup_steps``, then
    ``learning_rate``: a number, or a scheduler stepped to the epochs past the warm-up."""

    def __init__(self, learning_rate: float | LRScheduler, warmup_steps: int, start_lr: float,
                 end_lr: float, last_epoch: int = -1, verbose: bool = False) -> None:
        if not isinstance(learning_rate, (float, int, LRScheduler)):
            raise TypeError("the type of learning_rate should be [int, float or LRScheduler], the current "
                            f"type is {learning_rate}")
        # paddle asserts both (raised here rather than asserted: under pytest an assert grows a line)
        if not (isinstance(warmup_steps, int) and warmup_steps > 0):
            raise AssertionError(" 'warmup_steps' must be a positive integer.")
        if not end_lr > start_lr:
            raise AssertionError(f"end_lr {end_lr} must be greater than start_lr {start_lr}")
        self.learning_rate, self.warmup_steps, self.start_lr, self.end_lr = \
            learning_rate, warmup_steps, start_lr, end_lr
        super().__init__(start_lr, last_epoch, verbose)

    def get_lr(self) -> float:
        if self.last_epoch < self.warmup_steps:
            rise = (self.end_lr - self.start_lr) * float(self.last_epoch)
            return rise / float(self.warmup_steps) + self.start_lr
        if isinstance(self.learning_rate, LRScheduler):
            self.learning_rate.step(self.last_epoch - self.warmup_steps)
            return self.learning_rate()
        return self.learning_rate

class ReduceOnPlateau(LRScheduler):
    """The rate times ``factor`` (not below ``min_lr``, and only by more than ``epsilon``) once
    the metric handed to ``step`` has not improved by ``threshold`` for more than ``patience``
    steps; ``cooldown`` steps after a cut are not counted."""

    def __init__(self, learning_rate: float, mode: str = "min", factor: float = 0.1, patience: int = 10,
                 threshold: float = 1e-4, threshold_mode: str = "rel", cooldown: int = 0, min_lr: float = 0,
                 epsilon: float = 1e-8, verbose: bool = False) -> None:
        mode, threshold_mode = mode.lower(), threshold_mode.lower()
        if mode not in ("min", "max"):
            raise ValueError("mode: " + mode + " is unknown!")
        if factor >= 1.0:
            raise ValueError("new_lr = origin_lr * gamma and gamma should be < 1.0.")
        if threshold_mode not in ("rel", "abs"):
            raise ValueError("threshold mode: " + threshold_mode + " is unknown!")
        if not isinstance(learning_rate, (float, int)):
            raise TypeError("The type of 'learning_rate' in 'ReduceOnPlateau' must be 'float', but received "
                            f"{type(learning_rate)}.")
        self.mode, self.factor, self.threshold_mode, self.patience = mode, factor, threshold_mode, patience
        self.threshold, self.cooldown, self.min_lr, self.epsilon = threshold, cooldown, min_lr, epsilon
        self.cooldown_counter, self.best, self.num_bad_epochs = 0, None, 0
        self.base_lr = self.last_lr = float(learning_rate)
        self.last_epoch, self.verbose = 0, verbose

    def _is_better(self, current: float, best: float) -> bool:
        margin = best * self.threshold if self.threshold_mode == "rel" else self.threshold
        return current < best - margin if self.mode == "min" else current > best + margin

    def step(self, metrics: Any = None, epoch: int | None = None) -> None:  # type: ignore[override]
        self.last_epoch = self.last_epoch + 1 if epoch is None else epoch
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            return
        if self.best is None or self._is_better(float(metrics), float(self.best)):
            self.best, self.num_bad_epochs = metrics, 0
        else:
            self.num_bad_epochs += 1
        if self.num_bad_epochs > self.patience:
            self.cooldown_counter, self.num_bad_epochs = self.cooldown, 0
            cut = max(self.last_lr * self.factor, self.min_lr)
            if self.last_lr - cut > self.epsilon:
                self.last_lr = cut

    def get_lr(self) -> float:
        return self.last_lr


__getattr__ = module_getattr("paddle.optimizer.lr")


class PolynomialDecay(LRScheduler):
    """From ``learning_rate`` to ``end_lr`` as ``(1 - epoch / decay_steps) ** power``; with
    ``cycle`` the decay restarts over a multiple of ``decay_steps``."""

    def __init__(self, learning_rate: float, decay_steps: int, end_lr: float = 0.0001,
                 power: float = 1.0, cycle: bool = False, last_epoch: int = -1,
                 verbose: bool = False) -> None:
        self.decay_steps, self.end_lr, self.power, self.cycle = decay_steps, end_lr, power, cycle
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        epoch, steps = self.last_epoch, self.decay_steps
        if self.cycle:
            cycles = 1 if epoch == 0 else math.ceil(float(epoch) / float(self.decay_steps))
            steps = self.decay_steps * cycles
        else:
            epoch = min(epoch, self.decay_steps)
        return (self.base_lr - self.end_lr) * ((1 - float(epoch) / float(steps)) ** self.power) + self.end_lr


class NaturalExpDecay(LRScheduler):
    """``learning_rate * exp(-gamma * epoch)``."""

    def __init__(self, learning_rate: float, gamma: float, last_epoch: int = -1,
                 verbose: bool = False) -> None:
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr * math.exp(-1 * self.gamma * self.last_epoch)


class InverseTimeDecay(LRScheduler):
    """``learning_rate / (1 + gamma * epoch)``."""

    def __init__(self, learning_rate: float, gamma: float, last_epoch: int = -1,
                 verbose: bool = False) -> None:
        self.gamma = gamma
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        return self.base_lr / (1 + self.gamma * self.last_epoch)


class NoamDecay(LRScheduler):
    """The transformer's warm-up then inverse-root decay, scaled by ``d_model ** -0.5``."""

    def __init__(self, d_model: int, warmup_steps: int, learning_rate: float = 1.0, last_epoch: int = -1,
                 verbose: bool = False) -> None:
        self.d_model, self.warmup_steps = d_model, warmup_steps
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        a = 1 if self.last_epoch == 0 else self.last_epoch ** -0.5
        b = self.warmup_steps ** -1.5 * self.last_epoch
        return self.base_lr * (self.d_model ** -0.5) * min(a, b)


class MultiplicativeDecay(LRScheduler):
    """The rate times ``lr_lambda(epoch)`` for each epoch so far."""

    def __init__(self, learning_rate: float, lr_lambda: Callable[[int], float], last_epoch: int = -1,
                 verbose: bool = False) -> None:
        self.lr_lambda = lr_lambda
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        rate = self.base_lr
        for epoch in range(1, self.last_epoch + 1):
            rate = rate * self.lr_lambda(epoch)
        return rate


class LinearLR(LRScheduler):
    """From ``start_factor`` to ``end_factor`` of the rate over ``total_steps``, recursively."""

    def __init__(self, learning_rate: float, total_steps: int, start_factor: float = 1.0 / 3,
                 end_factor: float = 1.0, last_epoch: int = -1, verbose: bool = False) -> None:
        self.start_factor, self.end_factor, self.total_steps = start_factor, end_factor, total_steps
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        if self.last_epoch == 0:
            return self.base_lr * self.start_factor
        if self.last_epoch > self.total_steps:
            return self.last_lr
        change = self.end_factor - self.start_factor
        return self.last_lr * (1.0 + change / (self.total_steps * self.start_factor
                                               + (self.last_epoch - 1) * change))


class CosineAnnealingWarmRestarts(LRScheduler):
    """Cosine annealing to ``eta_min`` over ``T_i`` epochs, then a restart with ``T_i`` times
    ``T_mult``."""

    def __init__(self, learning_rate: float, T_0: int, T_mult: int = 1, eta_min: float = 0,  # noqa: N803
                 last_epoch: int = -1, verbose: bool = False) -> None:
        if T_0 <= 0 or not isinstance(T_0, int):
            raise PADDLE.error("scheduler_t0", value=T_0)
        if T_mult < 1 or not isinstance(T_mult, int):
            raise PADDLE.error("scheduler_t_mult", value=T_mult)
        self.T_0, self.T_i, self.T_mult, self.eta_min, self.T_cur = T_0, T_0, T_mult, eta_min, last_epoch
        super().__init__(learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        cosine = 1 + math.cos(math.pi * self.T_cur / self.T_i)
        return self.eta_min + (self.base_lr - self.eta_min) * cosine / 2

    def step(self, epoch: Any = None) -> None:
        if epoch is None and self.last_epoch < 0:
            epoch = 0
        if epoch is None:
            epoch = self.last_epoch + 1
            self.T_cur += 1
            if self.T_cur >= self.T_i:
                self.T_cur, self.T_i = self.T_cur - self.T_i, self.T_i * self.T_mult
        elif epoch >= self.T_0:
            if self.T_mult == 1:
                self.T_cur = epoch % self.T_0
            else:
                n = int(math.log(epoch / self.T_0 * (self.T_mult - 1) + 1, self.T_mult))
                self.T_cur = epoch - self.T_0 * (self.T_mult ** n - 1) / (self.T_mult - 1)
                self.T_i = self.T_0 * self.T_mult ** n
        else:
            self.T_i, self.T_cur = self.T_0, epoch
        self.last_epoch = math.floor(epoch)
        self.last_lr = self.get_lr()


class OneCycleLR(LRScheduler):
    """The one-cycle policy: from ``max_learning_rate / divide_factor`` up to
    ``max_learning_rate`` over ``phase_pct`` of ``total_steps``, then down to
    ``end_learning_rate`` (with ``three_phase``, back to the start first), by cosine or linear
    annealing; stepping past ``total_steps`` is refused."""

    def __init__(self, max_learning_rate: float, total_steps: int, divide_factor: float = 25.0,
                 end_learning_rate: float = 0.0001, phase_pct: float = 0.3, anneal_strategy: str = "cos",
                 three_phase: bool = False, last_epoch: int = -1, verbose: bool = False) -> None:
        self.total_steps = total_steps
        initial_lr, min_lr = max_learning_rate / float(divide_factor), float(end_learning_rate)
        if three_phase:
            self._step_config = [0, phase_pct * total_steps - 1, 2 * phase_pct * total_steps - 2,
                                 total_steps - 1, total_steps - 1]
            self._steps_size = [self._step_config[1] - self._step_config[0],
                                self._step_config[2] - self._step_config[1],
                                self._step_config[3] - self._step_config[2],
                                self._step_config[3] - self._step_config[2]]
            self._lr_config = [initial_lr, max_learning_rate, initial_lr, min_lr]
        else:
            self._step_config = [0, phase_pct * total_steps - 1, total_steps - 1, total_steps - 1]
            self._steps_size = [self._step_config[1] - self._step_config[0],
                                self._step_config[2] - self._step_config[1],
                                self._step_config[2] - self._step_config[1]]
            self._lr_config = [initial_lr, max_learning_rate, min_lr]
        if anneal_strategy not in ("cos", "linear"):
            raise PADDLE.error("one_cycle_strategy", strategy=anneal_strategy)
        self.anneal_strategy = anneal_strategy
        super().__init__(initial_lr, last_epoch, verbose)

    def _anneal(self, start: float, end: float, pct: float) -> float:
        if self.anneal_strategy == "cos":
            return end + (start - end) / 2.0 * (math.cos(math.pi * pct) + 1)
        return (end - start) * pct + start

    def get_lr(self) -> float:
        step = self.last_epoch
        if step > self.total_steps:
            raise PADDLE.error("one_cycle_past_end", step=step, total=self.total_steps)
        for i, (end_step, size) in enumerate(zip(self._step_config[1:], self._steps_size)):
            if step <= end_step or i == len(self._lr_config) - 2:
                progress = (step - self._step_config[i]) / size
                return self._anneal(self._lr_config[i], self._lr_config[i + 1], progress)
        return self.last_lr


class CyclicLR(LRScheduler):
    """paddle's cyclical rate: from ``base_learning_rate`` up to ``max_learning_rate`` over
    ``step_size_up`` steps and back over ``step_size_down``, the height scaled per cycle
    (``triangular``: 1, ``triangular2``: halved each cycle), per step (``exp_range``:
    ``exp_gamma`` to the step) or by ``scale_fn`` of the cycle or the step (``scale_mode``)."""

    def __init__(self, base_learning_rate: float, max_learning_rate: float, step_size_up: int,
                 step_size_down: int | None = None, mode: str = "triangular", exp_gamma: float = 1.0,
                 scale_fn: Callable[[float], float] | None = None, scale_mode: str = "cycle",
                 last_epoch: int = -1, verbose: bool = False) -> None:
        if not isinstance(max_learning_rate, (float, int)):
            raise TypeError("'max_learning_rate' must be 'float' or 'int', but received "
                            f"{type(max_learning_rate)}")
        if max_learning_rate < 0:
            raise ValueError("'max_learning_rate' must be a positive integer, but received "
                             f"{max_learning_rate}")
        for name, size in (("step_size_up", step_size_up), ("step_size_down", step_size_down)):
            if size is None and name == "step_size_down":
                continue
            if not isinstance(size, int):
                raise TypeError(f"The type of '{name}' must be int, but received {type(size)}")
            if size <= 0:
                raise ValueError(f"'{name}' must be a positive integer, but received {size}")
        if not isinstance(exp_gamma, float):
            raise TypeError(f"The type of 'exp_gamma' must be float, but received {type(exp_gamma)}")
        up = float(step_size_up)
        self.cycle_size = up + (float(step_size_down) if step_size_down is not None else up)
        self.step_up_pct = up / self.cycle_size
        self.max_lr = float(max_learning_rate)
        self.amplitude = self.max_lr - base_learning_rate
        if mode not in ("triangular", "triangular2", "exp_range") and scale_fn is None:
            raise ValueError("'mode' is invalid and 'scale_fn' is not specified, make sure one of 'mode' or "
                             "'scale_fn' is valid")
        if scale_mode not in ("cycle", "iterations"):
            raise ValueError("'scale_mode' must be one of 'cycle' or 'iterations")
        self.mode, self.gamma = mode, exp_gamma
        if scale_fn is not None:
            self.scale_fn, self.scale_mode = scale_fn, scale_mode
        else:
            self.scale_fn = {"triangular": lambda x: 1.0, "triangular2": lambda x: 1 / (2.0 ** (x - 1)),
                             "exp_range": lambda x: self.gamma ** x}[mode]
            self.scale_mode = "iterations" if mode == "exp_range" else "cycle"
        super().__init__(base_learning_rate, last_epoch, verbose)

    def get_lr(self) -> float:
        iterations = self.last_epoch
        cycle = 1 + iterations // self.cycle_size
        pct = 1.0 + iterations / self.cycle_size - cycle
        if pct <= self.step_up_pct:
            factor = pct / self.step_up_pct
        else:
            factor = (1 - pct) / (1 - self.step_up_pct)
        scale = self.scale_fn(cycle if self.scale_mode == "cycle" else iterations)
        return self.base_lr + self.amplitude * factor * scale
