"""Count the framework APIs a body of code uses, by reading its source (never running it).

A body is a folder: its ``.py`` files, the Python code blocks of its ``.md`` / ``.rst`` pages
and the code cells of its notebooks. A page's or notebook's blocks are read as one program, in
order, so an ``import`` in its first block names the module in the later ones (d2l-style books
mark each block with the frameworks it is for, ``#@tab pytorch``; blocks for another framework
are skipped).

Two kinds of name are counted:

- **qualified names**, an attribute chain rooted at an import of the framework
  (``torch.nn.functional.relu``, ``F.relu`` after ``import torch.nn.functional as F``, ``grad``
  after ``from torch.autograd import grad``), counted at its full length;
- **methods and attributes** of the framework's tensor, module and optimizer classes
  (``Tensor.backward``, ``Module.parameters``), counted wherever an attribute of that name is
  read or written on something that is not a framework module. Syntax cannot tell
  ``x.split(...)`` on a tensor from the same call on a string, so names that Python's own
  ``str``, ``list``, ``dict`` and ``set`` have are left out of this kind.
"""

from __future__ import annotations

import ast
import json
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator, Optional

FRAMEWORKS = ("torch", "paddle")
# d2l-style books tag each block with the frameworks it is for; an untagged block is the
# book's default framework (mxnet in d2l), which is neither.
_TAB_NAMES = {"torch": ("pytorch", "torch", "all"), "paddle": ("paddle", "all")}
_FENCE = re.compile(r"^```\s*(\{[^}]*\}|[\w.+-]*)\s*$")
_RST_BLOCK = re.compile(r"^(\s*)\.\. (code-block|code|sourcecode)::\s*(python|py|python3|ipython)\s*$")
_REGISTRIES = ("_buffers", "_parameters", "_modules")  # private names programs use all the same
_PYTHON_OWN = frozenset(name for t in (str, list, dict, set, tuple) for name in dir(t))


@dataclass(frozen=True)
class MethodOwners:
    """The classes whose attribute names count as methods, first match wins, for one
    framework: ``{"Tensor": names, "Module": names, ...}``."""

    owners: dict[str, frozenset[str]]

    def owner(self, attribute: str, on_self: bool = False) -> Optional[str]:
        """The class ``attribute`` is counted for; read on ``self`` (inside a class, most often
        a module's own), the tensor class comes last."""
        private = attribute.startswith("_") and not attribute.startswith("__")
        if (private and attribute not in _REGISTRIES) or attribute in _PYTHON_OWN:
            return None
        return self._first(attribute, on_self)

    def _first(self, attribute: str, on_self: bool = False) -> Optional[str]:
        order = list(self.owners.items())
        if on_self:
            order = order[1:] + order[:1]
        for owner, names in order:
            if attribute in names:
                return owner
        return None


def _tabs(info: str) -> Optional[tuple[str, ...]]:
    match = re.search(r"#@tab\s+(.+)", info)
    return tuple(t.strip() for t in match.group(1).split(",")) if match else None


def markdown_blocks(text: str, framework: str) -> Iterator[str]:
    """The Python code blocks of a Markdown page meant for ``framework``."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        match = _FENCE.match(lines[i].strip())
        if match is None or not lines[i].strip().startswith("```") or lines[i].strip() == "```":
            i += 1
            continue
        info = match.group(1)
        body: list[str] = []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith("```"):
            body.append(lines[i])
            i += 1
        i += 1
        if "python" not in info and info not in ("py", "py3", "python3", "ipython"):
            continue
        if info.startswith("{"):
            tabs = _tabs(body[0]) if body else None
            if tabs is None or not any(t in _TAB_NAMES[framework] for t in tabs):
                continue
        yield "\n".join(body)


def rst_blocks(text: str) -> Iterator[str]:
    """The Python ``code-block`` bodies of a reStructuredText page."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        match = _RST_BLOCK.match(lines[i])
        i += 1
        if match is None:
            continue
        indent = len(match.group(1))
        body: list[str] = []
        while i < len(lines) and (not lines[i].strip() or len(lines[i]) - len(lines[i].lstrip()) > indent):
            body.append(lines[i])
            i += 1
        yield _dedent(body)


def notebook_cells(text: str) -> Iterator[str]:
    try:
        cells = json.loads(text).get("cells", [])
    except (ValueError, AttributeError):
        return
    for cell in cells:
        if isinstance(cell, dict) and cell.get("cell_type") == "code":
            source = cell.get("source", "")
            yield "".join(source) if isinstance(source, list) else str(source)


def _dedent(lines: list[str]) -> str:
    widths = [len(line) - len(line.lstrip()) for line in lines if line.strip()]
    cut = min(widths, default=0)
    return "\n".join(line[cut:] for line in lines)


def _without_magics(block: str) -> str:
    """A notebook or book block with its shell and magic lines (``!pip``, ``%matplotlib``) and
    doctest prompts turned into plain Python."""
    out = []
    for line in block.splitlines():
        stripped = line.lstrip()
        if stripped.startswith(("!", "%", "?")):
            continue
        if stripped.startswith((">>> ", "... ")):
            line = stripped[4:]
        elif stripped in (">>>", "..."):
            continue
        out.append(line)
    return "\n".join(out)


class _Counter(ast.NodeVisitor):
    """Counts one framework's names in one program, its import aliases carried across the
    blocks it is given in order."""

    def __init__(self, framework: str, owners: MethodOwners) -> None:
        self.framework = framework
        self.owners = owners
        self.aliases: dict[str, str] = {framework: framework}
        self.other_modules: set[str] = set()  # names bound to other libraries (np, math, d2l)
        self.counts: Counter[str] = Counter()
        self.names_framework = False  # whether the program names the framework at all

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name.split(".")[0] == self.framework:
                self.names_framework = True
                if alias.asname:
                    self.aliases[alias.asname] = alias.name
                else:
                    self.aliases[self.framework] = self.framework
            else:
                self.other_modules.add(alias.asname or alias.name.split(".")[0])

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if node.level or module.split(".")[0] != self.framework:
            self.other_modules.update(a.asname or a.name for a in node.names if a.name != "*")
            return
        self.names_framework = True
        for alias in node.names:
            if alias.name == "*":
                continue
            qualified = f"{module}.{alias.name}"
            self.aliases[alias.asname or alias.name] = qualified
            self.counts[qualified] += 1

    def visit_Assign(self, node: ast.Assign) -> None:
        """``F = torch.nn.functional``: a name bound to a framework module (or function) is an
        alias from then on, as an import would make it."""
        self.generic_visit(node)
        chain = _chain(node.value) if isinstance(node.value, ast.Attribute) else None
        if chain is not None and chain[0] in self.aliases and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name):
            self.aliases[node.targets[0].id] = ".".join([self.aliases[chain[0]], *chain[1:]])

    def visit_Attribute(self, node: ast.Attribute) -> None:
        chain = _chain(node)
        if chain is not None and chain[0] in self.aliases:
            self.names_framework = True
            self.counts[".".join([self.aliases[chain[0]], *chain[1:]])] += 1
            return
        if chain is not None and chain[0] in self.other_modules:
            return
        on_self = isinstance(node.value, ast.Name) and node.value.id == "self"
        owner = self.owners.owner(node.attr, on_self)
        if owner is not None:
            self.counts[f"{owner}.{node.attr}"] += 1
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        target = self.aliases.get(node.id)
        if target is not None and "." in target and isinstance(node.ctx, ast.Load):
            self.counts[target] += 1


def _chain(node: ast.AST) -> Optional[list[str]]:
    """``a.b.c`` as ``["a", "b", "c"]``; None when the chain does not start at a name."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return parts[::-1]


def programs(path: Path, framework: str) -> Iterator[str]:
    """The programs of one file, each a list of blocks joined: a ``.py`` file is one, a page or
    notebook one of its blocks (a block that does not parse alone is skipped, the others kept)."""
    text = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix == ".py":
        yield text
    elif path.suffix == ".md":
        yield from (_without_magics(b) for b in markdown_blocks(text, framework))
    elif path.suffix == ".rst":
        yield from (_without_magics(b) for b in rst_blocks(text))
    elif path.suffix == ".ipynb":
        yield from (_without_magics(b) for b in notebook_cells(text))


SUFFIXES = (".py", ".md", ".rst", ".ipynb")


def scan_files(files: Iterable[Path], framework: str, owners: MethodOwners) -> tuple[Counter[str], int]:
    """API counts of ``framework`` over ``files``, and how many files use it at all."""
    total: Counter[str] = Counter()
    using = 0
    for path in files:
        counter = _Counter(framework, owners)
        for block in programs(path, framework):
            try:
                tree = ast.parse(block)
            except (SyntaxError, ValueError):
                continue
            counter.visit(tree)
        if counter.names_framework:  # a file that never names the framework counts no methods either
            using += 1
            total.update(counter.counts)
    return total, using


def body_files(root: Path, under: Iterable[str] = (), excluded: Iterable[str] = ()) -> list[Path]:
    """The files of a body in path order, restricted to the given subfolders when any and
    without the excluded ones."""
    bases = [root / u for u in under] or [root]
    skip = [root / e for e in excluded]
    return sorted(p for base in bases for p in base.rglob("*")
                  if p.suffix in SUFFIXES and p.is_file() and not any(p.is_relative_to(s) for s in skip))
