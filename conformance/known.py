"""Known divergences: per backend, the cases (ids or glob patterns) expected to differ, with why.

A file ``known_divergences/<backend>.json`` holds ``{"backend": NAME, "entries": [{"pattern":
..., "reason": ...}, ...]}``. A listed case that now passes, and an entry that matches no case of
the run, are stale: the report lists both so the file is kept true.
"""

from __future__ import annotations

import fnmatch
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

DEFAULT_DIR = Path(__file__).resolve().parent.parent / "known_divergences"


@dataclass
class Entry:
    pattern: str
    reason: str
    matched: int = 0
    passed: list[str] = field(default_factory=list)


@dataclass
class KnownDivergences:
    backend: str
    entries: list[Entry] = field(default_factory=list)

    def match(self, case_id: str) -> Optional[Entry]:
        for entry in self.entries:
            if fnmatch.fnmatchcase(case_id, entry.pattern):
                return entry
        return None


class KnownDivergenceError(ValueError):
    pass


def load(backend: str, directory: Path = DEFAULT_DIR) -> KnownDivergences:
    path = directory / f"{backend}.json"
    if not path.exists():
        return KnownDivergences(backend)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise KnownDivergenceError(f"{path}: not valid JSON: {exc.msg} at line {exc.lineno}") from None
    entries = []
    for i, e in enumerate(data.get("entries", [])):
        if not isinstance(e, dict) or set(e) != {"pattern", "reason"} or not all(
                isinstance(e[k], str) and e[k].strip() for k in e):
            raise KnownDivergenceError(f"{path}: entry {i} needs a non-empty 'pattern' and 'reason'")
        entries.append(Entry(e["pattern"], e["reason"]))
    return KnownDivergences(backend, entries)
