"""A strict torch and a strict paddle: autograd entry points that take exactly the call the
case's repro program shows, and refuse any other.

A torch-shaped framework may know fewer keywords than torch (paddle's torch proxy has no
``create_graph`` on ``Tensor.backward``). If the runner added a keyword the case never named,
such a framework would fail on the runner's call, and the repro printed beside the failure would
not be what ran. Inside :func:`strict_calls`, the framework's ``Tensor.backward``,
``autograd.backward`` and ``grad`` check each call the adapter makes against the next call of
the repro program (read with ``ast``, never run) — the same number of positional arguments and
the same keyword names — and raise ``TypeError`` otherwise.
"""

from __future__ import annotations

import ast
import contextlib
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import conformance.run.adapters as adapters_module

ADAPTERS_FILE = Path(adapters_module.__file__).resolve()


@dataclass(frozen=True)
class Call:
    """An autograd entry point called with so many positional arguments and these keywords."""

    api: str  # "Tensor.backward", "autograd.backward" or "grad"
    positional: int
    keywords: tuple[str, ...]


def _api(node: ast.Call) -> str | None:
    func = node.func
    if not isinstance(func, ast.Attribute):
        return None
    owner = ast.unparse(func.value)
    if func.attr == "backward":
        return "autograd.backward" if owner.endswith(".autograd") else "Tensor.backward"
    if func.attr == "grad" and owner in ("torch.autograd", "paddle"):
        return "grad"
    return None


class _TopLevelCalls(ast.NodeVisitor):
    """Autograd calls the program makes itself, in order: not those inside a function, a class
    or a lambda, which run when something else calls them."""

    def __init__(self) -> None:
        self.calls: list[Call] = []

    def visit_Call(self, node: ast.Call) -> None:
        self.generic_visit(node)
        api = _api(node)
        if api is not None:
            self.calls.append(Call(api, len(node.args), tuple(sorted(k.arg for k in node.keywords))))

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        pass

    visit_ClassDef = visit_Lambda = visit_FunctionDef  # noqa: N815 - ast.NodeVisitor names


def repro_calls(program: str) -> list[Call]:
    """The autograd calls a repro program makes, in the order it makes them."""
    visitor = _TopLevelCalls()
    visitor.visit(ast.parse(program))
    return visitor.calls


def _entry_points(framework: Any) -> dict[str, tuple[Any, str]]:
    """Where each entry point lives: (owner object, attribute)."""
    grad_owner = framework.autograd if framework.__name__ == "torch" else framework
    return {"Tensor.backward": (framework.Tensor, "backward"),
            "autograd.backward": (framework.autograd, "backward"),
            "grad": (grad_owner, "grad")}


@contextlib.contextmanager
def strict_calls(framework: Any, expected: list[Call]) -> Iterator[list[Call]]:
    """Inside, ``framework``'s autograd entry points refuse any call of the adapter's that is
    not the next of ``expected``; yields the calls made. Calls from elsewhere (the framework's
    own functional API calling its ``grad``) pass through unchecked."""
    made: list[Call] = []
    originals = {api: getattr(owner, attr) for api, (owner, attr) in _entry_points(framework).items()}

    def strict(api: str, original: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            if Path(sys._getframe(1).f_code.co_filename).resolve() != ADAPTERS_FILE:
                return original(*args, **kwargs)
            positional = len(args) - (1 if api == "Tensor.backward" else 0)  # not self
            got = Call(api, positional, tuple(sorted(kwargs)))
            want = expected[len(made)] if len(made) < len(expected) else None
            made.append(got)
            if got != want:
                raise TypeError(f"strict {framework.__name__}: the adapter called {got}, the "
                                f"repro program shows {want}")
            return original(*args, **kwargs)
        return call

    try:
        for api, (owner, attr) in _entry_points(framework).items():
            setattr(owner, attr, strict(api, originals[api]))
        yield made
    finally:
        for api, (owner, attr) in _entry_points(framework).items():
            setattr(owner, attr, originals[api])
