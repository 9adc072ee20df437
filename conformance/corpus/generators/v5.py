"""Generator version 5: version 4's programs, each followed by a section that reaches an op of
the op registry (``conformance/corpus/op_registry.py``, ``generators/registry_ops.py``).

Case ``i`` is version 4's case of the same seed and index (ids ``gen5/...``), then section
``i``: op ``i mod n`` of the ``n`` registry entries, by ``backward`` with a hook on its output,
to second order through ``grad`` with ``create_graph``, or at one of its special points, in
turn. The section has names of its own and keeps to the dialects of the program before it
(and to those the op is in); a section no dialect of the program can run is left out.
"""

from __future__ import annotations

import random
from typing import Any, Optional

from conformance.corpus.generators import base, registry_ops, v4
from conformance.corpus.generators.base import Program

VERSION = 5


def generate_case(seed: int, index: int, wide: bool = False,
                  dtype: Optional[str] = None) -> dict[str, Any]:
    """Case ``index`` of the corpus ``seed``; ``wide`` and ``dtype`` as version 3 takes them
    (``dtype`` also the section's, in place of the one it draws)."""
    case = v4.generate_case(seed, index, wide=wide, dtype=dtype)
    case["id"] = case["id"].replace("gen4/", f"gen{VERSION}/", 1)
    rng = random.Random(f"autograd-oracle/{VERSION}/registry/{seed}/{index}")
    drawn = "float64" if rng.random() < 0.7 else "float32"
    p = Program(rng, dtype or drawn)
    p.counter = 2000  # names of its own, apart from the program and version 4's section
    p.dialects = set(case.get("dialects", base.BOTH))
    registry_ops.section(p, index)
    if not p.dialects or not p.steps:
        return case
    case["steps"] = case["steps"] + p.steps
    case["tags"] = sorted(set(case["tags"]) | p.tags)
    if p.dialects != set(base.BOTH):
        case["dialects"] = sorted(p.dialects)
    case["about"] += f"; then {registry_ops.op_of(index).name} of the op registry"
    return case
