"""A report's work done while the run goes: the corpus side, and the results read as they stream.

The reports of a run need its cases by id and the corpus manifest (which hashes the whole
generated corpus), and every result parsed. None of that waits for the last case: the corpus is
known before the first, and each result is a line of ``results.jsonl`` from the moment a worker
writes it. ``Preparation`` does it in a thread of the run's own process, which otherwise waits
on its test processes, so that what is left after the last case is the part that needs all the
results at once (classes, summary, pages). ``build_reports(..., prepared=...)`` takes it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from conformance.corpus.assembly import load_corpus
from conformance.corpus.case import Case
from conformance.corpus.collector import collector_paused
from conformance.corpus.generator import DEFAULT_VERSION, generated_corpus
from conformance.report.model import CorpusFacts
from conformance.report.results import RESULTS, corrupt, cut_off_note, parse_result
from conformance.report.summary import corpus_manifest
from conformance.run.trace import recategorize

POLL_SECONDS = 0.2

# a run's cases by id, its generated cases, its manifest and (where worked out) the cases' facts
Corpus = tuple[dict[str, Case], list[dict[str, Any]], dict[str, Any], Optional[CorpusFacts]]


def run_corpus(run: dict[str, Any]) -> tuple[dict[str, Case], list[dict[str, Any]]]:
    """A run's cases by id and its generated cases, from its options (``run.json``)."""
    version = run.get("generator", DEFAULT_VERSION)
    generated = list(generated_corpus(run["seed"], run["count"], version)) \
        if run["corpus"] != "hand" else []
    cases = {c.id: c for c in load_corpus(run["corpus"], run["seed"], run["count"],
                                          run.get("cases_dir"), generated, version)}
    return cases, generated


def run_manifest(run: dict[str, Any], generated: list[dict[str, Any]]) -> dict[str, Any]:
    """What a run's corpus was: the hand-written files' hash, the generated corpus's."""
    cases_dir = run.get("cases_dir")
    return corpus_manifest(run["corpus"], run["seed"], run["count"],
                           Path(cases_dir) if cases_dir else None, generated,
                           run.get("generator", DEFAULT_VERSION))


@dataclass
class Prepared:
    """What ``build_reports`` needs of a run besides its options: results, cases, manifest."""

    run: dict[str, Any]
    results: list[dict[str, Any]]
    cases: dict[str, Case]
    generated: list[dict[str, Any]]
    manifest: dict[str, Any]
    facts: Optional[CorpusFacts] = None  # the cases' facts, where worked out while the run went


class Preparation:
    """Reads the run's results as they are written, in a thread, and its corpus (in that thread
    with ``corpus_meanwhile``, else in ``finish``); ``finish`` reads the rest once the run is
    over.

    ``corpus_meanwhile`` suits a process that waits on test processes of its own. Where this
    process runs the cases itself, the corpus waits for ``finish``: the cases it ran are made by
    then, and a thread making them meanwhile would hold the interpreter's lock that the run's
    own loop needs for every result.
    """

    def __init__(self, directory: Path, run: dict[str, Any], corpus_meanwhile: bool = True) -> None:
        self.directory, self.run = directory, dict(run)
        self.corpus_meanwhile = corpus_meanwhile
        self.latest: dict[tuple[str, str], dict[str, Any]] = {}
        self.offset = 0  # bytes of results.jsonl read so far (whole lines only)
        self.lines = 0
        self.torn: Optional[int] = None  # an unparseable line, until another line follows it
        self.corpus: Optional[Corpus] = None
        self.failure: Optional[BaseException] = None
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._work, name="report-preparation", daemon=True)

    def start(self) -> Preparation:
        self.thread.start()
        return self

    def _work(self) -> None:
        try:
            if self.corpus_meanwhile:
                self.corpus = self._load_corpus(with_facts=True)
            while not self.done.wait(POLL_SECONDS):
                self._read_new_lines()
        except BaseException as exc:  # noqa: BLE001 - handed to finish, which raises it there
            self.failure = exc

    @collector_paused()  # tens of thousands of objects: no collection walks the run's heap for them
    def _load_corpus(self, with_facts: bool = False) -> Corpus:
        cases, generated = run_corpus(self.run)
        return cases, generated, run_manifest(self.run, generated), \
            CorpusFacts.of(cases) if with_facts else None

    @collector_paused()
    def _read_new_lines(self, final: bool = False) -> None:
        """Parse the whole lines written since the last read; at the end (``final``), a last
        line without its newline too. An unparseable line is the file's cut-off end unless
        another line follows it (then the file is corrupt), as ``results.iter_results`` reads."""
        path = self.directory / RESULTS
        if not path.exists():
            return
        with path.open("rb") as handle:
            handle.seek(self.offset)
            chunk = handle.read()
        end = len(chunk) if final else chunk.rfind(b"\n") + 1
        self.offset += end
        for line in chunk[:end].decode("utf-8").splitlines():
            self.lines += 1
            if not line.strip():
                continue
            if self.torn is not None:
                raise corrupt(path, self.torn)
            r = parse_result(line, path, self.lines, trusted=True)
            if r is None:
                self.torn = self.lines
                continue
            for key in ("observations", "reference_observations"):
                recategorize(r.get(key) or [])
            self.latest[(r["case"], r["backend"])] = r

    def finish(self, run: dict[str, Any]) -> Prepared:
        """Stop reading as the run goes, read what is left, and hand everything over (``run``:
        the run's options as they stand now)."""
        self.done.set()
        self.thread.join()
        if self.failure is not None:
            raise self.failure
        self._read_new_lines(final=True)
        notes = [] if self.torn is None else [cut_off_note(RESULTS, self.torn)]
        cases, generated, manifest, facts = self.corpus or self._load_corpus()
        results = [self.latest[k] for k in sorted(self.latest)]
        return Prepared({**run, "notes": notes}, results, cases, generated, manifest, facts)
