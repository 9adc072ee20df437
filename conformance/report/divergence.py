"""torch ↔ paddle divergences, as a porting guide: the classes of ``porting_classes`` counted
over a run.

Only cases both dialects run are compared (a case written for one framework is no difference a
porter meets), and torch-cpu's trace is the baseline. Each case's findings
(``conformance.judge.causes``) are given the first class that explains their cause; a case counts
once in each class it shows. A finding no class explains is listed by its signature, flagged
for writing. A step one framework has no API for is counted once per API, over every case that
uses it, in ``no_counterpart``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Collection, Mapping, Optional

from conformance.corpus.case import Case
from conformance.corpus.step_kinds import DIALECT_LACKS
from conformance.judge.causes import Cause, Finding, findings
from conformance.judge.classes import case_size
from conformance.report.porting_classes import CLASSES, NO_COUNTERPART, NoCounterpart, PortingClass
from conformance.run.repro import program

BASELINE, OTHER = "torch-cpu", "paddle-cpu"


def show(o: Any) -> str:
    """An observation as a person reads it: ``float32[2, 3] [[1.0, …]]``, ``RuntimeError: …``."""
    if isinstance(o, list):
        return " and ".join(map(show, o)) if o else "nothing"
    if not isinstance(o, dict):
        return "nothing" if o is None else str(o)
    kind = o["kind"]
    if kind in ("tensor", "array"):
        values = json.dumps(o["values"])
        values = values if len(values) <= 60 else values[:59] + "…"
        flags = ", requires grad" if o.get("requires_grad") else ""
        flags += ", with grad_fn" if o.get("has_grad_fn") else ""
        return f"{o['dtype']}{o['shape']} {values}{flags}"
    if kind == "list":
        return "(" + ", ".join(map(show, o["items"])) + ")"
    if kind in ("error", "warning"):
        message = o["message"] if len(o["message"]) <= 90 else o["message"][:89] + "…"
        return f"{o[kind]}: {message}"
    if kind == "none":
        return "None"
    if kind == "equal":
        return f"equal: {o['value']}"
    if kind == "flags":
        return ", ".join(f"{k}={o[k]}" for k in ("requires_grad", "is_leaf", "has_grad_fn") if k in o)
    return kind


@dataclass
class GuideClass:
    """A class of the guide with the cases of a run that show it; ``entry`` None: a signature
    no class explains yet."""

    entry: Optional[PortingClass]
    signature: str
    cases: list[str] = field(default_factory=list)
    example: Optional[str] = None
    example_size: int = 10 ** 9
    difference: str = ""           # the example's finding: "step 3: torch: … / paddle: …"
    torch_program: str = ""
    paddle_program: str = ""

    @property
    def key(self) -> str:
        return self.entry.key if self.entry else self.signature

    @property
    def title(self) -> str:
        return self.entry.title if self.entry else self.signature


@dataclass
class MissingApi:
    """An API of one framework that the other lacks, with the cases of the run that use it."""

    entry: NoCounterpart
    cases: list[str] = field(default_factory=list)


@dataclass
class Guide:
    compared: int = 0                                  # cases both frameworks ran
    diverging: int = 0                                 # of them, those with a finding
    classes: list[GuideClass] = field(default_factory=list)      # in the table's order
    unexplained: list[GuideClass] = field(default_factory=list)  # largest first
    missing: list[MissingApi] = field(default_factory=list)
    one_framework: int = 0                             # cases written for one framework only

    def __len__(self) -> int:
        return len(self.classes) + len(self.unexplained)

    def class_of(self, case_id: str) -> list[GuideClass]:
        return [c for c in self.classes + self.unexplained if case_id in c.cases]


def explain(cause: Cause) -> Optional[PortingClass]:
    """The first class that explains a finding's cause."""
    return next((c for c in CLASSES if c.explains_cause(cause)), None)


def _unsupported(observations: list[dict[str, Any]]) -> bool:
    return any(o["kind"] == "unsupported" for o in observations)


def _worded(f: Finding) -> str:
    d = f.difference
    return f"step {f.step}: torch: {show(d.expected)} / paddle: {show(d.actual)}"


def used_lacks(case: Case, lacks: Collection[tuple[str, str]]) -> set[tuple[str, str]]:
    """The APIs of ``lacks`` (``(step kind, field)`` pairs of ``DIALECT_LACKS``) that ``case``
    calls at a value that asks something of them (``create_graph=False`` asks nothing): one walk
    of its steps for all of them."""
    found: set[tuple[str, str]] = set()
    for _, step, _ in case.walked():
        for kind, name in lacks:
            if kind in step and (not name or (step.get(name) is not None and step.get(name) is not False)):
                found.add((kind, name))
    return found


def lacked_apis(case: Case) -> set[tuple[str, str]]:
    """The APIs without a counterpart in the other framework (``NO_COUNTERPART``) that ``case``
    calls: what the guide's missing-API list counts, a fact of the case alone."""
    return used_lacks(case, {entry.lacked for entry in NO_COUNTERPART})


def porting_guide(results: list[dict[str, Any]], cases: dict[str, Case],
                  lacked: Optional[Mapping[str, set[tuple[str, str]]]] = None) -> Guide:
    """The guide's classes counted over a run's torch-cpu and paddle-cpu results; ``lacked``:
    ``lacked_apis`` of the cases, worked out before the results were in (else here)."""
    pairs: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for r in results:
        if r["backend"] in (BASELINE, OTHER) and r.get("observations") is not None:
            pairs.setdefault(r["case"], {})[r["backend"]] = r["observations"]
    guide = Guide()
    by_key: dict[str, GuideClass] = {c.key: GuideClass(c, c.key) for c in CLASSES}
    unexplained: dict[str, GuideClass] = {}
    for case_id, pair in sorted(pairs.items()):
        if len(pair) != 2:
            continue
        if any(o["step"] == "-" for o in pair[BASELINE] + pair[OTHER] if o["kind"] == "unsupported"):
            guide.one_framework += 1
            continue
        guide.compared += 1
        case = cases.get(case_id)
        found = [f for f in findings(case, pair[BASELINE], pair[OTHER])
                 if "unsupported" not in f.cause.torch + f.cause.paddle]  # a missing API: in ``missing``
        guide.diverging += bool(found)
        for f in found:
            entry = explain(f.cause)
            cls = by_key[entry.key] if entry else unexplained.setdefault(
                f.signature, GuideClass(None, f.signature))
            if case_id in cls.cases:
                continue
            cls.cases.append(case_id)
            size = case_size(case)
            if case is not None and size < cls.example_size:
                cls.example, cls.example_size, cls.difference = case_id, size, _worded(f)
    for cls in [*by_key.values(), *unexplained.values()]:
        if cls.example is not None:
            cls.torch_program = program(cases[cls.example], "torch")
            cls.paddle_program = program(cases[cls.example], "paddle")
    guide.classes = [c for c in by_key.values() if c.cases]
    guide.unexplained = sorted(unexplained.values(), key=lambda c: (-len(c.cases), c.signature))
    known = lacked or {}
    used = {case_id: known[case_id] if case_id in known else lacked_apis(cases[case_id])
            for case_id in pairs if case_id in cases}
    for entry in NO_COUNTERPART:
        lacking = next(d for d in DIALECT_LACKS if d != entry.dialect)
        assert entry.lacked in DIALECT_LACKS[lacking], entry.key
        guide.missing.append(MissingApi(entry, sorted(
            case_id for case_id, found in used.items() if entry.lacked in found)))
    return guide


def undescribed_lacks() -> list[tuple[str, str, str]]:
    """``DIALECT_LACKS`` entries no ``NO_COUNTERPART`` entry describes (a test keeps it empty)."""
    described = {(next(d for d in DIALECT_LACKS if d != e.dialect), *e.lacked) for e in NO_COUNTERPART}
    return sorted((d, k, f) for d, lacks in DIALECT_LACKS.items() for k, f in lacks
                  if (d, k, f) not in described)
