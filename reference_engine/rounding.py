"""How large the values were that a gradient was computed from: the scale of its rounding error.

A gradient that is a sum of large terms which cancel (an expanded tensor's gradient summed back,
log_softmax's ``g - p * sum(g)``) holds rounding noise of the order of those terms times its
dtype's epsilon, however small the gradient itself is; a framework that sums in another order
holds other noise. So that a judge can tell such noise from a real difference, the engine notes
for each gradient it computes the largest magnitude in its history: the gradient that reached the
node (scaled by the largest tensor the node saved, which multiplies it) and the gradients summed
into it. A scale goes with the tensor's memory (a facade's ``.grad`` may wrap it anew). Nothing in
the engine's semantics reads these scales.

Noise divided by zero is not noise any more: where a rule turns a gradient element that is within
rounding noise of zero into an infinity or a NaN (sqrt's or log's gradient at 0, fed by a softmax
gradient that cancels to 4.7e-9 in one order of summation and to exactly 0 in another), which
of inf and NaN comes out is decided by that noise. The engine notes such a gradient, and every
gradient summed or computed from it, as ``singular``: its non-finite elements say only that the
value is not finite.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Optional

import numpy as np

from reference_engine import step_noise
from reference_engine.identity_map import IdentityMap

if TYPE_CHECKING:
    from reference_engine.graph import Node

_SCALES: IdentityMap[float] = IdentityMap()
_SINGULAR: IdentityMap[bool] = IdentityMap()

# How many epsilons of its scale a value may be moved by rounding (another order of summation):
# room for sums of several terms, while a difference a millionth of the scale (float32) stands out
NOISE_EPSILONS = 16


def largest(data: np.ndarray) -> float:
    """The largest finite magnitude in ``data`` (0 for none, or for data that is not float)."""
    if data.dtype.kind not in "fc" or data.size == 0:
        return 0.0
    magnitudes = np.abs(data[np.isfinite(data)])
    return float(magnitudes.max()) if magnitudes.size else 0.0


def scale_of(t: Any) -> float:
    """The scale noted for ``t``, or its own largest magnitude where none was noted."""
    data = getattr(t, "_data", None)
    return 0.0 if data is None else _array_scale(data)


def _array_scale(data: np.ndarray) -> float:
    return max(_SCALES.get(data, 0.0) or 0.0, largest(data))


def noted_scale(t: Any) -> Optional[float]:
    """The scale noted for ``t`` (at least its own largest magnitude), or None where the engine
    noted none: a value computed by the forward, not as a gradient."""
    data = getattr(t, "_data", None)
    if data is None or data not in _SCALES:
        return None
    return _array_scale(data)


def noted_singular(t: Any) -> bool:
    """Whether ``t``'s non-finite elements may be rounding noise divided by zero (see above)."""
    data = getattr(t, "_data", None)
    return data is not None and bool(_SINGULAR.get(data, False))


def note(t: Any, sources: Iterable[Any] = (), factor: float = 1.0) -> None:
    """Note for ``t`` the largest of its own magnitude and ``factor`` times its sources' scales,
    and whether one of them was singular."""
    if getattr(t, "_data", None) is None:
        return
    sources = tuple(sources)
    upstream = max((scale_of(s) for s in sources), default=0.0) * factor
    _SCALES[t._data] = max(upstream, largest(t._data))
    if any(noted_singular(s) for s in sources):
        _SINGULAR[t._data] = True
    if step_noise.active():
        step_noise.note_sum(t._data, [getattr(s, "_data", None) for s in sources])


def saved_factor(node: Node) -> float:
    """How much a node's rules may scale the gradient up: its largest saved tensor (at least 1)."""
    factor = 1.0
    for slot in node.saved.values():
        data = getattr(slot.tensor, "_data", None)
        if data is not None:
            factor = max(factor, largest(data))
    return factor


def note_rule_outputs(grads: Iterable[Any], incoming: Any, factor: float) -> None:
    """Note the gradients a node computed from ``incoming`` (one gradient, or a list of them).

    A rule scales the noise it is handed at least as much as it scales the values: a gradient
    multiplied by a number the node did not save (``x * 2``), or summed from copies of one
    value (indexing that picks an element several times), carries that many times the noise.
    So the factor is the larger of ``factor`` and how much the largest value grew.
    """
    handed = upstream = 0.0  # the largest value handed in, and the largest scale noted for one
    sources = [s for s in (incoming if isinstance(incoming, list) else [incoming])
               if getattr(s, "_data", None) is not None]
    for source in sources:
        own = largest(source._data)
        handed = max(handed, own)
        upstream = max(upstream, _SCALES.get(source._data, 0.0) or 0.0, own)
    singular = any(noted_singular(s) for s in sources)
    # (the ops a rule runs carry step noise themselves; a rule that computes outside them still
    # passes on as much as it was handed, scaled alike)
    bound = max((step_noise.bound(s._data) for s in sources), default=0.0) \
        if step_noise.active() else 0.0
    for g in grads:
        data = getattr(g, "_data", None)
        if data is not None:
            own = largest(data)
            gain = own / handed if handed else 1.0
            _SCALES[data] = max(upstream * max(factor, gain), own)
            if singular or any(_noise_made_infinite(data, s._data) for s in sources):
                _SINGULAR[data] = True
            if bound and step_noise.of(data) is None:
                step_noise.note(data, step_noise.uniform(data.shape, bound * max(factor, gain)))


def _noise_made_infinite(out: np.ndarray, incoming: np.ndarray) -> bool:
    """Whether an elementwise rule turned an element of ``incoming`` that lies within rounding
    noise of zero (of its noted scale) into an infinity or a NaN of ``out``."""
    if out.dtype.kind != "f" or out.shape != incoming.shape or incoming.dtype.kind != "f":
        return False
    made = ~np.isfinite(out) & np.isfinite(incoming)
    if not made.any():
        return False
    noise = NOISE_EPSILONS * float(np.finfo(incoming.dtype).eps) * _array_scale(incoming)
    return bool((np.abs(incoming[made]) <= noise).any())


def note_hook_result(result: Any, given: Any) -> None:
    """Note what a hook returned in place of ``given``: its noise is the given gradient's,
    scaled as the hook scaled the values (``g * 2`` doubles both)."""
    if result is given or getattr(result, "_data", None) is None:
        return
    handed = largest(getattr(given, "_data", np.zeros(0)))
    factor = max(1.0, largest(result._data) / handed) if handed else 1.0
    note(result, [given], factor)


def note_read_by_optimizer(gradients: Iterable[Any]) -> None:
    """Move each gradient an optimizer is about to read by its rounding noise, which the step
    may amplify (``reference_engine.step_noise``)."""
    for g in gradients:
        data = getattr(g, "_data", None)
        if data is not None and data.dtype.kind == "f":
            step_noise.note_source(data, step_noise.SOURCE_EPSILONS * float(np.finfo(data.dtype).eps)
                                   * scale_of(g))
