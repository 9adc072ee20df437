"""What a porter meets in one program: the differences between its torch and paddle traces.

The two traces of one case are compared in the order things happened, not in the order of the
steps: a hook prints while the backward that calls it runs, so its observations are moved to
that backward (``12>4``: hook step 4, called in step 12) and sort after the step's own result
(the step's error explains a hook that did not run, not the other way round).

Each difference becomes a :class:`Finding` with a mechanical *signature*, ``STEP: WHAT``:
``grad: unused-input: RuntimeError vs ValueError``, ``observe grad: requires_grad False/True``,
``hook (in grad): tensor vs nothing``, ``inplace: error:leaf-in-place vs nothing``. Sides read
torch first. How many tensors a step printed does not enter a signature (``tensor + tensor``
is ``tensor``; a count that differs is ``more in torch`` / ``fewer in torch``).

Findings are of two kinds:

- *independent*: a flag of a tensor (requires_grad, is_leaf, grad_fn) or a warning. They change
  nothing the program does next, so every one in a case is a finding;
- *flow*: a value, a result where the other side raised, an error of another kind. What follows
  the first one may be its consequence, so only the first flow difference is a finding.

The porting guide (``conformance.report.porting``) names the root cause of each signature.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from conformance.corpus.case import Case
from conformance.corpus.step_kinds import DEFERRED
from conformance.judge.classes import side_name, step_at, step_label
from conformance.judge.compare import Difference, compare_observation, compare_traces
from conformance.run.trace import Trace

FLAG_FIELDS = ("requires_grad", "is_leaf", "has_grad_fn")
# a deferred step that printed a gradient in one framework only (or more often in one)
ONE_SIDED_HOOK = ("tensor vs nothing", "nothing vs tensor", "tensor: more in torch", "tensor: fewer in torch")


@dataclass(frozen=True)
class Finding:
    """One difference between torch's and paddle's traces of a case."""

    signature: str
    step: str                   # where (``12``, ``12>4`` for a hook step 4 run by step 12)
    independent: bool           # a flag or a warning: every one counts, not only the first
    difference: Difference


def _top(step: str) -> int:
    head = step.split(".")[0]
    return int(head) if head.isdigit() else -1


def _deferred(case: Optional[Case], step: str, latest: int) -> bool:
    """Whether an observation at ``step`` was made after later steps ran: a hook's print, a
    custom function's body, anything at a step before the last one observed."""
    if _top(step) < latest:
        return True
    if any(not part.isdigit() for part in step.split(".")):  # a custom function's body
        return True
    found = step_at(case, step) if case is not None else None
    return found is not None and any(k in found for k in DEFERRED)


def deferred_steps(case: Case) -> frozenset[str]:
    """The top-level steps of ``case`` whose observations an autograd step makes (hooks)."""
    return frozenset(str(i) for i, step in enumerate(case.steps)
                     if any(k in step for k in DEFERRED))


def chronological(observations: list[dict[str, Any]], case: Optional[Case]) -> list[dict[str, Any]]:
    """The printed observations, each deferred one keyed by the autograd step that ran it
    (``12>4``); the state observations after each autograd step say where one ends."""
    out: list[dict[str, Any]] = []
    pending: list[dict[str, Any]] = []
    latest = -1
    for o in observations:
        if o["kind"] == "state":
            if o["step"].endswith(".after"):
                trigger = o["step"][:-len(".after")]
                for p in pending:
                    p["step"] = f"{trigger}>{p['step']}"
                pending = []
            continue
        o = dict(o)
        if o["kind"] not in ("error", "warning") and _deferred(case, o["step"], latest):
            pending.append(o)
        else:
            latest = max(latest, _top(o["step"]))
        out.append(o)
    return out


def _order(step: str) -> tuple[tuple[int, ...], int, tuple[int, ...]]:
    """When a step's observations happened: a step's own before the hooks it ran."""
    def numbers(s: str) -> tuple[int, ...]:
        return tuple(int(p) for p in s.split(".") if p.isdigit())
    trigger, _, inner = step.partition(">")
    return numbers(trigger), 1 if inner else 0, numbers(inner)


def _role(case: Case, name: str) -> str:
    """What a tensor is beyond its value, where that decides what a porter meets: a kept
    reference to a ``.grad``, a tensor assigned as one, a module's parameter."""
    for _, step, _ in case.walked():
        if "hold_grad" in step and step["as"] == name:
            return "a held .grad"
        if "set_grad" in step and step["from"] == name:
            return "an assigned .grad"
        if "module" in step and name in step.get("params", []):
            return "a parameter"
    return ""


def _label(case: Optional[Case], step: str) -> str:
    label = step_label(case, step, False)
    found = step_at(case, step) if case is not None else None
    if case is not None and found is not None and "observe" in found:
        role = _role(case, found["of"])
        return f"{label} of {role}" if role else label
    return label


def location(case: Optional[Case], step: str) -> str:
    """The step kind at a (possibly deferred) location, with the role of an observed tensor:
    ``hook (in grad)``, ``observe value of a held .grad``."""
    trigger, _, inner = step.partition(">")
    if inner:
        return f"{_label(case, inner)} (in {_label(case, trigger)})"
    return _label(case, step)


def _kinds(o: Any) -> str:
    """The kinds a step observed, each once: ``tensor + warning:only-inputs``."""
    if not isinstance(o, list):
        return side_name(o)
    names: list[str] = []
    for x in o:
        if side_name(x) not in names:
            names.append(side_name(x))
    return " + ".join(names) or "nothing"


def _flags(e: dict[str, Any], a: dict[str, Any]) -> str:
    return ", ".join(f"{k} {e.get(k)}/{a.get(k)}" for k in FLAG_FIELDS if k in e and e.get(k) != a.get(k))


def _without_flags(o: dict[str, Any]) -> dict[str, Any]:
    if o["kind"] == "list":
        return {**o, "items": [_without_flags(x) for x in o["items"]]}
    return {k: v for k, v in o.items() if k not in FLAG_FIELDS}


def _first_flag_difference(e: dict[str, Any], a: dict[str, Any], inner: str = "") -> Optional[str]:
    if e["kind"] == a["kind"] == "list" and len(e["items"]) == len(a["items"]):
        for x, y in zip(e["items"], a["items"]):
            found = _first_flag_difference(x, y, "grad results: ")
            if found:
                return found
        return None
    if e["kind"] == a["kind"] and e["kind"] in ("tensor", "flags"):
        flags = _flags(e, a)
        return inner + flags if flags else None
    return None


def _flow(what: str, e: Any, a: Any) -> str:
    """A flow difference named: what differs, the sides' kinds or error categories."""
    inner = ""
    if what.startswith("item "):
        index, what = int(what.split()[1]), what.split(" ", 2)[2]
        e, a, inner = e["items"][index], a["items"][index], "grad results: "
    if what in ("error class", "warning class") and e["category"] == a["category"]:
        key = e["kind"]
        return f"{inner}{e['category']}: {e[key]} vs {a[key]}"
    if what in ("kind", "error category", "warning category", "error class", "warning class"):
        return f"{inner}{_kinds(e)} vs {_kinds(a)}"
    if what == "length":
        return f"{inner}number of grad results"
    return inner + what


def _count_difference(e: list[dict[str, Any]], a: list[dict[str, Any]]) -> tuple[str, bool]:
    """Two steps that observed different numbers of things: only warnings (independent), or
    results (flow)."""
    e_main = [o for o in e if o["kind"] != "warning"]
    a_main = [o for o in a if o["kind"] != "warning"]
    if [o["kind"] for o in e_main] == [o["kind"] for o in a_main]:
        return (f"warning {_kinds([o for o in e if o['kind'] == 'warning'])} vs "
                f"{_kinds([o for o in a if o['kind'] == 'warning'])}"), True
    if _kinds(e) == _kinds(a):
        return f"{_kinds(e)}: {'more' if len(e) > len(a) else 'fewer'} in torch", False
    return f"{_kinds(e)} vs {_kinds(a)}", False


def _named(d: Difference) -> list[tuple[str, bool]]:
    """A difference's (description, independent) parts: a tensor whose flags and values both
    differ gives two."""
    e, a = d.expected, d.actual
    if d.what == "observations":
        return [_count_difference(e, a)]
    if not (isinstance(e, dict) and isinstance(a, dict)):
        return [(_flow(d.what, e, a), False)]
    parts: list[tuple[str, bool]] = []
    flags = _first_flag_difference(e, a)
    if flags:
        parts.append((flags, True))
    flow = compare_observation(_without_flags(e), _without_flags(a), [], "category")
    if flow:
        parts.append((_flow(flow, _without_flags(e), _without_flags(a)), False))
    return parts


def _shared_error(step: str, torch_obs: list[dict[str, Any]],
                  paddle_obs: list[dict[str, Any]]) -> Optional[str]:
    """The error category both frameworks raised at the autograd step that ran a deferred
    observation (``12`` of ``12>4``), or None when they did not both raise one."""
    trigger, _, inner = step.partition(">")
    if not inner:
        return None
    categories = [{o.get("category") for o in obs if o["step"] == trigger and o["kind"] == "error"}
                  for obs in (torch_obs, paddle_obs)]
    shared = categories[0] & categories[1]
    return next(iter(shared)) if len(shared) == 1 else None


def findings(case: Optional[Case], torch_obs: list[dict[str, Any]],
             paddle_obs: list[dict[str, Any]]) -> list[Finding]:
    """Every independent difference and the first flow difference of a case, in the order
    they happened.

    A hook that received a gradient in one framework only, inside an autograd call both
    frameworks refused with the same error, shows that they raised it at different nodes: its finding says so
    (``autograd.backward: error:version-counter raised at another node``)."""
    torch_obs, paddle_obs = chronological(torch_obs, case), chronological(paddle_obs, case)
    comparison = compare_traces(Trace("", "torch-cpu", torch_obs), Trace("", "paddle-cpu", paddle_obs),
                                messages="category")
    found: list[Finding] = []
    flowed = False
    for d in sorted(comparison.differences, key=lambda d: _order(d.step)):
        for description, independent in _named(d):
            if not independent and flowed:
                continue
            where = location(case, d.step)
            ran_in_one = description in ONE_SIDED_HOOK
            shared = _shared_error(d.step, torch_obs, paddle_obs) if ran_in_one else None
            if shared is not None:
                where, description = location(case, d.step.partition(">")[0]), \
                    f"error:{shared} raised at another node"
            found.append(Finding(f"{where}: {description}", d.step, independent, d))
            flowed |= not independent
    return found
