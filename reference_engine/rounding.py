"""How large the values were that a gradient was computed from: the scale of its rounding error.

A gradient that is a sum of large terms which cancel (an expanded tensor's gradient summed back,
log_softmax's ``g - p * sum(g)``) holds rounding noise of the order of those terms times its
dtype's epsilon, however small the gradient itself is; a framework that sums in another order
holds other noise. So that a judge can tell such noise from a real difference, the engine notes
for each gradient it computes the largest magnitude in its history: the gradient that reached the
node (scaled by the largest tensor the node saved, which multiplies it) and the gradients summed
into it. A scale goes with the tensor's memory (a facade's ``.grad`` may wrap it anew). Nothing in
the engine's semantics reads these scales.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Optional

import numpy as np

from reference_engine.identity_map import IdentityMap

if TYPE_CHECKING:
    from reference_engine.graph import Node

_SCALES: IdentityMap[float] = IdentityMap()


def largest(data: np.ndarray) -> float:
    """The largest finite magnitude in ``data`` (0 for none, or for data that is not float)."""
    if data.dtype.kind not in "fc" or data.size == 0:
        return 0.0
    magnitudes = np.abs(data[np.isfinite(data)])
    return float(magnitudes.max()) if magnitudes.size else 0.0


def scale_of(t: Any) -> float:
    """The scale noted for ``t``, or its own largest magnitude where none was noted."""
    data = getattr(t, "_data", None)
    if data is None:
        return 0.0
    return max(_SCALES.get(data, 0.0) or 0.0, largest(data))


def noted_scale(t: Any) -> Optional[float]:
    """The scale noted for ``t`` (at least its own largest magnitude), or None where the engine
    noted none: a value computed by the forward, not as a gradient."""
    data = getattr(t, "_data", None)
    if data is None or data not in _SCALES:
        return None
    return max(_SCALES.get(data, 0.0) or 0.0, largest(data))


def note(t: Any, sources: Iterable[Any] = (), factor: float = 1.0) -> None:
    """Note for ``t`` the largest of its own magnitude and ``factor`` times its sources' scales."""
    if getattr(t, "_data", None) is None:
        return
    upstream = max((scale_of(s) for s in sources), default=0.0) * factor
    _SCALES[t._data] = max(upstream, largest(t._data))


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
    for source in incoming if isinstance(incoming, list) else [incoming]:
        data = getattr(source, "_data", None)
        if data is not None:
            own = largest(data)
            handed = max(handed, own)
            upstream = max(upstream, _SCALES.get(data, 0.0) or 0.0, own)
    for g in grads:
        data = getattr(g, "_data", None)
        if data is not None:
            own = largest(data)
            gain = own / handed if handed else 1.0
            _SCALES[data] = max(upstream * max(factor, gain), own)


def note_hook_result(result: Any, given: Any) -> None:
    """Note what a hook returned in place of ``given``: its noise is the given gradient's,
    scaled as the hook scaled the values (``g * 2`` doubles both)."""
    if result is given or getattr(result, "_data", None) is None:
        return
    handed = largest(getattr(given, "_data", np.zeros(0)))
    factor = max(1.0, largest(result._data) / handed) if handed else 1.0
    note(result, [given], factor)
