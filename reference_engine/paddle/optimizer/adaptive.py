"""``paddle.optimizer.Adagrad``, ``Adadelta`` and ``Adamax``: per-element step sizes from running
statistics of the gradients, each as paddle 3.3.1's kernel computes it (``adagrad_``,
``adadelta_``, ``adamax_``), in the parameter's dtype."""

from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np

from reference_engine import ops as F
from reference_engine.paddle.optimizer.base import Optimizer, kernel_float

__all__ = ["Adadelta", "Adagrad", "Adamax"]


class Adagrad(Optimizer):
    """``moment += g * g``, ``p -= lr * g / (sqrt(moment) + epsilon)``; the moment starts at
    ``initial_accumulator_value``."""

    def __init__(self, learning_rate: Any, epsilon: float = 1e-06, parameters: Optional[Sequence[Any]] = None,
                 weight_decay: Any = None, grad_clip: Any = None, name: Optional[str] = None,
                 initial_accumulator_value: float = 0.0) -> None:
        super().__init__(learning_rate, parameters, weight_decay, grad_clip)
        self.epsilon, self.initial_accumulator_value = epsilon, initial_accumulator_value
        self._moment: dict[int, Any] = {}

    accumulator_kinds = ("moment",)

    def _accumulators(self, parameter: Any) -> list[Any]:
        return [self._moment[id(parameter)]]

    def _load_accumulators(self, parameter: Any, values: list[np.ndarray]) -> None:
        self._moment[id(parameter)] = self._tensor_like(parameter, values[0])

    def _delta(self, parameter: Any, gradient: Any) -> Any:
        g = gradient
        moment = self._moment.get(id(parameter))
        moment = (g * 0 + self.initial_accumulator_value if moment is None else moment) + g * g
        self._moment[id(parameter)] = moment
        return g * self.learning_rate / (moment.sqrt() + kernel_float(self.epsilon))


class Adadelta(Optimizer):
    """``E[g²] = rho E[g²] + (1 - rho) g²``, ``update = -sqrt((E[Δ²] + eps) / (E[g²] + eps)) g``,
    ``E[Δ²] = rho E[Δ²] + (1 - rho) update²``, ``p += lr * update``."""

    def __init__(self, learning_rate: Any = 0.001, epsilon: float = 1e-06, rho: float = 0.95,
                 parameters: Optional[Sequence[Any]] = None, weight_decay: Any = None, grad_clip: Any = None,
                 name: Optional[str] = None) -> None:
        super().__init__(learning_rate, parameters, weight_decay, grad_clip)
        self.epsilon, self.rho = epsilon, rho
        self._state: dict[int, list[Any]] = {}

    accumulator_kinds = ("_avg_squared_grad", "_avg_squared_update")

    def _accumulators(self, parameter: Any) -> list[Any]:
        return list(self._state[id(parameter)])

    def _load_accumulators(self, parameter: Any, values: list[np.ndarray]) -> None:
        self._state[id(parameter)] = [self._tensor_like(parameter, v) for v in values]

    def _delta(self, parameter: Any, gradient: Any) -> Any:
        g, rho, eps = gradient, kernel_float(self.rho), kernel_float(self.epsilon)
        state = self._state.setdefault(id(parameter), [g * 0, g * 0])  # E[g²], E[Δ²]
        state[0] = state[0] * rho + g * g * (1 - rho)
        update = ((state[1] + eps) / (state[0] + eps)).sqrt() * g
        state[1] = state[1] * rho + update * update * (1 - rho)
        return update * self.learning_rate


class Adamax(Optimizer):
    """``m = beta1 m + (1 - beta1) g``, ``u = max(beta2 u + epsilon, |g|)``, ``p -= lr / (1 -
    beta1^t) * m / u``; ``beta1^t`` an accumulator of the parameter's dtype."""

    def __init__(self, learning_rate: Any = 0.001, beta1: float = 0.9, beta2: float = 0.999,
                 epsilon: float = 1e-08, parameters: Optional[Sequence[Any]] = None, weight_decay: Any = None,
                 grad_clip: Any = None, name: Optional[str] = None) -> None:
        super().__init__(learning_rate, parameters, weight_decay, grad_clip)
        self.beta1, self.beta2, self.epsilon = beta1, beta2, epsilon
        self._state: dict[int, list[Any]] = {}

    accumulator_kinds = ("moment", "inf_norm", "beta1_pow_acc")

    def _accumulators(self, parameter: Any) -> list[Any]:
        beta1_power, moment, inf_norm = self._state[id(parameter)]
        return [moment, inf_norm, beta1_power]

    def _load_accumulators(self, parameter: Any, values: list[np.ndarray]) -> None:
        kind = parameter._data.dtype.type
        self._state[id(parameter)] = [kind(values[2].reshape(-1)[0]), self._tensor_like(parameter, values[0]),
                                      self._tensor_like(parameter, values[1])]

    def _delta(self, parameter: Any, gradient: Any) -> Any:
        g = gradient
        kind = parameter._data.dtype.type
        beta1, beta2, epsilon = kernel_float(self.beta1), kernel_float(self.beta2), kernel_float(self.epsilon)
        # beta1^t: an accumulator filled with beta1 as given, raised by it as given
        state = self._state.setdefault(id(parameter), [kind(self.beta1), g * 0, g * 0])  # beta1^t, m, u
        state[1] = state[1] * beta1 + g * (1 - beta1)
        state[2] = F.maximum(state[2] * beta2 + epsilon, g.abs())
        rate = kind(self.learning_rate) / (kind(1) - state[0])
        state[0] = state[0] * kind(self.beta1)
        return state[1] / state[2] * float(rate)
