"""Forward-mode AD: tangents carried beside tensors while a dual level is open.

Each recorded op whose inputs carry tangents gives its output the Jacobian-vector product of
those tangents, found from the op's own derivative rules by the double-vjp identity: for
``y = f(x)`` and a cotangent ``g``, ``vjp(g) = Jᵀg`` is linear in ``g``, so ``J t`` is the
gradient of ``<Jᵀg, t>`` with respect to ``g``. That runs on detached copies of the inputs, so
the program's own graph, hooks and versions see nothing of it. The rule table stays the one
place derivatives live: no op needs a forward formula of its own.

A tangent has a history of its own where the program records one (grad mode on) and an input
or a tangent requires grad, as in torch: the copies of such inputs are then clones, connected to
the program's graph, and the double-vjp keeps its graph, so the tangent of a layer whose
parameters require grad can be differentiated with respect to them; an input without a tangent
then counts with a zero one, as torch's formulas take it. Otherwise a tangent is a plain
tensor.
"""

from __future__ import annotations

import contextlib
import weakref
from typing import TYPE_CHECKING, Any, Iterator, Optional, Sequence

from reference_engine import grad_mode, recorder

if TYPE_CHECKING:
    from reference_engine.rule import Rule
    from reference_engine.tensor import Tensor

__all__ = ["close_level", "is_open", "open_level", "set_tangent", "suspended", "tangent_of"]

_LEVELS: list[int] = []
_TANGENTS: dict[int, tuple[weakref.ref[Any], Any]] = {}
# ops whose outputs get their tangents elsewhere (a custom function's jvp) or not at all
_SKIPPED = frozenset({"custom", "output_slot", "grad_copy", "zero_link"})


def is_open() -> bool:
    return bool(_LEVELS)


def open_level() -> int:
    """Open the (only) dual level; ops start carrying tangents."""
    _LEVELS.append(0)
    recorder.OP_OBSERVERS.append(_propagate)
    return 0


def close_level() -> None:
    """Close the level: every tangent is dropped."""
    _LEVELS.pop()
    _TANGENTS.clear()
    recorder.OP_OBSERVERS.remove(_propagate)


@contextlib.contextmanager
def suspended() -> Iterator[None]:
    """Within: ops carry no tangents (a custom function's forward, whose jvp gives them)."""
    recorder.OP_OBSERVERS.remove(_propagate)
    try:
        yield
    finally:
        recorder.OP_OBSERVERS.append(_propagate)


def set_tangent(tensor: Tensor, tangent: Optional[Tensor]) -> None:
    if tangent is None:
        _TANGENTS.pop(id(tensor), None)
    else:
        _TANGENTS[id(tensor)] = (weakref.ref(tensor), tangent)


def tangent_of(tensor: Any) -> Optional[Tensor]:
    """``tensor``'s tangent at the open level (None: none, or no level open)."""
    entry = _TANGENTS.get(id(tensor))
    if entry is None:
        return None
    if entry[0]() is not tensor:  # (a tensor that died, its id reused)
        del _TANGENTS[id(tensor)]
        return None
    return entry[1]


def _propagate(rule: Rule, inputs: Sequence[Tensor], attrs: dict[str, Any], out: Tensor) -> None:
    """Give ``out`` the tangent ``J t`` of the op that made it from ``inputs``."""
    if rule.op in _SKIPPED:
        return
    tangents = [tangent_of(t) for t in inputs]
    if all(t is None for t in tangents):
        return
    recording = grad_mode._State.enabled and (
        any(t._requires_grad for t in inputs) or any(t is not None and t._requires_grad for t in tangents))
    with suspended(), grad_mode.enable_grad():  # (the computation below carries no tangents)
        set_tangent(out, _jvp(rule, inputs, attrs, tangents, recording))


def _jvp(rule: Rule, inputs: Sequence[Tensor], attrs: dict[str, Any],
         tangents: Sequence[Optional[Tensor]], recording: bool) -> Optional[Tensor]:
    """``J t`` by the double-vjp identity; ``recording``: connected to the program's graph
    through the inputs (and tangents) that require grad."""
    from reference_engine import ops as F

    policy = inputs[0]._policy
    copies, carried = [], []
    if recording:
        tangents = [_zero_where_missing(t, tangent) for t, tangent in zip(inputs, tangents)]
    for t, tangent in zip(inputs, tangents):
        differentiated = tangent is not None and t._data.dtype.kind == "f"
        if recording and t._requires_grad:
            copy = F.clone(t)  # (a node of its own, so the program's hooks on t see nothing here)
        else:
            copy = type(t)._from_array(t._data.copy())
            copy._device = t._device
            copy._requires_grad = differentiated
        copies.append(copy)
        carried.append(differentiated)
    y = recorder.apply(rule, copies, attrs)
    wanted = [(c, t) for c, t, d in zip(copies, tangents, carried) if d]
    if not y._requires_grad or not wanted:
        return None
    cotangent = F.zeros_like(y)
    cotangent._requires_grad = True
    pulled = policy.grad([y], [c for c, _ in wanted], [cotangent], None, True, True, True)
    terms = [F.sum(F.mul(v, F.cast(t, v._data.dtype))) for v, (_, t) in zip(pulled, wanted) if v is not None]
    if not terms:
        return F.zeros_like(y)
    total = terms[0]
    for term in terms[1:]:
        total = F.add(total, term)
    pushed = policy.grad([total], [cotangent], None, None, recording, True, True)[0]
    result = F.zeros_like(y) if pushed is None else pushed
    if not recording or not result._requires_grad:
        result._requires_grad, result._grad_fn = False, None
    return result


def _zero_where_missing(t: Tensor, tangent: Optional[Tensor]) -> Optional[Tensor]:
    """torch evaluates an op's forward formula with zeros for the tangents its floating inputs
    lack, so a term such as ``other_t * self_p`` connects the tangent to a primal that requires
    grad even where ``other_t`` is zero (measured on 2.13: ``x @ dual`` of a primal requiring
    grad has a tangent that requires grad, AddBackward0)."""
    from reference_engine import ops as F

    if tangent is not None or t._data.dtype.kind != "f":
        return tangent
    with grad_mode.no_grad():
        return F.zeros_like(t)
