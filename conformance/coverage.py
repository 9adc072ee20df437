"""Feature coverage of a corpus: how many cases fall in each bucket, per dialect.

A case's buckets are its declared ``tags`` together with what its steps show (a backward or grad
step without seeds is an implicit seed, a ``clear_grad`` step is clearing, …).
"""

from __future__ import annotations

from typing import Iterable

from conformance.case import Case, walk
from conformance.vocabulary import BUCKETS, DIALECTS


def buckets_of(case: Case) -> set[str]:
    found = set(case.tags)
    steps = [step for _, step, _ in walk(case.steps)]
    autograd = [s for s in steps if "backward" in s or "grad" in s]
    for s in autograd:
        seeds = s.get("seeds")
        if seeds is None:
            found.add("seed:implicit-scalar")
        else:
            if any(x is not None for x in seeds):
                found.add("seed:explicit")
            if any(x is None for x in seeds):
                found.add("seed:none-entry")
        for key, bucket in (("retain_graph", "retain_graph"), ("allow_unused", "allow_unused"),
                            ("materialize_grads", "materialize_grads"),
                            ("no_grad_vars", "no_grad_input")):
            if key in s:
                found.add(bucket)
        if s.get("create_graph"):
            found.add("create_graph")
    if sum(1 for s in steps if "backward" in s) >= 2:
        found.add("accumulation")
    if any("clear_grad" in s for s in steps):
        found.add("clearing")
    if sum(1 for s in steps if "grad" in s and s.get("create_graph")) >= 2:
        found.add("higher_order")
    return found & set(BUCKETS)


def bucket_counts(cases: Iterable[Case]) -> dict[str, dict[str, int]]:
    """``{bucket: {dialect: count}}`` for every bucket and dialect (zeros included)."""
    counts = {b: {d: 0 for d in DIALECTS} for b in BUCKETS}
    for case in cases:
        for bucket in buckets_of(case):
            for dialect in case.dialects:
                counts[bucket][dialect] += 1
    return counts


def format_counts(counts: dict[str, dict[str, int]]) -> str:
    width = max(len(b) for b in counts)
    lines = [f"{'bucket':<{width}}  " + "  ".join(f"{d:>7}" for d in DIALECTS)]
    for bucket, per in counts.items():
        lines.append(f"{bucket:<{width}}  " + "  ".join(f"{per[d]:>7}" for d in DIALECTS))
    return "\n".join(lines)
