"""After every autograd step and at the end of a case, the interpreter observes what a program
could read of every named tensor without printing it (flags, dtype, shape, version, whether it
holds a gradient), so a bug that changes only state nobody prints still fails."""

from __future__ import annotations

import pytest

from conformance.corpus.loader import parse_case
from conformance.judge.causes import findings
from conformance.judge.compare import compare_traces
from conformance.judge.known import KnownDivergences
from conformance.judge.verdict import judge_framework
from conformance.run.backends import resolve
from conformance.run.interpreter import run_case
from conformance.run.isolation import IsolatedBackend, Outcome
from conformance.run.trace import STATE_FIELDS, full_states

# prints nothing but the leaf's gradient: its version is seen only through the state
CASE = {"id": "state/unprinted-version", "about": "a backward, then the gradient",
        "steps": [{"leaf": "x", "value": [1.0, 2.0], "requires_grad": True},
                  {"let": "y", "op": "mul", "args": ["x", "x"]},
                  {"let": "s", "op": "sum", "args": ["y"]},
                  {"backward": "s", "retain_graph": True},
                  {"grad": "s", "wrt": ["x"], "into": ["g"], "retain_graph": True},
                  {"observe": "grad", "of": "x"}]}


def _run(backend: str, raw: dict = CASE):
    case = parse_case(raw, "<test>", 0)
    return case, run_case(case, resolve(backend).load(), backend)


def _states(trace):
    """Every state observation as the full state (a trace records what changed)."""
    return {o["step"]: {name: dict(zip(STATE_FIELDS, entry)) for name, entry in o["tensors"].items()}
            for o in full_states(trace.observations) if o["kind"] == "state"}


def test_every_named_tensor_is_observed_after_each_autograd_step_and_at_the_end():
    _, trace = _run("reference-torch")
    states = _states(trace)
    assert list(states) == ["3.after", "4.after", "6.end"]
    assert list(states["3.after"]) == ["x", "y", "s"]
    assert states["3.after"]["x"] == {"dtype": "float32", "shape": [2], "requires_grad": True,
                                      "is_leaf": True, "has_grad_fn": False, "version": 0,
                                      "has_grad": True}
    assert states["3.after"]["y"]["has_grad"] is False and states["3.after"]["y"]["is_leaf"] is False


def test_a_trace_records_only_the_tensors_whose_state_changed():
    _, trace = _run("reference-torch")
    recorded = [o["tensors"] for o in trace.observations if o["kind"] == "state"]
    assert list(recorded[0]) == ["x", "y", "s"]
    assert list(recorded[1]) == ["g"]  # the grad step bound g and changed nothing else
    assert recorded[2] == {}


def test_gradients_show_no_version():
    """Their versions count torch's in-place sums inside the pass (reference counts decide)."""
    _, trace = _run("reference-torch")
    assert _states(trace)["6.end"]["g"]["version"] is None
    assert _states(trace)["6.end"]["x"]["version"] == 0


@pytest.mark.parametrize("dialect", ["torch", "paddle"])
def test_the_reference_observes_the_states_its_framework_does(dialect):
    pytest.importorskip(dialect, reason=f"{dialect} is not installed")
    raw = {**CASE, "steps": CASE["steps"] + [
        {"inplace": "y", "op": "mul", "args": [2.0]},
        {"no_grad": [{"let": "v", "op": "reshape", "args": ["y"], "kwargs": {"shape": [2, 1]}}]},
        {"backward": "s"}]}
    _, expected = _run(f"reference-{dialect}", raw)
    _, actual = _run(f"{dialect}-cpu", raw)
    assert len(_states(expected)) == 4
    assert compare_traces(expected, actual).same
    assert _states(expected) == _states(actual)


def test_a_read_the_framework_refuses_is_recorded_as_its_error():
    pytest.importorskip("torch", reason="torch is not installed")
    raw = {"id": "state/inference", "about": "an inference tensor has no version",
           "steps": [{"inference_mode": [{"leaf": "x", "value": [1.0]}]}]}
    for backend in ("reference-torch", "torch-cpu"):
        _, trace = _run(backend, raw)
        assert _states(trace)["1.end"]["x"]["version"] == \
            "RuntimeError: Inference tensors do not track version counter."


def test_a_bug_in_unprinted_state_fails_the_case():
    """A toy engine whose backward writes its output once more in place: every printed value is
    right, and only the state shows it (in a process of its own: the toy patches the engine)."""
    case, reference = _run("reference-torch")
    backend = resolve("torch:tests.toy_backends.grad_bumps_versions")
    isolated = IsolatedBackend(backend)
    try:
        outcome = isolated.run(case.raw)
    finally:
        isolated.stop()
    printed_only = [o for o in outcome.observations if o["kind"] != "state"]
    assert printed_only == [o for o in reference.observations if o["kind"] != "state"]
    result = judge_framework(case, backend, outcome, Outcome("ok", reference.observations),
                             KnownDivergences(backend.name))
    assert result["verdict"] == "fail"
    assert result["differences"][0]["what"] == "s version"


def test_the_difference_names_the_tensor_and_what_of_it_differs():
    _, trace = _run("reference-torch")
    changed = _run("reference-torch")[1]
    first = next(o for o in changed.observations if o["kind"] == "state")
    first["tensors"]["y"][STATE_FIELDS.index("requires_grad")] = False
    found = compare_traces(trace, changed)
    assert [d.what for d in found.differences] == ["y requires_grad"] * 3  # and after


def test_a_field_a_module_has_no_attribute_for_is_not_compared():
    _, trace = _run("reference-torch")
    changed = _run("reference-torch")[1]
    for o in changed.observations:
        if o["kind"] == "state":
            for entry in o["tensors"].values():
                entry[STATE_FIELDS.index("version")] = None
    assert compare_traces(trace, changed).same


def test_torch_and_paddle_are_compared_on_what_programs_print_only():
    """Their version counters and flags differ by design; the porting report is about prints."""
    _, trace = _run("reference-torch")
    changed = _run("reference-torch")[1]
    first = next(o for o in changed.observations if o["kind"] == "state")
    first["tensors"]["x"][STATE_FIELDS.index("version")] = 7
    assert findings(None, trace.observations, changed.observations) == []
    assert not compare_traces(trace, changed).same
