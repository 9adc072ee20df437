"""The deterministic corpus generator: random autograd programs as data.

``generate(seed, count, version=...)`` returns ``count`` case objects (JSON-ready dicts). Case
``i`` depends only on (version, ``seed``, ``i``): its random stream is seeded with a string, which
Python hashes with SHA-512 on every platform, and values are rounded to three decimals, so the
same triple gives byte-identical JSON on any machine, and any slice of a corpus can be
regenerated alone.

Four versions: 4 (``conformance/corpus/generators/v4.py``) makes the default corpus: version 3's
programs, one in two followed by a section that reaches every pair of argument value × state
(``conformance/corpus/pairs.py``). 3 (``generators/v3.py``): version 2's programs, about one in
eight passing through a custom function (``torch.autograd.Function`` /
``paddle.autograd.PyLayer``) before its autograd scenario, with torch's other hooks, modules,
optimizers and the functional API. 2 (``generators/v2.py``) is the base's programs
(``generators/base.py``) without extensions: the whole feature matrix of the rest of the
vocabulary (hooks, grad-mode blocks, detach, in-place ops on leaves, views and saved tensors,
every keyword, every op's argument forms and special points). Each version builds on the base
(and 4 on 3), never on another version's module's internals. Versions 2 and 3 stay available
byte for byte (``autograd-oracle run --generator 3``). Version 1, the first
corpus, is retired: no committed baseline uses it, and git keeps it
(``git log --all -- conformance/corpus/generators/v1.py``).
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import threading
from typing import Any, Optional, Sequence

from conformance.corpus.collector import collector_paused
from conformance.corpus.generators import base, v2, v3, v4, v5

VERSIONS = {2: v2, 3: v3, 4: v4, 5: v5}
VERSIONS_HELP = ("generator version: 5 ends each of 4's cases with a section reaching an op of "
                 "the op registry (every op, to second order and at its special points); "
                 "4 (the default corpus) ends one case in two with a section "
                 "reaching every pair of argument value x state; 3 adds custom functions and "
                 "torch's other hooks to 2, which reaches the feature matrix")
DEFAULT_VERSION = 4
GENERATOR_VERSION = DEFAULT_VERSION  # the default corpus's


def generate_case(seed: int, index: int, version: int = DEFAULT_VERSION) -> dict[str, Any]:
    """Case ``index`` of corpus ``seed``, by generator ``version``."""
    return VERSIONS[version].generate_case(seed, index)


def generate(seed: int, count: int, start: int = 0, version: int = DEFAULT_VERSION) -> list[dict[str, Any]]:
    """Cases ``start`` .. ``start + count - 1`` of corpus ``seed``."""
    make = VERSIONS[version].generate_case
    return [make(seed, i) for i in range(start, start + count)]


# A chunk of the corpus a helper process generates: enough that starting it pays for itself.
CHUNK = 500


def _chunk(job: tuple[int, list[int], int]) -> list[dict[str, Any]]:
    seed, indices, version = job
    with collector_paused():
        return [generate_case(seed, i, version) for i in indices]


def generate_in_parallel(seed: int, count: int, version: int = DEFAULT_VERSION,
                         processes: Optional[int] = None) -> list[dict[str, Any]]:
    """``generate(seed, count, version=version)`` over the cores (``generate_indices``)."""
    return generate_indices(seed, range(count), version, processes)


def generate_indices(seed: int, indices: Sequence[int], version: int = DEFAULT_VERSION,
                     processes: Optional[int] = None) -> list[dict[str, Any]]:
    """Cases ``indices`` of corpus ``seed``, in chunks over the cores this process may use: each
    case depends only on its index, so the chunks are made side by side and joined in order, the
    same cases as one process makes, in one process where a chunk or a core is all there is.
    The helpers are forked, or started afresh where this process has threads of its own (forking
    one is unsafe): a run's own process makes the corpus for its reports in a thread."""
    if processes is None:
        processes = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    indices = list(indices)
    chunks = [(seed, indices[start:start + CHUNK], version) for start in range(0, len(indices), CHUNK)]
    processes = min(processes, len(chunks))
    with collector_paused():
        if processes < 2:
            return [generate_case(seed, i, version) for i in indices]
        forkable = threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods()
        with multiprocessing.get_context("fork" if forkable else "spawn").Pool(processes) as pool:
            return [case for part in pool.map(_chunk, chunks, chunksize=1) for case in part]


class GeneratedCases:
    """The cases of generator ``version``'s corpus ``seed`` in this process, each made when first
    asked for and then kept (shared, so read-only).

    A run lists its items by id (``case_id``, microseconds a case) and a test process makes only
    the cases it runs, as it comes to them: no process waits for the whole corpus before its
    first case, and the processes of a parallel run make their own shares side by side. Whoever
    needs the whole corpus (the reports, its hash) gets it with ``first``; what this process
    made already is not made again.
    """

    def __init__(self, seed: int, version: int) -> None:
        self.seed, self.version = seed, version
        self.made: dict[int, dict[str, Any]] = {}
        self.lock = threading.Lock()

    def id(self, index: int) -> str:
        return case_id(self.seed, index, self.version)

    def case(self, index: int) -> dict[str, Any]:
        made = self.made.get(index)
        if made is None:
            with collector_paused():
                made = self.made.setdefault(index, generate_case(self.seed, index, self.version))
        return made

    def first(self, count: int) -> tuple[dict[str, Any], ...]:
        """Cases ``0 .. count - 1``, the ones this process has not made yet over its cores (all
        of them in a process that runs no case: the CLI's with workers, the reports')."""
        with self.lock:
            missing = [i for i in range(count) if i not in self.made]
            if missing:
                self.made.update(zip(missing, generate_indices(self.seed, missing, self.version)))
        return tuple(self.made[i] for i in range(count))


_CORPORA: dict[tuple[int, int], GeneratedCases] = {}


def generated_cases(seed: int, version: int = DEFAULT_VERSION) -> GeneratedCases:
    """This process's ``GeneratedCases`` of corpus ``seed`` (two corpora kept: a process runs
    one, and its tests a few)."""
    key = (seed, version)
    if key not in _CORPORA:
        while len(_CORPORA) >= 2:
            del _CORPORA[next(iter(_CORPORA))]
        _CORPORA[key] = GeneratedCases(seed, version)
    return _CORPORA[key]


def generated_corpus(seed: int, count: int, version: int = DEFAULT_VERSION) -> Sequence[dict[str, Any]]:
    """``generate(seed, count, version=version)``, each case made once per process (over its
    cores where none is made yet): a run checks its arguments, runs and reports on the same
    corpus. Shared, so read-only."""
    return generated_cases(seed, version).first(count)


def case_id(seed: int, index: int, version: int = DEFAULT_VERSION) -> str:
    """``generate_case(seed, index, version)["id"]`` without making the case."""
    return base.case_id(seed, index, version)


def corpus_bytes(cases: list[dict[str, Any]]) -> bytes:
    """The canonical serialisation whose hash the manifest pins."""
    return json.dumps({"format": 1, "cases": cases}, sort_keys=True,
                      separators=(",", ":")).encode("utf-8")


def corpus_sha256(cases: list[dict[str, Any]]) -> str:
    return hashlib.sha256(corpus_bytes(cases)).hexdigest()
