"""``paddle.optimizer``: the ``Optimizer`` base (``base``) and ``SGD``, ``Momentum``, ``Adam``,
``AdamW`` and ``RMSProp`` on it (``Adagrad``, ``Adadelta`` and ``Adamax`` in ``adaptive``): the
updates a training loop applies between backward passes."""

from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np

from reference_engine.framework_names import module_getattr
from reference_engine.fused import fused_multiply_add
from reference_engine.messages import not_supported
from reference_engine.paddle.optimizer import lr
from reference_engine.paddle.optimizer.adaptive import *  # noqa: F403
from reference_engine.paddle.optimizer.adaptive import __all__ as _adaptive
from reference_engine.paddle.optimizer.base import Optimizer, kernel_float, update_in_place
from reference_engine.paddle.optimizer.lbfgs import LBFGS

__all__ = ["LBFGS", "SGD", "Adam", "AdamW", "Momentum", "Optimizer", "RMSProp", "lr", *_adaptive]


class SGD(Optimizer):
    """``parameter -= learning_rate * gradient`` (no accumulators). paddle's sgd_ kernel rounds
    that once, a fused multiply-add, except for a float32 parameter whose size is a multiple of
    8, which its vectorised kernel updates with the product rounded first (measured on 3.3.1)."""

    def _delta(self, parameter: Any, gradient: Any) -> Any:
        return gradient * self.learning_rate

    def _written(self, parameter: Any, gradient: Any) -> Optional[np.ndarray]:
        data = parameter._data
        if data.dtype not in (np.float32, np.float64) or (data.dtype == np.float32 and data.size % 8 == 0):
            return None
        rate = data.dtype.type(-self.learning_rate)
        return fused_multiply_add(np.full_like(data, rate), gradient._data, data)


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

    accumulator_kinds = ("momentum", "mean_square", "mean_grad")

    def _accumulators(self, parameter: Any) -> list[Any]:
        mean_square, mean_grad, momentum = self._state[id(parameter)]
        return [momentum, mean_square, mean_grad]

    def _load_accumulators(self, parameter: Any, values: list[np.ndarray]) -> None:
        momentum, mean_square, mean_grad = (self._tensor_like(parameter, v) for v in values)
        self._state[id(parameter)] = [mean_square, mean_grad, momentum]

    def _delta(self, parameter: Any, gradient: Any) -> Any:
        g = gradient
        rho, epsilon = kernel_float(self.rho), kernel_float(self.epsilon)
        momentum = kernel_float(self.momentum)
        state = self._state.setdefault(id(parameter), [g * 0, g * 0, g * 0])  # ms, mg, mom
        state[0] = state[0] * rho + g * g * (1 - rho)
        spread = state[0]
        if self.centered:
            state[1] = state[1] * rho + g * (1 - rho)
            spread = spread - state[1] * state[1]
        state[2] = state[2] * momentum + g * self.learning_rate / (spread + epsilon).sqrt()
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

    accumulator_kinds = ("moment1", "moment2", "beta1_pow_acc", "beta2_pow_acc")

    def _accumulators(self, parameter: Any) -> list[Any]:
        beta1_power, beta2_power, moment1, moment2 = self._state[id(parameter)]
        return [moment1, moment2, beta1_power, beta2_power]

    def _load_accumulators(self, parameter: Any, values: list[np.ndarray]) -> None:
        kind = parameter._data.dtype.type
        self._state[id(parameter)] = [kind(values[2].reshape(-1)[0]), kind(values[3].reshape(-1)[0]),
                                      self._tensor_like(parameter, values[0]),
                                      self._tensor_like(parameter, values[1])]

    def _delta(self, parameter: Any, gradient: Any) -> Any:
        g = gradient
        kind = parameter._data.dtype.type  # the kernel's scalar type
        one, beta1, beta2 = kind(1), kind(self.beta1), kind(self.beta2)
        # beta1^t, beta2^t (paddle's accumulators: beta at the first step, raised after each),
        # first moment, second moment
        state = self._state.setdefault(id(parameter), [beta1, beta2, g * 0, g * 0])
        state[2] = state[2] * float(beta1) + g * float(one - beta1)
        state[3] = state[3] * float(beta2) + g * float(one - beta2) * g
        correction = np.sqrt(one - state[1])
        lr_t = kind(self.learning_rate) * correction / (one - state[0])
        state[0], state[1] = state[0] * beta1, state[1] * beta2
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
        decay = kind(1) - kind(self.learning_rate) * kind(kernel_float(self.weight_decay))
        update_in_place(parameter, float(decay), "scale_")
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

    accumulator_kinds = ("velocity",)

    def _accumulators(self, parameter: Any) -> list[Any]:
        return [self._velocity[id(parameter)]]

    def _load_accumulators(self, parameter: Any, values: list[np.ndarray]) -> None:
        self._velocity[id(parameter)] = self._tensor_like(parameter, values[0])

    def _delta(self, parameter: Any, gradient: Any) -> Any:
        before = self._velocity.get(id(parameter))
        mu = kernel_float(self.momentum)
        velocity = gradient * 1.0 if before is None else before * mu + gradient
        self._velocity[id(parameter)] = velocity
        direction = gradient + velocity * mu if self.use_nesterov else velocity
        return direction * self.learning_rate

__getattr__ = module_getattr("paddle.optimizer")
