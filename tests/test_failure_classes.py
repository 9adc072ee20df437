"""Failure classes by cause: one cause in many cases is one class, whatever the cases call their
tensors; a failure's detail shows where expected and got first differ."""

from __future__ import annotations

from conformance.corpus.case import Case
from conformance.judge.classes import failure_classes, role_of, signature
from conformance.judge.compare import Difference

STATE = {"kind": "state", "step": "2.after"}


def _case(case_id: str, parameter: str, leaf: str) -> Case:
    steps = ({"module": "m", "kind": "linear", "weight": [[1.0, 2.0]], "params": [parameter]},
             {"leaf": leaf, "value": [1.0, 2.0], "requires_grad": True},
             {"backward": "y", "api": "function"},
             {"let": "y2", "op": "mul", "args": [leaf, 2.0]},
             {"grad": "y2", "wrt": [leaf], "into": ["g"]})
    return Case(id=case_id, about="", steps=steps)


def _failing(case_id: str, what: str, step: str = "2.after") -> dict:
    return {"case": case_id, "backend": "torch-cuda", "verdict": "fail",
            "differences": [{"step": step, "what": what,
                             "reference": {**STATE, "tensors": {}}, "backend": {**STATE, "tensors": {}}}]}


def test_a_tensor_is_named_by_its_role_in_the_case():
    case = _case("c", "w12", "x3")
    assert [role_of(case, name) for name in ("w12", "x3", "y2", "g", "nowhere")] == [
        "a module parameter", "a leaf requiring grad", "an op result", "a grad result", "a tensor"]


def test_one_cause_under_different_variable_names_is_one_class():
    cases = {"a": _case("a", "w12", "x1"), "b": _case("b", "w11", "x7"), "c": _case("c", "p", "q")}
    results = [_failing("a", "w12 has_grad"), _failing("b", "w11 has_grad"), _failing("c", "p has_grad"),
               _failing("a", "x1 version"), _failing("b", "x7 version")]
    classes = failure_classes(results, cases)
    assert [(c.signature, len(c.cases)) for c in classes] == [
        ("after autograd.backward: a module parameter's has_grad differs", 3),
        ("after autograd.backward: a leaf requiring grad's version differs", 2)]
    assert "w12" not in signature(results[0], cases["a"])


def test_a_failures_detail_shows_the_first_place_the_two_differ():
    prefix = "one of the variables needed for gradient computation has been modified " * 6
    expected = {"kind": "error", "message": prefix + "[torch.FloatTensor [3]] is at version 1"}
    actual = {"kind": "error", "message": prefix + "[torch.cuda.FloatTensor [3]] is at version 1"}
    text = Difference(0, "4", "error message", expected, actual).describe()
    assert "[torch.FloatTensor [3]]" in text and "[torch.cuda.FloatTensor [3]]" in text
    short = Difference(0, "4", "values", {"values": [1.0]}, {"values": [2.0]}).describe()
    assert short == "step 4: values: expected {'values': [1.0]}, got {'values': [2.0]}"
