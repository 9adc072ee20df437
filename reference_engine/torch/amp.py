"""``torch.amp``: ``GradScaler`` as a CPU training loop sees it, and ``autocast`` where it
changes nothing.

The scaler multiplies the loss by its scale (one MulBackward0 with a 0-d float32 tensor),
``unscale_`` multiplies each gradient in place by the reciprocal and records whether any is not
finite, ``step`` runs the optimizer only when all were finite, and ``update`` halves the scale
after an overflow and doubles it after ``growth_interval`` clean steps. A scaler for "cuda" on a
machine without CUDA warns and does nothing, as torch's does. ``autocast`` with
``enabled=False`` is a no-op; the reference engine has no reduced-precision kernels, so an
enabled one is refused, naming it.
"""

from __future__ import annotations

import warnings
from typing import Any, Optional

import numpy as np

from reference_engine.torch import Tensor, no_grad, tensor

__all__ = ["GradScaler", "autocast"]

_READY, _UNSCALED, _STEPPED = "ready", "unscaled", "stepped"


class GradScaler:
    """``torch.amp.GradScaler``."""

    def __init__(self, device: str = "cuda", init_scale: float = 2.0**16, growth_factor: float = 2.0,
                 backoff_factor: float = 0.5, growth_interval: int = 2000, enabled: bool = True) -> None:
        if enabled and device == "cuda":
            warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  "
                          "Disabling.", UserWarning, stacklevel=2)
            enabled = False
        self._device, self._enabled = device, enabled
        if growth_factor <= 1.0:
            raise AssertionError("The growth factor must be > 1.0.")
        if backoff_factor >= 1.0:
            raise AssertionError("The backoff factor must be < 1.0.")
        self._init_scale, self._growth_factor = init_scale, growth_factor
        self._backoff_factor, self._growth_interval = backoff_factor, growth_interval
        self._scale: Optional[Tensor] = None
        self._growth_tracker = 0
        self._per_optimizer: dict[int, dict[str, Any]] = {}

    def is_enabled(self) -> bool:
        return self._enabled

    def _lazy_scale(self) -> Tensor:
        if self._scale is None:
            self._scale = tensor(np.float32(self._init_scale))
        return self._scale

    def scale(self, outputs: Any) -> Any:
        """The outputs times the scale (each of a list or tuple)."""
        if not self._enabled:
            return outputs
        if isinstance(outputs, Tensor):
            return outputs * self._lazy_scale()
        scaled = [self.scale(o) for o in outputs]
        return type(outputs)(scaled)

    def _state(self, optimizer: Any) -> dict[str, Any]:
        return self._per_optimizer.setdefault(id(optimizer), {"stage": _READY, "found_inf": 0.0})

    def unscale_(self, optimizer: Any) -> None:
        """Each gradient times the reciprocal of the scale, in place; remembers whether any was
        not finite."""
        if not self._enabled:
            return
        state = self._state(optimizer)
        if state["stage"] == _UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since the "
                               "last update().")
        if state["stage"] == _STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        inv_scale = np.float32(1.0 / np.float64(self._lazy_scale()._data))
        found = 0.0
        with no_grad():
            for group in optimizer.param_groups:
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    if not np.all(np.isfinite(p.grad._data)):
                        found = 1.0
                    p.grad._data *= inv_scale
                    p.grad._counter.value += 1
        state["found_inf"], state["stage"] = found, _UNSCALED

    def step(self, optimizer: Any, *args: Any, **kwargs: Any) -> Any:
        """``optimizer.step()`` unless an unscaled gradient was not finite (unscaling first)."""
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is enabled.")
        state = self._state(optimizer)
        if state["stage"] == _STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if state["stage"] == _READY:
            self.unscale_(optimizer)
        result = None if state["found_inf"] else optimizer.step(*args, **kwargs)
        state["stage"] = _STEPPED
        return result

    def update(self, new_scale: Any = None) -> None:
        """Back off after an overflow, grow after ``growth_interval`` clean steps (or set
        ``new_scale``)."""
        if not self._enabled:
            return
        scale = self._lazy_scale()
        if new_scale is not None:
            value = new_scale._data if isinstance(new_scale, Tensor) else new_scale
            scale._data = np.asarray(value, np.float32).reshape(())
        else:
            if not self._per_optimizer:
                raise AssertionError("No inf checks were recorded prior to update.")
            if any(s["found_inf"] for s in self._per_optimizer.values()):
                scale._data = np.float32(scale._data * np.float32(self._backoff_factor)).reshape(())
                self._growth_tracker = 0
            else:
                self._growth_tracker += 1
                if self._growth_tracker == self._growth_interval:
                    scale._data = np.float32(scale._data * np.float32(self._growth_factor)).reshape(())
                    self._growth_tracker = 0
        self._per_optimizer.clear()

    def get_scale(self) -> float:
        if not self._enabled:
            return 1.0
        return float(self._lazy_scale()._data) if self._scale is not None else self._init_scale

    def get_growth_factor(self) -> float:
        return self._growth_factor

    def get_backoff_factor(self) -> float:
        return self._backoff_factor

    def get_growth_interval(self) -> int:
        return self._growth_interval

    def state_dict(self) -> dict[str, Any]:
        if not self._enabled:
            return {}
        return {"scale": self.get_scale(), "growth_factor": self._growth_factor,
                "backoff_factor": self._backoff_factor, "growth_interval": self._growth_interval,
                "_growth_tracker": self._growth_tracker}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        if not self._enabled:
            return
        if not state_dict:
            raise RuntimeError("The source state dict is empty, possibly because it was saved "
                               "from a disabled instance of GradScaler.")
        self._init_scale = state_dict["scale"]
        self._scale = tensor(np.float32(state_dict["scale"]))
        self._growth_factor, self._backoff_factor = state_dict["growth_factor"], state_dict["backoff_factor"]
        self._growth_interval = state_dict["growth_interval"]
        self._growth_tracker = state_dict["_growth_tracker"]


class autocast:  # noqa: N801 - torch's name
    """``torch.autocast`` / ``torch.amp.autocast``: a no-op when disabled; refused when enabled
    (the reference engine has no reduced-precision kernels)."""

    def __init__(self, device_type: str = "cpu", dtype: Any = None, enabled: bool = True,
                 cache_enabled: Any = None) -> None:
        self.enabled = enabled

    def __enter__(self) -> autocast:
        if self.enabled:
            raise NotImplementedError("reference_engine.torch has no torch.autocast (no "
                                      "reduced-precision kernels); use enabled=False")
        return self

    def __exit__(self, *exc_info: object) -> None:
        return None

    def __call__(self, func: Any) -> Any:
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            with self:
                return func(*args, **kwargs)

        return wrapped
