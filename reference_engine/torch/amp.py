"""``torch.amp``: ``GradScaler`` as a CPU training loop sees it, and ``autocast`` on the
CPU.

The scaler multiplies the loss by its scale (one MulBackward0 with a 0-d float32 tensor),
``unscale_`` multiplies each gradient in place by the reciprocal and records whether any is not
finite, ``step`` runs the optimizer only when all were finite, and ``update`` halves the scale
after an overflow and doubles it after ``growth_interval`` clean steps. A scaler for "cuda" on a
machine without CUDA warns and does nothing, as torch's does. ``autocast("cpu")`` casts the
inputs of the ops torch lists (``reference_engine.torch.autocast_ops``).
"""

from __future__ import annotations

import functools
import types
import warnings
from typing import Any, Optional

import numpy as np

from reference_engine import devices as engine_devices
from reference_engine.framework_names import module_getattr
from reference_engine.messages import NotModelledError, not_supported
from reference_engine.torch import autocast_ops as region
from reference_engine.torch import devices
from reference_engine.torch._core import _DTYPES, TORCH, Tensor, bfloat16, float16, no_grad, tensor

__all__ = ["GradScaler", "autocast", "get_autocast_dtype", "is_autocast_enabled"]

_READY, _UNSCALED, _STEPPED = "ready", "unscaled", "stepped"


class GradScaler:
    """``torch.amp.GradScaler``."""

    def __init__(self, device: str = "cuda", init_scale: float = 2.0**16, growth_factor: float = 2.0,
                 backoff_factor: float = 0.5, growth_interval: int = 2000, enabled: bool = True) -> None:
        if enabled and device == "cuda" and not engine_devices.simulated("cuda"):
            warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  "
                          "Disabling.", UserWarning, stacklevel=2)
            enabled = False
        self._device, self._enabled = device, enabled
        if growth_factor <= 1.0:
            raise TORCH.error("scaler_growth_factor")
        if backoff_factor >= 1.0:
            raise TORCH.error("scaler_backoff_factor")
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

    def _made_scale(self, api: str) -> Tensor:
        """The scale ``scale()`` made: unscale_, step and update before any is refused."""
        if self._scale is None:
            raise TORCH.error("scaler_no_scale", api=api)
        return self._scale

    def _state(self, optimizer: Any) -> dict[str, Any]:
        return self._per_optimizer.setdefault(id(optimizer), {"stage": _READY, "found_inf": 0.0})

    def unscale_(self, optimizer: Any) -> None:
        """Each gradient times the reciprocal of the scale, in place; remembers whether any was
        not finite."""
        if not self._enabled:
            return
        scale = self._made_scale("unscale_")
        state = self._state(optimizer)
        if state["stage"] == _UNSCALED:
            raise TORCH.error("scaler_unscaled_twice")
        if state["stage"] == _STEPPED:
            raise TORCH.error("scaler_unscale_after_step")
        inv_scale = np.float32(1.0 / np.float64(scale._data))
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
            raise TORCH.error("scaler_closure")
        self._made_scale("step")
        state = self._state(optimizer)
        if state["stage"] == _STEPPED:
            raise TORCH.error("scaler_stepped_twice")
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
        scale = self._made_scale("update")
        if new_scale is not None:
            value = new_scale._data if isinstance(new_scale, Tensor) else new_scale
            scale._data = np.asarray(value, np.float32).reshape(())
        else:
            if not self._per_optimizer:
                raise TORCH.error("scaler_no_inf_checks")
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
            raise TORCH.error("scaler_empty_state")
        self._init_scale = state_dict["scale"]
        self._scale = tensor(np.float32(state_dict["scale"]))
        self._growth_factor, self._backoff_factor = state_dict["growth_factor"], state_dict["backoff_factor"]
        self._growth_interval = state_dict["growth_interval"]
        self._growth_tracker = state_dict["_growth_tracker"]


class autocast:  # noqa: N801 - torch's name
    """``torch.autocast`` / ``torch.amp.autocast``, as a context manager or a decorator: on the
    CPU, listed ops run in bfloat16 or float16 (``reference_engine.torch.autocast_ops``); "cuda" on
    this CPU-only engine warns and does nothing, as torch does without CUDA."""

    def __init__(self, device_type: str, dtype: Any = None, enabled: bool = True,
                 cache_enabled: Optional[bool] = None) -> None:
        if not isinstance(device_type, str):
            raise TORCH.error("autocast_device_type", type_name=type(device_type))
        kind, _ = devices.parse(device_type)
        if kind not in ("cpu", "cuda"):
            raise NotModelledError(f"reference_engine.torch has no torch.autocast for {device_type!r}")
        if enabled and kind == "cuda" and engine_devices.simulated("cuda"):
            raise not_supported("torch.autocast on a CUDA device (its float16 kernels are not modelled)")
        self.device = kind
        self.fast_dtype = dtype if dtype is not None else get_autocast_dtype(kind)
        if enabled and kind == "cuda":
            if device_type == "cuda":  # measured: "cuda:0" disables it without the warning
                TORCH.warn("autocast_no_cuda", stacklevel=2)
            enabled = False
        if enabled and self.fast_dtype not in (bfloat16, float16):
            TORCH.warn("autocast_cpu_dtype", stacklevel=2)
            enabled = False
        self._enabled = enabled
        self._cache_enabled = True if cache_enabled is None else cache_enabled
        self._previous: list[Any] = []

    def __enter__(self) -> autocast:
        if self.device == "cuda":  # disabled: the CPU region stays as it is
            self._previous.append(None)
        else:
            self._previous.append(region.enter(self._enabled, self.fast_dtype.numpy, self._cache_enabled))
        return self

    def __exit__(self, *exc_info: object) -> None:
        previous = self._previous.pop()
        if previous is not None:
            region.leave(previous)

    def __call__(self, func: Any) -> Any:
        @functools.wraps(func)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            with self:
                return func(*args, **kwargs)

        return wrapped


def is_autocast_enabled(device_type: Optional[str] = None) -> bool:
    """``torch.is_autocast_enabled``: for "cpu", whether a region is on; without an argument
    (CUDA's), False on this engine."""
    return device_type == "cpu" and region.enabled()


def get_autocast_dtype(device_type: str) -> Any:
    """``torch.get_autocast_dtype``: the dtype lower-precision ops use in a region."""
    if device_type == "cuda":
        return float16
    current = region.region_dtype()
    return bfloat16 if current is None else _DTYPES[current]

def _cuda_grad_scaler(init_scale: float = 2.0**16, growth_factor: float = 2.0, backoff_factor: float = 0.5,
                      growth_interval: int = 2000, enabled: bool = True) -> GradScaler:
    """``torch.cuda.amp.GradScaler(...)``: ``GradScaler("cuda", ...)``, with torch's deprecation."""
    warnings.warn("`torch.cuda.amp.GradScaler(args...)` is deprecated. Please use "
                  "`torch.amp.GradScaler('cuda', args...)` instead.", FutureWarning, stacklevel=2)
    return GradScaler("cuda", init_scale, growth_factor, backoff_factor, growth_interval, enabled)


def _cuda_autocast(enabled: bool = True, dtype: Any = None, cache_enabled: bool = True) -> autocast:
    """``torch.cuda.amp.autocast(...)``: ``autocast("cuda", ...)``, with torch's deprecation."""
    warnings.warn("`torch.cuda.amp.autocast(args...)` is deprecated. Please use "
                  "`torch.amp.autocast('cuda', args...)` instead.", FutureWarning, stacklevel=2)
    return autocast("cuda", dtype, enabled, cache_enabled)


# ``torch.cuda.amp``: the deprecated CUDA spellings of GradScaler and autocast
cuda_amp = types.ModuleType("torch.cuda.amp")
cuda_amp.GradScaler, cuda_amp.autocast = _cuda_grad_scaler, _cuda_autocast  # type: ignore[attr-defined]
cuda_amp.__getattr__ = module_getattr("torch.cuda.amp")  # type: ignore[method-assign]

__getattr__ = module_getattr("torch.amp")
