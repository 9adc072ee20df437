"""Compare two traces observation by observation.

Values agree within torch.testing.assert_close's tolerances for their dtype (integers and
booleans exactly), NaN equals NaN; shapes, dtypes and flags agree exactly; errors agree by class
and normalised category (the texts are kept for the report); warnings by class and category.
Where the reference calls a result undefined (paddle's unchecked seed shapes), the framework's
observation at that step is not compared.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

import numpy as np

from conformance.trace import Trace, json_to_array

TOLERANCES = {"float16": (1e-3, 1e-5), "bfloat16": (1.6e-2, 1e-5), "float32": (1.3e-6, 1e-5),
              "float64": (1e-7, 1e-7)}
# torch warns about backward(create_graph=True) once per process, so whether a trace shows it
# depends on what ran before in that process: never compared.
ONCE_PER_PROCESS = ("Using backward() with create_graph=True",)


@dataclass
class Difference:
    """The first place two traces disagree."""

    index: int
    step: str
    what: str
    expected: Any
    actual: Any

    def describe(self) -> str:
        return (f"observation {self.index} (step {self.step}): {self.what}: expected "
                f"{_short(self.expected)}, got {_short(self.actual)}")


@dataclass
class Comparison:
    differences: list[Difference] = field(default_factory=list)
    message_notes: list[str] = field(default_factory=list)
    undefined_steps: list[str] = field(default_factory=list)

    @property
    def same(self) -> bool:
        return not self.differences


def _short(value: Any, limit: int = 300) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


def comparable(trace: Trace) -> list[dict[str, Any]]:
    return [o for o in trace.observations
            if not (o["kind"] == "warning" and o["message"].startswith(ONCE_PER_PROCESS))]


def values_close(expected: dict[str, Any], actual: dict[str, Any]) -> bool:
    dtype = expected["dtype"]
    a = json_to_array(expected["values"], dtype)
    b = json_to_array(actual["values"], dtype)
    rtol, atol = TOLERANCES.get(dtype, (0.0, 0.0))
    if a.dtype.kind in "biu":
        return bool(np.array_equal(a, b))
    return bool(np.allclose(b, a, rtol=rtol, atol=atol, equal_nan=True))


def compare_observation(e: dict[str, Any], a: dict[str, Any], notes: list[str]) -> Optional[str]:
    """None when the two observations agree, else what differs."""
    if e["kind"] != a["kind"]:
        return "kind"
    kind = e["kind"]
    if kind == "tensor":
        for key in ("dtype", "shape", "requires_grad", "has_grad_fn"):
            if e[key] != a[key]:
                return key
        return None if values_close(e, a) else "values"
    if kind == "list":
        if len(e["items"]) != len(a["items"]):
            return "length"
        for i, (x, y) in enumerate(zip(e["items"], a["items"])):
            what = compare_observation(x, y, notes)
            if what:
                return f"item {i} {what}"
        return None
    if kind in ("error", "warning"):
        cls_key = "error" if kind == "error" else "warning"
        if e[cls_key] != a[cls_key]:
            return f"{kind} class"
        if e["category"] != a["category"]:
            return f"{kind} category"
        if e["message"] != a["message"]:
            notes.append(f"step {e['step']}: message differs: {e['message']!r} vs {a['message']!r}")
        return None
    if kind in ("flags", "unsupported", "skipped", "none"):
        strip = {"step", "message"}
        return None if {k: v for k, v in e.items() if k not in strip} == {
            k: v for k, v in a.items() if k not in strip} else kind
    return None if e == a else kind


def compare_traces(expected: Trace, actual: Trace) -> Comparison:
    """Compare ``actual`` (a framework) against ``expected`` (its reference)."""
    result = Comparison()
    exp, act = comparable(expected), comparable(actual)
    cut = next((i for i, o in enumerate(exp) if o["kind"] == "undefined"), None)
    if cut is not None:  # everything from an undefined result on is undefined too
        result.undefined_steps = [exp[cut]["step"]]
        exp, act = exp[:cut], act[:cut]
    for i in range(max(len(exp), len(act))):
        if i >= len(exp) or i >= len(act):
            extra = act[i] if i < len(act) else None
            missing = exp[i] if i < len(exp) else None
            step = (missing or extra or {}).get("step", "?")
            result.differences.append(Difference(i, step, "missing or extra observation",
                                                 missing, extra))
            break
        e, a = exp[i], act[i]
        if e["step"] != a["step"]:
            result.differences.append(Difference(i, e["step"], "step", e, a))
            break
        what = compare_observation(e, a, result.message_notes)
        if what:
            result.differences.append(Difference(i, e["step"], what, e, a))
            break
    return result
