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

import functools
import hashlib
import json
import multiprocessing
import os
import threading
from pathlib import Path
from typing import Any, Optional, Sequence

from conformance.corpus.collector import collector_paused
from conformance.corpus.generators import v2, v3, v4, v5

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


def _chunk(job: tuple[int, int, int, int]) -> list[dict[str, Any]]:
    seed, count, start, version = job
    with collector_paused():
        return generate(seed, count, start, version)


def generate_in_parallel(seed: int, count: int, version: int = DEFAULT_VERSION,
                         processes: Optional[int] = None) -> list[dict[str, Any]]:
    """``generate(seed, count, version=version)``, in chunks over the cores this process may use:
    each case depends only on its index, so the chunks are made side by side and joined in
    order, the same cases as one process makes. A run generates before its first case runs, so
    this is time every run waits for. One process where a chunk or a core is all there is, or
    where this process has threads of its own (forking one is unsafe)."""
    if processes is None:
        processes = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    chunks = [(seed, min(CHUNK, count - start), start, version) for start in range(0, count, CHUNK)]
    processes = min(processes, len(chunks))
    with collector_paused():
        forkable = threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods()
        if processes < 2 or not forkable:
            return generate(seed, count, version=version)
        with multiprocessing.get_context("fork").Pool(processes) as pool:
            return [case for part in pool.map(_chunk, chunks, chunksize=1) for case in part]


@functools.lru_cache(maxsize=2)
def generated_corpus(seed: int, count: int, version: int = DEFAULT_VERSION) -> Sequence[dict[str, Any]]:
    """``generate(seed, count, version=version)``, made once per process (over its cores): a run
    checks its arguments, collects and reports on the same corpus. Shared, so read-only."""
    return tuple(generate_in_parallel(seed, count, version=version))


def share_corpus(path: Path, seed: int, count: int, version: int = DEFAULT_VERSION) -> None:
    """Write ``generated_corpus(seed, count, version)`` to ``path`` as JSON, for the other test
    processes of a run (pytest-xdist workers) to read with ``shared_corpus`` rather than each
    generating it again: reading takes half the time, and no worker waits for another."""
    document = {"seed": seed, "count": count, "generator": version,
                "cases": list(generated_corpus(seed, count, version))}
    path.write_text(json.dumps(document, separators=(",", ":")), encoding="utf-8")


def shared_corpus(path: Path, seed: int, count: int, version: int) -> list[dict[str, Any]]:
    """The cases ``share_corpus`` wrote, checked to be the corpus asked for (else ValueError)."""
    document = json.loads(path.read_text(encoding="utf-8"))
    made = (document.get("seed"), document.get("count"), document.get("generator"))
    if made != (seed, count, version):
        raise ValueError(f"{path}: holds the corpus of seed {made[0]}, count {made[1]}, generator "
                         f"{made[2]}, not of seed {seed}, count {count}, generator {version}")
    return document["cases"]


def corpus_bytes(cases: list[dict[str, Any]]) -> bytes:
    """The canonical serialisation whose hash the manifest pins."""
    return json.dumps({"format": 1, "cases": cases}, sort_keys=True,
                      separators=(",", ":")).encode("utf-8")


def corpus_sha256(cases: list[dict[str, Any]]) -> str:
    return hashlib.sha256(corpus_bytes(cases)).hexdigest()
