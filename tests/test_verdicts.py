"""Verdicts that cannot be excused: each planted fault makes the run fail.

The plantings: a framework gradient changed on a case the known list excuses, a derivative rule
that gives None, an error reworded within its category, and one float64 op computed in float32.
Toy backends (``tests/toy_backends``) are patched copies of the reference engine; the known case
runs on real paddle.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from conformance.corpus.case import Case
from conformance.corpus.generator import generate_case
from conformance.corpus.loader import hand_written_dir, load_directory, parse_document
from conformance.judge.compare import TOLERANCES, compare_traces
from conformance.judge.known import Entry, KnownDivergences, load, load_file, stale_entries
from conformance.judge.verdict import judge_framework, judge_reference
from conformance.run.backends import resolve
from conformance.run.interpreter import run_case
from conformance.run.isolation import IsolatedBackend
from conformance.run.trace import Trace, clean_message


@pytest.fixture(scope="module")
def cases():
    return {c.id: c for c in load_directory(hand_written_dir())}


def _known_case(entry_cases: list[str], cases: dict):
    """A case a known-divergence entry covers: hand-written, or regenerated from its id."""
    case_id = entry_cases[0]
    if case_id in cases:
        return cases[case_id]
    _, seed, rest = case_id.split("/")
    return Case.trusted(generate_case(int(seed), int(rest[:5])), "<generated>")


_STARTED: dict = {}


@pytest.fixture(scope="module", autouse=True)
def _stop_backends():
    yield
    for isolated in _STARTED.values():
        isolated.stop()
    _STARTED.clear()


def _outcome(backend_name: str, case, oracle=None):
    """The case run on a backend process, started once per module and option."""
    key = (backend_name, oracle)
    if key not in _STARTED:
        _STARTED[key] = IsolatedBackend(resolve(backend_name), oracle=oracle)
    return _STARTED[key].run(case.raw)


def _scale_gradients(observations: list[dict], factor: float) -> list[dict]:
    """A copy of a trace with every observed tensor's values scaled: a changed framework."""
    planted = copy.deepcopy(observations)
    for o in planted:
        if o["kind"] == "tensor" and o["dtype"].startswith("float"):
            o["values"] = json.loads(json.dumps(o["values"]), parse_float=lambda v: float(v) * factor)
    return planted


# --- known divergences are pinned to what differs ----------------------------------------------

# The reference now models every paddle bug an entry listed; the last one, as it was measured
# (a hook on a view handed the seed itself), drives these tests with the reference's side of
# each pinned difference put back into the reference's trace.
MEASURED_ENTRY = Path(__file__).parent / "measured" / "paddle-cpu-modelled-known-entry.json"


def _as_measured(reference_observations: list[dict], entry: Entry) -> list[dict]:
    """The reference's trace with the observations the entry pins as the reference's then."""
    planted = copy.deepcopy(reference_observations)
    for difference in entry.differences:
        then = difference["reference"]
        at = next(i for i, o in enumerate(planted)
                  if o["step"] == then["step"] and o["kind"] == then["kind"])
        planted[at] = copy.deepcopy(then)
    return planted


def test_a_known_case_is_known_only_with_its_pinned_differences(cases):
    pytest.importorskip("paddle", reason="paddlepaddle is not installed")
    known = load_file(MEASURED_ENTRY, "paddle-cpu")
    backend = resolve("paddle-cpu")
    entry = known.entries[0]
    case = _known_case(entry.cases, cases)
    actual = _outcome("paddle-cpu", case)
    reference = _outcome("reference-paddle", case)
    assert judge_framework(case, backend, actual, reference, known)["verdict"] == "pass"
    reference.observations = _as_measured(reference.observations, entry)
    assert judge_framework(case, backend, actual, reference, known)["verdict"] == "known"

    planted = _scale_gradients(actual.observations, 1.5)
    assert planted != actual.observations
    actual.observations = planted
    result = judge_framework(case, backend, actual, reference, known)
    assert result["verdict"] == "fail"
    assert result["known_entry"] == known.entry_for(case.id).key
    assert "the entry pins other differences" in result["detail"]
    assert "known entry for" in result["detail"]


def test_an_entry_measured_on_another_version_excuses_nothing(cases):
    pytest.importorskip("paddle", reason="paddlepaddle is not installed")
    entry = load_file(MEASURED_ENTRY, "paddle-cpu").entries[0]
    case = _known_case(entry.cases, cases)
    other = KnownDivergences("paddle-cpu", [Entry(entry.cases, entry.reason, {"paddlepaddle": "0.0.1"},
                                                  entry.differences)])
    reference = _outcome("reference-paddle", case)
    reference.observations = _as_measured(reference.observations, entry)
    result = judge_framework(case, resolve("paddle-cpu"), _outcome("paddle-cpu", case),
                             reference, other)
    assert result["verdict"] == "fail" and "measured on paddlepaddle 0.0.1" in result["detail"]


def test_an_entry_is_stale_only_when_its_case_ran_and_passed_or_differed_otherwise(tmp_path):
    entries = [{"cases": [name], "reason": "r", "measured_on": {"torch": "2.13.0"}, "differences": []}
               for name in ("not/run", "now/passes", "differs/otherwise", "still/known")]
    (tmp_path / "torch-cpu.json").write_text(json.dumps({"backend": "torch-cpu", "entries": entries}))
    results = [
        {"case": "now/passes", "backend": "torch-cpu", "verdict": "pass"},
        {"case": "differs/otherwise", "backend": "torch-cpu", "verdict": "fail",
         "known_entry": "differs/otherwise", "known_mismatch": "the entry pins other differences"},
        {"case": "still/known", "backend": "torch-cpu", "verdict": "known", "known_entry": "still/known"},
    ]
    stale = {s["entry"]: s["why"] for s in stale_entries(results, tmp_path)}
    assert set(stale) == {"now/passes", "differs/otherwise"}
    assert "now passes" in stale["now/passes"] and "differs otherwise" in stale["differs/otherwise"]


def test_known_update_rewrites_the_signature_and_keeps_the_reason(tmp_path):
    from conformance.judge.known import update_from_results

    kd = KnownDivergences("paddle-cpu", [Entry(["a/case"], "why it differs", {"paddlepaddle": "3.0.0"}, [])],
                          tmp_path / "paddle-cpu.json")
    signature = [{"step": "3", "what": "values", "reference": {"kind": "none"}, "backend": {"kind": "none"}}]
    results = [{"case": "a/case", "backend": "paddle-cpu", "verdict": "fail", "differences": signature}]
    changes = update_from_results(kd, results, {"paddlepaddle": "3.3.1"})
    kd.save()
    saved = json.loads((tmp_path / "paddle-cpu.json").read_text())["entries"][0]
    assert changes and saved == {"cases": ["a/case"], "reason": "why it differs",
                                 "measured_on": {"paddlepaddle": "3.3.1"}, "differences": signature}


def test_every_known_entry_is_pinned_to_differences_and_a_version():
    for backend in ("paddle-cpu", "torch-cpu"):
        for entry in load(backend).entries:
            assert entry.differences, f"{entry.key} excuses nothing in particular"
            assert entry.measured_on and all(entry.measured_on.values()), entry.key


# --- messages by text ---------------------------------------------------------------------------

def test_a_reworded_error_in_its_category_fails(cases):
    case = cases["retain/freed-after-backward"]
    reference = _outcome("reference-torch", case)
    planted = _outcome("torch:tests.toy_backends.reworded_freed_error", case)
    errors = [o for o in planted.observations if o["kind"] == "error"]
    assert errors and errors[0]["category"] == "freed-graph"
    result = judge_framework(case, resolve("torch:tests.toy_backends.reworded_freed_error"),
                             planted, reference, KnownDivergences("toy"))
    assert result["verdict"] == "fail" and "error message" in result["detail"]


def test_torch_against_paddle_compares_categories_and_notes_the_text():
    torch_side = Trace("c", "torch", [{"step": "1", "kind": "error", "error": "RuntimeError",
                                       "category": "freed-graph", "message": "Trying to backward ..."}])
    paddle_side = Trace("c", "paddle", [{"step": "1", "kind": "error", "error": "RuntimeError",
                                         "category": "freed-graph", "message": "(Fatal) ..."}])
    assert not compare_traces(torch_side, paddle_side).same
    by_category = compare_traces(torch_side, paddle_side, messages="category")
    assert by_category.same and by_category.message_notes


@pytest.mark.parametrize("raw, clean", [
    ("\n\n----------------------\nC++ Traceback (most recent call last):\n------\n0   egr::Backward()\n\n"
     "----------------------\nError Message Summary:\n----------------------\nFatalError: The "
     "TensorWrappers of SumGradNode do not exist.\n\n  [Hint: Expected x != true.] (at "
     "/paddle/paddle/fluid/eager/backward.cc:204)\n",
     "(Fatal) The TensorWrappers of SumGradNode do not exist."),
    ("(InvalidArgument) bad dims of eager_tmp_12.\n  [Hint: Expected a == b.] (at /paddle/x.cc:3)\n",
     "(InvalidArgument) bad dims of NAME."),
    ("Something happened (Triggered internally at /pytorch/torch/csrc/autograd/engine.cpp:1)",
     "Something happened"),
    ("see /usr/lib/python3.11/site-packages/paddle/base/dygraph/base.py:901 for generated_tensor_3",
     "see <path> for NAME"),
    ("(InvalidArgument) Leaf Var (create_parameter_12.w_0) that doesn't stop gradient, not "
     "linear_3.b_0", "(InvalidArgument) Leaf Var (NAME) that doesn't stop gradient, not NAME"),
])
def test_messages_are_normalised(raw, clean):
    assert clean_message(raw) == clean


def test_every_warning_class_is_recorded():
    doc = {"format": 1, "cases": [{"id": "w", "about": "x", "steps": [
        {"leaf": "x", "value": [1.0, 2.0], "requires_grad": True},
        {"let": "y", "op": "mul", "args": ["x", 2.0]},
        {"observe": "grad", "of": "y"}]}]}
    case = parse_document(doc, "<t>")[0]
    reference = _outcome("reference-torch", case)
    real = _outcome("torch-cpu", case)
    warnings = [o for o in real.observations if o["kind"] == "warning"]
    assert warnings and warnings[0]["warning"] == "UserWarning"
    assert compare_traces(Trace("w", "r", reference.observations), Trace("w", "t", real.observations)).same


def test_a_warning_is_recorded_with_the_innermost_step_that_raised_it_each_time():
    doc = {"format": 1, "cases": [{"id": "w", "about": "x", "steps": [
        {"leaf": "x", "value": [1.0, 2.0], "requires_grad": True},
        {"let": "y", "op": "mul", "args": ["x", 2.0]},
        {"observe": "grad", "of": "y"},
        {"no_grad": [{"observe": "grad", "of": "y"}, {"let": "z", "op": "mul", "args": ["y", 3.0]}]},
        {"observe": "grad", "of": "y"}]}]}
    case = parse_document(doc, "<t>")[0]
    adapter = resolve("torch-cpu").load()
    trace = run_case(case, adapter, "torch-cpu")
    assert [o["step"] for o in trace.observations if o["kind"] == "warning"] == ["2", "3.0", "4"]


# --- the finite-difference oracle ----------------------------------------------------------------

def test_a_none_from_a_derivative_rule_fails(cases):
    case = cases["op/where/backward"]
    result = judge_reference(case, resolve("torch:tests.toy_backends.where_none"),
                             _outcome("torch:tests.toy_backends.where_none", case, oracle=True))
    assert result["verdict"] == "fail" and "None" in result["detail"]
    healthy = judge_reference(case, resolve("reference-torch"), _outcome("reference-torch", case))
    assert healthy["verdict"] == "pass" and healthy["oracle"]["checked"] >= 1


def _oracle(steps: list[dict]) -> dict:
    case = parse_document({"format": 1, "cases": [{"id": "o", "about": "x", "steps": steps}]}, "<t>")[0]
    return _outcome("reference-torch", case).oracle


def test_every_backward_is_checked_with_accumulation():
    oracle = _oracle([
        {"leaf": "x", "value": [0.3, 0.7], "dtype": "float64", "requires_grad": True},
        {"let": "y", "op": "sin", "args": ["x"]}, {"let": "s", "op": "sum", "args": ["y"]},
        {"let": "z", "op": "exp", "args": ["x"]}, {"let": "t", "op": "sum", "args": ["z"]},
        {"backward": "s"}, {"observe": "grad", "of": "x"},
        {"backward": "t"}, {"observe": "grad", "of": "x"}])
    assert oracle["checked"] == 2 and not oracle["failures"]


def test_hooks_no_grad_blocks_and_detach_are_checked_with_frozen_values():
    oracle = _oracle([
        {"leaf": "x", "value": [0.3, 0.7], "dtype": "float64", "requires_grad": True},
        {"let": "y", "op": "sin", "args": ["x"]},
        {"hook": "y", "scale": 3.0},
        {"let": "d", "op": "detach", "args": ["y"]},
        {"no_grad": [{"let": "k", "op": "exp", "args": ["x"]}]},
        {"let": "p", "op": "mul", "args": ["y", "d"]}, {"let": "q", "op": "mul", "args": ["p", "k"]},
        {"let": "s", "op": "sum", "args": ["q"]},
        {"backward": "s"}, {"observe": "grad", "of": "x"}])
    assert oracle["checked"] == 1 and not oracle["failures"], oracle


def test_every_skip_is_counted_by_reason():
    oracle = _oracle([
        {"leaf": "x", "value": [0.3, 0.7], "dtype": "float64", "requires_grad": True},
        {"let": "y", "op": "sin", "args": ["x"]}, {"observe": "value", "of": "y"}])
    assert oracle["checked"] == 0 and oracle["skipped"] == {"no gradient observed": 1}


def test_a_jump_at_the_point_alone_is_skipped_as_a_kink_and_checked_away_from_it():
    """``where(abs(x) > 0, y, 0)`` at x = 0 differs from every point nearby: finite differences
    there say nothing. Away from that point the same gradients are checked."""
    def steps(at: float) -> list[dict]:
        return [{"leaf": "x", "value": [at, 0.5], "dtype": "float64", "requires_grad": True},
                {"leaf": "y", "value": [1.5, -0.4], "dtype": "float64", "requires_grad": True},
                {"let": "a", "op": "abs", "args": ["x"]}, {"let": "m", "op": "gt", "args": ["a", 0.0]},
                {"let": "w", "op": "where", "args": ["m", "y", 0.0]},
                {"let": "s", "op": "sum", "args": ["w"]},
                {"backward": "s"}, {"observe": "grad", "of": "x"}, {"observe": "grad", "of": "y"}]
    at_jump = _oracle(steps(0.0))
    assert at_jump["checked"] == 0 and at_jump["skipped"] == {"kink (nearby points disagree)": 1}
    smooth = _oracle(steps(0.2))
    assert smooth["checked"] == 1 and not smooth["failures"] and not smooth["skipped"]


# --- tolerances -----------------------------------------------------------------------------------

def test_float64_tolerance_is_tighter_than_float32_rounding():
    rtol, atol = TOLERANCES["float64"]
    assert rtol < 2.0 ** -24 / 10 and atol < 1e-10


def test_one_float64_op_computed_in_float32_fails(cases):
    doc = {"format": 1, "cases": [{"id": "f64", "about": "x", "steps": [
        {"leaf": "x", "value": [0.1234567, 1.7654321, -0.5555555], "dtype": "float64",
         "requires_grad": True},
        {"let": "y", "op": "exp", "args": ["x"]}, {"let": "s", "op": "sum", "args": ["y"]},
        {"observe": "value", "of": "y"}, {"backward": "s"}, {"observe": "grad", "of": "x"}]}]}
    case = parse_document(doc, "<t>")[0]
    toy = "torch:tests.toy_backends.exp_in_float32"
    result = judge_framework(case, resolve(toy), _outcome(toy, case), _outcome("reference-torch", case),
                             KnownDivergences("toy"))
    assert result["verdict"] == "fail" and "values" in result["detail"]


def test_a_float64_value_computed_through_float32_gets_float32_tolerance():
    """One float32 rounding apart: a difference in a pure float64 case, agreement in a case that
    casts to float32 (the value went through float32 ops in both frameworks)."""
    steps = [{"leaf": "x", "value": [0.5, 1.5], "dtype": "float64", "requires_grad": True},
             {"let": "h", "op": "cast", "args": ["x"], "kwargs": {"dtype": "float32"}},
             {"let": "t", "op": "tanh", "args": ["h"]}, {"let": "s", "op": "sum", "args": ["t"]},
             {"backward": "s"}, {"observe": "grad", "of": "x"}]
    case = parse_document({"format": 1, "cases": [{"id": "c", "about": "x", "steps": steps}]},
                          "<t>")[0]
    assert case.dtypes() == {"float64", "float32"}
    grad = next(o for o in _outcome("torch-cpu", case).observations if o["kind"] == "tensor")
    first, second = grad["values"]
    rounded = dict(grad, values=[first * (1 + 6e-8), second])
    pure = compare_traces(Trace("c", "reference", [grad]), Trace("c", "torch-cpu", [rounded]),
                          computed_in=frozenset({"float64"}))
    mixed = compare_traces(Trace("c", "reference", [grad]), Trace("c", "torch-cpu", [rounded]),
                           computed_in=case.dtypes())
    assert [d.what for d in pure.differences] == ["values"] and not mixed.differences


# --- refused steps ----------------------------------------------------------------------------------

def test_a_step_the_adapter_refuses_makes_the_case_unsupported():
    doc = {"format": 1, "cases": [{"id": "u", "about": "x", "steps": [
        {"leaf": "x", "value": [1.0], "requires_grad": True},
        {"let": "s", "op": "sum", "args": ["x"]},
        {"grad": "s", "wrt": ["x"], "materialize_grads": True}]}]}
    case = parse_document(doc, "<t>")[0]
    reference = _outcome("reference-paddle", case)
    result = judge_reference(case, resolve("reference-paddle"), reference)
    assert result["verdict"] == "unsupported" and "materialize_grads" in result["detail"]


# --- verdicts from given traces ------------------------------------------------------------------

_EXPECTING = {"id": "verdict/expecting", "about": "a case that states the gradient it expects",
              "dialects": ["torch"],
              "steps": [{"leaf": "x", "value": [1.0, 2.0], "requires_grad": True},
                        {"let": "s", "op": "sum", "args": ["x"]}, {"backward": "s"},
                        {"observe": "grad", "of": "x"}],
              "expect": [{"step": 3, "value": [1.0, 1.0]}]}


def _grad_trace(values: list[float]) -> list[dict]:
    return [{"step": "3", "kind": "tensor", "dtype": "float32", "shape": [2],
             "requires_grad": False, "has_grad_fn": False, "values": values}]


def _expecting_case() -> Case:
    return parse_document({"format": 1, "cases": [_EXPECTING]}, "<verdicts>")[0]


def test_a_reference_that_breaks_a_stated_expectation_fails():
    from conformance.run.isolation import Outcome

    case, backend = _expecting_case(), resolve("reference-torch")
    assert judge_reference(case, backend, Outcome("ok", _grad_trace([1.0, 1.0])))["verdict"] == "pass"
    broken = judge_reference(case, backend, Outcome("ok", _grad_trace([2.0, 2.0])))
    assert broken["verdict"] == "fail" and "step 3" in broken["detail"]


def test_a_known_entry_does_not_excuse_a_broken_expectation():
    """The entry pins exactly what differs, but the framework also breaks what the case states:
    the result fails."""
    from conformance.run.backends import framework_versions
    from conformance.run.isolation import Outcome

    case, backend = _expecting_case(), resolve("torch-cpu")
    reference, framework = Outcome("ok", _grad_trace([1.0, 1.0])), Outcome("ok", _grad_trace([2.0, 2.0]))
    found = compare_traces(Trace(case.id, "reference", reference.observations),
                           Trace(case.id, "torch-cpu", framework.observations)).differences
    entry = Entry([case.id], "measured", {"torch": framework_versions()["torch"]},
                  [d.signature() for d in found])
    known = KnownDivergences("torch-cpu", [entry])
    assert known.judge(case.id, found, framework_versions()).excused
    result = judge_framework(case, backend, framework, reference, known)
    assert result["verdict"] == "fail"


def test_a_framework_result_without_its_reference_is_unavailable_not_judged():
    from conformance.run.isolation import Outcome

    case, backend = _expecting_case(), resolve("torch-cpu")
    crashed = Outcome("crashed", None, detail="the reference process died")
    result = judge_framework(case, backend, Outcome("ok", _grad_trace([1.0, 1.0])), crashed,
                             KnownDivergences("torch-cpu"))
    assert result["verdict"] == "unavailable" and "did not run" in result["detail"]


def test_a_crash_the_reference_predicts_is_known_and_any_other_crash_fails():
    """paddle 3.3.1 segfaults on paddle.grad with an input in no_grad_vars; the reference refuses
    that call as a crash of the framework (UndefinedInFrameworkError), so the crash is known.
    The judging is the same for every backend; the case here is a torch one."""
    from conformance.run.isolation import Outcome

    case, backend = _expecting_case(), resolve("torch-cpu")
    died = Outcome("crashed", None, detail="the backend process died (exit code -11)")
    predicted = Outcome("ok", [{"step": "3", "kind": "undefined", "message":
                                "paddle 3.3.1 crashes (segmentation fault) on this call"}])
    result = judge_framework(case, backend, died, predicted, KnownDivergences("torch-cpu"))
    assert result["verdict"] == "known" and "the reference predicts it" in result["known_reason"]
    unpredicted = judge_framework(case, backend, died, Outcome("ok", _grad_trace([1.0, 1.0])),
                                  KnownDivergences("torch-cpu"))
    assert unpredicted["verdict"] == "crashed"


def test_an_entry_excuses_its_pinned_differences_and_no_more():
    from conformance.run.backends import framework_versions

    reference = _grad_trace([1.0, 1.0]) + [{**_grad_trace([1.0, 1.0])[0], "step": "5"}]
    one = _grad_trace([2.0, 2.0]) + [{**_grad_trace([1.0, 1.0])[0], "step": "5"}]
    two = _grad_trace([2.0, 2.0]) + [{**_grad_trace([3.0, 3.0])[0], "step": "5"}]
    differences = {name: compare_traces(Trace("c", "ref", reference), Trace("c", "fw", trace))
                   .differences for name, trace in (("one", one), ("two", two))}
    entry = Entry(["c"], "measured", {"torch": framework_versions()["torch"]},
                  [d.signature() for d in differences["one"]])
    known = KnownDivergences("torch-cpu", [entry])
    assert known.judge("c", differences["one"], framework_versions()).excused
    assert not known.judge("c", differences["two"], framework_versions()).excused
    assert not known.judge("c", [], framework_versions()).excused
