"""Feature coverage of a corpus: how many cases reach each feature, per dialect.

Three tables, all derived from the vocabulary, so a new step kind, argument or op shows up as a
cell to fill:

- **buckets**: a case's declared ``tags`` together with what its steps show (a backward or grad
  step without seeds is an implicit seed, a ``clear_grad`` step is clearing, …);
- **step cells**: every step kind × each of its arguments × each value an argument can take
  (booleans both ways, ``null`` where allowed, every entry of an enumeration);
- **op cells**: every op × the features it is reached with (``OP_FEATURES``): plain backward,
  grad, create_graph of order >= 2, an in-place write to a tensor it saved, under no_grad,
  hooked, and at a special point.

Cells a dialect has no API for (``DIALECT_LACKS``) are not counted for it.
"""

from __future__ import annotations

from typing import Any, Iterable

from conformance.corpus.case import Case, names_in
from conformance.corpus.step_kinds import (
    BACKWARD_APIS,
    CLEAR_TO,
    DIALECT_LACKS,
    FUNCTIONAL_APIS,
    MODULE_KINDS,
    NODE_HOOK_KINDS,
    OBSERVABLES,
    OPTIMIZER_KINDS,
    STEPS_BY_KEY,
)
from conformance.corpus.vocabulary import (
    BOOL,
    BOOL_OR_NULL,
    BUCKETS,
    DIALECTS,
    IN_PLACE_OPS,
    MATRIX_OPS,
    NAME_OR_NAMES,
    OP_FEATURES,
    OPS,
)

Cell = tuple[str, ...]

# arguments whose values are an enumeration worth a cell each
_ENUMERATED = {("observe", "observe"): OBSERVABLES, ("clear_grad", "to"): CLEAR_TO,
               ("backward", "api"): BACKWARD_APIS, ("inplace", "op"): tuple(IN_PLACE_OPS),
               ("node_hook", "kind"): NODE_HOOK_KINDS, ("optimizer", "kind"): OPTIMIZER_KINDS,
               ("zero_grad", "to"): CLEAR_TO, ("functional", "functional"): FUNCTIONAL_APIS,
               ("module", "kind"): MODULE_KINDS}


def buckets_of(case: Case) -> set[str]:
    found = set(case.tags)
    steps = [step for _, step, _ in case.walked()]
    autograd = [s for s in steps if "backward" in s or "grad" in s]
    for s in autograd:
        seeds = s.get("seeds")
        if seeds is None:
            found.add("seed:implicit-scalar")
        else:
            if any(x is not None for x in seeds):
                found.add("seed:explicit")
            if any(x is None for x in seeds):
                found.add("seed:none-entry")
        for key, bucket in (("retain_graph", "retain_graph"), ("allow_unused", "allow_unused"),
                            ("materialize_grads", "materialize_grads"),
                            ("no_grad_vars", "no_grad_input")):
            if key in s:
                found.add(bucket)
        if s.get("create_graph"):
            found.add("create_graph")
    if sum(1 for s in steps if "backward" in s) >= 2:
        found.add("accumulation")
    keys = {key for s in steps for key in s}
    for key in ("function", "node_hook", "inference_mode", "saved_tensors_hooks", "optimizer",
                "functional", "module"):
        if key in keys:
            found.add({"function": "custom_function"}.get(key, key))
    if "post_accumulate_hook" in keys:
        found.add("hook")
    if "clear_grad" in keys:
        found.add("clearing")
    if sum(1 for s in steps if "grad" in s and s.get("create_graph")) >= 2:
        found.add("higher_order")
    return found & set(BUCKETS)


def bucket_counts(cases: Iterable[Case]) -> dict[str, dict[str, int]]:
    """``{bucket: {dialect: count}}`` for every bucket and dialect (zeros included)."""
    counts = {b: {d: 0 for d in DIALECTS} for b in BUCKETS}
    for case in cases:
        for bucket in buckets_of(case):
            for dialect in case.dialects:
                counts[bucket][dialect] += 1
    return counts


# --- step kind × argument value ----------------------------------------------------------------

def step_cells(dialect: str) -> list[Cell]:
    """Every (step kind, argument, value) cell of the vocabulary that ``dialect`` has."""
    cells: list[Cell] = []
    for key, spec in STEPS_BY_KEY.items():
        if (key, "") in DIALECT_LACKS[dialect]:
            continue
        cells.append((key, "", ""))
        for field, kind in {**spec.required, **spec.optional}.items():
            if field == key or (key, field) in DIALECT_LACKS[dialect]:
                continue
            for value in _values_of(key, field, kind):
                cells.append((key, field, value))
    return cells


def _values_of(key: str, field: str, kind: str) -> tuple[str, ...]:
    if (key, field) in _ENUMERATED:
        return _ENUMERATED[(key, field)]
    if kind == BOOL:
        return ("true", "false")
    if kind == BOOL_OR_NULL:
        return ("true", "false", "null")
    if kind == NAME_OR_NAMES:
        return ("name", "list")
    return ("given",)


def _label(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def step_cells_of(case: Case) -> set[Cell]:
    found: set[Cell] = set()
    for _, step, _ in case.walked():
        found |= step_cells_of_step(step)
    return found


def step_cells_of_step(step: dict[str, Any]) -> set[Cell]:
    """The (step kind, argument, value) cells one step reaches."""
    key = next(k for k in step if k in STEPS_BY_KEY)
    spec = STEPS_BY_KEY[key]
    found: set[Cell] = {(key, "", "")}
    for field, kind in {**spec.required, **spec.optional}.items():
        if field == key or field not in step:
            continue
        enumerated = (key, field) in _ENUMERATED or kind in (BOOL, BOOL_OR_NULL)
        if kind == NAME_OR_NAMES:
            found.add((key, field, "list" if isinstance(step[field], list) else "name"))
            continue
        found.add((key, field, _label(step[field]) if enumerated else "given"))
    return found


# --- op × feature --------------------------------------------------------------------------------

def op_cells() -> list[Cell]:
    """Every (op, feature) cell: the in-place cell for ops that save tensors, the hooked one
    for differentiable ops, the special-point one for ops that have special points."""
    cells: list[Cell] = []
    for op, spec in OPS.items():
        if op not in MATRIX_OPS:
            continue
        for feature in OP_FEATURES:
            if feature == "in-place on a saved tensor" and not spec.saves:
                continue
            if feature in ("hooked", "create_graph order >= 2") and not spec.differentiable:
                continue
            if feature == "at a special point" and not spec.special:
                continue
            cells.append((op, feature))
    return cells


def op_cells_of(case: Case) -> set[Cell]:
    flat = list(case.walked())
    made_by: dict[str, tuple[str, int]] = {}     # name -> (op, position)
    operands: dict[int, set[str]] = {}           # position of a let -> names it read or made
    found: set[Cell] = set()
    autograd_positions = []
    for position, (_, step, recording) in enumerate(flat):
        if "let" in step:
            op = step["op"]
            made = step["let"] if isinstance(step["let"], list) else [step["let"]]
            made_by.update((name, (op, position)) for name in made)
            names = {a for a in names_in(step["args"])} | set(made)
            operands[position] = names
            if not recording:
                found.add((op, "under no_grad"))
        elif "backward" in step or "grad" in step:
            autograd_positions.append((position, bool(step.get("create_graph"))))
        elif "hook" in step and step["hook"] in made_by:
            found.add((made_by[step["hook"]][0], "hooked"))
        elif "inplace" in step:
            target = step["inplace"]
            for made_at, names in operands.items():
                if target in names and made_at < position:
                    found.add((flat[made_at][1]["op"], "in-place on a saved tensor"))
    ops = {op for op, _ in made_by.values()}
    higher = any(cg and any(p > position for p, _ in autograd_positions)
                 for position, cg in autograd_positions)
    for op in ops:
        if any("backward" in s for _, s, _ in flat):
            found.add((op, "backward"))
        if any("grad" in s for _, s, _ in flat):
            found.add((op, "grad"))
        if higher:
            found.add((op, "create_graph order >= 2"))
    for tag in case.tags:
        if tag.startswith("special:"):
            found.add((tag[len("special:"):], "at a special point"))
    return found


def cell_counts(cases: Iterable[Case]) -> dict[str, dict[Cell, dict[str, int]]]:
    """``{"steps": {cell: {dialect: n}}, "ops": {cell: {dialect: n}}}``; every vocabulary cell
    is present (zeros included), for the dialects that have it."""
    steps = {c: {} for d in DIALECTS for c in step_cells(d)}
    ops = {c: {d: 0 for d in DIALECTS} for c in op_cells()}
    for d in DIALECTS:
        for c in step_cells(d):
            steps[c][d] = 0
    for case in cases:
        reached_steps, reached_ops = step_cells_of(case), op_cells_of(case)
        for dialect in case.dialects:
            for c in reached_steps:
                if dialect in steps.get(c, {}):
                    steps[c][dialect] += 1
            for c in reached_ops:
                if c in ops:
                    ops[c][dialect] += 1
    return {"steps": steps, "ops": ops}


def format_counts(counts: dict[str, dict[str, int]]) -> str:
    width = max(len(b) for b in counts)
    lines = [f"{'bucket':<{width}}  " + "  ".join(f"{d:>7}" for d in DIALECTS)]
    for bucket, per in counts.items():
        lines.append(f"{bucket:<{width}}  " + "  ".join(f"{per[d]:>7}" for d in DIALECTS))
    return "\n".join(lines)


def format_cells(cells: dict[Cell, dict[str, int]], title: str) -> str:
    names = {c: " × ".join(p for p in c if p) for c in cells}
    width = max(len(n) for n in names.values())
    lines = [f"{title:<{width}}  " + "  ".join(f"{d:>7}" for d in DIALECTS)]
    for cell, per in cells.items():
        lines.append(f"{names[cell]:<{width}}  " + "  ".join(
            f"{per[d]:>7}" if d in per else f"{'-':>7}" for d in DIALECTS))
    return "\n".join(lines)
