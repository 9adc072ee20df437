"""The registry of differential programs: one per framework, keyed by the program's name.

A theme module registers a program with its framework's decorator (``torch_program`` or
``paddle_program``); ``programs(framework)`` imports every theme module of
``tests/programs/<framework>/`` and returns the programs they registered, so a new theme file
needs no list to be added to.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any, Callable

Program = Callable[[Any], list[Any]]


class Registry(dict[str, Program]):
    """Programs by name; registering a second program under a name already taken is an error,
    since the name is the program's test id and one would hide the other."""

    def __init__(self, framework: str):
        super().__init__()
        self.framework = framework

    def __call__(self, fn: Program) -> Program:
        """Register ``fn`` under its name (used as a decorator)."""
        if fn.__name__ in self:
            raise ValueError(f"{self.framework} program {fn.__name__!r} is registered twice: in "
                             f"{self[fn.__name__].__module__} and in {fn.__module__}")
        self[fn.__name__] = fn
        return fn


_REGISTRIES = {"torch": Registry("torch"), "paddle": Registry("paddle")}
torch_program = _REGISTRIES["torch"]
paddle_program = _REGISTRIES["paddle"]


def programs(framework: str) -> dict[str, Program]:
    """Every program written against ``framework`` ("torch" or "paddle"), by name."""
    package = importlib.import_module(f"tests.programs.{framework}")
    for module in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"{package.__name__}.{module.name}")
    return dict(_REGISTRIES[framework])
