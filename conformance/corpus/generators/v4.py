"""Generator version 4: version 3's programs, one in two followed by a section that reaches the
pairs of argument value × state (``conformance/corpus/pairs.py``) the rest reaches rarely.

A case is version 3's case of the same seed and index (ids ``gen4/...``). Case ``i`` with
``i % 2 == 1`` ends with a section of its own names, drawn from a stream of version 4's
(``k = i // 2`` counts the sections):

- **writes and ops in turn**: an in-place op of the vocabulary on a target that requires grad
  or not, is a leaf, a view or saved by a node, under no_grad or not, with a value that
  requires grad, does not, or a number; two ops of the vocabulary, each reading an operand
  written in place just before (version 2's builders, their first operand written under
  no_grad); the ops taking dims with a negative one; div and pow with operands of mixed
  flags; a flag set on a leaf, on a non-leaf and on a tensor an op used;
- **nested grad modes**: enable_grad inside no_grad, or set_grad_enabled(False) inside
  enable_grad, a value made at each level, their flags observed after the blocks;
- **a state** for the autograd call that ends the section, the ``k``-th of ``CALL_STATES`` in
  turn, sometimes with a second drawn one (the plain graph stays alone): the call under
  no_grad, a pass that freed or kept the graph before it, an output computed from
  create_graph gradients, a leaf's ``.grad`` set by another pass, an intermediate written in
  place, hooked or retaining its gradient, a leaf's flag set between ops, the graph passing
  through a custom function;
- **the call's arguments**, each argument's values in turn as ``k`` counts: ``backward``
  (function or method, seeds, ``retain_graph`` true / false / null / absent, torch's
  ``create_graph`` and ``inputs``) or ``grad`` (seeds, ``retain_graph``, ``create_graph``,
  ``allow_unused``, ``only_inputs``, torch's ``materialize_grads``, paddle's
  ``no_grad_vars``), the gradients of its leaves (and of a retained non-leaf) observed
  after; the other parts' gradients show in the state observed after each pass.

A section never takes a program of both frameworks from torch (whose cells are the rarer in
paddle): its call uses torch's own arguments where the program before is torch's only,
paddle's own where it is paddle's only and in every other section of a program of both (which
then becomes paddle's), and otherwise only the arguments both have. paddle 3.3.1 crashes
running a PyLayer node twice, so a custom function before a second pass is only in torch's
programs.
"""

from __future__ import annotations

import random
from typing import Any, Optional

from conformance.corpus.case import names_in
from conformance.corpus.generators import base, v3
from conformance.corpus.generators.base import BUILDERS, Node, Program
from conformance.corpus.pairs import CALL_STATES

VERSION = 4
EVERY = 2  # one case in EVERY ends with a pairs section

_MULTI_PASS = frozenset({"graph freed by a pass", "graph kept by a pass",
                         "through gradients (higher order)"})
# argument -> the values counted in turn (None: left out of the call)
_BACKWARD_ARGS: tuple[tuple[str, tuple[Any, ...]], ...] = (
    ("api", ("function", "method")), ("seeds", (False, True)),
    ("retain_graph", (None, True, False, "null")), ("create_graph", (None, True, False)),
    ("inputs", (False, True)))
_GRAD_ARGS: tuple[tuple[str, tuple[Any, ...]], ...] = (
    ("seeds", (False, True)), ("retain_graph", (None, True, False, "null")),
    ("create_graph", (None, True, False)), ("allow_unused", (None, True, False, "null")),
    ("only_inputs", (None, True, False)), ("materialize_grads", (None, True, False)),
    ("no_grad_vars", (False, True)))
_TORCH_ONLY = {("backward", "create_graph"), ("backward", "inputs"), ("grad", "materialize_grads")}
_PADDLE_ONLY = {("grad", "no_grad_vars")}
_WRITES = ("add", "sub", "mul", "div", "setitem", "zero", "fill", "detach", "exp")
_TARGETS = ("requires grad", "requires no grad", "a leaf", "a view", "saved by a node")


def generate_case(seed: int, index: int, wide: bool = False,
                  dtype: Optional[str] = None) -> dict[str, Any]:
    """Case ``index`` of the corpus ``seed``; ``wide`` and ``dtype`` as version 3 takes them
    (``dtype`` also the section's, in place of float64)."""
    case = v3.generate_case(seed, index, wide=wide, dtype=dtype)
    case["id"] = case["id"].replace("gen3/", f"gen{VERSION}/", 1)
    if index % EVERY != EVERY - 1:
        return case
    rng = random.Random(f"autograd-oracle/{VERSION}/pairs/{seed}/{index}")
    k = index // EVERY
    p = Program(rng, dtype or "float64")
    p.counter = 1000  # names of its own, apart from the program before it
    p.dialects = set(case.get("dialects", base.BOTH))
    _writes_and_ops(p, k)
    _call(p, k)
    if not p.dialects:  # a builder kept to a framework the program before does not run on
        return case
    case["steps"] = case["steps"] + p.steps
    case["tags"] = sorted(set(case["tags"]) | p.tags)
    if p.dialects != set(base.BOTH):
        case["dialects"] = sorted(p.dialects)
    else:
        case.pop("dialects", None)
    case["about"] += "; then a section reaching pairs of argument value x state"
    return case


def _call(p: Program, k: int) -> None:
    """The state ``k`` picks, then a backward or grad call with the arguments ``k`` counts to."""
    rng = p.rng
    states = {CALL_STATES[k % len(CALL_STATES)]}
    if rng.random() < 0.4 and states != {"plain graph"}:
        states.add(rng.choice(CALL_STATES[1:]))
    if p.dialects != {"torch"} and states & _MULTI_PASS:
        states.discard("a custom function")  # paddle runs a PyLayer node once
    a = p.leaf((2, 3) if rng.random() < 0.5 else (3,))
    b = p.leaf(p.nodes[a].shape, requires_grad=rng.random() < 0.7)
    h = p.let("mul", [a, b], p.nodes[a].shape, saves=(a, b))
    if "a custom function" in states:
        name = p.fresh("Scale")
        forward, save, derivative, _ = v3.UNARY["Scale"]
        p.emit({"function": name, "inputs": ["a"], "forward": forward, "output": "o",
                "output_grad": "g", "derivative": derivative, "input_grads": ["ga"]})
        out = p.fresh("v")
        p.emit({"apply": name, "args": [h], "into": out})
        p.nodes[out] = Node(p.nodes[h].shape, False, True, False)
        h = out
        p.tags.add("custom_function")
    if "a hooked tensor" in states:
        p.emit({"hook": h, "scale": 2.0, "record": True})
        p.tags.add("hook")
    retained = []
    if "a retained non-leaf" in states:
        p.emit({"retain_grad": h})
        retained.append(h)
    if "a tensor written in place" in states:
        h = p.let("mul", [h, 1.5], p.nodes[h].shape)
        p.emit({"inplace": h, "op": "add", "args": [0.5]})
        p.tags.add("inplace")
    if "a flag set between ops" in states:
        c = p.leaf(p.nodes[h].shape, requires_grad=False)
        p.emit({"set_requires_grad": c, "value": True})
        p.nodes[c].requires_grad = True
        h = p.let("add", [h, c], p.nodes[h].shape)
    if "through gradients (higher order)" in states:
        first = base.scalar_loss(p, p.let("mul", [h, h], p.nodes[h].shape))
        g = p.fresh("g")
        p.emit({"grad": first, "wrt": [a], "create_graph": True, "into": [g]})
        p.nodes[g] = Node(p.nodes[a].shape, False, True, False)
        h = p.let("mul", [g, b], p.nodes[a].shape)
        p.tags |= {"create_graph", "higher_order"}
    loss = base.scalar_loss(p, h)
    if "a leaf's .grad already set" in states:
        other = p.let("mul", [a, 3.0], p.nodes[a].shape)
        p.emit({"backward": base.scalar_loss(p, other)})
    if "graph freed by a pass" in states:
        p.emit({"backward": loss})
    elif "graph kept by a pass" in states:
        p.emit({"backward": loss, "retain_graph": True})
    p.tags.add("retain_graph" if states & _MULTI_PASS else "seed:implicit-scalar")
    kind = "backward" if k % 2 == 0 else "grad"
    flavour = ("torch" if p.dialects == {"torch"} else "paddle" if p.dialects == {"paddle"}
               else ("both", "paddle")[(k // 2) % 2])
    call = _arguments(p, kind, k // 4, flavour, loss, [a, b])
    if "grad mode off" in states:
        p.emit({"no_grad": [call]})
        p.tags.add("grad_mode")
    else:
        p.emit(call)
    for name in (a, b, *retained):
        p.emit({"observe": "grad", "of": name})


def _arguments(p: Program, kind: str, count: int, flavour: str, loss: str,
               leaves: list[str]) -> dict[str, Any]:
    """The ``kind`` call on ``loss`` with the ``count``-th value of each argument;
    an argument one framework lacks only in a ``flavour`` of the other's, and only where the
    program runs on it."""
    call: dict[str, Any] = {kind: loss}
    wrt = [n for n in leaves if p.nodes[n].requires_grad]
    if kind == "grad":
        call["wrt"] = wrt
    for arg, values in _BACKWARD_ARGS if kind == "backward" else _GRAD_ARGS:
        value = values[count % len(values)]  # each in turn: all values of all arguments
        if value is None or value is False and arg in ("seeds", "inputs", "no_grad_vars"):
            continue
        only = "torch" if (kind, arg) in _TORCH_ONLY else "paddle" if (kind, arg) in _PADDLE_ONLY \
            else None
        if only is not None:
            if flavour != only or only not in p.dialects:
                continue
            p.only(only)
        if arg == "seeds":
            call["seeds"] = [base.seed(p, (), p.nodes[loss].dtype)]
        elif arg == "inputs":
            call["inputs"] = wrt[:1]
        elif arg == "no_grad_vars":  # never an input (paddle 3.3.1 crashes; the reference refuses)
            call["no_grad_vars"] = [n for n in leaves if n not in wrt] or [
                p.leaf(p.nodes[leaves[0]].shape, dtype=p.nodes[leaves[0]].dtype)]
        elif arg == "api":
            call["api"] = value
        else:
            call[arg] = None if value == "null" else value
    return call


def _writes_and_ops(p: Program, k: int) -> None:
    """An in-place write, an op on an operand written in place, and the other forms of
    ``k``'s turn (negative dims, mixed flags, flags set)."""
    rng = p.rng
    _write(p, _WRITES[k % len(_WRITES)], _TARGETS[(k // len(_WRITES)) % len(_TARGETS)],
           (k // (len(_WRITES) * len(_TARGETS))) % 3, rng.random() < 0.25)
    ops = sorted(BUILDERS)
    for turn in (k, k + len(ops) // 2):
        _op_on_written(p, ops[turn % len(ops)])
    form = k % 4
    x = p.leaf((2, 3))
    if form == 0:
        p.let("permute", [x], (3, 2), dims=[-1, -2])
        p.let("prod", [x], (2,), dim=-1)
    elif form == 1:
        p.emit({"let": [p.fresh("v"), p.fresh("v")], "op": "split", "args": [x],
                "kwargs": {"sections": [1, 2], "dim": -1}})
        p.let("stack", [[x, x]], (2, 3, 2), dim=-1)
    elif form == 2:
        p.emit({"let": [p.fresh("v"), p.fresh("v")], "op": "unbind", "args": [x],
                "kwargs": {"dim": -2}})
        c = p.leaf((2, 3), requires_grad=False, positive=True)
        p.let("div", [x, c], (2, 3))
    else:
        base = p.leaf((2, 3), positive=True)
        c = p.leaf((2, 3), requires_grad=False)
        p.let("pow", [base, c], (2, 3))
        p.let("div", [c, base], (2, 3))
    _nested_modes(p, k)
    flagged = p.let("mul", [x, 2.0], (2, 3)) if k % 3 == 1 else x
    if k % 3 == 2:
        p.let("exp", [x], (2, 3))
    if flagged == x and k % 3 == 0:
        p.emit({"set_requires_grad": x, "value": False})
    else:
        p.emit({"set_requires_grad": flagged, "value": k % 2 == 0})
    p.tags.add("inplace")


def _nested_modes(p: Program, k: int) -> None:
    """Grad-mode blocks nested in each other (enable_grad in no_grad, or set_grad_enabled(False)
    in enable_grad), a value made in each, their flags observed after the blocks."""
    y = p.leaf((3,))
    inner, outer = p.fresh("v"), p.fresh("v")
    if k % 2 == 0:
        block = {"no_grad": [{"enable_grad": [{"let": inner, "op": "mul", "args": [y, 2.0]}]},
                             {"let": outer, "op": "mul", "args": [y, 3.0]}]}
    else:
        block = {"enable_grad": [{"set_grad_enabled": False,
                                  "steps": [{"let": inner, "op": "mul", "args": [y, 2.0]}]},
                                 {"let": outer, "op": "mul", "args": [y, 3.0]}]}
    p.emit(block)
    recorded = k % 2 == 0
    p.nodes[inner] = Node((3,), False, recorded, not recorded)
    p.nodes[outer] = Node((3,), False, not recorded, recorded)
    for name in (inner, outer):
        p.emit({"observe": "flags", "of": name})
    p.tags.add("grad_mode")


def _write(p: Program, op: str, target: str, value_kind: int, unrecorded: bool) -> None:
    """``op`` in place on a target of the kind named, with a value that requires grad (0),
    does not (1), or a number (2), under no_grad when ``unrecorded``."""
    shape = (2, 3)
    if target == "a leaf":
        name = p.leaf(shape, requires_grad=False)
    else:
        x = p.leaf(shape, requires_grad=target != "requires no grad")
        name = p.let("mul", [x, 1.0], shape)
        if target == "a view":
            name = p.let("reshape", [name], (3, 2), view=True, shape=[3, 2])
            shape = (3, 2)
        elif target == "saved by a node":
            p.let("mul", [name, name], shape, saves=(name,))
    step: dict[str, Any] = {"inplace": name, "op": op}
    if op in ("add", "sub", "mul", "div", "setitem"):
        if value_kind == 2:
            step["args"] = [1.5]
        else:
            value = p.leaf(shape if op != "setitem" else shape[1:], requires_grad=value_kind == 0,
                           positive=True)
            step["args"] = [value]
        if op == "setitem":
            step["kwargs"] = {"index": [0]}
    elif op == "fill":
        step["kwargs"] = {"value": 0.5}
    p.emit({"no_grad": [step]} if unrecorded else step)
    after = p.let("mul", [name, 2.0], shape)
    p.emit({"backward": base.scalar_loss(p, after)})  # the state after it shows who got a .grad


def _op_on_written(p: Program, op: str) -> None:
    """Version 2's builder of ``op``, its first operand written in place (under no_grad, so a
    leaf may be) just before the op reads it."""
    x = p.leaf((2, 3), positive=True)
    outside = p.nodes
    p.nodes = {x: outside[x]}
    start = len(p.steps)
    try:
        BUILDERS[op](p, False)
    finally:
        p.nodes = {**outside, **p.nodes}
    at = next((i for i in range(start, len(p.steps)) if p.steps[i].get("op") == op), None)
    if at is None:
        return
    operand = next((n for n in names_in(p.steps[at]["args"])
                    if p.nodes[n].dtype.startswith("float")), None)
    if operand is not None:
        p.steps.insert(at, {"no_grad": [{"inplace": operand, "op": "add", "args": [0.5]}]})
