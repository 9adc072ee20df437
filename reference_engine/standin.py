"""Run a program written for torch or paddle on the reference engine, unchanged.

    python -m reference_engine.standin torch program.py [args ...]
    python -m reference_engine.standin paddle program.py [args ...]

Inside the program, ``import torch`` (``import paddle``) and the import of any of its submodules
(``torch.nn.functional``, ``from torch.autograd import grad``) give the reference engine's facade
and its submodules. A submodule the facade does not have fails with an ``ImportError`` that
names it, so a program never runs half on one engine and half on another.

``stand_in("torch")`` installs the same redirection in the running process, for tests and
notebooks; ``run_program`` runs a file under it as ``__main__``.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import runpy
import sys
import types
from typing import Any, Optional, Sequence

FACADES = {"torch": "reference_engine.torch", "paddle": "reference_engine.paddle"}


class _StandIn(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports ``framework`` and ``framework.<sub>`` as the facade's modules themselves."""

    def __init__(self, framework: str) -> None:
        self.framework = framework
        self.facade = FACADES[framework]

    def find_spec(self, fullname: str, path: Optional[Sequence[str]],
                  target: Optional[types.ModuleType] = None) -> Optional[importlib.machinery.ModuleSpec]:
        head, _, tail = fullname.partition(".")
        if head != self.framework:
            return None
        spec = importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        spec.loader_state = self.facade + (f".{tail}" if tail else "")
        return spec

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        target = spec.loader_state
        try:
            module = importlib.import_module(target)
        except ModuleNotFoundError as exc:
            if exc.name is None or not target.startswith(exc.name):
                raise
            raise ModuleNotFoundError(f"{self.facade} has no {spec.name} (the reference engine "
                                      "does not model it)", name=spec.name) from None
        spec.loader_state = module.__spec__  # the import system sets the alias's spec on it next
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        """The facade's module ran when it was imported under its own name: give it back its
        own spec."""
        module.__spec__ = module.__spec__.loader_state  # type: ignore[union-attr]


def stand_in(framework: str) -> None:
    """From now on, importing ``framework`` (``"torch"`` or ``"paddle"``) in this process gives
    the reference engine's facade. Modules already imported under that name are dropped."""
    if framework not in FACADES:
        raise ValueError(f"no reference facade for {framework!r}; choose one of {sorted(FACADES)}")
    for name in [n for n in sys.modules if n == framework or n.startswith(framework + ".")]:
        del sys.modules[name]
    if not any(isinstance(f, _StandIn) and f.framework == framework for f in sys.meta_path):
        sys.meta_path.insert(0, _StandIn(framework))


def run_program(framework: str, path: str, argv: Sequence[str] = ()) -> dict[str, Any]:
    """Run the program at ``path`` as ``__main__`` with ``framework`` standing in for the
    reference facade; returns the program's globals."""
    stand_in(framework)
    sys.argv = [path, *argv]
    return runpy.run_path(path, run_name="__main__")


def main(argv: Optional[Sequence[str]] = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) < 2 or args[0] not in FACADES:
        sys.exit(f"usage: python -m reference_engine.standin {{{','.join(FACADES)}}} PROGRAM [ARGS ...]")
    run_program(args[0], args[1], args[2:])


if __name__ == "__main__":
    main()
