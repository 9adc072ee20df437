"""What a porter meets in one program: the differences between its torch and paddle traces.

The two traces of one case are compared in the order things happened, not in the order of the
steps: a hook prints while the backward that calls it runs, so its observations are moved to
that backward (``12>4``: hook step 4, called in step 12) and sort after the step's own result
(the step's error explains a hook that did not run, not the other way round).

Each difference becomes a :class:`Finding` with a structured :class:`Cause`: where it is (a
:class:`Place`: the step's kind from the step-kind registry, what tells it apart, the function
body, the observed tensor's role; and the autograd step that ran it) and what differs (the
kinds each side observed, the classes of one shared error, the flags). A cause reads as a
mechanical *signature*, ``STEP: WHAT``: ``grad: unused-input: RuntimeError vs ValueError``,
``observe grad: requires_grad False/True``, ``hook (in grad): tensor vs nothing``,
``inplace: error:leaf-in-place vs nothing``. Sides read torch first. How many tensors a step
printed does not enter a cause (``tensor + tensor`` is ``tensor``; a count that differs is
``more in torch`` / ``fewer in torch``).

Findings are of two kinds:

- *independent*: a flag of a tensor (requires_grad, is_leaf, grad_fn) or a warning. They change
  nothing the program does next, so every one in a case is a finding;
- *flow*: a value, a result where the other side raised, an error of another kind. What follows
  the first one may be its consequence, so only the first flow difference is a finding.

The porting guide (``conformance.report.porting_classes``) names the root cause of each finding,
querying its cause's fields (``conformance.judge.cause_match``), never its text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from conformance.corpus.case import Case
from conformance.corpus.step_kinds import DEFERRED, STEPS_BY_KEY
from conformance.judge.classes import side_name, step_at
from conformance.judge.compare import Difference, compare_observation, compare_traces
from conformance.run.trace import Trace

FLAG_FIELDS = ("requires_grad", "is_leaf", "has_grad_fn")


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


ROLES = ("a held .grad", "an assigned .grad", "a parameter")


def _role(case: Case, name: str) -> str:
    """What a tensor is beyond its value, where that decides what a porter meets: a kept
    reference to a ``.grad``, a tensor assigned as one, a module's parameter (``ROLES``)."""
    for _, step, _ in case.walked():
        if "hold_grad" in step and step["as"] == name:
            return ROLES[0]
        if "set_grad" in step and step["from"] == name:
            return ROLES[1]
        if "module" in step and name in step.get("params", []):
            return ROLES[2]
    return ""


# what tells steps of one kind apart, where it decides what a porter meets
_DETAIL_FIELDS = {"observe": "observe", "backward": "api", "node_hook": "kind", "optimizer": "kind",
                  "module": "kind"}


@dataclass(frozen=True)
class Place:
    """Where a finding is: a step's kind (a key of the step-kind registry, ``""`` where the case
    has no such step), what tells steps of that kind apart (what an ``observe`` observes, a
    ``backward``'s api), the custom function body it is in, and the observed tensor's role."""

    kind: str = ""
    detail: str = ""
    body: str = ""
    after: bool = False
    role: str = ""

    def __str__(self) -> str:
        if not self.kind:
            return "a step"
        if self.kind == "backward":
            label = "Tensor.backward" if self.detail == "method" else "autograd.backward"
        else:
            label = f"{self.kind} {self.detail}" if self.detail else self.kind
        if self.after:
            return f"after {label}"
        label = f"function {self.body}: {label}" if self.body else label
        return f"{label} of {self.role}" if self.role else label


def place(case: Optional[Case], where: str) -> Place:
    """The :class:`Place` of a trace location (``3``, ``3.derivative.0``, ``3.after``)."""
    step = step_at(case, where) if case is not None else None
    if step is None:
        return Place()
    kind = next((k for k in step if k in STEPS_BY_KEY), "step")
    detail = step.get(_DETAIL_FIELDS[kind], "") if kind in _DETAIL_FIELDS else ""
    parts = where.split(".")
    body = next((p for p in parts if not p.isdigit()), "")
    role = _role(case, step["of"]) if kind == "observe" and case is not None else ""
    return Place(kind, str(detail or ""), "" if body == "after" else body, parts[-1] == "after", role)


# how two observations differ, beyond a compared field (``values``, ``shape``, ``dtype``)
ASPECTS = ("flags", "kinds", "raised", "warnings", "more in torch", "fewer in torch", "node", "length")


@dataclass(frozen=True)
class Cause:
    """A finding's structured cause: where it is (``place``; ``within``, the autograd step that ran
    a deferred one) and what differs (``aspect``, one of ``ASPECTS`` or a compared field). The
    sides read torch first: ``torch``/``paddle`` the kinds each observed (``tensor``,
    ``error:freed-graph``, ``nothing``), ``raised`` the two exception classes of one shared error
    ``category``, ``flags`` the flags that differ as ``(name, torch, paddle)``; ``in_results``:
    inside the list of a grad step's results. ``str()`` is the finding's signature."""

    place: Place
    aspect: str
    within: Optional[Place] = None
    torch: tuple[str, ...] = ()
    paddle: tuple[str, ...] = ()
    raised: tuple[str, ...] = ()
    category: str = ""
    flags: tuple[tuple[str, Any, Any], ...] = ()
    in_results: bool = False

    def __str__(self) -> str:
        where = f"{self.place} (in {self.within})" if self.within else str(self.place)
        return f"{where}: {self._what()}"

    def _what(self) -> str:
        inner = "grad results: " if self.in_results else ""
        torch, paddle = " + ".join(self.torch), " + ".join(self.paddle)
        if self.aspect == "flags":
            return inner + ", ".join(f"{k} {t}/{p}" for k, t, p in self.flags)
        if self.aspect == "raised":
            return f"{inner}{self.category}: {self.raised[0]} vs {self.raised[1]}"
        if self.aspect == "kinds":
            return f"{inner}{torch} vs {paddle}"
        if self.aspect == "warnings":
            return f"warning {torch} vs {paddle}"
        if self.aspect in ("more in torch", "fewer in torch"):
            return f"{torch}: {self.aspect}"
        if self.aspect == "node":
            return f"error:{self.category} raised at another node"
        if self.aspect == "length":
            return f"{inner}number of grad results"
        return inner + self.aspect


def _kinds(o: Any) -> tuple[str, ...]:
    """The kinds a step observed, each once: ``("tensor", "warning:only-inputs")``."""
    if not isinstance(o, list):
        return (side_name(o),)
    names: list[str] = []
    for x in o:
        if side_name(x) not in names:
            names.append(side_name(x))
    return tuple(names) or ("nothing",)


def _flags(e: dict[str, Any], a: dict[str, Any]) -> tuple[tuple[str, Any, Any], ...]:
    return tuple((k, e.get(k), a.get(k)) for k in FLAG_FIELDS if k in e and e.get(k) != a.get(k))


def _without_flags(o: dict[str, Any]) -> dict[str, Any]:
    if o["kind"] == "list":
        return {**o, "items": [_without_flags(x) for x in o["items"]]}
    return {k: v for k, v in o.items() if k not in FLAG_FIELDS}


def _first_flag_difference(e: dict[str, Any], a: dict[str, Any],
                           in_results: bool = False) -> Optional[dict[str, Any]]:
    if e["kind"] == a["kind"] == "list" and len(e["items"]) == len(a["items"]):
        for x, y in zip(e["items"], a["items"]):
            found = _first_flag_difference(x, y, True)
            if found:
                return found
        return None
    if e["kind"] == a["kind"] and e["kind"] in ("tensor", "flags"):
        flags = _flags(e, a)
        return {"aspect": "flags", "flags": flags, "in_results": in_results} if flags else None
    return None


def _flow(what: str, e: Any, a: Any) -> dict[str, Any]:
    """A flow difference: what differs, the sides' kinds or the classes of a shared error."""
    in_results = False
    if what.startswith("item "):
        index, what = int(what.split()[1]), what.split(" ", 2)[2]
        e, a, in_results = e["items"][index], a["items"][index], True
    if what in ("error class", "warning class") and e["category"] == a["category"]:
        key = e["kind"]
        return {"aspect": "raised", "category": e["category"], "raised": (e[key], a[key]),
                "in_results": in_results}
    if what in ("kind", "error category", "warning category", "error class", "warning class"):
        return {"aspect": "kinds", "torch": _kinds(e), "paddle": _kinds(a), "in_results": in_results}
    return {"aspect": what, "in_results": in_results}


def _count_difference(e: list[dict[str, Any]], a: list[dict[str, Any]]) -> tuple[dict[str, Any], bool]:
    """Two steps that observed different numbers of things: only warnings (independent), or
    results (flow)."""
    e_main = [o for o in e if o["kind"] != "warning"]
    a_main = [o for o in a if o["kind"] != "warning"]
    if [o["kind"] for o in e_main] == [o["kind"] for o in a_main]:
        return {"aspect": "warnings", "torch": _kinds([o for o in e if o["kind"] == "warning"]),
                "paddle": _kinds([o for o in a if o["kind"] == "warning"])}, True
    if _kinds(e) == _kinds(a):
        return {"aspect": f"{'more' if len(e) > len(a) else 'fewer'} in torch",
                "torch": _kinds(e), "paddle": _kinds(a)}, False
    return {"aspect": "kinds", "torch": _kinds(e), "paddle": _kinds(a)}, False


def _named(d: Difference) -> list[tuple[dict[str, Any], bool]]:
    """A difference's (what differs, independent) parts, each the fields of a :class:`Cause`
    beyond its place: a tensor whose flags and values both differ gives two."""
    e, a = d.expected, d.actual
    if d.what == "observations":
        return [_count_difference(e, a)]
    if not (isinstance(e, dict) and isinstance(a, dict)):
        return [(_flow(d.what, e, a), False)]
    parts: list[tuple[dict[str, Any], bool]] = []
    flags = _first_flag_difference(e, a)
    if flags:
        parts.append((flags, True))
    flow = compare_observation(_without_flags(e), _without_flags(a), [], "category")
    if flow:
        parts.append((_flow(flow, _without_flags(e), _without_flags(a)), False))
    return parts


@dataclass(frozen=True)
class Finding:
    """One difference between torch's and paddle's traces of a case."""

    cause: Cause
    step: str                   # where (``12``, ``12>4`` for a hook step 4 run by step 12)
    independent: bool           # a flag or a warning: every one counts, not only the first
    difference: Difference

    @property
    def signature(self) -> str:
        """The cause as one line: ``grad: unused-input: RuntimeError vs ValueError``."""
        return str(self.cause)


def _ran_in_one(cause: Cause) -> bool:
    """Whether a deferred step printed a gradient in one framework only (or more often in one)."""
    sides = {cause.torch, cause.paddle}
    return (cause.aspect == "kinds" and sides == {("tensor",), ("nothing",)}) or (
        cause.aspect in ("more in torch", "fewer in torch") and sides == {("tensor",)})


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
        trigger, _, inner = d.step.partition(">")
        here, within = (place(case, inner), place(case, trigger)) if inner else (place(case, d.step), None)
        for what, independent in _named(d):
            if not independent and flowed:
                continue
            cause = Cause(here, within=within, **what)
            shared = _shared_error(d.step, torch_obs, paddle_obs) if _ran_in_one(cause) else None
            if shared is not None:
                cause = Cause(within or here, "node", category=shared)
            found.append(Finding(cause, d.step, independent, d))
            flowed |= not independent
    return found
