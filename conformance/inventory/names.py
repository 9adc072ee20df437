"""Dotted API names resolved on a framework or a facade, and the frameworks' method names."""

from __future__ import annotations

import importlib
from typing import Any

from conformance.inventory.scan import MethodOwners
from reference_engine.messages import NotModelledError

# The classes whose attribute names count as methods, in the order a shared name is given to.
METHOD_CLASSES = {
    "torch": ("torch.Tensor", "torch.nn.Module", "torch.optim.Optimizer"),
    "paddle": ("paddle.Tensor", "paddle.nn.Layer", "paddle.optimizer.Optimizer"),
}


def resolve(root: Any, api: str) -> Any:
    """The object ``api`` names under ``root`` (a facade or a framework module), importing
    submodules as a program's ``import`` would; raises AttributeError (NotModelledError where
    the facade says it lacks the name) or ImportError."""
    obj = root
    for part in api.split(".")[1:]:
        obj = _member(obj, part)
    return obj


def _member(obj: Any, name: str) -> Any:
    """``obj.name``, a submodule of a package included; on a facade class, what an instance
    answers (its ``__getattr__`` refuses the framework's names)."""
    try:
        return getattr(obj, name)
    except NotModelledError:
        raise
    except AttributeError as error:
        if hasattr(obj, "__path__"):
            try:
                return importlib.import_module(f"{obj.__name__}.{name}")
            except ImportError:
                raise error from None
        if not isinstance(obj, type):
            raise
        hooks = [vars(c)["__getattr__"] for c in obj.__mro__ if "__getattr__" in vars(c)]
        if not hooks:
            raise
        return hooks[0](object.__new__(obj), name)


def method_owners(framework: str) -> MethodOwners:
    """The real framework's method names per class (imports the framework)."""
    root = importlib.import_module(framework)
    return MethodOwners({qualified: frozenset(n for n in dir(resolve(root, qualified))
                                              if not n.startswith("__"))
                         for qualified in METHOD_CLASSES[framework]})
