"""The porting guide's routing: structured causes queried by ``Match``, checked when built.

A class names the causes it explains by their fields. A value that names nothing (a category,
step kind, observation kind, flag, exception class or role that does not exist) is refused when
the table is built, so a renamed category fails here rather than misrouting a run's findings.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.judge.cause_match import ANY_ERROR, Match
from conformance.judge.causes import Cause, Place
from conformance.report.porting_classes import CLASSES, DIALECTS, NO_COUNTERPART

PROGRAMS = Path(__file__).resolve().parent.parent / "conformance" / "report" / "porting_programs"


@pytest.mark.parametrize("fields", [
    {"category": "freed-graf"},
    {"torch": "error:freed-graf"},
    {"paddle": "warning:no-such-warning"},
    {"torch": "tensr"},
    {"paddle": ("list", "errr:only-inputs")},
    {"step": "observ"},
    {"within": "backwards"},
    {"step": "observe", "detail": "gradient"},
    {"body": "derivate"},
    {"role": "a parameter of a module"},
    {"aspect": "value"},
    {"raised": ("RuntimeError", "PaddleError")},
    {"flags": {"requires_gradient": (False, True)}},
], ids=lambda f: ",".join(f))
def test_a_match_naming_nothing_known_is_refused_when_built(fields):
    with pytest.raises(ValueError, match="is no"):
        Match(**fields)


def _cause(**fields) -> Cause:
    return Cause(fields.pop("place", Place("observe", "grad")), fields.pop("aspect", "kinds"), **fields)


def test_each_field_a_match_names_must_equal_the_cause_s():
    freed = _cause(place=Place("backward", "function"), torch=("nothing",), paddle=("error:freed-graph",))
    assert Match(paddle="error:freed-graph").matches(freed)
    assert Match(step="backward", paddle="error:freed-graph").matches(freed)
    assert not Match(step="grad", paddle="error:freed-graph").matches(freed)
    assert not Match(torch="error:freed-graph").matches(freed)
    assert Match(paddle=ANY_ERROR).matches(freed) and not Match(torch=ANY_ERROR).matches(freed)


def test_sides_are_every_kind_observed_not_one_of_them():
    warned = _cause(torch=("none", "warning:non-leaf-grad-access"), paddle=("tensor",))
    assert not Match(torch="none", paddle="tensor").matches(warned)
    assert Match(torch=("none", "warning:non-leaf-grad-access"), paddle="tensor").matches(warned)


def test_flags_are_exact_unless_more_are_allowed():
    both = _cause(aspect="flags", flags=(("requires_grad", False, True), ("has_grad_fn", False, True)))
    assert not Match(flags={"requires_grad": (False, True)}).matches(both)
    assert Match(flags={"requires_grad": (False, True)}, more_flags=True).matches(both)
    assert not Match(flags={"requires_grad": (True, False)}, more_flags=True).matches(both)
    assert Match(flags={"requires_grad": (False, True), "has_grad_fn": (False, True)}).matches(both)


def test_within_empty_asks_for_a_step_no_autograd_step_ran():
    hook = Place("hook")
    ran = _cause(place=hook, within=Place("grad"), torch=("tensor",), paddle=("nothing",))
    assert Match(step="hook", within="grad").matches(ran)
    assert not Match(step="hook", within="").matches(ran)
    assert Match(step="hook", within="").matches(_cause(place=hook, torch=("tensor",), paddle=("nothing",)))


def test_a_cause_reads_as_its_signature():
    held = Place("observe", "value", role="a held .grad")
    cause = Cause(held, "values", within=Place("backward", "method"))
    assert str(cause) == "observe value of a held .grad (in Tensor.backward): values"
    raised = Cause(Place("grad"), "raised", category="unused-input", raised=("RuntimeError", "ValueError"),
                   in_results=True)
    assert str(raised) == "grad: grad results: unused-input: RuntimeError vs ValueError"


def test_the_program_files_are_exactly_the_entries_programs():
    expected = {f"{d}/{e.key.replace('-', '_')}.py" for e in (*CLASSES, *NO_COUNTERPART) for d in DIALECTS}
    on_disk = {str(p.relative_to(PROGRAMS)) for p in PROGRAMS.rglob("*.py")}
    assert on_disk == expected
