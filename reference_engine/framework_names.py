"""The names each framework has, per namespace, so that a facade refuses a name the framework
has with a ``NotModelledError`` that names it, and answers a name the framework lacks as Python
does (a program probing with ``hasattr`` sees what it would see on the framework).

The listing (``dialects/framework_names.json``) is written from the real frameworks by
``autograd-oracle inventory scan``; it is read on the first miss, so the facades' import never
pays for it.
"""

from __future__ import annotations

import functools
import json
import sys
import types
from pathlib import Path
from typing import Any, Callable

from reference_engine.messages import NotModelledError

LISTING = Path(__file__).with_name("dialects") / "framework_names.json"


@functools.cache
def _listing() -> dict[str, frozenset[str]]:
    with LISTING.open() as f:
        return {namespace: frozenset(names) for namespace, names in json.load(f)["namespaces"].items()}


def framework_has(namespace: str, name: str) -> bool:
    """Whether the framework's ``namespace`` (``torch.nn``, ``paddle.Tensor``) has ``name``."""
    return name in _listing().get(namespace, ())


def missing(namespace: str, name: str, python_error: str) -> AttributeError:
    """The error for ``name`` absent from a facade's ``namespace``: ``NotModelledError`` when
    the framework has it, else ``python_error`` as an ``AttributeError``."""
    if not name.startswith("__") and framework_has(namespace, name):
        facade = "reference_engine." + namespace.split(".")[0]
        return NotModelledError(f"{python_error} ({facade} does not model {namespace}.{name})")
    return AttributeError(python_error)


def missing_from_module(namespace: str, name: str) -> AttributeError:
    return missing(namespace, name, f"module {namespace!r} has no attribute {name!r}")


def missing_from_object(namespace: str, obj: object, name: str) -> AttributeError:
    return missing(namespace, name, f"{type(obj).__name__!r} object has no attribute {name!r}")


def module_getattr(namespace: str) -> Callable[[str], Any]:
    """A facade module's ``__getattr__``: ``__getattr__ = module_getattr("torch.nn")``."""

    def refuse(name: str) -> Any:
        raise missing_from_module(namespace, name)

    return refuse


def defining_module(path: str, namespace: str, members: dict[str, Any]) -> types.ModuleType:
    """An importable module at ``path`` (``reference_engine.torch.utils.data.sampler``) holding
    ``members``, the facade's own objects, under the path where the framework defines them
    (``torch.utils.data.sampler``); other names of the framework's module are refused by name."""
    made = types.ModuleType(path, f"{namespace}, as the reference facade models it")
    for name, value in members.items():
        setattr(made, name, value)
    made.__getattr__ = module_getattr(namespace)  # type: ignore[method-assign]
    sys.modules[path] = made
    return made


def instance_getattr(namespace: str) -> Callable[[Any, str], Any]:
    """A facade class's ``__getattr__`` (called only when normal lookup fails), refusing the
    framework's names for instances of ``namespace`` (``torch.Tensor``)."""

    def refuse(self: Any, name: str) -> Any:
        raise missing_from_object(namespace, self, name)

    return refuse
