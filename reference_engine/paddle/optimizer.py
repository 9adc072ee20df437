"""``paddle.optimizer.SGD``, ``Momentum`` and ``Adam``: the updates a training loop applies between backward
passes."""

from __future__ import annotations

from typing import Any, Optional, Sequence

from reference_engine.paddle import no_grad

__all__ = ["SGD", "Adam", "Momentum"]


def _update(parameter: Any, delta: Any) -> None:
    """``parameter -= delta`` as paddle's optimizer kernels write it: in place, without bumping
    the parameter's inplace version (a graph that saved it does not notice)."""
    version = parameter._counter.value
    parameter.subtract_(delta)
    parameter._counter.value = version


class SGD:
    """``parameter -= learning_rate * gradient`` for each parameter that has a gradient."""

    def __init__(self, learning_rate: float = 0.001, parameters: Optional[Sequence[Any]] = None,
                 weight_decay: Any = None, grad_clip: Any = None, name: Optional[str] = None) -> None:
        self.learning_rate = learning_rate
        self.parameters = list(parameters or [])

    def step(self) -> None:
        with no_grad():
            for p in self.parameters:
                g = p.grad
                if g is not None:
                    _update(p, self._delta(p, g))

    def _delta(self, parameter: Any, gradient: Any) -> Any:
        """What this step subtracts from ``parameter``."""
        return gradient * self.learning_rate

    def minimize(self, loss: Any) -> None:
        """Applies the gradients the last backward left (it does not run backward itself)."""
        from reference_engine.paddle import Tensor

        if not isinstance(loss, Tensor):
            raise AssertionError("The loss should be an Tensor.")
        self.step()

    def clear_grad(self, set_to_zero: bool = True) -> None:
        for p in self.parameters:
            p.clear_gradient(set_to_zero)

    def get_lr(self) -> float:
        return self.learning_rate


class Adam(SGD):
    """Adam as paddle's kernel computes it: ``lr_t = lr * sqrt(1 - beta2^t) / (1 - beta1^t)``,
    ``p -= lr_t * m / (sqrt(v) + epsilon * sqrt(1 - beta2^t))``."""

    def __init__(self, learning_rate: float = 0.001, beta1: float = 0.9, beta2: float = 0.999,
                 epsilon: float = 1e-08, parameters: Optional[Sequence[Any]] = None,
                 weight_decay: Any = None, grad_clip: Any = None, name: Optional[str] = None,
                 lazy_mode: bool = False) -> None:
        super().__init__(learning_rate, parameters)
        self.beta1, self.beta2, self.epsilon = beta1, beta2, epsilon
        self._state: dict[int, list[Any]] = {}

    def _delta(self, parameter: Any, gradient: Any) -> Any:
        g = gradient
        state = self._state.setdefault(id(parameter), [0, g * 0, g * 0])
        state[0] += 1
        state[1] = state[1] * self.beta1 + g * (1 - self.beta1)
        state[2] = state[2] * self.beta2 + g * g * (1 - self.beta2)
        correction = (1 - self.beta2 ** state[0]) ** 0.5
        lr_t = self.learning_rate * correction / (1 - self.beta1 ** state[0])
        return state[1] / (state[2].sqrt() + self.epsilon * correction) * lr_t


class Momentum(SGD):
    """``velocity = momentum * velocity + gradient`` (the first is the gradient), then
    ``parameter -= learning_rate * velocity`` (Nesterov: ``gradient + momentum * velocity``)."""

    def __init__(self, learning_rate: float = 0.001, momentum: float = 0.9,
                 parameters: Optional[Sequence[Any]] = None, use_nesterov: bool = False,
                 weight_decay: Any = None, grad_clip: Any = None, multi_precision: bool = False,
                 rescale_grad: float = 1.0, use_multi_tensor: bool = False,
                 name: Optional[str] = None) -> None:
        super().__init__(learning_rate, parameters)
        self.momentum, self.use_nesterov = momentum, use_nesterov
        self._velocity: dict[int, Any] = {}

    def _delta(self, parameter: Any, gradient: Any) -> Any:
        before = self._velocity.get(id(parameter))
        velocity = gradient * 1.0 if before is None else before * self.momentum + gradient
        self._velocity[id(parameter)] = velocity
        direction = gradient + velocity * self.momentum if self.use_nesterov else velocity
        return direction * self.learning_rate
