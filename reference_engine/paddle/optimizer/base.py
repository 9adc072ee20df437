"""``paddle.optimizer.Optimizer``: the base of paddle's optimizers. It keeps the parameters, a
learning rate that is a number or a scheduler from ``paddle.optimizer.lr``, a ``grad_clip``
from ``paddle.nn`` applied to the gradients the step reads (not to ``.grad``), then the weight
decay (a number is an ``L2Decay``; a parameter's own ``ParamAttr`` regularizer wins); each
optimizer writes its own ``_delta``."""

from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np

from reference_engine.dialects.paddle_policy import PADDLE
from reference_engine.paddle import param_attr
from reference_engine.paddle._core import no_grad
from reference_engine.paddle.optimizer import lr
from reference_engine.paddle.regularizer import as_regularizer
from reference_engine.paddle.utils import unique_name
from reference_engine.rounding import note_read_by_optimizer

__all__ = ["Optimizer", "kernel_float", "update_in_place"]

def kernel_float(value: float) -> float:
    """An attribute paddle's optimizer kernels declare as ``float``, rounded to float32 also for
    a float64 parameter (measured on 3.3.1: Momentum's mu, RMSProp's rho, epsilon and momentum,
    Adagrad's, Adadelta's and Adamax's); ``1 - rho`` and the like are then computed from it."""
    return float(np.float32(value))


def _accumulator_name(parameter: Any, kind: str) -> str:
    """paddle names an accumulator by its parameter and kind, numbered per such name
    (``unique_name.generate``): a second optimizer over the same parameters gets ``…_moment1_1``."""
    return unique_name.generate(f"{parameter.name}_{kind}")


def update_in_place(parameter: Any, delta: Any, op: str = "subtract_") -> None:
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

    # paddle's kinds of this optimizer's accumulators, in the order ``_accumulators`` lists them
    accumulator_kinds: tuple[str, ...] = ()

    def __init__(self, learning_rate: float = 0.001, parameters: Optional[Sequence[Any]] = None,
                 weight_decay: Any = None, grad_clip: Any = None, name: Optional[str] = None) -> None:
        self._learning_rate = learning_rate
        self.parameters = list(parameters or [])
        self._grad_clip = grad_clip
        self.regularization = as_regularizer(weight_decay)
        self._accumulator_names: dict[int, list[str]] = {}  # named at a parameter's first update
        self._loaded: dict[str, Any] = {}  # set_state_dict's values for accumulators not made yet
        self._published: dict[str, Any] = {}  # the tensors state_dict handed out, by name
        self.clear_gradients = self.clear_grad  # (paddle's alias is set on each optimizer)

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
            note_read_by_optimizer(g for _, g in pairs)
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
                self._name_accumulators(p)
                try:
                    written = self._written(p, g)
                    if written is None:
                        update_in_place(p, self._delta(p, g))
                    else:  # (the kernel's own rounding: no version bump either)
                        np.copyto(p._data, written)
                finally:
                    self._rate_factor = 1.0
                self._publish(p)

    def _written(self, parameter: Any, gradient: Any) -> Optional[np.ndarray]:
        """The parameter's new values where the optimizer's kernel rounds its update otherwise
        than ``parameter - _delta`` does; None otherwise."""
        return None

    def _name_accumulators(self, parameter: Any) -> None:
        """At a parameter's first update paddle makes its accumulators, named then; values a
        ``set_state_dict`` left for them are loaded (each must be there)."""
        if not self.accumulator_kinds or id(parameter) in self._accumulator_names:
            return
        names = [_accumulator_name(parameter, kind) for kind in self.accumulator_kinds]
        self._accumulator_names[id(parameter)] = names
        if self._loaded:
            for name in names:
                if name not in self._loaded:
                    raise AssertionError(f"Optimizer set error, {name} should in state dict")
            self._load_accumulators(parameter, [self._value_of(self._loaded.pop(name)) for name in names])

    def _accumulators(self, parameter: Any) -> list[Any]:
        """This optimizer's accumulators for ``parameter``, as paddle keeps them (arrays or
        tensors), in ``accumulator_kinds``' order."""
        raise NotImplementedError

    def _load_accumulators(self, parameter: Any, values: list[np.ndarray]) -> None:
        """Set the accumulators of ``parameter`` to ``values`` (``_accumulators``' order)."""
        raise NotImplementedError

    @staticmethod
    def _value_of(value: Any) -> np.ndarray:
        return np.array(value._data if hasattr(value, "_data") else value)

    @staticmethod
    def _tensor_like(parameter: Any, values: np.ndarray) -> Any:
        """A loaded accumulator: a tensor of the parameter's dtype that needs no gradient."""
        from reference_engine.paddle._core import created

        return created(np.asarray(values, parameter._data.dtype).reshape(parameter._data.shape))

    def state_dict(self) -> dict[str, Any]:
        """Each accumulator under its name (a tensor; a power of a beta, shape [1]), kind by kind
        (every parameter's first moment, then every second, as paddle keeps them), and the
        learning-rate scheduler's state under ``LR_Scheduler``."""
        state: dict[str, Any] = {}
        names_by_parameter = []
        for parameter in self.parameters:
            self._publish(parameter, every=True)
            names_by_parameter.append(self._accumulator_names.get(id(parameter), ()))
        for kind in range(max(map(len, names_by_parameter), default=0)):
            for names in names_by_parameter:
                if kind < len(names):
                    state[names[kind]] = self._published[names[kind]]
        if isinstance(self._learning_rate, lr.LRScheduler):
            state["LR_Scheduler"] = self._learning_rate.state_dict()
        return state

    def _publish(self, parameter: Any, every: bool = False) -> None:
        """The accumulators of ``parameter`` are tensors paddle's kernels update in place: one
        ``state_dict`` handed out shows later steps. Copies the current values into those handed
        out (``every``: makes the rest)."""
        from reference_engine.paddle._core import created

        names = self._accumulator_names.get(id(parameter))
        if not names or not (every or any(name in self._published for name in names)):
            return
        for name, value in zip(names, self._accumulators(parameter)):
            values = np.asarray(value._data if hasattr(value, "_data") else value, parameter._data.dtype)
            tensor = self._published.get(name)
            if tensor is None:
                tensor = self._published[name] = created(values.reshape(values.shape or (1,)))
                tensor._name = name
            else:
                np.copyto(tensor._data, values.reshape(tensor._data.shape))

    def set_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Load a ``state_dict``: the scheduler's state, each existing accumulator's values
        (each must be there), and the rest kept for accumulators made later."""
        if isinstance(self._learning_rate, lr.LRScheduler):
            self._learning_rate.set_state_dict(state_dict["LR_Scheduler"])
        values = {k: v for k, v in state_dict.items() if k != "LR_Scheduler"}
        self._loaded = values
        for parameter in self.parameters:
            names = self._accumulator_names.get(id(parameter))
            if not names:
                continue
            for name in names:
                if name not in values:
                    raise AssertionError(f"optimizer Tensor {name} not found")
            self._load_accumulators(parameter, [self._value_of(values[name]) for name in names])
            self._publish(parameter)

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

    def zero_grad(self, set_to_none: bool = True) -> None:
        """paddle's torch-style spelling: the gradients dropped (``set_to_none``) or zeroed."""
        self.clear_grad(set_to_zero=not set_to_none)

    def get_lr(self) -> float:
        return self.learning_rate

    def set_lr(self, value: float) -> None:
        """A new number for the rate; refused while a scheduler sets it."""
        if isinstance(self._learning_rate, lr.LRScheduler):
            raise PADDLE.error("set_lr_with_scheduler")
        if not isinstance(value, (int, float)):
            raise PADDLE.error("set_lr_type", type_name=type(value))
        self._learning_rate = float(value)

    def set_lr_scheduler(self, scheduler: lr.LRScheduler) -> None:
        """A scheduler to set the rate from now on."""
        if not isinstance(scheduler, lr.LRScheduler):
            raise PADDLE.error("set_lr_scheduler_type", type_name=type(scheduler))
        self._learning_rate = scheduler
