"""Which cases a run takes: ``--select`` (glob patterns of case ids) and ``--shard K/N``.

The CLI checks both before any work and the pytest plugin applies them; both parse them here,
so the two cannot disagree on what a pattern or a shard means.
"""

from __future__ import annotations

import fnmatch
import random
from typing import Iterable, Optional, Protocol, Sequence, TypeVar


class _Identified(Protocol):
    @property
    def id(self) -> str: ...


C = TypeVar("C", bound=_Identified)


def select(cases: Iterable[C], patterns: Optional[str]) -> list[C]:
    """The cases whose id matches one of the comma-separated glob ``patterns`` (all of them
    when there are none)."""
    if not patterns:
        return list(cases)
    globs = patterns.split(",")
    return [c for c in cases if any(fnmatch.fnmatchcase(c.id, g) for g in globs)]


def parse_shard(text: str) -> tuple[int, int]:
    """``"K/N"`` as ``(K, N)``; a ValueError that says what is expected for anything else."""
    k, _, n = text.partition("/")
    if not (k.isdigit() and n.isdigit() and 1 <= int(k) <= int(n)):
        raise ValueError(f"--shard expects K/N with 1 <= K <= N, got {text!r}")
    return int(k), int(n)


def in_shard(case_ids: Sequence[str], shard: tuple[int, int]) -> set[str]:
    """The ids of shard ``K`` of ``N``: cases are dealt round-robin, so every shard holds as many
    (to one), and a case's items (one per backend) stay in one shard. They are dealt in a fixed
    shuffled order, not the corpus's: the generator makes every second case heavier (version 4's
    pairs section), and dealing in order would give every such case to the same shards."""
    k, n = shard
    order = list(dict.fromkeys(case_ids))
    random.Random(SHARD_SHUFFLE).shuffle(order)
    return {case_id for i, case_id in enumerate(order) if i % n == k - 1}


SHARD_SHUFFLE = "autograd-oracle/shards"  # the shuffle's seed: every shard of a run deals alike
