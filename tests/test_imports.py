"""The import structure: no circle among the files of ``reference_engine`` and of
``conformance``, and ``conformance``'s layers importing in one direction only.

Every import statement counts, at module level or inside a function, except those under
``if TYPE_CHECKING:`` (annotations only). ``from package import name`` is an edge to the
submodule where ``name`` is one, else to the package. A new circle fails here with its files.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST, package: str, known: set[str]) -> set[str]:
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == package)
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == package:
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.add(sub if sub in known else node.module)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def import_graph(package: str) -> dict[str, set[str]]:
    """Each module of ``package`` and the modules of the package it imports."""
    files = sorted((ROOT / package).rglob("*.py"))
    known = {_module(f) for f in files}
    return {_module(f): _imports(ast.parse(f.read_text(encoding="utf-8")), package, known) - {_module(f)}
            for f in files}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v] & graph.keys()):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return found


@pytest.mark.parametrize("package", ["reference_engine", "conformance"])
def test_no_import_cycles(package):
    assert cycles(import_graph(package)) == []


# conformance's layers, each importing only the ones before it (and the data files); the jobs
# on top (cli, pytest_plugin, sweep, fuzz, subjects, probes) may import any of them
LAYERS = ("corpus", "run", "judge", "report")


def layer_violations(graph: dict[str, set[str]]) -> list[str]:
    """``importer -> imported`` for each import of a later layer or of a job on top."""
    def layer(module: str) -> int:
        part = module.split(".")[1] if "." in module else ""
        if part == "data" or module == "conformance":
            return -1
        return LAYERS.index(part) if part in LAYERS else len(LAYERS)

    return [f"{m} -> {d}" for m, deps in sorted(graph.items()) if layer(m) < len(LAYERS)
            for d in sorted(deps) if layer(d) > layer(m)]


def test_conformance_layers_import_in_one_direction():
    assert layer_violations(import_graph("conformance")) == []


def test_a_planted_layer_violation_is_found():
    graph = {"conformance.judge.verdict": {"conformance.report.repro", "conformance.run.trace"},
             "conformance.run.isolation": {"conformance.data", "conformance.corpus.case"},
             "conformance.cli": {"conformance.report.build"}}
    assert layer_violations(graph) == ["conformance.judge.verdict -> conformance.report.repro"]


def test_a_planted_cycle_is_found():
    graph = {"p.a": {"p.b"}, "p.b": {"p.c"}, "p.c": {"p.a"}, "p.d": {"p.a"}}
    assert cycles(graph) == [["p.a", "p.b", "p.c"]]
