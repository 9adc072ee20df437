"""Run a case on a backend and record its trace.

Each step runs through the backend's adapter. An exception ends the step, not the case: it is
recorded (class, normalised category, cleaned message) and later steps that need a name it should
have bound are recorded as ``skipped``. A step the dialect lacks is ``unsupported``. Warnings are
recorded with the step that raised them.
"""

from __future__ import annotations

import warnings
from typing import Any, Optional

import numpy as np

from conformance.corpus.case import Case
from conformance.corpus.step_kinds import STATE_AFTER, kind_of
from conformance.corpus.vocabulary import NUMBER_OR_NAME, OpSpec
from conformance.run.adapters import Adapter, Unsupported, rounding_scale, rounding_singular, step_shift
from conformance.run.calls import call_keywords
from conformance.run.memory import OutOfMemory, is_out_of_memory
from conformance.run.noise import is_environment_noise
from conformance.run.step_actions import ACTIONS
from conformance.run.trace import STATE_FIELDS, Trace, array_to_json, categorize, clean_message

_UNDEFINED = "UndefinedInFrameworkError"


class _Missing(Exception):  # noqa: N818 - control flow: a name an earlier failed step did not bind
    pass


class _WarningRecord:
    """The warnings raised while a program runs, every one of them ("always"), for each step to
    take those raised while it ran. One ``catch_warnings`` per run, not per step: entering one
    copies the filter list and resets the registry caches, which cost more than most steps."""

    def __init__(self) -> None:
        self.caught: Optional[list[warnings.WarningMessage]] = None
        self.always: Any = None  # the filter this record put first

    def start(self, caught: list[warnings.WarningMessage]) -> None:
        warnings.simplefilter("always")
        self.caught, self.always = caught, warnings.filters[0]

    def before_step(self) -> list[warnings.WarningMessage]:
        """The record, with "always" first again if a step changed the filters."""
        assert self.caught is not None, "a step runs inside run_steps"
        if not warnings.filters or warnings.filters[0] is not self.always:
            self.start(self.caught)
        return self.caught


_WARNINGS = _WarningRecord()


class Interpreter:
    """Runs steps through an adapter, binding names and recording observations in a trace."""

    def __init__(self, case: Case, adapter: Adapter, trace: Trace,
                 leaf_values: Optional[dict[str, np.ndarray]] = None) -> None:
        self.case, self.a, self.trace = case, adapter, trace
        self.env: dict[str, Any] = {}
        self.leaf_values = leaf_values or {}
        # names of gradients (grad results, held .grad) and of what ops made from them: their
        # versions count torch's in-place sums inside the backward pass, which follow its
        # reference counts, so a state shows no version for them
        self.from_gradients: set[str] = set()
        self.last_state: dict[str, list[Any]] = {}  # name -> its STATE_FIELDS, as last recorded

    # --- values -----------------------------------------------------------------------------

    def get(self, name: str) -> Any:
        if name not in self.env:
            raise _Missing(name)
        return self.env[name]

    def arg(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.get(value)
        if isinstance(value, list):
            return [self.get(v) for v in value]
        return value

    def seeds(self, seeds: Optional[list[Any]]) -> Optional[list[Any]]:
        if seeds is None:
            return None
        out = []
        for seed in seeds:
            if seed is None or isinstance(seed, str):
                out.append(None if seed is None else self.get(seed))
            elif "scalar" in seed:
                out.append(seed["scalar"])
            else:
                out.append(self.a.leaf(seed["value"], seed.get("dtype", "float32"), False))
        return out

    def describe(self, value: Any) -> dict[str, Any]:
        if value is None:
            return {"kind": "none"}
        if isinstance(value, (list, tuple)):
            return {"kind": "list", "items": [self.describe(v) for v in value]}
        dtype, data, requires_grad, has_grad_fn = self.a.describe(value)
        observed = {"kind": "tensor", "dtype": dtype, "shape": list(data.shape),
                    "values": array_to_json(np.asarray(data)), "requires_grad": requires_grad,
                    "has_grad_fn": has_grad_fn}
        scale = rounding_scale(value)
        if scale:
            # a gradient's rounding noise is of the scale of what it was summed from, in every
            # element: a small one of a matrix product's gradient cancels terms as large as
            # the largest (and the values may cancel larger ones still)
            observed["rounding_scale"] = scale
        if rounding_singular(value):
            observed["rounding_singular"] = True
        shift = step_shift(value)
        if shift is not None and shift.any():
            observed["step_shift"] = array_to_json(shift)
        return observed

    # --- steps ------------------------------------------------------------------------------

    def run_steps(self, steps: tuple[dict[str, Any], ...] | list[dict[str, Any]], prefix: str) -> None:
        if _WARNINGS.caught is not None:  # a step's body, a hook's or a function's: same record
            for i, step in enumerate(steps):
                self.run_step(step, f"{prefix}{i}")
            return
        with warnings.catch_warnings(record=True) as caught:
            _WARNINGS.start(caught)
            try:
                for i, step in enumerate(steps):
                    self.run_step(step, f"{prefix}{i}")
            finally:
                _WARNINGS.caught = None

    def run_step(self, step: dict[str, Any], where: str) -> None:
        kind = kind_of(step)
        caught = _WARNINGS.before_step()
        first = len(caught)
        try:
            ACTIONS[kind].run(self, step, where)
        except _Missing as missing:
            self.trace.add(where, "skipped", reason=f"'{missing}' was not bound")
        except Unsupported as exc:
            self.trace.add(where, "unsupported", what=str(exc))
        except Exception as exc:  # noqa: BLE001 - the framework's exception is the observation
            if is_out_of_memory(exc):  # not the program's behaviour: the process's limit
                raise exc if isinstance(exc, OutOfMemory) else OutOfMemory(str(exc)[:300]) from None
            message = clean_message(str(exc))
            if type(exc).__name__ == _UNDEFINED:
                self.trace.add(where, "undefined", message=message)
            else:
                self.trace.add(where, "error", error=type(exc).__name__,
                               category=categorize(message), message=message)
        raised = caught[first:]
        del caught[first:]  # the warnings of steps run inside this one were taken by those
        for w in raised:  # every class: a framework's DeprecationWarning is an observation too
            message = clean_message(str(w.message))
            if is_environment_noise(message):
                continue
            self.trace.add(where, "warning", warning=w.category.__name__,
                           category=categorize(message), message=message)
        if kind in STATE_AFTER:
            self.record_state(f"{where}.after")

    def record_state(self, where: str) -> None:
        """Observe what a program could read of every named tensor without printing it
        (``STATE_FIELDS``: flags, dtype, shape, version, whether it holds a gradient): a bug
        that changes state the case never prints still shows. Only the tensors whose state
        changed since the last such observation are recorded (``trace.full_states`` replays
        them). Reading it warns in places (torch's ``.grad`` of a non-leaf); those warnings are
        not the program's."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            now = {name: self._state_of(value, name in self.from_gradients)
                   for name, value in self.env.items() if self.a.is_tensor(value)}
        changed = {name: entry for name, entry in now.items() if self.last_state.get(name) != entry}
        self.last_state = now
        self.trace.add(where, "state", tensors=changed)

    def _state_of(self, tensor: Any, from_gradients: bool) -> list[Any]:
        try:
            entry = self.a.state(tensor)
        except Exception as exc:  # noqa: BLE001 - a module's refusal is its observation
            return [f"{type(exc).__name__}: {clean_message(str(exc))}"] * len(STATE_FIELDS)
        if from_gradients:
            entry[STATE_FIELDS.index("version")] = None
        return entry

    def kwargs(self, op_spec: OpSpec, kwargs: dict[str, Any]) -> dict[str, Any]:
        """Keyword arguments with the names a ``number or name`` keyword may hold resolved."""
        return {k: self.get(v) if op_spec.kwargs.get(k) == NUMBER_OR_NAME and isinstance(v, str) else v
                for k, v in kwargs.items()}

    def call_arguments(self, step: dict[str, Any], kind: str) -> tuple[list[Any], dict[str, Any]]:
        """What a ``backward`` / ``grad`` step passes after its tensors: the seeds, positionally,
        only when the case gives them, and the keywords the case names (``calls``)."""
        keywords = call_keywords(step, kind, self.a.dialect)
        for field in ("inputs", "no_grad_vars"):
            if field in keywords:
                keywords[field] = [self.get(n) for n in keywords[field]]
        return ([self.seeds(step["seeds"])] if "seeds" in step else []), keywords

    def bind_handle(self, step: dict[str, Any], handle: Any) -> None:
        """Bind a hook's removable handle where the step names one."""
        if "handle" in step:
            self.env[step["handle"]] = handle

    def def_function(self, step: dict[str, Any], where: str) -> Any:
        """A ``def`` step's function: its body run with its inputs bound, as Python would."""
        def function(*inputs: Any) -> Any:
            run = _BodyRun(self.case, self.a, self.trace)
            run.env.update(zip(step["inputs"], inputs))
            run.run_steps(step["body"], f"{where}.body.")
            return run.env[step["output"]]
        return function

    def custom_body(self, step: dict[str, Any], where: str) -> CustomFunctionBody:
        """A ``function`` step's forward and backward, for the adapter's custom function."""
        return CustomFunctionBody(self, step, where)


class _BodyRun(Interpreter):
    """A custom function's forward or backward: its steps run as the user's Python would, so an
    exception leaves the body and goes through the framework to the step that called it."""

    def run_step(self, step: dict[str, Any], where: str) -> None:
        ACTIONS[kind_of(step)].run(self, step, where)


class CustomFunctionBody:
    """The forward and backward of a ``function`` step, run by a framework's custom function
    (the adapter wraps them in ``autograd.Function`` or ``PyLayer``). Observations made inside
    go to the case's trace, located under the function step (``3.derivative.0``)."""

    def __init__(self, caller: Interpreter, step: dict[str, Any], where: str) -> None:
        self.caller, self.step, self.where = caller, step, where
        self.saves = bool(step.get("save"))
        self.non_differentiable = step.get("non_differentiable", False)
        self.materialize_grads = step.get("materialize_grads", True)
        self.once_differentiable = step.get("once_differentiable", False)

    def _run(self, body: str, bound: dict[str, Any]) -> Interpreter:
        run = _BodyRun(self.caller.case, self.caller.a, self.caller.trace)
        run.env.update(bound)
        run.run_steps(self.step[body], f"{self.where}.{body}.")
        return run

    def forward(self, inputs: list[Any]) -> tuple[Any, list[Any], list[Any]]:
        """The output (a tuple for a list of outputs), the tensors to save for backward and
        those to mark dirty."""
        run = self._run("forward", dict(zip(self.step["inputs"], inputs)))
        output = self.step["output"]
        return (tuple(run.env[n] for n in output) if isinstance(output, list) else run.env[output],
                [run.env[n] for n in self.step.get("save", [])],
                [run.env[n] for n in self.step.get("dirty", [])])

    def backward(self, saved: list[Any], output_grads: tuple[Any, ...]) -> list[Any]:
        """The gradients the backward returns, one per ``input_grads`` entry."""
        bound = dict(zip(self.step.get("save", []), saved))
        bound.update(zip(_as_list(self.step["output_grad"]), output_grads))
        run = self._run("derivative", bound)
        return [None if n is None else run.env[n] for n in self.step["input_grads"]]


def _as_list(v: Any) -> list[Any]:
    return v if isinstance(v, list) else [v]


def run_case(case: Case, adapter: Adapter, backend_name: str) -> Trace:
    """Run every step of ``case`` through ``adapter``; never raises for the program's errors."""
    trace = Trace(case.id, backend_name)
    if not case.runs_on(adapter.dialect):
        trace.add("-", "unsupported", what=f"case is not written for {adapter.dialect}")
        return trace
    interpreter = Interpreter(case, adapter, trace)
    try:
        interpreter.run_steps(case.steps, "")
        interpreter.record_state(f"{len(case.steps)}.end")
    finally:
        # a hook the program registered holds the interpreter, and torch keeps a non-leaf's
        # hooks where Python's garbage collector cannot see them: the program's tensors would
        # hold their graph, its hooks, the interpreter and the tensors again, case after case
        interpreter.env.clear()
    return trace
