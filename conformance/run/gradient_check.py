"""The third oracle: every gradient a reference trace observed, against float64 finite differences.

Two implementations that agree with each other can still both be wrong; calculus cannot. Each
``backward`` or ``grad`` step differentiates a function ``F_b = sum_k <seed_k, output_k>`` of the
tensors it reaches. The oracle re-runs the case's steps before ``b`` in float64 with those tensors
moved by ``±eps * v`` for a random direction ``v``, and compares the directional derivative with
``<gradient, v>`` (gradcheck's fast mode: one projection checks every entry at once).

What is checked:

- every ``grad`` step's results, and every observed ``.grad`` of a leaf or of a tensor that
  retains its gradient; a ``.grad`` is the sum of the ``F_b`` of every backward that reached it
  since it was last cleared, so accumulation is checked too;
- a gradient that is ``None`` counts as zeros, so a ``None`` where calculus gives a non-zero
  derivative fails.

How the program is made a function of those tensors:

- values that cross a ``detach`` or a no-grad block are constants: a base run records them and
  every perturbed run uses the recorded values (an in-place write under no-grad adds the base
  run's change, so the tensor it writes to keeps its perturbation);
- a tensor hook that scales by ``s`` is the function in which that tensor moves ``s`` times as
  far: ``t' = s * t + (1 - s) * t_base``;
- named seeds are constants, taken from the base run.

Guarded as published AD fuzzers do: a disagreement where the directional derivatives just beside
the point disagree with each other is a kink and is skipped; NaN on both sides agrees. Everything
not checked is counted by reason.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Optional

import numpy as np

from conformance.corpus.case import Case
from conformance.run.adapters import Adapter
from conformance.run.interpreter import Interpreter
from conformance.run.trace import Trace, json_to_array, rounding_noise

EPS = 1e-6
ATOL, RTOL = 1e-5, 1e-3
KINK_OFFSET = 1e-4

# The errors raised in the middle of a backward pass, after some leaves may have accumulated.
_MID_PASS_ERRORS = ("freed-graph", "version-counter", "no-double-grad", "internal-error", "other")


@dataclass
class OracleResult:
    checked: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)

    def skip(self, reason: str, n: int = 1) -> None:
        self.skipped[reason] = self.skipped.get(reason, 0) + n


_VIEW_OPS = frozenset({"reshape", "transpose", "permute", "squeeze", "unsqueeze", "expand",
                       "getitem", "split", "unbind"})
# paddle's gradient kernels of these hand on a view of the gradient they were handed: the
# kernels below may write into it, and a retained gradient of their result shows what they
# wrote (the reference models it: reference_engine.dialects.paddle_policy.alias_gradients)
_SHARED_GRADIENT_VIEWS = frozenset({"reshape", "squeeze", "unsqueeze", "transpose", "permute"})


def _bound_name(step: dict[str, Any]) -> Optional[str]:
    """The one tensor name a step binds (None for an op's several results)."""
    name = step.get("leaf") or step.get("let")
    return name if isinstance(name, str) else None


def _bound_names(step: dict[str, Any]) -> list[str]:
    """Every tensor name a leaf or let step binds."""
    name = step.get("leaf") or step.get("let")
    return name if isinstance(name, list) else [] if name is None else [name]


@dataclass
class _Event:
    """A backward or grad step whose function the oracle differentiates."""

    index: int
    step: dict[str, Any]
    hooks: dict[str, float]               # hooked tensor -> product of its active hooks' scales
    seeds: Optional[list[np.ndarray]] = None


@dataclass
class _Check:
    label: str
    points: dict[str, Optional[np.ndarray]]   # name -> observed gradient, None where it was None
    events: list[_Event]
    noise: dict[str, float] = field(default_factory=dict)  # name -> its values' rounding noise


class _Program:
    """What the oracle needs to know about a case before it runs it."""

    def __init__(self, case: Case) -> None:
        self.case = case
        self.flat = list(case.walked())
        self.leaves = {s["leaf"]: s for _, s, _ in self.flat if "leaf" in s}
        self.float_leaves = {n for n, s in self.leaves.items()
                             if s.get("dtype", "float32").startswith("float")}
        # values that cross a no-grad block or a detach, and writes made without recording
        self.frozen = {w for w, s, recording in self.flat
                       if "let" in s and (not recording or s.get("op") == "detach")}
        self.detached_in_place = {w for w, s, _ in self.flat
                                  if "inplace" in s and s["op"] == "detach"}
        self.deltas = {w for w, s, recording in self.flat
                       if "inplace" in s and not recording and s["op"] != "detach"}
        self.written = {s["inplace"] for _, s, _ in self.flat if "inplace" in s}
        # a write to a leaf while recording: refused, but paddle writes the values first, under
        # tensors already saved: what a later pass computes is then no function of the leaves
        overwrites = [w for w, s, recording in self.flat
                      if "inplace" in s and recording and s["inplace"] in self.leaves]
        self.overwritten_leaves = {s["inplace"] for w, s, _ in self.flat if w in overwrites}
        self.first_overwrite = min((int(w.split(".")[0]) for w in overwrites), default=None)
        self.first_apply = min((int(w.split(".")[0]) for w, s, _ in self.flat if "apply" in s),
                               default=None)
        self.optimizes = any("optimizer" in s for _, s, _ in self.flat)
        self.assigned_grads = {s["set_grad"] for _, s, _ in self.flat if "set_grad" in s}
        # hooks that change gradients: scaling ones, and saved-tensor hooks in a program that
        # writes in place (a packed tensor is read back as it is then, with no version check)
        writes = any("inplace" in s for _, s, _ in self.flat)
        self.first_node_hook = min(
            (int(w.split(".")[0]) for w, s, _ in self.flat
             if (("node_hook" in s or "post_accumulate_hook" in s) and "scale" in s)
             or ("saved_tensors_hooks" in s and ("scale" in s or writes))), default=None)
        self.flag_changed = {s["set_requires_grad"] for _, s, _ in self.flat
                             if "set_requires_grad" in s}
        # (an index with None entries adds its dimensions as an unsqueeze)
        self.shared_gradient_views = {
            s["let"] for _, s, _ in self.flat if "let" in s and isinstance(s["let"], str) and (
                s.get("op") in _SHARED_GRADIENT_VIEWS or (
                    s.get("op") == "getitem" and None in s.get("kwargs", {}).get("index", ())))}
        # several results made without recording (a split under no_grad) are not replayed
        self.frozen_several = any(isinstance(s["let"], list) for w, s, _ in self.flat
                                  if w in self.frozen)
        detached = {s["let"] for w, s, _ in self.flat
                    if w in self.frozen and isinstance(s["let"], str)} | {
            s["inplace"] for w, s, _ in self.flat if w in self.detached_in_place}
        self.writes_through_detached = bool(detached & self.written)
        # an expanded tensor's elements share memory with its source (and each other): a write
        # made without recording lands on several elements, which a recorded change cannot replay
        expanded: set[str] = set()
        for _, s, _ in self.flat:
            if "let" in s and (s["op"] == "expand" or (
                    s["op"] in _VIEW_OPS and s["args"] and s["args"][0] in expanded)):
                expanded.update(s["let"] if isinstance(s["let"], list) else [s["let"]])
        self.writes_through_expanded = any(
            self.flat[i][1]["inplace"] in expanded for i, (w, _, _) in enumerate(self.flat)
            if w in self.deltas)


_UNRECORDED: dict[str, Any] = {"kind": "unrecorded"}


class _OracleRun(Interpreter):
    """The interpreter with the oracle's substitutions: frozen values, moved and hooked tensors."""

    def __init__(self, case: Case, adapter: Adapter, program: _Program,
                 leaf_values: dict[str, np.ndarray], base: Optional[_OracleRun] = None,
                 moves: Optional[dict[str, Callable[[Any], Any]]] = None) -> None:
        super().__init__(case, adapter, Trace(case.id, "oracle"), leaf_values)
        self.program, self.base, self.moves = program, base, moves or {}
        self.values: dict[str, tuple[str, np.ndarray]] = {}       # base run: where -> value
        self.requires_grad: dict[str, bool] = {}                  # base run: name -> flag
        self.named: dict[str, np.ndarray] = {}                    # base run: name -> value
        self.changes: dict[str, np.ndarray] = {}                  # base run: where -> change

    def snapshot(self, value: Any) -> tuple[str, np.ndarray]:
        dtype, data, _, _ = self.a.describe(value)
        return dtype, np.asarray(data)

    def constant(self, dtype: str, data: np.ndarray) -> Any:
        return self.a.leaf(data, dtype, False)

    def describe(self, value: Any) -> dict[str, Any]:
        """Nothing: the oracle reads values where it needs them, never its own trace."""
        return _UNRECORDED

    def record_state(self, where: str) -> None:
        """Nothing: states are compared against the framework, not differentiated."""

    def run_step(self, step: dict[str, Any], where: str) -> None:
        if "observe" in step:  # what a step prints changes nothing the oracle re-evaluates
            return
        if step.get("op") == "cast" and step.get("kwargs", {}).get("dtype") == "float32":
            # float64 throughout: a cast to float32 would round the finite differences away
            step = {**step, "kwargs": {**step["kwargs"], "dtype": "float64"}}
        program, base = self.program, self.base
        if base is not None and where in program.frozen and where in base.values:
            self.env[step["let"]] = self.constant(*base.values[where])
            return
        if base is not None and where in program.detached_in_place and where in base.values:
            self.env[step["inplace"]] = self.constant(*base.values[where])
            return
        if base is not None and where in program.deltas and where in base.changes:
            target = self.env.get(step["inplace"])
            if target is not None:
                with self.a.no_grad():
                    dtype = self.snapshot(target)[0]
                    self.a.inplace(target, "add", [self.constant(dtype, base.changes[where])], {})
            return
        before = None
        if base is None and where in program.deltas and step["inplace"] in self.env:
            before = self.snapshot(self.env[step["inplace"]])[1]
        super().run_step(step, where)
        name = _bound_name(step)
        bound = [n for n in _bound_names(step) if n in self.env]
        if base is None:
            if where in program.detached_in_place and step["inplace"] in self.env:
                self.values[where] = self.snapshot(self.env[step["inplace"]])
            if name is not None and name in self.env:
                self.values[where] = self.snapshot(self.env[name])
            for made in bound:
                self.named[made] = self.snapshot(self.env[made])[1]
                self.requires_grad[made] = self.a.describe(self.env[made])[2]
            if before is not None:
                after = self.snapshot(self.env[step["inplace"]])[1]
                if after.shape == before.shape:
                    self.changes[where] = after - before
            return
        for made in bound:
            if made in self.moves:
                self.env[made] = self.moves[made](self.env[made])


class _Objective:
    """``F_b`` at a point: the case run up to event ``b`` with the given moves, then the seeded
    sum of the event's outputs."""

    def __init__(self, case: Case, adapter: Adapter, program: _Program, base: _OracleRun,
                 leaf_base: dict[str, np.ndarray]) -> None:
        self.case, self.adapter, self.program, self.base = case, adapter, program, base
        self.leaf_base = leaf_base
        # base-run values of every tensor bound by name (names are bound once per case)
        self.base_named = {name: value.astype(np.float64) for name, value in base.named.items()}

    def value(self, event: _Event, direction: dict[str, np.ndarray], scale: float) -> Optional[float]:
        program, a = self.program, self.adapter
        leaf_values = dict(self.leaf_base)
        moves: dict[str, Callable[[Any], Any]] = {}
        for name, v in direction.items():
            factor = scale * event.hooks.get(name, 1.0)
            if name in program.leaves:
                leaf_values[name] = self.leaf_base[name] + factor * v
            else:
                moves[name] = _shift(a, factor * v)
        for name, s in event.hooks.items():
            if name not in direction and name not in program.leaves and name in self.base_named:
                moves[name] = _hooked(a, s, self.base_named[name])
        run = _OracleRun(self.case, a, program, leaf_values, self.base, moves)
        run.run_steps(self.case.steps[:event.index], "")
        step = event.step
        key = "grad" if "grad" in step else "backward"
        total = 0.0
        for i, name in enumerate(step[key] if isinstance(step[key], list) else [step[key]]):
            if name not in run.env or event.seeds is None:
                return None
            out = np.asarray(a.describe(run.env[name])[1], dtype=np.float64)
            if event.seeds[i].shape != out.shape:
                return None
            total += float((event.seeds[i] * out).sum())
        return total

def _shift(adapter: Adapter, delta: np.ndarray) -> Callable[[Any], Any]:
    def move(t: Any) -> Any:
        return adapter.op("add", [t, adapter.leaf(delta, "float64", False)], {})
    return move


def _hooked(adapter: Adapter, scale: float, base: np.ndarray) -> Callable[[Any], Any]:
    def move(t: Any) -> Any:
        rest = adapter.leaf(base * (1.0 - scale), "float64", False)
        return adapter.op("add", [adapter.op("mul", [t, scale], {}), rest], {})
    return move


def _agree(analytic: float, numeric: float, noise: float = 0.0) -> bool:
    if math.isnan(analytic) and math.isnan(numeric):
        return True
    return abs(analytic - numeric) <= ATOL + RTOL * abs(numeric) + noise


class _Checker:
    def __init__(self, case: Case, trace: Trace, adapter: Adapter) -> None:
        self.case, self.adapter = case, adapter
        self.program = _Program(case)
        self.by_step: dict[str, list[dict[str, Any]]] = {}
        for o in trace.observations:
            self.by_step.setdefault(o["step"], []).append(o)
        self.result = OracleResult()

    # --- finding what to check ---------------------------------------------------------------

    def checks(self) -> Iterator[_Check]:
        program, case = self.program, self.case
        hooks: dict[str, dict[str, float]] = {}     # handle or anonymous key -> {tensor: scale}
        hooked_names: set[str] = set()
        retained: set[str] = set()
        since_clear: dict[str, list[_Event]] = {}   # point -> events reaching its .grad
        broken: set[str] = set()                     # points a mid-pass error left unknowable
        set_by_grad: set[str] = set()                # retained gradients a grad step set
        pending: list[tuple[str, dict[str, Any]]] = []
        for index, step in enumerate(case.steps):
            where = str(index)
            if "observe" in step and step["observe"] == "grad":
                pending.append((where, step))
                continue
            if pending:
                yield from self._grad_observations(pending, since_clear, broken, retained,
                                                   hooked_names, set_by_grad)
                pending = []
            observed = self.by_step.get(where, [])
            raised = [o for o in observed if o["kind"] in ("error", "undefined", "skipped",
                                                           "unsupported")]
            if "hook" in step and not raised:
                key = step.get("handle", f"#{index}")
                hooks[key] = {step["hook"]: float(step.get("scale", 1.0))}  # None: unchanged
                hooked_names.add(step["hook"])
            elif "remove_hook" in step and not raised:
                hooks.pop(step["remove_hook"], None)
            elif "retain_grad" in step and not raised:
                retained.add(step["retain_grad"])
            elif "clear_grad" in step and not raised:
                since_clear.pop(step["clear_grad"], None)
                broken.discard(step["clear_grad"])
                set_by_grad.discard(step["clear_grad"])
            if "backward" in step or "grad" in step:
                event = _Event(index, step, _active(hooks))
                if "grad" in step:
                    # both frameworks set a retained gradient in a grad step too, where the
                    # pass runs its node (on a path to the inputs): not modelled here
                    set_by_grad.update(retained)
                    yield from self._grad_step(where, event, raised)
                    continue
                reached = step.get("inputs") or sorted(program.float_leaves | retained)
                if step.get("inputs"):  # its retained gradients set where the pass runs them
                    set_by_grad.update(retained - set(step["inputs"]))
                if raised:
                    if any(o.get("category") in _MID_PASS_ERRORS for o in raised):
                        broken.update(reached)
                    continue
                for name in reached:
                    since_clear.setdefault(name, []).append(event)
        if pending:
            yield from self._grad_observations(pending, since_clear, broken, retained,
                                               hooked_names, set_by_grad)

    def _grad_step(self, where: str, event: _Event, raised: list[dict[str, Any]]) -> Iterator[_Check]:
        step = event.step
        listed = [o for o in self.by_step.get(where, []) if o["kind"] == "list"]
        if raised or not listed:
            return
        if "no_grad_vars" in step:
            self.result.skip("grad with no_grad_vars")
            return
        if len(set(step["wrt"])) != len(step["wrt"]):
            self.result.skip("grad with a repeated input")
            return
        points: dict[str, Optional[np.ndarray]] = {}
        noise: dict[str, float] = {}
        for name, item in zip(step["wrt"], listed[0]["items"]):
            reason = self._unusable(name, item, event)
            if reason:
                self.result.skip(reason)
                continue
            points[name] = _gradient(item)
            noise[name] = rounding_noise(item)
        if points:
            yield _Check(f"step {where} (grad)", points, [event], noise)

    def _grad_observations(self, pending: list[tuple[str, dict[str, Any]]],
                           since_clear: dict[str, list[_Event]], broken: set[str],
                           retained: set[str], hooked: set[str],
                           set_by_grad: set[str]) -> Iterator[_Check]:
        groups: dict[tuple[int, ...], _Check] = {}
        for where, step in pending:
            name = step["of"]
            obs = [o for o in self.by_step.get(where, []) if o["kind"] in ("tensor", "none")]
            if not obs:
                continue
            if name in self.program.leaves:
                leaf = self.program.leaves[name]
                if name not in self.program.float_leaves or not leaf.get("requires_grad"):
                    continue
            elif name not in retained:
                continue
            elif name in hooked:
                self.result.skip("hook and retain_grad on one tensor (dialects order them differently)")
                continue
            if name in broken:
                self.result.skip("a backward failed part-way after the last clearing")
                continue
            if name in set_by_grad and name not in self.program.leaves:
                self.result.skip("a grad step or a backward with inputs set its retained gradient "
                                 "(where the pass runs its node: not modelled)")
                continue
            if name in self.program.assigned_grads:
                self.result.skip("its .grad was assigned (set_grad)")
                continue
            events = list(since_clear.get(name, ()))
            if name not in self.program.leaves and len(events) > 1:
                self.result.skip("retained gradient over several backwards (torch accumulates, "
                                 "paddle keeps the last)")
                continue
            reason = next((r for e in events if (r := self._unusable(name, obs[0], e))), None)
            if reason:
                self.result.skip(reason)
                continue
            key = tuple(e.index for e in events)
            check = groups.setdefault(key, _Check(f"grad observed at step {where}", {}, events))
            check.points[name] = _gradient(obs[0])
            check.noise[name] = rounding_noise(obs[0])
        yield from groups.values()

    def _tie_differentiated_twice(self, objective: _Objective, events: list[_Event]) -> bool:
        """paddle: a maximum or minimum whose operands tie somewhere, after a pass that recorded
        its gradient. Its double-grad kernel differentiates the half-and-half gradient by whole
        masks (``tests/programs/paddle/operations.py``), which no function has as its derivative."""
        if self.adapter.dialect != "paddle" or not events:
            return False
        last = max(e.index for e in events)
        if not any(s.get("create_graph") for s in self.case.steps[:last]):
            return False
        for step in self.case.steps[:last]:
            if step.get("op") not in ("maximum", "minimum") or "let" not in step:
                continue
            values = [objective.base_named.get(a) if isinstance(a, str) else np.asarray(a, float)
                      for a in step["args"][:2]]
            if all(v is not None for v in values) and np.any(np.equal(*np.broadcast_arrays(*values))):
                return True
        return False

    def _unusable(self, name: str, observed: dict[str, Any], event: _Event) -> Optional[str]:
        """Why the gradient of ``name`` at ``event`` cannot be checked, if it cannot."""
        program = self.program
        if observed["kind"] not in ("tensor", "none"):
            return "gradient not observed as a tensor"
        if program.first_apply is not None and program.first_apply < event.index:
            return "a custom function was applied (its backward is the program's, not calculus)"
        if program.optimizes:
            return "an optimizer updates the leaves and clears their .grad"
        if program.first_node_hook is not None and program.first_node_hook < event.index:
            return "a node, post-accumulate or saved-tensor hook changes gradients"
        if observed["kind"] == "tensor" and not observed["dtype"].startswith("float"):
            return "integer gradient"
        if name in program.leaves and name not in program.float_leaves:
            return "integer input"
        if name in program.leaves and not program.leaves[name].get("requires_grad"):
            return "input does not require grad"
        if name in program.flag_changed:
            return "requires_grad changed during the program"
        if name not in program.leaves and name in program.written:
            return "in-place write to a differentiated non-leaf"
        if name in program.overwritten_leaves:
            return "in-place write to a leaf while recording"
        if name in program.leaves and name in event.hooks and "grad" in event.step:
            return "hooked leaf under grad (torch runs the hook, paddle does not)"
        if name in program.shared_gradient_views and self.adapter.dialect == "paddle":
            return "retained gradient of a paddle reshape (its kernels below may write into it)"
        return None

    # --- checking --------------------------------------------------------------------------

    def run(self) -> OracleResult:
        program, result = self.program, self.result
        nested = [w for w, s, _ in program.flat if "." in w and ("backward" in s or "grad" in s)]
        if nested:
            result.skip("backward or grad inside a grad-mode block")
            return result
        if program.writes_through_detached:
            result.skip("in-place write through a detached tensor (shared storage)")
            return result
        if program.frozen_several:
            result.skip("an op with several results made without recording")
            return result
        if program.writes_through_expanded:
            result.skip("in-place write without recording through an expanded tensor")
            return result
        checks = list(self.checks())
        if not checks:
            if not result.skipped:
                result.skip("no gradient observed")
            return result
        leaf_base = {n: np.asarray(self.program.leaves[n]["value"], dtype=np.float64)
                     for n in program.float_leaves}
        base = _OracleRun(self.case, self.adapter, program, leaf_base)
        base.run_steps(self.case.steps, "")
        objective = _Objective(self.case, self.adapter, program, base, leaf_base)
        for check in checks:
            self._check(objective, check)
        return result

    def _check(self, objective: _Objective, check: _Check) -> None:
        result = self.result
        gradients, nones = {}, []
        for name, grad in check.points.items():
            if name not in objective.base_named:
                result.skip("not re-evaluable")
                return
            if not objective.base.requires_grad.get(name, False):
                result.skip("input does not require grad")
                continue
            shape = objective.base_named[name].shape
            if grad is None:  # None is a zero gradient: calculus says whether it should be
                nones.append(name)
                grad = np.zeros(shape)
            if grad.shape != shape:
                result.checked += 1
                result.failures.append(f"{check.label}: gradient of {name} has shape "
                                       f"{list(grad.shape)}, its tensor {list(shape)}")
                return
            gradients[name] = grad
        if not gradients:
            return
        for event in check.events:
            first = self.program.first_overwrite
            if first is not None and first < event.index:
                result.skip("a leaf written while recording (paddle writes, then refuses)")
                return
            if event.hooks and any(s.get("create_graph") for s in self.case.steps[:event.index]):
                # the prefix's own passes run the hooks for real: a stand-in would count them twice
                result.skip("hooks under a derivative of a derivative")
                return
            if any(name in self.program.written for name in event.hooks):
                # the hooked stand-in is a new tensor: a write to it would not reach a view's base
                result.skip("hooked tensor written in place")
                return
            if event.seeds is None:
                event.seeds = _seeds(event.step, objective)
        rng = np.random.default_rng(zlib.crc32(f"{self.case.id}|{check.label}".encode()))
        direction = {n: rng.uniform(-1.0, 1.0, size=g.shape) for n, g in sorted(gradients.items())}
        with np.errstate(invalid="ignore", over="ignore"):  # a non-finite gradient is judged below
            analytic = float(sum(float((gradients[n] * direction[n]).sum()) for n in direction))
        numeric = _directional(objective, check.events, direction, {})
        if numeric is None:
            result.skip("not re-evaluable")
            return
        if math.isnan(numeric) and not math.isnan(analytic):
            result.skip("non-finite function")
            return
        if not math.isfinite(analytic) and math.isfinite(numeric):
            # 0 · inf in the chain rule (a branch where() does not take through sqrt at 0):
            # both frameworks give NaN there, calculus a number
            result.skip("non-finite gradient where the function is finite")
            return
        # (each value may carry rounding noise of a cancellation; the direction's entries are
        # at most 1 in magnitude)
        noise = sum(check.noise.get(n, 0.0) * float(np.abs(direction[n]).sum()) for n in direction)
        if _agree(analytic, numeric, noise):
            result.checked += 1
            return
        if _is_kink(objective, check.events, direction, numeric):
            result.skip("kink (nearby points disagree)")
            return
        if self._tie_differentiated_twice(objective, check.events):
            result.skip("a maximum/minimum tie differentiated twice (paddle's double-grad kernel "
                        "uses whole masks, not the halves)")
            return
        result.checked += 1
        none = f" ({', '.join(nones)}: None)" if nones else ""
        result.failures.append(f"{check.label}: directional derivative {analytic:.6g}{none} but "
                               f"finite differences give {numeric:.6g}")


def _active(hooks: dict[str, dict[str, float]]) -> dict[str, float]:
    active: dict[str, float] = {}
    for registered in hooks.values():
        for name, scale in registered.items():
            active[name] = active.get(name, 1.0) * scale
    return active


def _gradient(observed: dict[str, Any]) -> Optional[np.ndarray]:
    """An observed gradient as float64 values, or None."""
    if observed["kind"] == "none":
        return None
    return json_to_array(observed["values"], "float64")


def _seeds(step: dict[str, Any], objective: _Objective) -> Optional[list[np.ndarray]]:
    """The event's seeds as float64 constants (named seeds from the base run), or None when the
    oracle cannot form ``F_b`` (a number as a seed, a seed of another size)."""
    key = "grad" if "grad" in step else "backward"
    outputs = step[key] if isinstance(step[key], list) else [step[key]]
    named = objective.base_named
    seeds = step.get("seeds")
    out = []
    for i, name in enumerate(outputs):
        if name not in named:
            return None
        shape = named[name].shape
        seed = seeds[i] if seeds is not None and i < len(seeds) else None
        if seed is None:
            out.append(np.ones(shape))
        elif isinstance(seed, str) and seed in named:
            out.append(named[seed])
        elif isinstance(seed, dict) and "value" in seed and np.size(seed["value"]) == int(np.prod(shape)):
            out.append(np.asarray(seed["value"], dtype=np.float64).reshape(shape))
        else:
            return None
    return out


def _directional(objective: _Objective, events: list[_Event], direction: dict[str, np.ndarray],
                 offset: dict[str, np.ndarray], eps: float = EPS) -> Optional[float]:
    total = 0.0
    for event in events:
        up = objective.value(event, {n: v * eps + offset.get(n, 0.0) for n, v in direction.items()}, 1.0)
        down = objective.value(event, {n: -v * eps + offset.get(n, 0.0) for n, v in direction.items()},
                               1.0)
        if up is None or down is None:
            return None
        total += (up - down) / (2 * eps)
    return total


def _one_sided(objective: _Objective, events: list[_Event], direction: dict[str, np.ndarray],
               sign: float) -> Optional[float]:
    """The forward (``sign`` 1) or backward (-1) difference quotient at the point itself."""
    total = 0.0
    for event in events:
        there = objective.value(event, {n: sign * v * EPS for n, v in direction.items()}, 1.0)
        here = objective.value(event, {n: 0.0 * v for n, v in direction.items()}, 1.0)
        if there is None or here is None:
            return None
        total += sign * (there - here) / EPS
    return total


def _is_kink(objective: _Objective, events: list[_Event], direction: dict[str, np.ndarray],
             numeric: float) -> bool:
    """Directional derivatives at points a little away disagree: the function is not smooth.

    The points lie along the direction and across it: at a tie the function can be linear along
    one line through the point (so points along it agree) and still not be differentiable. The
    one-sided differences from the point itself catch a jump at the point alone (a comparison
    at its threshold: ``abs(x) > 0`` at 0), where every point nearby agrees."""
    for sign in (1.0, -1.0):
        side = _one_sided(objective, events, direction, sign)
        if side is None or not _agree(side, numeric):
            return True
    across = np.random.default_rng(len(direction))
    sideways = {n: across.uniform(-1.0, 1.0, size=v.shape) for n, v in direction.items()}
    for away in (direction, sideways):
        for sign in (1.0, -1.0):
            offset = {n: sign * KINK_OFFSET * v for n, v in away.items()}
            side = _directional(objective, events, direction, offset)
            if side is None or not _agree(side, numeric):
                return True
    return False


def check_gradients(case: Case, trace: Trace, adapter: Adapter) -> OracleResult:
    """Check every gradient a reference trace observed against finite differences."""
    return _Checker(case, trace, adapter).run()
