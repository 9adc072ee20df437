"""A runnable program for the real framework that reproduces a case, for failure reports.

The program is plain torch or paddle code: leaves become ``torch.tensor`` / ``paddle.to_tensor``
calls, steps become the calls the adapter makes, observations become ``print`` calls.
"""

from __future__ import annotations

import json
from typing import Any

from conformance.corpus.case import Case
from conformance.corpus.op_registry import REGISTERED, RegisteredOp
from conformance.corpus.step_kinds import DIALECT_LACKS, kind_of
from conformance.corpus.text import comment_lines
from conformance.run.adapters import Unsupported
from conformance.run.calls import KEYWORDS, call_keywords
from conformance.run.step_actions import ACTIONS, arg_text, index_text

_TORCH_OPS = {
    "add": "{0} + {1}", "sub": "{0} - {1}", "mul": "{0} * {1}", "div": "{0} / {1}",
    "pow": "{0} ** {1}", "neg": "-{0}", "gt": "{0} > {1}", "lt": "{0} < {1}",
    "matmul": "torch.matmul({0}, {1})", "mm": "torch.mm({0}, {1})", "where": "torch.where({0}, {1}, {2})",
    "maximum": "torch.maximum({0}, {1})", "minimum": "torch.minimum({0}, {1})",
    "clone": "{0}.clone()", "detach": "{0}.detach()",
    "sigmoid": "torch.sigmoid({0})", "relu": "torch.relu({0})",
}
_PADDLE_OPS = {**_TORCH_OPS, "matmul": "paddle.matmul({0}, {1})", "mm": "paddle.mm({0}, {1})",
               "where": "paddle.where({0}, {1}, {2})",
               "maximum": "paddle.maximum({0}, {1})", "minimum": "paddle.minimum({0}, {1})",
               "sigmoid": "paddle.nn.functional.sigmoid({0})",
               "relu": "paddle.nn.functional.relu({0})"}


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

    def registered_op(self, op: RegisteredOp, args: list[str], kwargs: dict[str, Any]) -> str:
        """The call the adapter makes for an op of the registry, as program text."""
        call = op.call(self.dialect)
        if call is None:
            raise Unsupported(f"{self.dialect} has no {op.name}")
        named = [f"{call.keyword(k)}={v!r}" for k, v in kwargs.items()]
        if call.is_method:
            return f"{args[0]}{call.path}({', '.join(args[1:] + named)})"
        return f"{self.m}.{call.path}({', '.join(args + named)})"

    def op(self, step: dict[str, Any]) -> str:
        name, args, kw = step["op"], [arg_text(a) for a in step["args"]], step.get("kwargs", {})
        table = _TORCH_OPS if self.dialect == "torch" else _PADDLE_OPS
        registered = REGISTERED.get(name)
        if registered is not None:
            return self.registered_op(registered, args, kw)
        if name in table:
            return table[name].format(*args)
        if name == "getitem":
            return f"{args[0]}[{index_text(kw['index'])}]"
        if name in ("split", "unbind"):
            return self.split(name, args[0], kw)
        if self.dialect == "torch":
            if name in ("cat", "stack"):
                return f"torch.{name}({args[0]}, {kw.get('dim', 0)})"
            if name == "cast":
                return f"{args[0]}.to(torch.{kw['dtype']})"
            if name in ("expand", "reshape"):
                return f"{args[0]}.{name}({', '.join(map(str, kw['shape']))})"
            if name in ("max", "min") and kw.get("dim") is not None:
                return f"torch.{name}({args[0]}, {kw['dim']}, keepdim={kw.get('keepdim', False)}).values"
            if name in ("amax", "amin") and kw.get("dim") is None:
                return f"torch.{name}({args[0]}, ())"
            rename = {"dim0": "dim0", "dim1": "dim1"}
            kwargs = ", ".join(f"{rename.get(k, k)}={arg_text(v) if not isinstance(v, list) else tuple(v)}"
                               for k, v in kw.items() if v is not None)
            if name == "clamp":
                kwargs = ", ".join(f"{k}={v}" for k, v in kw.items())
            return f"torch.{name}({args[0]}{', ' + kwargs if kwargs else ''})"
        if name in ("cat", "stack"):
            return f"paddle.{'concat' if name == 'cat' else 'stack'}({args[0]}, axis={kw.get('dim', 0)})"
        if name == "cast":
            return f"paddle.cast({args[0]}, '{kw['dtype']}')"
        if name == "clamp":
            return f"paddle.clip({args[0]}, {kw.get('min')}, {kw.get('max')})"
        if name in ("softmax", "log_softmax"):
            return f"paddle.nn.functional.{name}({args[0]}, axis={kw['dim']})"
        if name == "transpose":
            self.needs_swap = True
            return f"swap_dims({args[0]}, {kw['dim0']}, {kw['dim1']})"
        if name == "permute":
            return f"paddle.transpose({args[0]}, {kw['dims']})"
        renamed = {"dim": "axis"}
        kwargs = ", ".join(f"{renamed.get(k, k)}={v!r}" for k, v in kw.items())
        return f"paddle.{name}({args[0]}{', ' + kwargs if kwargs else ''})"

    def split(self, name: str, tensor: str, kw: dict[str, Any]) -> str:
        """split / unbind: torch's split takes sizes or a piece size, paddle's sizes or a count."""
        dim = kw.get("dim", 0)
        axis = "dim" if self.dialect == "torch" else "axis"
        if name == "unbind":
            return f"{self.m}.unbind({tensor}, {axis}={dim})"
        if "chunks" in kw:
            return f"{self.m}.chunk({tensor}, {kw['chunks']}, {axis}={dim})"
        return f"{self.m}.split({tensor}, {kw.get('sections', kw.get('size'))}, {axis}={dim})"

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
