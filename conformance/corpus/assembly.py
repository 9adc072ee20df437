"""The corpus of a run: the hand-written cases, the generated ones, or both.

Every job that needs the cases (the pytest plugin, the CLI, the report builder, the benchmarks)
assembles them here, from the same options a run records.
"""

from __future__ import annotations

from typing import Any, Optional

from conformance.corpus.case import Case
from conformance.corpus.generator import DEFAULT_VERSION, generated_corpus
from conformance.corpus.loader import hand_written_dir, load_directory


def load_corpus(kind: str, seed: int, count: int, cases_dir: Optional[str],
                generated: Optional[list[dict[str, Any]]] = None,
                version: int = DEFAULT_VERSION) -> list[Case]:
    """The hand-written cases (validated) and the generated ones.

    Generated cases are well-formed by construction (a test validates every case of the default
    corpus), so they are wrapped without validating them again in every test process.
    """
    cases: list[Case] = []
    if kind in ("hand", "all"):
        cases += load_directory(cases_dir or hand_written_dir())
    if kind in ("generated", "all") and count:
        source = f"<generated seed={seed} count={count} version={version}>"
        cases += [Case.trusted(raw, source)
                  for raw in (generated or generated_corpus(seed, count, version))]
    return cases
