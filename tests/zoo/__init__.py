"""A zoo of planted bugs: torch- and paddle-shaped modules that delegate to the real framework,
each changing one thing — an API argument, a state flag, an op's special point.

The mutants are rows of a table (``tests/zoo/mutants.py``), not files: importing
``tests.zoo.torch.<mutant>`` or ``tests.zoo.paddle.<mutant>`` makes a module that imports the
real framework, plants the mutant in this process and hands out the framework's names. Each
backend runs in a process of its own, so a mutant changes only its own backend:

    autograd-oracle run --backends reference-torch,torch:tests.zoo.torch.backward_frees_despite_retain_graph

``python benchmarks/zoo.py`` runs them all through the runner and prints the kill rate and the
survivors.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types
from typing import Any, Optional

DIALECTS = {"torch": "torch", "paddle": "paddle"}


class _ZooFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Makes ``tests.zoo.<dialect>`` packages and their mutant modules on import."""

    def find_spec(self, fullname: str, path: Any, target: Any = None
                  ) -> Optional[importlib.machinery.ModuleSpec]:
        parts = fullname.split(".")
        if parts[:2] != ["tests", "zoo"] or len(parts) not in (3, 4) or parts[2] not in DIALECTS:
            return None
        if len(parts) == 4:
            from tests.zoo.mutants import MUTANTS

            if (parts[2], parts[3]) not in MUTANTS:
                return None
        return importlib.machinery.ModuleSpec(fullname, self, is_package=len(parts) == 3)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> Optional[types.ModuleType]:
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        parts = module.__name__.split(".")
        if len(parts) == 3:
            module.__path__ = []  # a package of mutants
            return
        from tests.zoo.mutants import MUTANTS

        dialect, name = parts[2], parts[3]
        mutant = MUTANTS[(dialect, name)]
        real = importlib.import_module(DIALECTS[dialect])
        overrides = mutant.plant(real) or {}
        module.__dict__.update(overrides)
        module.SUBJECT = f"{dialect} with a planted bug: {mutant.what}"
        module.SUBJECT_DISTRIBUTION = "paddlepaddle" if dialect == "paddle" else "torch"
        module.__getattr__ = lambda attr: getattr(real, attr)


if not any(isinstance(f, _ZooFinder) for f in sys.meta_path):
    sys.meta_path.insert(0, _ZooFinder())
