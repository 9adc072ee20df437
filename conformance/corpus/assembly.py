"""The corpus of a run: the hand-written cases, the generated ones, or both.

Every job that needs the cases (the pytest plugin, the CLI, the report builder, the benchmarks)
assembles them here, from the same options a run records.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

from conformance.corpus.case import Case
from conformance.corpus.generator import DEFAULT_VERSION, generated_corpus
from conformance.corpus.loader import case_files, hand_written_dir, load_directory


def load_corpus(kind: str, seed: int, count: int, cases_dir: Optional[str],
                generated: Optional[list[dict[str, Any]]] = None,
                version: int = DEFAULT_VERSION) -> list[Case]:
    """The hand-written cases (validated) and the generated ones.

    Generated cases are well-formed by construction (a test validates every case of the default
    corpus), so they are wrapped without validating them again in every test process. A process
    that asks again for the same corpus (the CLI checks it, collection and the report builder
    read it) gets the cases it assembled before, as long as no hand-written file changed.
    """
    directory = Path(cases_dir or hand_written_dir()) if kind in ("hand", "all") else None
    key = None
    fingerprint = _fingerprint(directory)
    if generated is None and (directory is None or fingerprint is not None):
        key = (kind, seed, count, version, directory, fingerprint)
        if key in _ASSEMBLED:
            return list(_ASSEMBLED[key])
    cases: list[Case] = []
    if directory is not None:
        cases += load_directory(directory)
    if kind in ("generated", "all") and count:
        source = f"<generated seed={seed} count={count} version={version}>"
        cases += [Case.trusted(raw, source)
                  for raw in (generated or generated_corpus(seed, count, version))]
    if key is not None:
        _ASSEMBLED.clear()  # one corpus kept: a process runs one
        _ASSEMBLED[key] = tuple(cases)
    return cases


_ASSEMBLED: dict[Any, tuple[Case, ...]] = {}


def _fingerprint(directory: Optional[Path]) -> Optional[tuple[tuple[str, int, int], ...]]:
    """What changes when a case file under ``directory`` is added, removed or edited."""
    if directory is None:
        return None
    try:
        stats = [(f, f.stat()) for f in case_files(directory)]
    except (OSError, ValueError):
        return None  # the loader reports what is wrong with the folder
    return tuple((str(f), st.st_mtime_ns, st.st_size) for f, st in stats)
