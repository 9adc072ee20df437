"""``paddle.optimizer``: the ``Optimizer`` base and ``SGD``, ``Momentum``, ``Adam``, ``AdamW``
and ``RMSProp`` on it: the updates a training loop applies between backward passes, with a
learning rate that is a number or a scheduler from ``paddle.optimizer.lr``, a ``grad_clip``
from ``paddle.nn`` applied to the gradients the step reads (not to ``.grad``), then the weight
decay (a number is an ``L2Decay``; a parameter's own ``ParamAttr`` regularizer wins)."""

from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np

from reference_engine.dialects.paddle_policy import PADDLE
from reference_engine.framework_names import module_getattr
from reference_engine.messages import not_supported
from reference_engine.paddle import param_attr
from reference_engine.paddle._core import no_grad
from reference_engine.paddle.optimizer import lr
from reference_engine.paddle.regularizer import as_regularizer

__all__ = ["SGD", "Adam", "AdamW", "Momentum", "Optimizer", "RMSProp", "lr"]


def _update(parameter: Any, delta: Any, op: str = "subtract_") -> None:
    """``parameter -= delta`` (``op``: or another in-place method) as paddle's optimizer
    kernels write it: in place, without bumping the parameter's inplace version (a graph that
    saved it does not notice)."""
    version = parameter._counter.value
    getattr(parameter, op)(delta)
    parameter._counter.value = version


class Optimizer:
    """The base: the parameters, the rate, clipping and weight decay; ``_delta`` is each
    optimizer's own update, for each parameter that has a gradient."""

    # the kernel reads the learning rate as a tensor in the dtype of the optimizer's first
    # parameter: a parameter of another dtype is refused when its turn comes (measured on 3.3.1:
    # Adam, AdamW, Momentum; sgd_ takes a number). Every kernel refuses a gradient of another
    # dtype than its parameter's.
    reads_a_learning_rate_tensor = False

    def __init__(self, learning_rate: float = 0.001, parameters: Optional[Sequence[Any]] = None,
                 weight_decay: Any = None, grad_clip: Any = None, name: Optional[str] = None) -> None:
        self._learning_rate = learning_rate
        self.parameters = list(parameters or [])
        self._grad_clip = grad_clip
        self.regularization = as_regularizer(weight_decay)

    _rate_factor = 1.0  # the parameter being updated's ParamAttr learning_rate

    @property
    def learning_rate(self) -> float:
        """The rate of this step: the number given, or the scheduler's current one (times the
        factor of the parameter it updates)."""
        rate = self._learning_rate
        rate = rate() if isinstance(rate, lr.LRScheduler) else rate
        return rate if self._rate_factor == 1.0 else rate * self._rate_factor

    def step(self) -> None:
        with no_grad():
            pairs = [(p, p.grad) for p in self.parameters if p.grad is not None and not p.stop_gradient]
            if self._grad_clip is not None:
                pairs = self._grad_clip(pairs)
            pairs = [(p, self._regularized(p, g)) for p, g in pairs]
            for p, g in pairs:
                rate = self.parameters[0]._data.dtype
                if self.reads_a_learning_rate_tensor and p._data.dtype != rate:
                    raise PADDLE.error("dtype_container", want=p._data.dtype, have=rate)
                if g._data.dtype != p._data.dtype:  # (a leaf's .grad in its seed's dtype)
                    raise PADDLE.error("dtype_container", want=p._data.dtype, have=g._data.dtype)
                self._rate_factor = param_attr.learning_rate_of(p)
                try:
                    _update(p, self._delta(p, g))
                finally:
                    self._rate_factor = 1.0

    def _regularized(self, parameter: Any, gradient: Any) -> Any:
        decay = param_attr.regularizer_of(parameter) or self.regularization
        return gradient if decay is None else decay(parameter, gradient)

    def _delta(self, parameter: Any, gradient: Any) -> Any:
        """What this step subtracts from ``parameter``."""
        raise NotImplementedError

    def minimize(self, loss: Any) -> None:
        """Applies the gradients the last backward left (it does not run backward itself)."""
        from reference_engine.paddle._core import Tensor

        if not isinstance(loss, Tensor):
            raise PADDLE.error("minimize_loss_type")
        self.step()

    def clear_grad(self, set_to_zero: bool = True) -> None:
        for p in self.parameters:
            p.clear_gradient(set_to_zero)

    def get_lr(self) -> float:
        return self.learning_rate


class SGD(Optimizer):
    """``parameter -= learning_rate * gradient``."""

    def _delta(self, parameter: Any, gradient: Any) -> Any:
        return gradient * self.learning_rate


class RMSProp(Optimizer):
    """``ms = rho * ms + (1 - rho) * g * g`` (centred: less the square of ``mg = rho * mg +
    (1 - rho) * g``), ``mom = momentum * mom + lr * g / sqrt(ms + epsilon)``, ``p -= mom``: the
    epsilon inside the root, as paddle's kernel has it."""

    def __init__(self, learning_rate: Any, rho: float = 0.95, epsilon: float = 1e-06,
                 momentum: float = 0.0, centered: bool = False, parameters: Optional[Sequence[Any]] = None,
                 weight_decay: Any = None, grad_clip: Any = None, name: Optional[str] = None) -> None:
        super().__init__(learning_rate, parameters, weight_decay, grad_clip)
        self.rho, self.epsilon, self.momentum, self.centered = rho, epsilon, momentum, centered
        self._state: dict[int, list[Any]] = {}

    def _delta(self, parameter: Any, gradient: Any) -> Any:
        g = gradient
        state = self._state.setdefault(id(parameter), [g * 0, g * 0, g * 0])  # ms, mg, mom
        state[0] = state[0] * self.rho + g * g * (1 - self.rho)
        spread = state[0]
        if self.centered:
            state[1] = state[1] * self.rho + g * (1 - self.rho)
            spread = spread - state[1] * state[1]
        state[2] = state[2] * self.momentum + g * self.learning_rate / (spread + self.epsilon).sqrt()
        return state[2]


class Adam(Optimizer):
    """Adam as paddle's kernel computes it, in the parameter's dtype: the powers ``beta1^t``
    and ``beta2^t`` are accumulators of that dtype, ``lr_t = lr * sqrt(1 - beta2^t) /
    (1 - beta1^t)``, ``m = beta1 * m + (1 - beta1) * g``, ``v = beta2 * v + (1 - beta2) * g * g``
    and ``p -= lr_t * (m / (sqrt(v) + epsilon * sqrt(1 - beta2^t)))``."""

    reads_a_learning_rate_tensor = True

    def __init__(self, learning_rate: float = 0.001, beta1: float = 0.9, beta2: float = 0.999,
                 epsilon: float = 1e-08, parameters: Optional[Sequence[Any]] = None,
                 weight_decay: Any = None, grad_clip: Any = None, name: Optional[str] = None,
                 lazy_mode: bool = False) -> None:
        super().__init__(learning_rate, parameters, weight_decay, grad_clip=grad_clip)
        self.beta1, self.beta2, self.epsilon = beta1, beta2, epsilon
        self._state: dict[int, list[Any]] = {}

    def _delta(self, parameter: Any, gradient: Any) -> Any:
        g = gradient
        kind = parameter._data.dtype.type  # the kernel's scalar type
        one, beta1, beta2 = kind(1), kind(self.beta1), kind(self.beta2)
        # beta1^t, beta2^t, first moment, second moment
        state = self._state.setdefault(id(parameter), [one, one, g * 0, g * 0])
        state[0], state[1] = state[0] * beta1, state[1] * beta2
        state[2] = state[2] * float(beta1) + g * float(one - beta1)
        state[3] = state[3] * float(beta2) + g * float(one - beta2) * g
        correction = np.sqrt(one - state[1])
        lr_t = kind(self.learning_rate) * correction / (one - state[0])
        return (state[2] / (state[3].sqrt() + float(kind(self.epsilon) * correction))) * float(lr_t)


class AdamW(Adam):
    """Adam with decoupled weight decay, as paddle's kernel: the parameter is first scaled by
    ``1 - learning_rate * weight_decay``, then takes Adam's step."""

    def __init__(self, learning_rate: float = 0.001, beta1: float = 0.9, beta2: float = 0.999,
                 epsilon: float = 1e-08, parameters: Optional[Sequence[Any]] = None,
                 weight_decay: float = 0.01, lr_ratio: Any = None,
                 apply_decay_param_fun: Any = None, grad_clip: Any = None,
                 lazy_mode: bool = False, multi_precision: bool = False,
                 name: Optional[str] = None) -> None:
        if lr_ratio is not None or apply_decay_param_fun is not None:
            raise not_supported("AdamW's lr_ratio and apply_decay_param_fun", "paddle")
        super().__init__(learning_rate, beta1, beta2, epsilon, parameters, grad_clip=grad_clip)
        self.weight_decay = weight_decay

    def _delta(self, parameter: Any, gradient: Any) -> Any:
        kind = parameter._data.dtype.type
        decay = kind(1) - kind(self.learning_rate) * kind(self.weight_decay)
        _update(parameter, float(decay), "scale_")
        return super()._delta(parameter, gradient)


class Momentum(Optimizer):
    """``velocity = momentum * velocity + gradient`` (the first is the gradient), then
    ``parameter -= learning_rate * velocity`` (Nesterov: ``gradient + momentum * velocity``)."""

    reads_a_learning_rate_tensor = True

    def __init__(self, learning_rate: float = 0.001, momentum: float = 0.9,
                 parameters: Optional[Sequence[Any]] = None, use_nesterov: bool = False,
                 weight_decay: Any = None, grad_clip: Any = None, multi_precision: bool = False,
                 rescale_grad: float = 1.0, use_multi_tensor: bool = False,
                 name: Optional[str] = None) -> None:
        super().__init__(learning_rate, parameters, weight_decay, grad_clip=grad_clip)
        self.momentum, self.use_nesterov = momentum, use_nesterov
        self._velocity: dict[int, Any] = {}

    def _delta(self, parameter: Any, gradient: Any) -> Any:
        before = self._velocity.get(id(parameter))
        velocity = gradient * 1.0 if before is None else before * self.momentum + gradient
        self._velocity[id(parameter)] = velocity
        direction = gradient + velocity * self.momentum if self.use_nesterov else velocity
        return direction * self.learning_rate

__getattr__ = module_getattr("paddle.optimizer")
