"""The data every report format shows, computed once from a run's results."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from conformance.corpus.case import Case
from conformance.corpus.coverage import buckets_of
from conformance.corpus.vocabulary import BUCKETS
from conformance.judge.classes import FAILING, FailureClass, failure_classes
from conformance.report.divergence import Guide, lacked_apis, porting_guide


@dataclass
class ReportModel:
    summary: dict[str, Any]
    backends: list[str]
    heatmap: dict[str, dict[str, tuple[int, int]]]  # bucket -> backend -> (passed, ran)
    failures: list[dict[str, Any]]
    guide: Guide                        # torch ↔ paddle divergences by root cause
    known: list[dict[str, Any]]         # results a known-divergence entry excuses
    unsupported: list[dict[str, Any]]   # results a backend could not observe
    classes: list[FailureClass]         # the failures by how they fail, largest first


def plural(n: int, word: str) -> str:
    """``1 case``, ``2 cases``."""
    return f"{n} {word}" + ("" if n == 1 else "es" if word.endswith("s") else "s")


@dataclass
class CorpusFacts:
    """What the reports read of each case whatever its results, by case id: its coverage
    buckets and the APIs without a counterpart it calls. A run works them out while its cases
    run (``prepare.Preparation``), so that they are not left for after the last one."""

    buckets: dict[str, set[str]] = field(default_factory=dict)
    lacked: dict[str, set[tuple[str, str]]] = field(default_factory=dict)

    @classmethod
    def of(cls, cases: dict[str, Case]) -> CorpusFacts:
        return cls({i: buckets_of(c) for i, c in cases.items()},
                   {i: lacked_apis(c) for i, c in cases.items()})


def heatmap(results: list[dict[str, Any]], cases: dict[str, Case],
            buckets: Optional[dict[str, set[str]]] = None) -> dict[str, dict[str, tuple[int, int]]]:
    table: dict[str, dict[str, list[int]]] = {b: {} for b in BUCKETS}
    bucket_cache: dict[str, set[str]] = buckets if buckets is not None else {}
    for r in results:
        if r["verdict"] in ("unsupported", "unavailable"):
            continue
        case = cases.get(r["case"])
        if case is None:
            continue
        if r["case"] not in bucket_cache:
            bucket_cache[r["case"]] = buckets_of(case)
        for bucket in bucket_cache[r["case"]]:
            cell = table[bucket].setdefault(r["backend"], [0, 0])
            cell[0] += r["verdict"] in ("pass", "known")
            cell[1] += 1
    return {b: {k: (v[0], v[1]) for k, v in per.items()} for b, per in table.items()}


def build_model(summary: dict[str, Any], results: list[dict[str, Any]],
                cases: dict[str, Case], classes: Optional[list[FailureClass]] = None,
                facts: Optional[CorpusFacts] = None) -> ReportModel:
    """The model of a run's reports; ``facts``: the cases' ``CorpusFacts`` if worked out before."""
    backends = sorted({r["backend"] for r in results})
    failures = [r for r in results if r["verdict"] in FAILING]
    known = [r for r in results if r["verdict"] == "known"]
    unsupported = [r for r in results if r["verdict"] == "unsupported"]
    facts = facts or CorpusFacts()
    return ReportModel(summary, backends, heatmap(results, cases, dict(facts.buckets)), failures,
                       porting_guide(results, cases, facts.lacked), known, unsupported,
                       failure_classes(results, cases) if classes is None else classes)
