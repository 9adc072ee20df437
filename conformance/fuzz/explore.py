"""Explore beyond the corpus: run fresh programs until the budget is spent, shrink each new kind
of failure to a minimal case, and keep one case per failure class.

Programs come from the newest corpus generator (version 5: version 3's programs, version 4's
sections of argument value x state, a section reaching an op of the registry) with the fuzzer's
wider knobs (``wide``: every scenario equally likely, mixins twice as likely) and seeds of
their own: program ``i`` of seed ``S`` is
the same on every machine, so the same seed and count give the same cases. Each program runs on
the backends under test and their references, in batches queued to every backend process at
once; each failing result gets its signature (``judge.classes``), and the first program of a
class is shrunk (``fuzz.shrink``) while its signature holds. A shrunk case is checked on the
reference, and on the real framework of its dialect when the backend under test is not that
framework, and saved as a case file ready to copy into ``cases/``.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from conformance.corpus.case import Case
from conformance.corpus.generators import v5
from conformance.fuzz.shrink import ShrinkStats, shrink
from conformance.judge import known as known_divergences
from conformance.judge.classes import FAILING, signature
from conformance.judge.verdict import judge_framework, judge_reference
from conformance.run.backends import BUILT_IN, REFERENCES, Backend
from conformance.run.isolation import IsolatedBackend, Outcome

BATCH = 32  # programs queued to every backend process at once
FRAMEWORKS = {"torch": "torch-cpu", "paddle": "paddle-cpu"}  # the real framework of a dialect


DTYPES = ("mixed", "float32", "float64")  # what the fuzzer's programs compute in


def fuzz_program(seed: int, index: int, dtype: str = "mixed") -> dict[str, Any]:
    """Program ``index`` of fuzz seed ``seed``: the generator's, with the wider knobs; ``dtype``
    "mixed" (each program draws float32 or float64, as the corpus's do) or one of them for
    every program (their ids say so)."""
    raw = v5.generate_case(seed, index, wide=True, dtype=None if dtype == "mixed" else dtype)
    name = str(seed) if dtype == "mixed" else f"{seed}-{dtype}"
    raw["id"] = re.sub(r"^gen\d+/\d+/\d+", f"fuzz/{name}/{index:06d}", raw["id"])
    return raw


@dataclass
class FoundClass:
    backend: str
    signature: str
    first: str                      # the id of the first program that showed it
    found_after: float = 0.0        # seconds into the run when it did
    count: int = 0
    case: Optional[dict[str, Any]] = None  # the shrunk case
    stats: Optional[ShrinkStats] = None
    shrink_seconds: float = 0.0
    reference: str = ""             # the shrunk case's verdict on the reference
    framework: Optional[str] = None  # and on the dialect's real framework (None: not checked)

    @property
    def slug(self) -> str:
        text = re.sub(r"[^a-z0-9]+", "-", f"{self.backend} {self.signature}".lower()).strip("-")
        return text[:120]


@dataclass
class FuzzRun:
    seed: int
    backends: list[str]
    dtype: str = "mixed"
    programs: int = 0
    failures: int = 0
    seconds: float = 0.0
    classes: dict[tuple[str, str], FoundClass] = field(default_factory=dict)


class Judge:
    """Runs cases on the backends under test and their references, each in its own process."""

    def __init__(self, backends: list[Backend], timeout: float) -> None:
        self.backends = backends
        self.timeout = timeout
        self.processes: dict[str, IsolatedBackend] = {}
        self.known: dict[str, known_divergences.KnownDivergences] = {}

    def process(self, backend: Backend) -> IsolatedBackend:
        if backend.name not in self.processes:
            self.processes[backend.name] = IsolatedBackend(backend, self.timeout)
        return self.processes[backend.name]

    def known_of(self, backend: Backend) -> known_divergences.KnownDivergences:
        """The project's known divergences of ``backend`` (paddle-cpu's measured bugs)."""
        if backend.name not in self.known:
            self.known[backend.name] = known_divergences.for_backend(backend.name)
        return self.known[backend.name]

    def reference_of(self, backend: Backend) -> Backend:
        return BUILT_IN[backend.reference_for or REFERENCES[backend.dialect]]

    def involved(self, backends: list[Backend]) -> list[Backend]:
        return list(dict.fromkeys([*backends, *(self.reference_of(b) for b in backends
                                                if not b.is_reference)]))

    def outcomes(self, raws: list[dict[str, Any]], backends: list[Backend]
                 ) -> dict[str, dict[str, Outcome]]:
        """Each backend's outcome for each case, the cases queued to every process first."""
        for b in backends:
            self.process(b).submit(*raws)
        found: dict[str, dict[str, Outcome]] = {b.name: {} for b in backends}
        for b in backends:
            for _ in raws:
                case_id, outcome = self.process(b).next_result()
                found[b.name][case_id] = outcome
        return found

    def results(self, raws: list[dict[str, Any]], backends: Optional[list[Backend]] = None
                ) -> list[tuple[dict[str, Any], Case, dict[str, Any]]]:
        """``(raw, case, result)`` for each case and each of ``backends`` (default: those under
        test)."""
        backends = self.backends if backends is None else backends
        outcomes = self.outcomes(raws, self.involved(backends))
        out = []
        for raw in raws:
            case = Case.trusted(raw, "<fuzz>")
            for b in backends:
                mine = outcomes[b.name][raw["id"]]
                if b.is_reference:
                    out.append((raw, case, judge_reference(case, b, mine)))
                else:
                    reference = outcomes[self.reference_of(b).name][raw["id"]]
                    out.append((raw, case, judge_framework(case, b, mine, reference, self.known_of(b))))
        return out

    def verdict_on(self, raw: dict[str, Any], backend: Backend) -> str:
        """The case's verdict on ``backend`` (judged against its reference)."""
        return self.results([raw], [backend])[0][2]["verdict"]

    def close(self) -> None:
        for process in self.processes.values():
            process.stop()


def _signature_on(judge: Judge, backend: Backend, raw: dict[str, Any]) -> Optional[str]:
    (_, case, result), = judge.results([raw], [backend])
    return signature(result, case) if result["verdict"] in FAILING else None


def _shrink_class(judge: Judge, backend: Backend, found: FoundClass, raw: dict[str, Any]) -> None:
    started = time.monotonic()
    trial = iter(range(10 ** 9))

    def still_fails(candidate: dict[str, Any]) -> bool:
        renamed = {**candidate, "id": f"{candidate['id']}~{next(trial)}"}  # a fresh id: no cache
        return _signature_on(judge, backend, renamed) == found.signature

    case, found.stats = shrink(raw, still_fails)
    found.case = {**case, "id": f"fuzz/{found.slug}",
                  "about": f"fuzz: the smallest program found that fails on {backend.name} as "
                           f"'{found.signature}' (shrunk from {found.stats.steps_before} steps "
                           f"of {found.first})"}
    if backend.is_reference:  # the reference is the backend under test: calculus judged it
        found.reference = "fail"
    else:
        found.reference = judge.verdict_on(found.case, judge.reference_of(backend))
        framework = BUILT_IN[FRAMEWORKS[backend.dialect]]
        if framework.name != backend.name:
            found.framework = judge.verdict_on(found.case, framework)
    found.shrink_seconds = time.monotonic() - started


def explore(backends: list[Backend], seed: int, seconds: Optional[float], count: Optional[int],
            timeout: float = 20.0, progress: Optional[Callable[[FuzzRun, float], None]] = None,
            dtype: str = "mixed") -> FuzzRun:
    """Run fuzz programs ``0, 1, …`` of ``seed`` (in ``dtype``) until ``seconds`` pass or
    ``count`` programs ran; shrink the first program of each new failure class."""
    run = FuzzRun(seed, [b.name for b in backends], dtype)
    judge = Judge(backends, timeout)
    by_name = {b.name: b for b in backends}
    started = time.monotonic()
    index = 0
    try:
        while (count is None or index < count) and \
                (seconds is None or time.monotonic() - started < seconds):
            size = BATCH if count is None else min(BATCH, count - index)
            raws = [fuzz_program(seed, i, dtype) for i in range(index, index + size)]
            index += size
            run.programs += size
            for raw, case, result in judge.results(raws):
                if result["verdict"] not in FAILING:
                    continue
                run.failures += 1
                key = (result["backend"], signature(result, case))
                if key not in run.classes:
                    run.classes[key] = FoundClass(*key, first=raw["id"],
                                                  found_after=time.monotonic() - started)
                    _shrink_class(judge, by_name[key[0]], run.classes[key], raw)
                run.classes[key].count += 1
            if progress is not None:
                progress(run, time.monotonic() - started)
    finally:
        judge.close()
    run.seconds = time.monotonic() - started
    return run

