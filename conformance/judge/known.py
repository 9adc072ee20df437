"""Known divergences: framework behaviour the reference deliberately does not model, pinned.

A file ``known_divergences/<backend>.json`` holds ``{"backend": NAME, "entries": [...]}``. An
entry names its case(s) (ids, or glob patterns), why the framework differs, the framework
version it was measured on, and the exact differences it excuses::

    {"cases": ["hook/backward"],
     "reason": "paddle runs tensor hooks with recording on, ...",
     "measured_on": {"paddlepaddle": "3.3.1"},
     "differences": [{"step": "5", "what": "has_grad_fn", "reference": {...}, "backend": {...}}]}

A result is *known* only when its differences are exactly the entry's (same steps, same kind of
difference, each side observing what was recorded, values within tolerance) and the installed
framework is the one it was measured on. Anything else fails, and the failure shows the entry
beside what differs now. An entry is stale when one of its cases ran and passed or differed in
another way; entries whose cases did not run are not judged.

``autograd-oracle known update RUN`` rewrites each entry's differences and version from a run,
keeping its reason; ``known add`` pins a new one.
"""

from __future__ import annotations

import fnmatch
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional, Sequence

from conformance import data
from conformance.corpus.inputs import InputError, read_json
from conformance.judge.compare import Difference, signature_matches
from conformance.run.backends import REFERENCE_BACKENDS

DEFAULT_DIR = data.known_divergences_dir()  # known_divergences/ in a checkout, package data when installed
ENTRY_KEYS = {"cases", "reason", "measured_on", "differences"}


class KnownDivergenceError(InputError):
    """A known-divergence file that cannot be used, or a request ``known`` cannot carry out."""

    def __init__(self, message: str, where: Sequence[str] = ()) -> None:
        super().__init__(list(where), message)


@dataclass
class Entry:
    cases: list[str]
    reason: str
    measured_on: dict[str, str]
    differences: list[dict[str, Any]] = field(default_factory=list)

    @property
    def key(self) -> str:
        return ",".join(self.cases)

    def covers(self, case_id: str) -> bool:
        return any(fnmatch.fnmatchcase(case_id, pattern) for pattern in self.cases)

    def excuses(self, found: list[Difference]) -> bool:
        return len(found) == len(self.differences) and all(
            signature_matches(pinned, d) for pinned, d in zip(self.differences, found))

    def to_json(self) -> dict[str, Any]:
        return {"cases": self.cases, "reason": self.reason, "measured_on": self.measured_on,
                "differences": self.differences}


@dataclass
class Judgement:
    """What the known list says of one result's differences."""

    entry: Optional[Entry]
    excused: bool
    why_not: str = ""


@dataclass
class KnownDivergences:
    backend: str  # the backend the list is applied to
    entries: list[Entry] = field(default_factory=list)
    path: Optional[Path] = None
    written_for: Optional[str] = None  # the backend the file names (kept when it is saved)

    def entry_for(self, case_id: str) -> Optional[Entry]:
        return next((e for e in self.entries if e.covers(case_id)), None)

    def judge(self, case_id: str, found: list[Difference], versions: dict[str, Optional[str]]
              ) -> Judgement:
        entry = self.entry_for(case_id)
        if entry is None:
            return Judgement(None, False)
        stale_version = {k: v for k, v in entry.measured_on.items() if versions.get(k) != v}
        if stale_version:
            running = ", ".join(f"{k} {versions.get(k)}" for k in stale_version)
            return Judgement(entry, False, f"the entry was measured on "
                             f"{_versions(entry.measured_on)}, this run has {running}")
        if not entry.excuses(found):
            return Judgement(entry, False, "the entry pins other differences than these")
        return Judgement(entry, True)

    def save(self, path: Optional[Path] = None) -> Path:
        target = path or self.path
        assert target is not None, "a known-divergence list needs a path to be saved"
        data = {"backend": self.written_for or self.backend,
                "entries": [e.to_json() for e in self.entries]}
        target.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        return target


def _versions(measured_on: dict[str, str]) -> str:
    return ", ".join(f"{k} {v}" for k, v in measured_on.items())


def describe_entry(entry: Entry) -> str:
    """The entry as the report shows it beside a new difference."""
    lines = [f"known entry for {entry.key} (measured on {_versions(entry.measured_on)}): "
             f"{entry.reason}", "  it excuses:"]
    lines += [f"    step {d['step']}: {d['what']}" for d in entry.differences] or ["    nothing"]
    return "\n".join(lines)


def path_for(backend: str, directory: Path = DEFAULT_DIR) -> Path:
    """``<directory>/<backend>.json``; a ``DIALECT:MODULE`` name is written ``DIALECT_MODULE``."""
    return directory / (re.sub(r"[^A-Za-z0-9._-]", "_", backend) + ".json")


def load(backend: str, directory: Path = DEFAULT_DIR) -> KnownDivergences:
    """The list kept for ``backend`` in ``directory`` (``<backend>.json``; empty if none)."""
    return load_file(path_for(backend, directory), backend)


def parse_known_option(value: str) -> tuple[str, str]:
    """``run --known [BACKEND=]FILE`` as ``(backend, file)``; ``*`` for every judged backend."""
    backend, sep, path = value.partition("=")
    if sep and backend and "/" not in backend and "\\" not in backend:
        return backend, path
    return "*", value


def for_backend(backend: str, directory: Path = DEFAULT_DIR,
                files: Optional[dict[str, str]] = None) -> KnownDivergences:
    """The list a run applies to ``backend``: the file ``run --known`` gave for it (or for every
    backend), else the one kept under its name in ``directory``. A file given on the command
    line must exist."""
    files = files or {}
    given = files.get(backend) or files.get("*")
    if given is None:
        return load(backend, directory)
    if not Path(given).is_file():
        raise KnownDivergenceError(f"--known {given}: no such file")
    return load_file(Path(given), backend)


def looks_like_known_file(path: Path) -> bool:
    """Whether ``path`` is meant as a known-divergence file rather than a case file: a JSON
    object with ``entries`` and no ``cases``. Anything unreadable is left to the case loader,
    which says what is wrong with it."""
    try:
        document = read_json(path)
    except InputError:
        return False
    return isinstance(document, dict) and "entries" in document and "cases" not in document


def load_file(path: Path, backend: str) -> KnownDivergences:
    """A known-divergence file, applied to ``backend`` (whatever backend the file was written
    for: real paddle under another name is judged by paddle-cpu's list)."""
    if not path.exists():
        return KnownDivergences(backend, path=path)
    try:
        data = read_json(path)
    except InputError as exc:
        raise KnownDivergenceError(str(exc)) from None
    if not isinstance(data, dict) or not isinstance(data.get("entries", []), list) \
            or not isinstance(data.get("backend", backend), str):
        raise KnownDivergenceError("must be an object with 'backend' (a name) and 'entries' (a "
                                   "list)", [str(path)])
    entries = []
    for i, e in enumerate(data.get("entries", [])):
        problem = _entry_problem(e)
        if problem:
            raise KnownDivergenceError(problem, [str(path), f"entry {i}"])
        entries.append(Entry(list(e["cases"]), e["reason"], dict(e["measured_on"]),
                             list(e["differences"])))
    return KnownDivergences(backend, entries, path, written_for=str(data.get("backend", backend)))


def _entry_problem(e: Any) -> Optional[str]:
    if not isinstance(e, dict):
        return "not an object"
    if set(e) != ENTRY_KEYS:
        return f"needs exactly the fields {', '.join(sorted(ENTRY_KEYS))}; has {', '.join(sorted(e))}"
    cases = e["cases"]
    if not (isinstance(cases, list) and cases and all(isinstance(c, str) and c for c in cases)):
        return "'cases' must be a non-empty list of case ids or patterns"
    if not (isinstance(e["reason"], str) and e["reason"].strip()):
        return "'reason' must say why the framework differs"
    if not (isinstance(e["measured_on"], dict) and e["measured_on"]
            and all(isinstance(v, str) for v in e["measured_on"].values())):
        return "'measured_on' must name the framework version, e.g. {\"paddlepaddle\": \"3.3.1\"}"
    if not (isinstance(e["differences"], list) and all(
            isinstance(d, dict) and {"step", "what", "reference", "backend"} <= set(d)
            for d in e["differences"])):
        return "'differences' must be a list of {step, what, reference, backend}"
    return None


def stale_entries(results: list[dict[str, Any]], known_dir: Optional[Path] = None,
                  files: Optional[dict[str, str]] = None) -> list[dict[str, str]]:
    """Entries one of whose cases ran in these results and passed, or differed otherwise
    (``files``: the run's ``--known`` files, by backend)."""
    stale = []
    for backend in sorted({r["backend"] for r in results} - REFERENCE_BACKENDS):
        try:
            kd = for_backend(backend, known_dir or DEFAULT_DIR, files)
        except KnownDivergenceError:  # a file the run used and that is gone now
            continue
        if not kd.entries:
            continue
        mine = [r for r in results if r["backend"] == backend]
        for entry in kd.entries:
            for r in mine:
                if not entry.covers(r["case"]):
                    continue
                if r["verdict"] == "pass":
                    stale.append({"backend": backend, "entry": entry.key,
                                  "why": f"{r['case']} now passes"})
                elif r["verdict"] == "fail" and r.get("known_entry") == entry.key:
                    stale.append({"backend": backend, "entry": entry.key,
                                  "why": f"{r['case']} differs otherwise: {r.get('known_mismatch', '')}"})
    return stale


def update_from_results(kd: KnownDivergences, results: list[dict[str, Any]],
                        versions: dict[str, Optional[str]]) -> list[str]:
    """Rewrite each entry's differences and version from the results of its cases; keep the
    reasons. Returns what changed, one line per entry, for the person running it."""
    by_case = {r["case"]: r for r in results if r["backend"] == kd.backend}
    changes = []
    for entry in kd.entries:
        ran = [by_case[c] for c in by_case if entry.covers(c)]
        if not ran:
            continue
        differing = [r for r in ran if r.get("differences")]
        if not differing:
            changes.append(f"{entry.key}: its cases now pass; remove the entry")
            continue
        signatures = differing[0]["differences"]
        if any(r["differences"] != signatures for r in differing[1:]):
            changes.append(f"{entry.key}: its cases differ in different ways; split the entry")
            continue
        measured = {k: str(versions.get(k)) for k in entry.measured_on} or _framework_of(
            kd.backend, versions, results)
        if signatures != entry.differences or measured != entry.measured_on:
            entry.differences, entry.measured_on = signatures, measured
            changes.append(f"{entry.key}: signature rewritten ({len(signatures)} differences)")
    return changes


def add_entry(kd: KnownDivergences, case_id: str, reason: str, results: list[dict[str, Any]],
              versions: dict[str, Optional[str]]) -> Entry:
    """Pin a new entry for ``case_id`` from its result in a run."""
    result = next((r for r in results if r["backend"] == kd.backend and r["case"] == case_id), None)
    if result is None:
        raise KnownDivergenceError(f"{case_id} did not run on {kd.backend} in that run")
    if not result.get("differences"):
        raise KnownDivergenceError(f"{case_id} shows no difference on {kd.backend} in that run")
    if kd.entry_for(case_id) is not None:
        raise KnownDivergenceError(f"{case_id} already has an entry; use 'known update'")
    entry = Entry([case_id], reason, _framework_of(kd.backend, versions, results),
                  result["differences"])
    kd.entries.append(entry)
    return entry


def _framework_of(backend: str, versions: dict[str, Optional[str]],
                  results: list[dict[str, Any]]) -> dict[str, str]:
    """What an entry for ``backend`` is measured on: the distribution its module came from, as
    its process reported it (paddle-as-torch: paddlepaddle), else the framework its name says."""
    subject = next((r["subject"] for r in results if r["backend"] == backend and r.get("subject")), None)
    if subject is not None:
        return {subject["distribution"]: str(versions.get(subject["distribution"]) or subject["version"])}
    framework = "paddlepaddle" if backend.startswith("paddle") else "torch"
    return {framework: str(versions.get(framework))}


def with_subjects(versions: dict[str, Optional[str]], results: list[dict[str, Any]]
                  ) -> dict[str, Optional[str]]:
    """``versions`` and the version of each distribution a backend of the run came from."""
    merged = dict(versions)
    for r in results:
        subject = r.get("subject")
        if subject and merged.get(subject["distribution"]) is None:
            merged[subject["distribution"]] = subject["version"]
    return merged
