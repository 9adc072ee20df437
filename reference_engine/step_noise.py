"""How far rounding noise that an optimizer's step amplified may move a value.

A gradient holds rounding noise of a few epsilons of the values it was summed from (see
``reference_engine.rounding``), and a framework that sums in another order holds other noise.
An optimizer that normalises its step (Adam's ``m / sqrt(v)``) turns that into steps that differ
by far more than an epsilon of the parameter where the gradient cancelled to near zero: a
weight's gradient of 0.0020472 in one order and 0.0020471 in another, then -0.0029851 against
-0.0029852, leaves Adam's second step 2.9e-6 apart (torch 2.13 against the reference, float32),
and everything computed from that weight afterwards carries the difference.

So the engine follows that noise forward, the way forward-mode AD follows a tangent: each
gradient an optimizer reads is moved by its noise (``SOURCE_EPSILONS`` of its scale) in two
directions, all elements up and alternating signs; every op run on a moved value runs its
forward again on the moved inputs, in float64, and keeps how far its result moved. Moving all
inputs together keeps what they share: Adam's first step ``g / |g|`` does not move at all,
however far ``g`` does, as in the frameworks. A value no optimizer step reached is not moved,
and an op on such values costs one look-up of an empty map. Nothing in the engine's semantics
reads these shifts; the judge widens its tolerance for each element by that element's.
"""

from __future__ import annotations

from typing import Callable, Optional, Sequence

import numpy as np

from reference_engine.identity_map import IdentityMap

# A gradient's own rounding error: a couple of epsilons of its scale (the judge's 16 are room
# for the values it compares, which the shifts then widen; they are not moved by them)
SOURCE_EPSILONS = 2

Shifts = tuple[np.ndarray, np.ndarray]   # the value's shift in each of the two directions
Forward = Callable[[Sequence[np.ndarray]], np.ndarray]

_SHIFTS: IdentityMap[Shifts] = IdentityMap()


def active() -> bool:
    """Whether any live value is moved (else ops need not look)."""
    return bool(len(_SHIFTS))


def of(data: Optional[np.ndarray]) -> Optional[Shifts]:
    """The shifts noted for the array ``data``, or None."""
    return None if data is None else _SHIFTS.get(data)


def bound(data: Optional[np.ndarray]) -> float:
    """How far ``data`` may be moved: its largest finite shift (0 where none is noted)."""
    shifts = of(data)
    if shifts is None:
        return 0.0
    largest = [np.abs(s[np.isfinite(s)]).max(initial=0.0) for s in shifts]
    return float(max(largest))


def elementwise_bound(data: Optional[np.ndarray]) -> Optional[np.ndarray]:
    """How far each element of ``data`` may be moved (inf where a shift made it NaN: moved
    across a boundary of its function's domain), or None where no shift is noted."""
    shifts = of(data)
    if shifts is None:
        return None
    with np.errstate(invalid="ignore"):
        largest = np.maximum(np.abs(shifts[0]), np.abs(shifts[1]))
    return np.where(np.isnan(largest), np.inf, largest)


def note(data: np.ndarray, shifts: Optional[Shifts]) -> None:
    """Note ``shifts`` for ``data`` (None forgets it: a value written anew)."""
    if shifts is None or data.dtype.kind != "f":
        _SHIFTS.discard(data)
    else:
        _SHIFTS[data] = shifts


def uniform(shape: tuple[int, ...], size: float) -> Shifts:
    """Shifts of ``size``: every element up, and alternating signs."""
    ones = np.full(shape, float(size))
    return ones, np.resize(np.array([size, -size], dtype=np.float64), shape)


def note_source(data: np.ndarray, size: float) -> None:
    """Move ``data`` (a gradient an optimizer reads) by ``size`` more in both directions."""
    if data.dtype.kind != "f" or not size > 0.0:
        return
    note(data, _added([of(data), uniform(data.shape, size)], data.shape))


def note_sum(data: np.ndarray, sources: Sequence[Optional[np.ndarray]]) -> None:
    """Note for ``data``, computed by adding ``sources``, the sum of their shifts."""
    shifts = [of(s) for s in sources]
    note(data, _added(shifts, data.shape) if any(s is not None for s in shifts) else None)


def _added(shifts: Sequence[Optional[Shifts]], shape: tuple[int, ...]) -> Shifts:
    total = [np.zeros(shape), np.zeros(shape)]
    for pair in shifts:
        if pair is None:
            continue
        for k in (0, 1):
            try:
                total[k] = total[k] + np.broadcast_to(pair[k], shape)
            except ValueError:  # (of another shape: its size, spread)
                total[k] = total[k] + uniform(shape, np.abs(pair[k]).max(initial=0.0))[k]
    return total[0], total[1]


def carry(forward: Forward, arrays: Sequence[np.ndarray], keys: Sequence[np.ndarray],
          out: np.ndarray) -> None:
    """Note the shifts of ``out = forward(arrays)`` from those noted for ``keys`` (the arrays the
    inputs hold; ``arrays`` is what the op read of them): the forward run again on the shifted
    inputs, all together, less its run on the unshifted ones."""
    shifts = [of(k) for k in keys]
    if all(s is None for s in shifts) or out.dtype.kind != "f":
        _SHIFTS.discard(out)
        return
    wide = [a.astype(np.float64) if a.dtype.kind == "f" else a for a in arrays]
    try:
        base = np.asarray(forward(wide), dtype=np.float64)
        moved = []
        for k in (0, 1):
            inputs = [w if s is None or w.dtype.kind != "f" else w + s[k]
                      for w, s in zip(wide, shifts)]
            result = np.asarray(forward(inputs), dtype=np.float64)
            if result.shape != out.shape:
                raise ValueError("the forward's output changed shape")
            with np.errstate(invalid="ignore", over="ignore"):
                moved.append(result - base)
        note(out, (moved[0], moved[1]))
    except (ValueError, TypeError, IndexError, FloatingPointError):
        # a forward that takes only its own dtype, or an output of another form: the largest
        # input shift, spread
        note(out, uniform(out.shape, max(bound(k) for k in keys)))


def carry_view(view: Callable[[np.ndarray], np.ndarray], source: np.ndarray, out: np.ndarray) -> None:
    """Note for ``out``, a view of ``source``, the same view of ``source``'s shifts."""
    shifts = of(source)
    note(out, None if shifts is None else (np.asarray(view(shifts[0])), np.asarray(view(shifts[1]))))
