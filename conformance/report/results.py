"""Reading a run's streamed results (``results.jsonl``, optionally gzip-compressed)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any, Iterator, Optional

from conformance.corpus.collector import collector_paused
from conformance.run.trace import recategorize

RESULTS = "results.jsonl"


def results_path(directory: Path) -> Path:
    for name in (RESULTS, RESULTS + ".gz"):
        if (directory / name).exists():
            return directory / name
    raise FileNotFoundError(f"{directory} holds no {RESULTS}")


class CorruptResultsError(ValueError):
    """A results file with a line that is not a result before its end: results would be lost."""


def corrupt(path: Path, line: int) -> CorruptResultsError:
    return CorruptResultsError(f"{path}: line {line} is not a result (unparseable JSON), and lines "
                               "follow it: the file is corrupt")


def cut_off_note(name: str, line: int) -> str:
    return f"{name}: its last line (line {line}) was cut off, as by an interrupted run, and is left out"


def iter_results(directory: Path, notes: Optional[list[str]] = None) -> Iterator[dict[str, Any]]:
    """Each line of the results file. A cut-off last line (a run killed while writing it) is left
    out, with a note added to ``notes``; an unparseable line anywhere else raises
    ``CorruptResultsError`` naming the file and the line."""
    path = results_path(directory)
    opener = gzip.open if path.suffix == ".gz" else open
    torn: Optional[int] = None  # the number of an unparseable line, until another line follows
    with opener(path, "rt", encoding="utf-8") as handle:  # type: ignore[operator]
        for number, line in enumerate(handle, 1):
            line = line.strip()
            if not line:
                continue
            if torn is not None:
                raise corrupt(path, torn)
            try:
                yield json.loads(line)
            except json.JSONDecodeError:
                torn = number
    if torn is not None and notes is not None:
        notes.append(cut_off_note(path.name, torn))


@collector_paused()
def load_results(directory: Path, notes: Optional[list[str]] = None) -> list[dict[str, Any]]:
    """The results, the last one winning where a (case, backend) appears twice (read with the
    garbage collector paused: ``collector.py``)."""
    latest: dict[tuple[str, str], dict[str, Any]] = {}
    for r in iter_results(directory, notes):
        for key in ("observations", "reference_observations"):
            recategorize(r.get(key) or [])
        latest[(r["case"], r["backend"])] = r
    return [latest[k] for k in sorted(latest)]


def write_results(directory: Path, results: list[dict[str, Any]]) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / RESULTS
    with path.open("w", encoding="utf-8") as handle:
        for r in results:
            handle.write(json.dumps(r, sort_keys=True) + "\n")
    return path
