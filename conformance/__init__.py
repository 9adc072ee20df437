"""Runs autograd programs on several backends and compares what they observe.

The package is grouped by job, each layer importing only the ones before it: ``corpus`` (the
case format, loading, the generator), ``run`` (backends, the interpreter, isolated processes,
the finite-difference gradient check, repro programs), ``judge`` (comparison, verdicts, known
divergences) and ``report``; ``cli``, ``pytest_plugin``, ``sweep`` and ``fuzz`` are the jobs on
top. The modules' earlier flat paths
(``conformance.compare``, ``conformance.loader``, …) still import, as the same modules.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import ModuleType
from typing import Optional, Sequence

# earlier flat module path -> where the module lives now
MOVED = {
    "case": "corpus.case", "coverage": "corpus.coverage", "generator": "corpus.generator",
    "generators": "corpus.generators", "loader": "corpus.loader",
    "seed_examples": "corpus.seed_examples", "vocabulary": "corpus.vocabulary",
    "adapters": "run.adapters", "backends": "run.backends", "interpreter": "run.interpreter",
    "isolation": "run.isolation", "lookahead": "run.lookahead", "trace": "run.trace",
    "compare": "judge.compare", "known": "judge.known", "oracle": "run.gradient_check",
    "verdict": "judge.verdict", "repro": "run.repro",
}


def _current_name(fullname: str) -> Optional[str]:
    """Where the module an earlier path names lives now (None: a path that did not move)."""
    head, _, rest = fullname.partition(".")
    if head != __name__ or not rest:
        return None
    first, _, tail = rest.partition(".")
    if first not in MOVED:
        return None
    return f"{__name__}.{MOVED[first]}" + (f".{tail}" if tail else "")


class _EarlierPaths(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports an earlier path as the module itself (not a copy), so that patching or reading
    it through either name sees the same objects."""

    def find_spec(self, fullname: str, path: Optional[Sequence[str]],
                  target: Optional[ModuleType] = None) -> Optional[importlib.machinery.ModuleSpec]:
        current = _current_name(fullname)
        if current is None:
            return None
        spec = importlib.util.spec_from_loader(fullname, self)
        spec.loader_state = current  # type: ignore[union-attr]
        return spec

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(spec.loader_state)
        spec.loader_state = module.__spec__  # the import system sets the alias's spec on it next
        return module

    def exec_module(self, module: ModuleType) -> None:
        module.__spec__ = module.__spec__.loader_state  # type: ignore[union-attr]

if not any(isinstance(finder, _EarlierPaths) for finder in sys.meta_path):
    sys.meta_path.append(_EarlierPaths())
