"""The options of one corpus run, as one object.

``autograd-oracle run`` hands pytest the whole set in one ``--oracle-run`` option (JSON), which
pytest-xdist passes on to every worker with the rest of the command line; a person running
pytest directly gives the same options one by one (``--oracle-backends``, ``--oracle-seed`` …),
and a flag given beside ``--oracle-run`` overrides that field. Each test process reads them once
(``RunOptions.from_pytest``) instead of asking pytest for a dozen strings per item.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any, Optional

# field -> the pytest option that gives it alone
FLAGS = {
    "backends": "--oracle-backends", "corpus": "--oracle-corpus", "seed": "--oracle-seed",
    "count": "--oracle-count", "generator": "--oracle-generator", "cases": "--oracle-cases",
    "select": "--oracle-select", "shard": "--shard",
    "timeout": "--oracle-timeout", "memory": "--oracle-memory", "report": "--oracle-report",
    "progress": "--oracle-progress", "known": "--oracle-known", "known_files": "--oracle-known-file",
}


@dataclass(frozen=True)
class RunOptions:
    """What a run asks for. None: not given (the ``.oracle`` file's default applies)."""

    backends: Optional[str] = None       # comma-separated backend names
    corpus: Optional[str] = None         # hand, generated or all
    seed: Optional[int] = None
    count: Optional[int] = None
    generator: Optional[int] = None      # the generator version
    cases: Optional[str] = None          # a folder of hand-written cases
    select: Optional[str] = None         # glob patterns of case ids
    shard: Optional[str] = None          # K/N
    timeout: Optional[float] = None      # seconds a case may take on a backend
    memory: str = "auto"                 # each backend process's memory cap
    report: Optional[str] = None         # the folder results.jsonl streams into
    progress: bool = False               # one progress line instead of a letter per result
    known: Optional[str] = None          # the folder of known-divergence files
    known_files: tuple[str, ...] = ()    # [BACKEND=]FILE each

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> RunOptions:
        """The options ``to_json`` wrote; an unknown or malformed field is a ValueError naming it."""
        try:
            fields = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"--oracle-run is not JSON: {exc}") from None
        if not isinstance(fields, dict):
            raise ValueError("--oracle-run must be a JSON object of run options")
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(fields) - known)
        if unknown:
            raise ValueError(f"--oracle-run: unknown option(s) {', '.join(unknown)}; "
                             f"known: {', '.join(sorted(known))}")
        if "known_files" in fields:
            fields["known_files"] = tuple(fields["known_files"])
        return cls(**fields)

    @classmethod
    def from_pytest(cls, config: Any) -> RunOptions:
        """The options of this pytest process: ``--oracle-run``'s, then each flag given."""
        given = config.getoption("--oracle-run")
        options = cls.from_json(given) if given else cls()
        flags: dict[str, Any] = {}
        for name, flag in FLAGS.items():
            value = config.getoption(flag)
            if name == "known_files":
                value = tuple(value or ())
            if value is not None and value != getattr(cls, name):
                flags[name] = value
        return dataclasses.replace(options, **flags)
