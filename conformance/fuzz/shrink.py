"""Shrink a failing case to the smallest one that still fails the same way.

"The same way" is the failure signature (``judge.classes.signature``): the step kind where the
first difference is, what differs and the error categories. A candidate is kept only when it is
a valid case and ``still_fails`` says its signature is unchanged. The passes, repeated until none
changes anything (a fixpoint, as delta debugging and Hypothesis's shrinker do):

1. drop runs of steps, halving the run length down to single steps (names a later step needs
   make a candidate invalid, and it is skipped without running);
2. drop steps inside blocks and bodies, and unwrap a block into its steps;
3. replace an op by its first operand (drop ``v9 = -v8`` and read ``v8`` where ``v9`` was);
4. drop one name from a list of names (grad's inputs with the names their gradients are bound
   to, backward's outputs with their seeds, an op's tensors);
5. drop optional fields of a step (keywords, dtypes, flags);
6. simplify values: a leaf's values all 1, 2 or 0, then each element toward 0, 1 or 2;
7. shrink shapes: keep the first entry of a leaf's outermost dimension, or two of them.

A candidate must cost less than the case it replaces (``cost``: steps, then text, then the
values' magnitude), so the passes cannot cycle.

Every candidate is judged by running it, so shrinking is as deterministic as the backends.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from conformance.corpus.loader import CaseError, parse_case
from conformance.corpus.step_kinds import BLOCKS, BODIES, STEPS_BY_KEY

SIMPLE_VALUES = (1.0, 2.0, 0.0)


@dataclass
class ShrinkStats:
    steps_before: int
    steps_after: int = 0
    trials: int = 0      # candidates run on the backends
    invalid: int = 0     # candidates refused by validation, not run
    passes: int = 0


@dataclass
class _Shrinker:
    still_fails: Callable[[dict[str, Any]], bool]
    stats: ShrinkStats
    seen: dict[str, bool] = field(default_factory=dict)

    def accepts(self, raw: dict[str, Any]) -> bool:
        key = json.dumps(raw["steps"], sort_keys=True)
        if key not in self.seen:
            try:
                parse_case(raw, "<shrink>", 0)
            except CaseError:
                self.stats.invalid += 1
                self.seen[key] = False
            else:
                self.stats.trials += 1
                self.seen[key] = self.still_fails(raw)
        return self.seen[key]


def count_steps(steps: list[Any]) -> int:
    """Steps, those inside blocks and bodies included."""
    return sum(1 + sum(count_steps(held) for held in _held(step).values()) for step in steps)


def _held(step: dict[str, Any]) -> dict[str, list[Any]]:
    """The step lists a step holds, by field."""
    kind = next((k for k in step if k in STEPS_BY_KEY), "")
    fields = [BLOCKS[kind]] if kind in BLOCKS else list(BODIES.get(kind, ()))
    return {f: step[f] for f in fields if isinstance(step.get(f), list)}


def _step_lists(steps: list[Any]) -> Iterator[list[Any]]:
    """Every list of steps in a program, the top level first."""
    yield steps
    for step in steps:
        for held in _held(step).values():
            yield from _step_lists(held)


def _candidates_dropping_runs(raw: dict[str, Any]) -> Iterator[dict[str, Any]]:
    steps = raw["steps"]
    size = len(steps) // 2
    while size >= 1:
        for start in range(len(steps) - size, -1, -size):
            yield {**raw, "steps": steps[:start] + steps[start + size:]}
        size //= 2


def _candidates_inside(raw: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Drop one step of a nested list, or unwrap a block step into its steps."""
    for path in _nested_paths(raw["steps"]):
        held = _at(raw["steps"], path)
        for i in range(len(held) - 1, -1, -1):
            if len(held) > 1 or path[-1] not in ("forward", "derivative", "body"):
                candidate = copy.deepcopy(raw)
                del _at(candidate["steps"], path)[i]
                yield candidate
    for i, step in enumerate(raw["steps"]):
        kind = next((k for k in step if k in STEPS_BY_KEY), "")
        if kind in BLOCKS and isinstance(step.get(BLOCKS[kind]), list):
            yield {**raw, "steps": raw["steps"][:i] + step[BLOCKS[kind]] + raw["steps"][i + 1:]}


def _nested_paths(steps: list[Any], prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    for i, step in enumerate(steps):
        for name, held in _held(step).items():
            yield (*prefix, i, name)
            yield from _nested_paths(held, (*prefix, i, name))


def _at(steps: list[Any], path: tuple[Any, ...]) -> Any:
    node: Any = steps
    for part in path:
        node = node[part]
    return node


def _candidates_without_options(raw: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for list_index, steps in enumerate(_step_lists(raw["steps"])):
        for i, step in enumerate(steps):
            kind = next((k for k in step if k in STEPS_BY_KEY), None)
            if kind is None:
                continue
            spec = STEPS_BY_KEY[kind]
            for key in [k for k in step if k in spec.optional and k not in spec.binds]:
                candidate = copy.deepcopy(raw)
                target = list(_step_lists(candidate["steps"]))[list_index][i]
                del target[key]
                yield candidate


def _leaves(steps: list[Any]) -> Iterator[dict[str, Any]]:
    for held in _step_lists(steps):
        yield from (s for s in held if "leaf" in s and "value" in s)


def _map_values(value: Any, change: Callable[[float], float]) -> Any:
    if isinstance(value, list):
        return [_map_values(v, change) for v in value]
    return change(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else value


def _flat(value: Any) -> list[Any]:
    return [x for v in value for x in _flat(v)] if isinstance(value, list) else [value]


def _replaced(value: Any, position: int, new: float) -> Any:
    """``value`` (nested lists) with its ``position``-th element, in reading order, made ``new``."""
    flat = _flat(value)
    flat[position] = new
    numbers = iter(flat)
    return _map_values(value, lambda _: next(numbers))


def _simple(element: Any, simple: float) -> Any:
    return type(element)(simple) if isinstance(element, float) else int(simple)


def _candidates_simpler_values(raw: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """A leaf's values all 1, 2 or 0; then one element at a time toward 0, 1 or 2 (the first of
    them smaller in magnitude)."""
    for n, leaf in enumerate(_leaves(raw["steps"])):
        original = leaf["value"]
        for simple in SIMPLE_VALUES:
            changed = _map_values(original, lambda v, simple=simple: _simple(v, simple))
            if changed != original:
                yield _with_leaf_value(raw, n, changed)
        for position, element in enumerate(_flat(original)):
            if not isinstance(element, (int, float)) or isinstance(element, bool):
                continue
            smaller = next((s for s in SIMPLE_VALUES if abs(s) < abs(element)), None)
            if smaller is not None:
                yield _with_leaf_value(raw, n, _replaced(original, position, _simple(element, smaller)))


def _with_leaf_value(raw: dict[str, Any], n: int, value: Any) -> dict[str, Any]:
    """A copy of ``raw`` whose ``n``-th leaf holds ``value``."""
    candidate = copy.deepcopy(raw)
    list(_leaves(candidate["steps"]))[n]["value"] = value
    return candidate


def _candidates_smaller_shapes(raw: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for n, leaf in enumerate(_leaves(raw["steps"])):
        original = leaf["value"]
        if isinstance(original, list):
            for keep in (1, 2):
                if keep < len(original):
                    yield _with_leaf_value(raw, n, original[:keep])


def _renamed(value: Any, old: str, new: str) -> Any:
    if isinstance(value, list):
        return [_renamed(v, old, new) for v in value]
    if isinstance(value, dict):
        return {k: _renamed(v, old, new) for k, v in value.items()}
    return new if value == old else value


def _candidates_bypassing(raw: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Replace an op by its first tensor operand: drop the step and use the operand wherever
    the step's result was used (``v9 = -v8`` goes, later steps read ``v8``)."""
    steps = raw["steps"]
    for i in range(len(steps) - 1, -1, -1):
        step = steps[i]
        if "let" not in step or not isinstance(step["let"], str):
            continue
        operand = next((a for a in step.get("args", []) if isinstance(a, str)), None)
        if operand is not None:
            yield {**raw, "steps": steps[:i] + _renamed(steps[i + 1:], step["let"], operand)}


# lists of names whose entries go together with another list's (an output and its seed, an
# input and the name its gradient is bound to)
PAIRED = {"grad": "seeds", "backward": "seeds", "wrt": "into"}


def _candidates_shorter_lists(raw: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Drop one name from a list of names (grad's inputs, backward's outputs, an op's tensors),
    with its partner in a paired list."""
    for list_index, steps in enumerate(_step_lists(raw["steps"])):
        for i, step in enumerate(steps):
            for key, value in step.items():
                names = isinstance(value, list) and all(isinstance(v, str) for v in value)
                if not names or len(value) < 2:
                    continue
                for drop in range(len(value) - 1, -1, -1):
                    candidate = copy.deepcopy(raw)
                    target = list(_step_lists(candidate["steps"]))[list_index][i]
                    del target[key][drop]
                    partner = PAIRED.get(key)
                    paired = target.get(partner) if partner else None
                    if isinstance(paired, list) and len(paired) == len(value):
                        del paired[drop]
                    yield candidate


PASSES = (_candidates_dropping_runs, _candidates_inside, _candidates_bypassing, _candidates_shorter_lists,
          _candidates_without_options, _candidates_simpler_values, _candidates_smaller_shapes)


def cost(raw: dict[str, Any]) -> tuple[int, int, float]:
    """How big a case is: its steps, then its text, then its values' magnitude. A candidate is
    kept only when it costs less, so shrinking cannot cycle."""
    values = [abs(v) for leaf in _leaves(raw["steps"]) for v in _flat(leaf["value"])
              if isinstance(v, (int, float)) and not isinstance(v, bool)]
    return count_steps(raw["steps"]), len(json.dumps(raw["steps"], sort_keys=True)), sum(values)


def shrink(raw: dict[str, Any], still_fails: Callable[[dict[str, Any]], bool],
           max_trials: int = 2000) -> tuple[dict[str, Any], ShrinkStats]:
    """The smallest case the passes reach from ``raw`` for which ``still_fails`` holds (it holds
    for ``raw``), and what it took. Stops early after ``max_trials`` runs."""
    stats = ShrinkStats(steps_before=count_steps(raw["steps"]))
    shrinker = _Shrinker(still_fails, stats)
    current = copy.deepcopy(raw)
    changed = True
    while changed and stats.trials < max_trials:
        changed = False
        stats.passes += 1
        for make in PASSES:
            progress = True
            while progress and stats.trials < max_trials:
                progress = False
                for candidate in make(current):
                    if cost(candidate) < cost(current) and shrinker.accepts(candidate):
                        current, progress, changed = candidate, True, True
                        break
    stats.steps_after = count_steps(current["steps"])
    return current, stats
