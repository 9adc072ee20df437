"""The corpus of a run: the hand-written cases, the generated ones, or both.

Every job that needs the cases (the pytest plugin, the CLI, the report builder, the benchmarks)
assembles them here, from the same options a run records.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Optional, Sequence

from conformance.corpus.case import Case
from conformance.corpus.generator import DEFAULT_VERSION, generated_cases, generated_corpus
from conformance.corpus.loader import case_files, hand_written_dir, load_directory


def load_corpus(kind: str, seed: int, count: int, cases_dir: Optional[str],
                generated: Optional[Sequence[dict[str, Any]]] = None,
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
        cases += [Case.trusted(raw, _source(seed, count, version))
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


def _source(seed: int, count: int, version: int) -> str:
    return f"<generated seed={seed} count={count} version={version}>"


class CorpusEntry:
    """One case of a run's corpus: its id at once, the case when first asked for. A generated
    case is made then, in the process that runs it (``generator.GeneratedCases``), so listing a
    corpus of tens of thousands of cases costs milliseconds, not seconds."""

    __slots__ = ("id", "_case", "_make")

    def __init__(self, case_id: str, case: Optional[Case] = None,
                 make: Optional[Callable[[], Case]] = None) -> None:
        self.id = case_id
        self._case, self._make = case, make

    @property
    def case(self) -> Case:
        if self._case is None:
            assert self._make is not None
            self._case, self._make = self._make(), None
        return self._case


def corpus_entries(kind: str, seed: int, count: int, cases_dir: Optional[str],
                   version: int = DEFAULT_VERSION) -> list[CorpusEntry]:
    """``load_corpus``'s cases as entries: the hand-written ones loaded and validated now (a
    malformed file stops the run before it starts), the generated ones made when first used."""
    entries = [CorpusEntry(c.id, c) for c in load_corpus("hand", seed, 0, cases_dir)] \
        if kind in ("hand", "all") else []
    if kind in ("generated", "all") and count:
        corpus, source = generated_cases(seed, version), _source(seed, count, version)

        def maker(index: int) -> Callable[[], Case]:
            return lambda: Case.trusted(corpus.case(index), source)
        entries += [CorpusEntry(corpus.id(i), make=maker(i)) for i in range(count)]
    return entries
