"""Pairwise reach: every argument value of a step met in every state the program can be in.

The feature tables (``coverage``) count arguments and states one at a time; a bug that only
shows when a ``retain_graph=False`` pass meets a hooked graph, or a setitem writes a value that
requires grad into a tensor that does not, needs the pair. This module walks a case's steps
with a small static model of the program (which names require grad, are leaves, views, saved
by a node, written in place, hooked, retained, freed by a pass) and reports, for each step, the
(argument value, state) pairs it reaches:

- **autograd calls** (``backward``, ``grad``): every argument value of the call (the step cells
  of ``coverage``) × the state of the graph its outputs come from (``CALL_STATES``);
- **in-place writes**: every in-place op × the flags of the target and of the value, the grad
  mode, and whether the target is a leaf, a view or saved by a node (``WRITE_STATES``);
- **ops**: every op × its operands' flags (mixed), the grad mode, negative dims, and operands
  written in place before (``OP_STATES``);
- **flag changes** (``set_requires_grad``): the value × a leaf, a non-leaf, one an op used.

The model is an approximation of what the frameworks do (it never runs anything): it is exact
for the flags the generator tracks itself, and errs only towards calling a state reached when
an earlier step failed. Pairs that no program can reach in a dialect, and why, are listed in
``UNREACHABLE``; every other pair is a cell of the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from conformance.corpus.case import Case, names_in
from conformance.corpus.coverage import step_cells, step_cells_of_step
from conformance.corpus.step_kinds import BLOCKS, block_mode
from conformance.corpus.vocabulary import DIALECTS, IN_PLACE_OPS, MATRIX_OPS, OPS

Pair = tuple[str, str]  # (argument value, state)

CALL_STATES = ("plain graph", "grad mode off", "graph freed by a pass", "graph kept by a pass",
               "through gradients (higher order)", "a leaf's .grad already set",
               "a tensor written in place", "a hooked tensor", "a retained non-leaf",
               "a flag set between ops", "a custom function")
WRITE_STATES = ("target requires grad", "target requires no grad", "value requires grad",
                "value requires no grad", "value a number",
                "a value that requires grad into a target that does not",
                "a value that requires no grad into a target that does", "grad mode off",
                "target a leaf", "target a view", "target saved by a node")
OP_STATES = ("operands' flags mixed", "grad mode off", "a negative dim",
             "an operand written in place")
FLAG_STATES = ("on a leaf", "on a non-leaf", "after an op used it")

_VALUED_WRITES = frozenset(op for op, spec in IN_PLACE_OPS.items() if spec.operands)
_DIM_KWARGS = ("dim", "dims", "dim0", "dim1")
_VIEW_OPS = frozenset({"reshape", "transpose", "permute", "squeeze", "unsqueeze", "expand",
                       "getitem", "split", "unbind"})
_SAVING_OPS = frozenset(op for op, spec in OPS.items() if spec.saves)


def _call_label(cell: tuple[str, str, str]) -> str:
    key, arg, value = cell
    return key if not arg else f"{key} {arg}={value}"


def all_pairs(dialect: str) -> list[Pair]:
    """Every pair of the table for ``dialect``, before ``UNREACHABLE`` is taken out."""
    pairs: list[Pair] = []
    for cell in step_cells(dialect):
        if cell[0] in ("backward", "grad") and cell[1] != "into":
            pairs += [(_call_label(cell), state) for state in CALL_STATES]
    for op in IN_PLACE_OPS:
        states = WRITE_STATES if op in _VALUED_WRITES else tuple(
            s for s in WRITE_STATES if not s.startswith(("value", "a value")))
        pairs += [(f"in-place {op}", state) for state in states]
    for op, spec in OPS.items():
        if op not in MATRIX_OPS:
            continue
        states = [s for s in OP_STATES
                  if (s != "operands' flags mixed" or spec.operands != 1)
                  and (s != "a negative dim" or any(k in spec.kwargs for k in _DIM_KWARGS))]
        pairs += [(f"op {op}", state) for state in states]
    for value in ("true", "false"):
        pairs += [(f"set_requires_grad value={value}", state) for state in FLAG_STATES]
    return [p for p in pairs if p not in UNREACHABLE.get(dialect, {})]


# pairs no program of the dialect can reach, with why
UNREACHABLE: dict[str, dict[Pair, str]] = {d: {} for d in DIALECTS}
for _dialect in DIALECTS:
    for _op in ("zero", "fill", "exp", "detach"):
        UNREACHABLE[_dialect][(f"in-place {_op}", "target a leaf")] = \
            "the generator writes leaves only with a value (add, mul, setitem)"
    for _op, _spec in OPS.items():
        if not _spec.differentiable:
            UNREACHABLE[_dialect][(f"op {_op}", "operands' flags mixed")] = \
                "its result requires no grad whatever its operands' flags"


@dataclass
class _Name:
    requires_grad: bool = False
    leaf: bool = True
    view: bool = False
    written: bool = False
    hooked: bool = False
    retains_grad: bool = False
    flag_set: bool = False
    custom: bool = False
    from_gradients: bool = False
    used: bool = False
    parents: tuple[str, ...] = ()


@dataclass
class _Model:
    names: dict[str, _Name] = field(default_factory=dict)
    saved: set[str] = field(default_factory=set)       # read by a node's backward
    freed: set[str] = field(default_factory=set)       # non-leaves whose graph a pass freed
    kept: set[str] = field(default_factory=set)        # non-leaves a pass kept the graph of
    have_grad: set[str] = field(default_factory=set)   # leaves whose .grad a pass set

    def get(self, name: Any) -> _Name:
        return self.names.get(name, _Name()) if isinstance(name, str) else _Name()

    def graph(self, outputs: Iterable[str]) -> set[str]:
        """The names the outputs were computed from (themselves included)."""
        seen: set[str] = set()
        todo = [o for o in outputs if isinstance(o, str)]
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            todo.extend(self.get(name).parents)
        return seen


def pairs_of(case: Case) -> set[Pair]:
    """The pairs ``case``'s steps reach (in any dialect it runs on)."""
    model, found = _Model(), set()
    _walk(case.steps, model, True, found)
    return found


def _walk(steps: Any, model: _Model, recording: bool, found: set[Pair]) -> None:
    for step in steps:
        held = next((BLOCKS[k] for k in BLOCKS if k in step), None)
        if held is not None:
            _walk(step[held], model, block_mode(step, recording), found)
            continue
        if "leaf" in step:
            model.names[step["leaf"]] = _Name(requires_grad=bool(step.get("requires_grad")))
        elif "let" in step:
            _let(step, model, recording, found)
        elif "backward" in step or "grad" in step:
            _call(step, model, recording, found)
        elif "inplace" in step:
            _write(step, model, recording, found)
        elif "set_requires_grad" in step:
            target = model.get(step["set_requires_grad"])
            state = "after an op used it" if target.used else "on a leaf" if target.leaf \
                else "on a non-leaf"
            found.add((f"set_requires_grad value={'true' if step['value'] else 'false'}", state))
            if step["set_requires_grad"] in model.names:
                target.requires_grad, target.flag_set = bool(step["value"]), True
        elif "hook" in step and step["hook"] in model.names:
            model.names[step["hook"]].hooked = True
        elif "retain_grad" in step and step["retain_grad"] in model.names:
            model.names[step["retain_grad"]].retains_grad = True
        elif "apply" in step:
            args = [a for a in step["args"] if isinstance(a, str)]
            requires_grad = recording and any(model.get(a).requires_grad for a in args)
            for name in step["into"] if isinstance(step["into"], list) else [step["into"]]:
                model.names[name] = _Name(requires_grad, not requires_grad, custom=True,
                                          parents=tuple(args))
        elif "call" in step:
            args = list(step["args"])
            model.names[step["into"]] = _Name(recording, not recording, parents=tuple(args))
        elif "module" in step:
            for name in step.get("params", []):
                model.names[name] = _Name(requires_grad=True)
        elif "hold_grad" in step:
            model.names[step["as"]] = _Name(from_gradients=True)


def _let(step: dict[str, Any], model: _Model, recording: bool, found: set[Pair]) -> None:
    op, spec = step["op"], OPS[step["op"]]
    args = names_in(step["args"])
    operands = [model.get(a) for a in args]
    flags = {o.requires_grad for o in operands}
    label = f"op {op}"
    if len(flags) == 2 and (spec.operands != 1):
        found.add((label, "operands' flags mixed"))
    if not recording:
        found.add((label, "grad mode off"))
    kwargs = step.get("kwargs", {})
    dims = [kwargs.get(k) for k in _DIM_KWARGS if k in kwargs]
    if any(_negative(d) for d in dims):
        found.add((label, "a negative dim"))
    if any(o.written for o in operands):
        found.add((label, "an operand written in place"))
    for o in operands:
        o.used = True
    requires_grad = recording and spec.differentiable and any(flags)
    made = step["let"] if isinstance(step["let"], list) else [step["let"]]
    for name in made:
        model.names[name] = _Name(requires_grad, not requires_grad, view=op in _VIEW_OPS,
                                  from_gradients=any(o.from_gradients for o in operands),
                                  parents=tuple(args))
    if recording and op in _SAVING_OPS and requires_grad:
        model.saved.update(args)


def _negative(dims: Any) -> bool:
    if isinstance(dims, list):
        return any(isinstance(d, int) and d < 0 for d in dims)
    return isinstance(dims, int) and not isinstance(dims, bool) and dims < 0


def _call(step: dict[str, Any], model: _Model, recording: bool, found: set[Pair]) -> None:
    key = "backward" if "backward" in step else "grad"
    outputs = step[key] if isinstance(step[key], list) else [step[key]]
    graph = model.graph(outputs)
    nodes = [model.get(n) for n in graph]
    states = {
        "grad mode off": not recording,
        "graph freed by a pass": bool(graph & model.freed),
        "graph kept by a pass": bool(graph & model.kept),
        "through gradients (higher order)": any(n.from_gradients for n in nodes),
        "a leaf's .grad already set": bool(graph & model.have_grad),
        "a tensor written in place": any(n.written for n in nodes),
        "a hooked tensor": any(n.hooked for n in nodes),
        "a retained non-leaf": any(n.retains_grad for n in nodes),
        "a flag set between ops": any(n.flag_set for n in nodes),
        "a custom function": any(n.custom for n in nodes),
    }
    reached = [s for s, on in states.items() if on] or ["plain graph"]
    for cell in step_cells_of_step(step):
        if cell[1] == "into":
            continue
        found.update((_call_label(cell), state) for state in reached)
    non_leaves = {n for n in graph if not model.get(n).leaf}
    create_graph = bool(step.get("create_graph"))
    if step.get("retain_graph") or (step.get("retain_graph") is None and create_graph):
        model.kept |= non_leaves
    else:
        model.freed |= non_leaves
    if key == "backward":
        model.have_grad |= {n for n in graph if model.get(n).leaf and model.get(n).requires_grad}
    for name in step.get("into", []):
        model.names[name] = _Name(create_graph, not create_graph, from_gradients=True)


def _write(step: dict[str, Any], model: _Model, recording: bool, found: set[Pair]) -> None:
    op, name = step["op"], step["inplace"]
    target = model.get(name)
    label = f"in-place {op}"
    states = ["target requires grad" if target.requires_grad else "target requires no grad"]
    if op in _VALUED_WRITES:
        value = (step.get("args") or [None])[0]
        if isinstance(value, str):
            value_grad = model.get(value).requires_grad
            states.append("value requires grad" if value_grad else "value requires no grad")
            if value_grad != target.requires_grad:
                states.append("a value that requires grad into a target that does not" if value_grad
                              else "a value that requires no grad into a target that does")
        else:
            states.append("value a number")
    if not recording:
        states.append("grad mode off")
    if target.leaf:
        states.append("target a leaf")
    if target.view:
        states.append("target a view")
    if name in model.saved:
        states.append("target saved by a node")
    found.update((label, s) for s in states)
    if name in model.names:
        target.written = True
        if op == "detach":
            target.requires_grad, target.leaf = False, True
        elif recording and isinstance((step.get("args") or [None])[0], str) and \
                model.get(step["args"][0]).requires_grad:
            target.requires_grad, target.leaf = True, False


def pair_counts(cases: Iterable[Case]) -> dict[Pair, dict[str, int]]:
    """``{pair: {dialect: cases}}`` for every pair of the table (zeros included; a dialect
    that cannot reach a pair has no entry for it)."""
    counts: dict[Pair, dict[str, int]] = {}
    for dialect in DIALECTS:
        for pair in all_pairs(dialect):
            counts.setdefault(pair, {})[dialect] = 0
    for case in cases:
        for pair in pairs_of(case):
            per = counts.get(pair)
            if per is None:
                continue
            for dialect in case.dialects:
                if dialect in per:
                    per[dialect] += 1
    return counts


def format_pairs(counts: dict[Pair, dict[str, int]], total: int) -> str:
    """The pair table: one row per argument value, one column per state, per dialect
    (``torch/paddle``), and ``-`` where a dialect cannot reach the pair."""
    rows: dict[str, dict[str, dict[str, int]]] = {}
    for (argument, state), per in counts.items():
        rows.setdefault(argument, {})[state] = per
    lines = [f"pairs of argument value x state, cases per dialect (torch/paddle) of {total}"]
    width = max(len(r) for r in rows)
    for argument, states in rows.items():
        cells = "  ".join(f"{state}: " + "/".join(
            str(per[d]) if d in per else "-" for d in DIALECTS) for state, per in states.items())
        lines.append(f"{argument:<{width}}  {cells}")
    return "\n".join(lines)
