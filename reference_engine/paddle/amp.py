"""``paddle.amp``: ``auto_cast`` and ``GradScaler`` as paddle 3.3.1 runs them on the CPU, where
both warn that they make no effect and leave every value as it is (measured: the scaled loss is
the loss, the step is the optimizer's step even after an overflow)."""

from __future__ import annotations

from typing import Any

from reference_engine.dialects.paddle_policy import PADDLE
from reference_engine.framework_names import module_getattr

__all__ = ["GradScaler", "auto_cast", "decorate"]


class auto_cast:  # noqa: N801 - paddle's name
    """``paddle.amp.auto_cast``: on the CPU a warning and no effect."""

    def __init__(self, enable: bool = True, custom_white_list: Any = None, custom_black_list: Any = None,
                 level: str = "O1", dtype: str = "float16", use_promote: bool = True) -> None:
        self.enable = enable

    def __enter__(self) -> None:
        if self.enable:
            PADDLE.warn("amp_guard_cpu", stacklevel=3)

    def __exit__(self, *exc_info: object) -> None:
        return None


amp_guard = auto_cast


def decorate(models: Any, optimizers: Any = None, level: str = "O1", dtype: str = "float16",
             master_weight: Any = None, save_dtype: Any = None, master_grad: bool = False,
             excluded_layers: Any = None) -> Any:
    """``paddle.amp.decorate``: on the CPU the models (and optimizers) as they are."""
    return models if optimizers is None else (models, optimizers)


class GradScaler:
    """``paddle.amp.GradScaler``: on the CPU disabled after a warning; ``scale`` returns the
    loss itself, ``step`` and ``minimize`` run the optimizer, the rest does nothing."""

    def __init__(self, enable: bool = True, init_loss_scaling: float = 2.0**16, incr_ratio: float = 2.0,
                 decr_ratio: float = 0.5, incr_every_n_steps: int = 2000, decr_every_n_nan_or_inf: int = 1,
                 use_dynamic_loss_scaling: bool = True) -> None:
        if enable:
            PADDLE.warn("amp_scaler_cpu", stacklevel=2)
        self._enable = False
        self._use_dynamic_loss_scaling = False
        self._init_loss_scaling = 1.0
        self._incr_ratio, self._decr_ratio = incr_ratio, decr_ratio
        self._incr_every_n_steps, self._decr_every_n_nan_or_inf = incr_every_n_steps, decr_every_n_nan_or_inf

    def is_enable(self) -> bool:
        return self._enable

    def is_use_dynamic_loss_scaling(self) -> bool:
        return self._use_dynamic_loss_scaling

    def get_init_loss_scaling(self) -> float:
        return self._init_loss_scaling

    def scale(self, var: Any) -> Any:
        return var

    def unscale_(self, optimizer: Any) -> None:
        return None

    def step(self, optimizer: Any) -> None:
        optimizer.step()

    def minimize(self, optimizer: Any, *args: Any, **kwargs: Any) -> Any:
        return optimizer.minimize(*args, **kwargs)

    def update(self) -> None:
        return None

    def state_dict(self) -> dict[str, Any]:
        return {}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        return None

__getattr__ = module_getattr("paddle.amp")
