"""Verdicts per (case, backend): pass, fail, known divergence, crashed, timeout, unsupported.

A reference backend is judged against calculus (the finite-difference oracle) and against the
expectations a case carries from the seed documents; a framework backend against its reference
(step by step, messages by text) and the same expectations. A difference is excused only by a
known-divergence entry that pins exactly it. A step the adapter refuses makes the case
``unsupported`` on that backend: a refusal on both sides observes nothing, so it is no pass.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from conformance.corpus.case import Case
from conformance.judge.causes import deferred_steps
from conformance.judge.compare import compare_traces
from conformance.judge.known import KnownDivergences, describe_entry
from conformance.run.backends import Backend, framework_versions
from conformance.run.isolation import Outcome
from conformance.run.repro import program
from conformance.run.trace import Trace, json_to_array

VERDICTS = ("pass", "fail", "known", "crashed", "timeout", "unsupported", "unavailable")


def _first_tensor(o: dict[str, Any]) -> Optional[dict[str, Any]]:
    if o["kind"] == "tensor":
        return o
    if o["kind"] == "list" and o["items"] and o["items"][0]["kind"] == "tensor":
        return o["items"][0]
    return None


def check_expectations(case: Case, dialect: str, observations: list[dict[str, Any]]) -> list[str]:
    """Expected observations a case carries (from the seed documents), checked on a trace."""
    problems = []
    for e in case.expect:
        if e.get("dialect", dialect) != dialect:
            continue
        at = [o for o in observations if o["step"] == str(e["step"])]
        if "value" in e:
            tensor = next((t for t in map(_first_tensor, at) if t is not None), None)
            want = np.asarray(e["value"], dtype=np.float64)
            got = None if tensor is None else json_to_array(tensor["values"], "float64")
            if got is None or got.shape != want.shape or not np.allclose(got, want, rtol=1e-5, atol=1e-5):
                problems.append(f"step {e['step']}: expected {e['value']}, observed "
                                f"{None if got is None else got.tolist()}")
        if "error" in e and not any(o["kind"] == "error" and o["category"] == e["error"] for o in at):
            problems.append(f"step {e['step']}: expected a {e['error']} error, observed {at}")
        if e.get("none") and not any(o["kind"] == "none" for o in at):
            problems.append(f"step {e['step']}: expected None, observed {at}")
    return problems


def _base(case: Case, backend: Backend, outcome: Outcome) -> dict[str, Any]:
    result = {"case": case.id, "backend": backend.name, "dialect": backend.dialect,
              "module": backend.module, "about": case.about, "tags": list(case.tags),
              "verdict": None, "detail": "", "observations": outcome.observations,
              "seconds": round(outcome.seconds, 6)}
    if outcome.subject:
        result["subject"] = outcome.subject
    return result


def _unsupported_steps(*traces: Optional[list[dict[str, Any]]]) -> list[str]:
    """What the adapters refused, in either trace: such a case observes nothing for that backend."""
    refused: list[str] = []
    for observations in traces:
        for o in observations or []:
            if o["kind"] == "unsupported" and o["what"] not in refused:
                refused.append(o["what"])
    return refused


def _settled(result: dict[str, Any], case: Case, outcome: Outcome, backend: Backend) -> bool:
    """Give the verdicts that need no comparison: unsupported, crashed, timeout, unavailable."""
    if not case.runs_on(result["dialect"]):
        result.update(verdict="unsupported", detail=f"the case is not written for {result['dialect']}")
        return True
    if outcome.status != "ok":
        result["verdict"] = {"crashed": "crashed", "timeout": "timeout"}.get(
            outcome.status, "unavailable")
        result["detail"] = outcome.detail
        if result["verdict"] in ("crashed", "timeout"):
            result["repro"] = program(case, backend.dialect, backend.device)
        return True
    refused = _unsupported_steps(outcome.observations)
    if refused:
        result.update(verdict="unsupported", detail=f"{result['dialect']} has no {', '.join(refused)}")
        return True
    return False


def judge_reference(case: Case, backend: Backend, outcome: Outcome) -> dict[str, Any]:
    result = _base(case, backend, outcome)
    if _settled(result, case, outcome, backend):
        return result
    result["oracle"] = outcome.oracle
    problems = list((outcome.oracle or {}).get("failures", []))
    problems += check_expectations(case, backend.dialect, outcome.observations or [])
    result["verdict"] = "fail" if problems else "pass"
    result["detail"] = "\n".join(problems)
    if problems:
        result["repro"] = program(case, backend.dialect, backend.device)
    return result


def _predicted_crash(outcome: Outcome, reference: Outcome) -> Optional[str]:
    """What the reference said where the framework crashed and the reference had refused a call
    as undefined in the framework (``UndefinedInFrameworkError``: "paddle 3.3.1 crashes on this
    call"): the crash is what it predicted."""
    if outcome.status != "crashed" or reference.status != "ok":
        return None
    return next((o["message"] for o in reference.observations or []
                 if o["kind"] == "undefined" and "crash" in o["message"]), None)


def judge_framework(case: Case, backend: Backend, outcome: Outcome, reference: Outcome,
                    known: KnownDivergences) -> dict[str, Any]:
    result = _base(case, backend, outcome)
    predicted = _predicted_crash(outcome, reference) if case.runs_on(backend.dialect) else None
    if predicted is not None:
        result.update(verdict="known", detail=outcome.detail,
                      known_reason=f"the reference predicts it: {predicted}")
        return result
    if _settled(result, case, outcome, backend):
        return result
    if reference.status != "ok":
        result.update(verdict="unavailable", detail=f"its reference did not run: {reference.detail}")
        return result
    comparison = compare_traces(Trace(case.id, "reference", reference.observations or []),
                                Trace(case.id, backend.name, outcome.observations or []),
                                computed_in=case.dtypes(), deferred=deferred_steps(case))
    problems = [d.describe() for d in comparison.differences]
    expectations = check_expectations(case, backend.dialect, outcome.observations or [])
    result["undefined_steps"] = comparison.undefined_steps
    result["differences"] = [d.signature() for d in comparison.differences]
    if not problems and not expectations:
        result["verdict"] = "pass"  # the reference's own result holds what it observed
        return result
    result["reference_observations"] = reference.observations
    result["detail"] = "\n".join(problems + expectations)
    result["first_difference"] = comparison.differences[0].index if comparison.differences else None
    versions = framework_versions()
    if outcome.subject:  # the module under test may come from another distribution
        versions[outcome.subject["distribution"]] = outcome.subject["version"]
    judgement = known.judge(case.id, comparison.differences, versions)
    if judgement.entry is not None:
        result["known_entry"] = judgement.entry.key
    if judgement.excused and not expectations:
        result.update(verdict="known", known_reason=judgement.entry.reason)
        return result
    result["verdict"] = "fail"
    result["repro"] = program(case, backend.dialect, backend.device)
    if judgement.entry is not None:
        result["known_mismatch"] = judgement.why_not
        result["detail"] += f"\n\n{judgement.why_not}:\n{describe_entry(judgement.entry)}"
    return result
