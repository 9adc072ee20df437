"""``torch.autocast("cpu", ...)`` as autograd sees it: which ops run in reduced precision.

Inside an enabled region, torch casts the floating inputs of a listed op before running it
(``aten/src/ATen/autocast_mode.cpp``, the CPU lists), and the cast is an ordinary recorded
``ToCopyBackward0``, so gradients flow back in the original dtype:

- ``lower_precision`` ops (matmuls, ``linear``, convolutions): float32 inputs go to the region's
  dtype (bfloat16 unless given; float16 is also allowed on the CPU);
- ``float32`` ops (the losses, ``prod``): float16 / bfloat16 inputs go to float32.

float64 tensors are never cast, and every other op (``dot``, ``mv``, elementwise ops,
reductions) runs in its inputs' dtypes with the usual promotion. A leaf that requires grad is
cast once per region and the copy reused (torch's cast cache), so two matmuls with one weight
share its ``ToCopyBackward0``. The facade marks each listed function where it defines it; the
tests measure every marked op, and some unmarked ones, against torch.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Optional, TypeVar

import numpy as np

from reference_engine import ops as F
from reference_engine.dtypes import is_floating
from reference_engine.tensor import Tensor

Fn = TypeVar("Fn", bound=Callable[..., Any])


class _Region:
    """The innermost autocast region's settings, and the cast cache of the outermost."""

    enabled = False
    dtype: Optional[np.dtype] = None   # of lower-precision ops; None: the default, bfloat16
    cache_enabled = True
    depth = 0
    cache: dict[int, tuple[Tensor, Tensor]] = {}   # id(leaf) -> (leaf, its cast)


def _cast(t: Tensor, target: np.dtype) -> Tensor:
    if t._data.dtype == target:
        return t
    cacheable = _Region.cache_enabled and t._grad_fn is None and t._requires_grad
    if cacheable:
        cached = _Region.cache.get(id(t))
        if cached is not None and cached[0] is t and cached[1]._data.dtype == target:
            return cached[1]
    out = F.cast(t, target)
    if cacheable:
        _Region.cache[id(t)] = (t, out)
    return out


def _convert(value: Any, target: np.dtype) -> Any:
    """``value`` with each eligible tensor cast (torch's ``is_eligible``: floating, not float64),
    in lists and tuples too (``einsum``'s operands)."""
    if isinstance(value, (list, tuple)):
        return type(value)(_convert(v, target) for v in value)
    if isinstance(value, Tensor) and is_floating(value._data.dtype) and value._data.dtype != np.float64:
        return _cast(value, target)
    return value


def _casting(target_of: Callable[[], np.dtype]) -> Callable[[Fn], Fn]:
    def mark(fn: Fn) -> Fn:
        @functools.wraps(fn)
        def autocast_op(*args: Any, **kwargs: Any) -> Any:
            if not _Region.enabled:
                return fn(*args, **kwargs)
            target = target_of()
            return fn(*(_convert(a, target) for a in args),
                      **{k: _convert(v, target) for k, v in kwargs.items()})
        return autocast_op  # type: ignore[return-value]
    return mark


lower_precision = _casting(lambda: _Region.dtype)
float32 = _casting(lambda: np.dtype(np.float32))


def enter(enabled: bool, dtype: np.dtype, cache_enabled: bool) -> tuple[Any, ...]:
    """Open a region; returns what ``leave`` restores."""
    previous = (_Region.enabled, _Region.dtype, _Region.cache_enabled)
    _Region.enabled, _Region.dtype, _Region.cache_enabled = enabled, dtype, cache_enabled
    _Region.depth += 1
    return previous


def leave(previous: tuple[Any, ...]) -> None:
    """Close a region; leaving the outermost one empties the cast cache, as torch does."""
    _Region.enabled, _Region.dtype, _Region.cache_enabled = previous
    _Region.depth -= 1
    if _Region.depth == 0:
        _Region.cache.clear()


def enabled() -> bool:
    return _Region.enabled


def region_dtype() -> Optional[np.dtype]:
    return _Region.dtype
