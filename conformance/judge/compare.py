"""Compare two traces step by step and list every difference.

Values agree within tolerances per dtype (integers and booleans exactly), widened for values that
cancel larger ones by the rounding noise of those (``rounding_scale``) and, element by element,
for values an optimizer's step moved by how far its rounding noise may have moved them
(``step_shift``), NaN equals NaN (and any
non-finite value another where that noise was divided by zero: ``rounding_singular``); shapes,
dtypes and flags agree exactly. Errors and warnings agree by class and by normalised text
(:func:`conformance.run.trace.clean_message`), because the reference engine claims the frameworks'
verbatim texts; between torch and paddle, whose texts always differ, ``messages="category"``
compares the category instead and keeps the text difference as a note. Where the reference
calls a result undefined (paddle's unchecked seed shapes), the framework's observations from
that step on are not compared.

Observations are grouped by step, so a difference in one step (an extra warning, a missing
gradient) does not hide the differences of the later ones.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

import numpy as np

from conformance.run.trace import (
    NOISE_EPSILONS,
    STATE_FIELDS,
    Trace,
    full_states,
    json_to_array,
    printed,
    rounding_noise,
)

# (rtol, atol) per dtype. float32 and the half types keep torch.testing.assert_close's defaults.
# float64 is set from measurement (`python benchmarks/float64_agreement.py RUN` over the default
# corpus): with atol 1e-12 every value torch 2.13.0 and paddle 3.3.1 observed agrees with the
# reference within a relative 1.1e-11 (the worst, a cancellation in a create_graph program).
# rtol 1e-9 keeps ~100x headroom above that, while one float32 rounding inside a float64
# program moves a value by up to 6e-8 relative, which must fail.
TOLERANCES = {"float16": (1e-3, 1e-5), "bfloat16": (1.6e-2, 1e-5), "float32": (1.3e-6, 1e-5),
              "float64": (1e-9, 1e-12)}

# torch warns about backward(create_graph=True) and about a tensor made from a list of numpy
# arrays once per process (TORCH_WARN_ONCE), so whether a trace shows it depends on which cases
# that backend process ran before. Such warnings are compared when both sides have them and
# otherwise not counted as a difference.
WARN_ONCE = ("Using backward() with create_graph=True",
             "Creating a tensor from a list of numpy.ndarrays",
             "Using torch.cross without specifying the dim arg",
             "Converting a tensor with requires_grad=True to a scalar")


@dataclass
class Difference:
    """One step whose observations disagree: what differs, and both sides."""

    index: int          # position of the step's first observation in the expected trace
    step: str
    what: str
    expected: Any
    actual: Any

    def describe(self) -> str:
        expected, actual = _around_first_difference(repr(self.expected), repr(self.actual))
        return f"step {self.step}: {self.what}: expected {expected}, got {actual}"

    def signature(self) -> dict[str, Any]:
        """The difference as data, the form a known-divergence entry pins."""
        return {"step": self.step, "what": self.what, "reference": self.expected,
                "backend": self.actual}


@dataclass
class Comparison:
    differences: list[Difference] = field(default_factory=list)
    message_notes: list[str] = field(default_factory=list)
    undefined_steps: list[str] = field(default_factory=list)

    @property
    def same(self) -> bool:
        return not self.differences


def _around_first_difference(expected: str, actual: str, limit: int = 300,
                             context: int = 80) -> tuple[str, str]:
    """Both texts cut to ``limit`` characters, each cut where it shows the first character at
    which the two differ (with ``context`` characters before it): two long messages that share
    their first 300 characters still show what differs."""
    first = next((i for i, (x, y) in enumerate(zip(expected, actual)) if x != y),
                 min(len(expected), len(actual)))
    start = max(0, first - context) if first >= limit - context else 0

    def cut(text: str) -> str:
        part = text[start:start + limit]
        return ("…" if start else "") + part + ("…" if start + limit < len(text) else "")
    return cut(expected), cut(actual)


def _is_warn_once(o: dict[str, Any]) -> bool:
    return o["kind"] == "warning" and o["message"].startswith(WARN_ONCE)


def values_close(expected: dict[str, Any], actual: dict[str, Any],
                 computed_in: frozenset[str] = frozenset()) -> bool:
    """Whether two tensor observations hold the same values, within the tolerance of their
    dtype or of the least precise float dtype among ``computed_in`` (what the case computes in:
    a float64 gradient that went through float32 ops carries float32 rounding)."""
    if expected["values"] == actual["values"]:  # the same JSON is the same values
        return True
    dtype = expected["dtype"]
    a = json_to_array(expected["values"], dtype)
    b = json_to_array(actual["values"], dtype)
    if a.dtype.kind in "biu":
        return bool(np.array_equal(a, b))
    rtol, atol = TOLERANCES.get(dtype, (0.0, 0.0))
    for other in computed_in & TOLERANCES.keys():
        rtol, atol = max(rtol, TOLERANCES[other][0]), max(atol, TOLERANCES[other][1])
    atol = max(atol, rounding_noise(expected, computed_in), rounding_noise(actual, computed_in))
    if expected.get("rounding_singular") or actual.get("rounding_singular"):
        # noise divided by zero: inf and NaN say alike that the value is not finite
        both = ~np.isfinite(a) & ~np.isfinite(b)
        a, b = np.where(both, 0, a), np.where(both, 0, b)
    close = np.isclose(b, a, rtol=rtol, atol=atol, equal_nan=True)
    shift = _step_shift(expected, actual, a.shape)
    if shift is not None and not close.all():
        with np.errstate(invalid="ignore"):
            close |= np.abs(b.astype(np.float64) - a) <= atol + rtol * np.abs(a) + shift
    return bool(close.all())


def _step_shift(expected: dict[str, Any], actual: dict[str, Any],
                shape: tuple[int, ...]) -> Optional[np.ndarray]:
    """How far the noise an optimizer's step amplified may move each element (``step_shift``,
    which the reference notes; see ``reference_engine.step_noise``), or None."""
    shifts = [json_to_array(o["step_shift"], "float64") for o in (expected, actual)
              if "step_shift" in o]
    if not shifts:
        return None
    total = np.zeros(shape)
    for shift in shifts:
        if shift.shape != shape:
            return None
        total = total + shift
    return total


def compare_observation(e: dict[str, Any], a: dict[str, Any], notes: list[str],
                        messages: str = "text", computed_in: frozenset[str] = frozenset()
                        ) -> Optional[str]:
    """None when the two observations agree, else what differs."""
    if e["kind"] != a["kind"]:
        return "kind"
    kind = e["kind"]
    if kind in ("tensor", "array"):  # an array: a tensor's values without its flags
        for key in ("dtype", "shape", "requires_grad", "has_grad_fn"):
            if e.get(key) != a.get(key):
                return key
        return None if values_close(e, a, computed_in) else "values"
    if kind == "list":
        if len(e["items"]) != len(a["items"]):
            return "length"
        for i, (x, y) in enumerate(zip(e["items"], a["items"])):
            what = compare_observation(x, y, notes, messages, computed_in)
            if what:
                return f"item {i} {what}"
        return None
    if kind == "state":
        return _state_difference(e["tensors"], a["tensors"])
    if kind in ("error", "warning"):
        if e[kind] != a[kind]:
            return f"{kind} class"
        if messages == "text":
            return None if e["message"] == a["message"] else f"{kind} message"
        if e["category"] != a["category"]:
            return f"{kind} category"
        if e["message"] != a["message"]:
            notes.append(f"step {e['step']}: message differs: {e['message']!r} vs {a['message']!r}")
        return None
    if kind == "equal" and e["value"] != a["value"]:
        gap = e.get("gap_epsilons", a.get("gap_epsilons"))  # measured by the side that saw a difference
        if gap is not None and gap <= NOISE_EPSILONS:
            notes.append(f"step {e['step']}: equal only up to rounding ({gap:.1f} epsilons apart)")
            return None
        return kind
    if kind == "equal":
        return None
    strip = {"step", "message"}
    return None if {k: v for k, v in e.items() if k not in strip} == {
        k: v for k, v in a.items() if k not in strip} else kind


def _state_difference(expected: dict[str, list[Any]], actual: dict[str, list[Any]]) -> Optional[str]:
    """The first named tensor whose state differs, and in what: ``y version``. A field one side
    has no attribute for (None: a module without torch's private ``_version``) is not compared."""
    for name in [*expected, *(n for n in actual if n not in expected)]:
        e, a = expected.get(name), actual.get(name)
        if e is None or a is None:
            return f"{name} named"
        for what, x, y in zip(STATE_FIELDS, e, a):
            if x is not None and y is not None and x != y:
                return f"{name} {what}"
    return None


def _before(step: str, other: str) -> bool:
    """Whether step ``step`` ran before step ``other`` ("3.1" is the second step of block 3)."""
    def key(s: str) -> tuple[int, ...]:
        return tuple(int(p) for p in s.split(".") if p.isdigit())
    return key(step) < key(other)


def _made_from(observations: list[dict[str, Any]], step: str,
               deferred: frozenset[str] = frozenset()) -> int:
    """Where the observations made while ``step`` ran, or later, start. A hook's print carries
    the hook's own (earlier) step but is made by the autograd step that runs it: a printed
    observation of a ``deferred`` step, or of an earlier step than one already seen, waits for
    the ``.after`` state of the step that made it (as ``causes.chronological`` reads them; an
    error or a warning is the registering step's own)."""
    latest: tuple[int, ...] = ()
    pending: Optional[int] = None  # the first observation waiting for its step
    for i, o in enumerate(observations):
        at = o["step"]
        if o["kind"] == "state" and at.endswith(".after"):
            if pending is not None and not _before(at[:-len(".after")], step):
                return pending
            pending = None
        key = tuple(int(p) for p in at.split(".") if p.isdigit())
        if o["kind"] not in ("state", "error", "warning") and (key < latest or at in deferred):
            pending = i if pending is None else pending
            continue
        if not _before(at, step):
            return i if pending is None else pending
        latest = max(latest, key)
    return len(observations) if pending is None else pending


def _by_step(observations: list[dict[str, Any]]) -> dict[str, list[tuple[int, dict[str, Any]]]]:
    steps: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    for i, o in enumerate(observations):
        steps.setdefault(o["step"], []).append((i, o))
    return steps


def _drop_unmatched_warn_once(e: list[dict[str, Any]], a: list[dict[str, Any]]
                              ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    if sum(map(_is_warn_once, e)) == sum(map(_is_warn_once, a)):
        return e, a
    return [o for o in e if not _is_warn_once(o)], [o for o in a if not _is_warn_once(o)]


def compare_traces(expected: Trace, actual: Trace, messages: str = "text",
                   computed_in: frozenset[str] = frozenset(),
                   deferred: frozenset[str] = frozenset()) -> Comparison:
    """Compare ``actual`` (a framework) against ``expected`` (its reference), step by step.

    ``messages`` is ``"text"`` (a reference against its framework: texts must be equal) or
    ``"category"`` (torch against paddle: texts are noted, categories compared).
    ``computed_in``: the dtypes the case computes in (values agree within the loosest).
    ``deferred``: the steps whose observations an autograd step makes later (hooks).
    """
    result = Comparison()
    exp, act = full_states(expected.observations), full_states(actual.observations)
    cut = next((i for i, o in enumerate(exp) if o["kind"] == "undefined"), None)
    if cut is not None:  # everything the undefined step made, and after, is undefined too
        step = exp[cut]["step"]
        result.undefined_steps = [step]
        exp = exp[:min(cut, _made_from(exp, step, deferred))]
        act = act[:_made_from(act, step, deferred)]
    exp_steps, act_steps = _by_step(exp), _by_step(act)
    order = list(exp_steps) + [s for s in act_steps if s not in exp_steps]
    for step in order:
        e_pairs, a_pairs = exp_steps.get(step, []), act_steps.get(step, [])
        index = e_pairs[0][0] if e_pairs else (a_pairs[0][0] if a_pairs else 0)
        e_obs, a_obs = _drop_unmatched_warn_once([o for _, o in e_pairs], [o for _, o in a_pairs])
        if len(e_obs) != len(a_obs):
            result.differences.append(Difference(index, step, "observations", e_obs, a_obs))
            continue
        for e, a in zip(e_obs, a_obs):
            what = compare_observation(e, a, result.message_notes, messages, computed_in)
            if what:
                result.differences.append(Difference(index, step, what, e, a))
    return result


def compare_runs(case: str, old: list[dict[str, Any]], new: list[dict[str, Any]]) -> Comparison:
    """Two runs of one backend on a case (``diff``): a run recorded before the interpreter
    observed states (no ``state`` observation) is compared with the other on what both
    observed, the prints."""
    if any(o["kind"] == "state" for o in old) != any(o["kind"] == "state" for o in new):
        old, new = printed(old), printed(new)
    return compare_traces(Trace(case, "base", old), Trace(case, "new", new))


def signature_matches(pinned: dict[str, Any], found: Difference) -> bool:
    """Whether a difference is the one a known-divergence entry pins: same step and kind of
    difference, and each side observing what the entry recorded (within the value tolerances)."""
    if pinned.get("step") != found.step or pinned.get("what") != found.what:
        return False
    return _same_side(pinned.get("reference"), found.expected) and \
        _same_side(pinned.get("backend"), found.actual)


def _same_side(pinned: Any, found: Any) -> bool:
    if isinstance(pinned, list) and isinstance(found, list):
        return len(pinned) == len(found) and all(_same_side(p, f) for p, f in zip(pinned, found))
    if isinstance(pinned, dict) and isinstance(found, dict):
        return compare_observation(pinned, found, []) is None
    return pinned == found
