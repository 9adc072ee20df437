"""Reading a run's streamed results (``results.jsonl``, optionally gzip-compressed)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any, Iterator

from conformance.run.trace import recategorize

RESULTS = "results.jsonl"


def results_path(directory: Path) -> Path:
    for name in (RESULTS, RESULTS + ".gz"):
        if (directory / name).exists():
            return directory / name
    raise FileNotFoundError(f"{directory} holds no {RESULTS}")


def iter_results(directory: Path) -> Iterator[dict[str, Any]]:
    """Each complete line of the results file; a torn last line (a killed run) is skipped."""
    path = results_path(directory)
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as handle:  # type: ignore[operator]
        for line in handle:
            line = line.strip()
            if not line:
                continue
            try:
                yield json.loads(line)
            except json.JSONDecodeError:
                continue


def load_results(directory: Path) -> list[dict[str, Any]]:
    """The results, the last one winning where a (case, backend) appears twice."""
    latest: dict[tuple[str, str], dict[str, Any]] = {}
    for r in iter_results(directory):
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
