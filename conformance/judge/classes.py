"""Failure classes: failing results grouped by how they fail, never by the values they show.

A framework under test that fails two thousand results rarely has two thousand bugs. Each
failing result gets a *signature* from its first difference: where it is (the step kind, with
the op or what is observed), what differs, and the error categories on each side — ``observe
grad: requires_grad differs``, ``let retain_grad: error:retain-no-grad vs error:other
(AttributeError)``. The differences after the first often follow from it, so they do not split
a class. Results that fail without a difference (a crash, a timeout, a seed-document expectation,
the finite-difference check of a reference) are classed by that.

The same naming serves the torch ↔ paddle divergence classes (``report.divergence``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Optional

from conformance.corpus.case import Case
from conformance.corpus.step_kinds import BLOCKS, STEPS_BY_KEY
from conformance.judge.compare import compare_runs
from conformance.run.trace import STATE_FIELDS

FAILING = ("fail", "crashed", "timeout")


def side_name(o: Any, error_class: bool = False) -> str:
    """An observation's kind, and for an error or warning its category; ``error_class`` adds
    the exception's class where the category is ``other`` (an error no category describes)."""
    if isinstance(o, list):  # a step's observations, where the two sides observe different counts
        return " + ".join(side_name(x, error_class) for x in o) or "nothing"
    if o is None:
        return "nothing"
    if o["kind"] in ("error", "warning"):
        name = f"{o['kind']}:{o['category']}"
        return f"{name} ({o[o['kind']]})" if error_class and o["category"] == "other" else name
    return o["kind"]


def difference_name(what: str, e: Any, a: Any, error_class: bool = False) -> str:
    """A stable, readable name for how two observations differ (``e`` the baseline side)."""
    e = e if isinstance(e, (dict, list)) else None
    a = a if isinstance(a, (dict, list)) else None
    if what.startswith("item ") and isinstance(e, dict) and isinstance(a, dict) \
            and e["kind"] == a["kind"] == "list":
        index, inner_what = int(what.split()[1]), what.split(" ", 2)[2]
        inner_e, inner_a = e["items"][index], a["items"][index]
        if inner_what == "kind":
            return f"{side_name(inner_e, error_class)} vs {side_name(inner_a, error_class)} (in grad results)"
    if what.startswith("item "):  # inside a list of grad results: name the inner difference
        what = what.split(" ", 2)[2]
        e = a = None
    if what in ("error class", "warning class") and isinstance(e, dict) and isinstance(a, dict):
        key = "error" if e["kind"] == "error" else "warning"
        if e["category"] != a["category"]:
            return f"{side_name(e, error_class)} vs {side_name(a, error_class)}"
        return f"{e['category']}: {e[key]} vs {a[key]}"
    if what in ("kind", "observations", "error category", "warning category"):
        return f"{side_name(e, error_class)} vs {side_name(a, error_class)}"
    if what == "length":
        return "number of grad results differs"
    return f"{what} differs"


def step_at(case: Case, where: str) -> Optional[dict[str, Any]]:
    """The step at a trace location: ``3``, ``3.1`` (in block 3), ``3.derivative.0`` (in the
    body of function step 3). None where the case has no such step."""
    steps: Any = case.steps
    step: Optional[dict[str, Any]] = None
    for part in where.split("."):
        if part.isdigit():
            if step is not None and steps is None:  # a block's steps
                held = next((BLOCKS[k] for k in BLOCKS if k in step), None)
                steps = step.get(held) if held else None
            if not isinstance(steps, (list, tuple)) or int(part) >= len(steps):
                return None
            step, steps = steps[int(part)], None
        elif step is not None:
            steps = step.get(part)
        else:
            return None
    return step


def step_label(case: Optional[Case], where: str, with_op: bool = True) -> str:
    """The step kind at a location, with what tells steps of that kind apart: ``let pow``,
    ``observe grad``, ``Tensor.backward``, ``function derivative: let mul``. ``with_op=False``
    leaves an op's name out: an error or a warning is told apart by its category and class,
    and one change (a new type-promotion error) shows on many ops."""
    step = step_at(case, where) if case is not None else None
    if step is None:
        return "a step"
    kind = next((k for k in step if k in STEPS_BY_KEY), "step")
    if kind in ("let", "inplace") and not with_op:
        label = kind
    elif kind in ("let", "inplace"):
        label = f"{kind} {step['op']}"
    elif kind == "observe":
        label = f"observe {step['observe']}"
    elif kind in ("node_hook", "optimizer", "module"):
        label = f"{kind} {step['kind']}"
    elif kind == "backward":
        label = "Tensor.backward" if step.get("api") == "method" else "autograd.backward"
    else:
        label = kind
    parts = where.split(".")
    if parts[-1] == "after":  # the state observed after the step ran
        return f"after {label}"
    body = next((p for p in parts if not p.isdigit()), None)
    return f"function {body}: {label}" if body else label


# how a step that binds a name makes the tensor, as a signature names it (never by its name):
# the step's key, the field that binds the name, the role
_ROLES = (("let", "let", "an op result"), ("grad", "into", "a grad result"),
          ("hold_grad", "as", "a held .grad"), ("call", "into", "a module output"),
          ("apply", "into", "a custom function output"), ("module", "params", "a module parameter"))


def role_of(case: Optional[Case], name: str) -> str:
    """What the tensor a case calls ``name`` is: a leaf (one requiring grad or not, a
    parameter), an op result, a grad result, a module parameter, ... A failure class names
    this role: the same cause in two cases is one class whatever their variables are called."""
    for _, step, _ in (case.walked() if case is not None else ()):
        if "leaf" in step and step["leaf"] == name:
            if step.get("constructor") == "Parameter":
                return "a parameter leaf"
            return "a leaf requiring grad" if step.get("requires_grad") else "a leaf"
        for key, field_name, role in _ROLES:
            bound = step.get(field_name) if key in step else None
            if bound == name or (isinstance(bound, list) and name in bound):
                return role
    return "a tensor"


def _by_role(what: str, case: Optional[Case]) -> str:
    """A state difference (``w12 has_grad``) with the tensor named by its role."""
    name, _, state_field = what.partition(" ")
    if state_field in STATE_FIELDS or state_field == "named":
        return f"{role_of(case, name)}'s {state_field}"
    return what


def _about_errors(name: str) -> bool:
    """Whether a difference's name is about errors or warnings (not a result's values)."""
    return any(word in name.lower() for word in ("error", "warning"))


def signature(result: dict[str, Any], case: Optional[Case]) -> str:
    """How a failing result fails: its first difference, or why it has none."""
    if result["verdict"] == "crashed":
        return "the backend crashed (its process died)"
    if result["verdict"] == "timeout":
        return "the backend timed out (no result within the run's --timeout)"
    differences = result.get("differences") or []
    if differences:
        d = differences[0]
        return located_name(d["step"], d["what"], d.get("reference"), d.get("backend"), case)
    if (result.get("oracle") or {}).get("failures"):
        return "a gradient disagrees with finite differences"
    return "an expectation of the case fails"


def cause_name(what: str, expected: Any, actual: Any, case: Optional[Case]) -> str:
    """How two observations differ, named by cause: a tensor by its role in the case, never by
    its variable (``a leaf requiring grad's has_grad differs``)."""
    if _is_state(expected, actual):
        what = _by_role(what, case)
    return difference_name(what, expected, actual, error_class=True)


def located_name(step: str, what: str, expected: Any, actual: Any, case: Optional[Case]) -> str:
    """``cause_name`` at the step where it shows: ``after autograd.backward: a leaf's has_grad
    differs``."""
    name = cause_name(what, expected, actual, case)
    return f"{step_label(case, step, not _about_errors(name))}: {name}"


def _is_state(*sides: Any) -> bool:
    return any(isinstance(s, dict) and s.get("kind") == "state" for s in sides)


def case_size(case: Optional[Case]) -> int:
    """Steps in the case, blocks included: the example of a class is its smallest case."""
    return len(case.walked()) if case is not None else 10 ** 9


@dataclass
class FailureClass:
    backend: str
    signature: str
    cases: list[str] = field(default_factory=list)
    example: Optional[str] = None
    example_size: int = 10 ** 9
    repro: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"backend": self.backend, "signature": self.signature, "count": len(self.cases),
                "cases": self.cases, "example": self.example}


def group(signed: Iterable[tuple[dict[str, Any], str]], cases: dict[str, Case]) -> list[FailureClass]:
    """Results grouped by backend and the signature each comes with, largest group first; each
    group's example is its smallest case, with that result's repro."""
    classes: dict[tuple[str, str], FailureClass] = {}
    for r, sign in sorted(signed, key=lambda pair: pair[0]["case"]):
        case = cases.get(r["case"])
        cls = classes.setdefault((r["backend"], sign), FailureClass(r["backend"], sign))
        cls.cases.append(r["case"])
        size = case_size(case)
        if cls.example is None or size < cls.example_size:
            cls.example, cls.example_size, cls.repro = r["case"], size, r.get("repro") or ""
    return sorted(classes.values(), key=lambda c: (-len(c.cases), c.backend, c.signature))


def failure_classes(results: list[dict[str, Any]], cases: dict[str, Case]) -> list[FailureClass]:
    """The failing results (fail, crashed, timeout) by backend and signature, largest first;
    every failing result is in exactly one class."""
    return group(((r, signature(r, cases.get(r["case"]))) for r in results if r["verdict"] in FAILING),
                 cases)


def change_signature(base: dict[str, Any], new: dict[str, Any], case: Optional[Case]) -> str:
    """How a result changed between two runs of the same backend: the first difference between
    its two traces (``X vs Y`` reads old vs new), or, where a run has no trace (a crash), the
    verdicts."""
    if base.get("observations") is not None and new.get("observations") is not None:
        comparison = compare_runs(base["case"], base["observations"], new["observations"])
        if not comparison.same:
            d = comparison.differences[0]
            return located_name(d.step, d.what, d.expected, d.actual, case)
    if base["verdict"] != new["verdict"]:
        why = f" ({new['detail'].split(':')[0]})" if new["verdict"] in ("crashed", "timeout") else ""
        return f"{base['verdict']} → {new['verdict']}{why}"
    return "judged otherwise on the same observations"


def class_index(classes: list[FailureClass]) -> dict[tuple[str, str], int]:
    """``(case, backend)`` → the index of its class in ``classes``, for the failing results."""
    return {(case_id, cls.backend): i for i, cls in enumerate(classes) for case_id in cls.cases}
