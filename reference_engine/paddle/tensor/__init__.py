"""``paddle.tensor``: paddle's tensor functions under their defining modules
(``paddle.tensor.math.add``, ``paddle.tensor.manipulation.concat``) and directly
(``paddle.tensor.concat``); each is the facade's own ``paddle.<name>``."""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any

from reference_engine.framework_names import missing_from_module

SUBMODULES = ("attribute", "creation", "einsum", "linalg", "logic", "manipulation", "math", "random",
              "search", "stat")


def _from_facade(namespace: str, name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(f"module {namespace!r} has no attribute {name!r}")
    facade = importlib.import_module("reference_engine.paddle")
    try:
        return getattr(facade, name)
    except AttributeError:
        raise missing_from_module(namespace, name) from None


def _submodule(name: str) -> types.ModuleType:
    module = types.ModuleType(f"{__name__}.{name}", f"``paddle.tensor.{name}``: the facade's functions.")
    module.__getattr__ = lambda attribute: _from_facade(f"paddle.tensor.{name}", attribute)  # type: ignore[method-assign]
    sys.modules[module.__name__] = module
    return module


for _name in SUBMODULES:
    globals()[_name] = _submodule(_name)


def __getattr__(name: str) -> Any:
    return _from_facade("paddle.tensor", name)
