"""A runnable program for the real framework that reproduces a case, for failure reports.

The program is plain torch or paddle code: leaves become ``torch.tensor`` / ``paddle.to_tensor``
calls, steps become the calls the adapter makes, observations become ``print`` calls.
"""

from __future__ import annotations

import json
from typing import Any

from conformance.corpus.case import Case
from conformance.corpus.step_kinds import DIALECT_LACKS, kind_of
from conformance.corpus.text import comment_lines
from conformance.run.adapters import Unsupported
from conformance.run.calls import KEYWORDS, call_keywords
from conformance.run.op_calls import render, spell_text
from conformance.run.step_actions import ACTIONS


class ReproWriter:
    """Writes a case's steps as lines of a torch or paddle program (each step's text is its
    action's ``repro``)."""


    def __init__(self, dialect: str, device: str = "cpu") -> None:
        self.dialect = dialect
        # torch on another device: what the adapter makes is made there, and the program says so
        self.on = "" if device == "cpu" else f", device='{device}'"
        self.to = "" if device == "cpu" else f".to('{device}')"
        self.lines: list[str] = []
        self.m = "torch" if dialect == "torch" else "paddle"
        self.needs_swap = False
        self.needs_parameter = False  # paddle: the helper making a parameter with given values
        self.needs_linspace = False  # paddle: the helper making a linspace leaf
        self.modules: set[str] = set()  # names bound by module steps

    def seed(self, s: Any) -> str:
        if s is None or isinstance(s, str):
            return repr(s) if s is None else s
        if "scalar" in s:
            return repr(s["scalar"])
        dtype = s.get("dtype", "float32")
        if self.dialect == "torch":
            return f"torch.tensor({json.dumps(s['value'])}, dtype=torch.{dtype}{self.on})"
        return f"paddle.to_tensor({json.dumps(s['value'])}, dtype='{dtype}')"

    def seeds(self, step: dict[str, Any]) -> str:
        """``, [seed, …]`` when the case gives seeds (``, None`` for null), else nothing."""
        if "seeds" not in step:
            return ""
        if step["seeds"] is None:
            return ", None"
        return ", [" + ", ".join(self.seed(x) for x in step["seeds"]) + "]"

    def keywords(self, step: dict[str, Any], kind: str) -> str:
        """``, name=value`` for each keyword the call passes (``calls.call_keywords``)."""
        given = call_keywords(step, kind, self.dialect)
        return "".join(f", {k}=[{', '.join(v)}]" if k in ("inputs", "no_grad_vars") else f", {k}={v!r}"
                       for k, v in given.items())

    def op(self, step: dict[str, Any]) -> str:
        """A ``let`` step's op as the call the adapter makes (``conformance.run.op_calls``)."""
        helpers: set[str] = set()
        text = render(spell_text(self.dialect, step), self.m, helpers)
        self.needs_swap = self.needs_swap or "swap_dims" in helpers
        return text

    def steps(self, steps: Any, indent: str = "") -> None:
        for step in steps:
            self.step(step, indent)

    def lacked(self, step: dict[str, Any]) -> str:
        """What of ``step`` the dialect has no API for ('' when it has all): the adapter reports
        such a step as unsupported and calls nothing, so the program does not either."""
        kind = kind_of(step)
        lacks = DIALECT_LACKS[self.dialect]
        if (kind, "") in lacks:
            return kind.replace("_", " ")
        if kind in KEYWORDS:
            try:
                call_keywords(step, kind, self.dialect)
            except Unsupported as exc:
                return str(exc)
            return ""
        fields = [f for f in step if (kind, f) in lacks]
        return f"{kind}'s {', '.join(fields)}" if fields else ""

    def step(self, s: dict[str, Any], ind: str) -> None:
        lacked = self.lacked(s)
        if lacked:
            self.lines.append(f"{ind}pass  # not run: {self.m} has no {lacked}")
        else:
            ACTIONS[kind_of(s)].repro(self, s, ind)


def program(case: Case, dialect: str, device: str = "cpu") -> str:
    """The case as a standalone torch or paddle program: its id and about as comment lines, then
    only the statements its steps make (every tensor and module made on ``device``, as the
    adapter makes them for a backend on it)."""
    w = ReproWriter(dialect, device)
    w.steps(case.steps)
    head = [*comment_lines(f"{case.id}: {case.about}"),
            "import torch" if dialect == "torch" else "import paddle"]
    if w.needs_parameter:
        head += ["import numpy as np", "", "", "def parameter(value, dtype, requires_grad):",
                 "    array = np.array(value, dtype=dtype)",
                 "    made = paddle.create_parameter(list(array.shape), dtype, "
                 "default_initializer=paddle.nn.initializer.Assign(array))",
                 "    made.stop_gradient = not requires_grad", "    return made", "", ""]
    if w.needs_linspace:
        head += ["", "", "def linspace(start, stop, num, dtype, requires_grad):",
                 "    made = paddle.linspace(start, stop, num, dtype=dtype)",
                 "    made.stop_gradient = not requires_grad", "    return made", "", ""]
    if w.needs_swap:
        head += ["", "", "def swap_dims(t, a, b):", "    perm = list(range(t.ndim))",
                 "    perm[a], perm[b] = perm[b], perm[a]", "    return paddle.transpose(t, perm)",
                 "", ""]
    return "\n".join(head + w.lines) + "\n"
