"""The judge, difference by difference: two traces that differ in exactly one respect must be
reported with that respect, and traces within tolerance must agree. Each row below is a way a
judge could wrongly excuse a difference."""

from __future__ import annotations

import copy
import math

import pytest

from conformance.judge.compare import compare_traces, signature_matches
from conformance.run.trace import Trace

TENSOR = {"step": "2", "kind": "tensor", "dtype": "float32", "shape": [2], "requires_grad": True,
          "has_grad_fn": False, "values": [1.0, 2.0]}
ERROR = {"step": "3", "kind": "error", "error": "RuntimeError", "category": "freed",
         "message": "Trying to backward through the graph a second time"}
WARNING = {"step": "3", "kind": "warning", "warning": "UserWarning", "category": "non-leaf-grad",
           "message": "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed"}


def _trace(*observations: dict) -> Trace:
    return Trace("case", "backend", [copy.deepcopy(o) for o in observations])


def _changed(observation: dict, **fields) -> dict:
    return {**copy.deepcopy(observation), **fields}


@pytest.mark.parametrize("actual, what", [
    (_changed(TENSOR, dtype="float64"), "dtype"),
    (_changed(TENSOR, shape=[1, 2]), "shape"),
    (_changed(TENSOR, requires_grad=False), "requires_grad"),
    (_changed(TENSOR, has_grad_fn=True), "has_grad_fn"),
    (_changed(TENSOR, values=[1.0, 2.001]), "values"),
    (_changed(TENSOR, values=[1.0, math.nan]), "values"),
    (_changed(TENSOR, values=[1.0, math.inf]), "values"),
    ({"step": "2", "kind": "none"}, "kind"),
    (_changed(ERROR, step="2", error="ValueError"), "error class"),
    (_changed(ERROR, step="2", message="Trying to backward through the graph again"),
     "error message"),
    (_changed(WARNING, step="2", warning="DeprecationWarning"), "warning class"),
])
def test_one_difference_is_reported_as_what_it_is(actual, what):
    expected = {**ERROR, "step": "2"} if actual["kind"] == "error" else \
        {**WARNING, "step": "2"} if actual["kind"] == "warning" else TENSOR
    found = compare_traces(_trace(expected), _trace(actual))
    assert [d.what for d in found.differences] == [what]
    assert not found.same


@pytest.mark.parametrize("actual", [
    _changed(TENSOR, values=[1.0, 2.0 + 2e-6]),  # float32: rtol 1.3e-6, atol 1e-5
    _changed(TENSOR),
])
def test_values_within_the_dtype_tolerance_agree(actual):
    assert compare_traces(_trace(TENSOR), _trace(actual)).same


def test_nan_agrees_with_nan_only():
    nan = _changed(TENSOR, values=[math.nan, 2.0])
    assert compare_traces(_trace(nan), _trace(copy.deepcopy(nan))).same
    assert not compare_traces(_trace(nan), _trace(TENSOR)).same


def test_integers_and_float64_are_held_tighter():
    ints = _changed(TENSOR, dtype="int64", values=[1, 2], requires_grad=False)
    assert [d.what for d in compare_traces(
        _trace(ints), _trace(_changed(ints, values=[1, 3]))).differences] == ["values"]
    doubles = _changed(TENSOR, dtype="float64", values=[1.0, 2.0])
    float32_rounding = _changed(doubles, values=[1.0, 2.0 + 2.4e-7])
    assert not compare_traces(_trace(doubles), _trace(float32_rounding)).same


def test_a_list_reports_its_length_and_its_first_differing_item():
    items = {"step": "2", "kind": "list", "items": [TENSOR, {"kind": "none", "step": "2"}]}
    shorter = _changed(items, items=[TENSOR])
    other = _changed(items, items=[_changed(TENSOR, shape=[3]), {"kind": "none", "step": "2"}])
    assert [d.what for d in compare_traces(_trace(items), _trace(shorter)).differences] == ["length"]
    assert [d.what for d in compare_traces(_trace(items), _trace(other)).differences] == [
        "item 0 shape"]


def test_a_missing_or_extra_observation_at_a_step_is_a_difference():
    assert [d.what for d in compare_traces(_trace(TENSOR), _trace()).differences] == [
        "observations"]
    assert [d.what for d in compare_traces(_trace(TENSOR), _trace(TENSOR, ERROR)).differences] == [
        "observations"]
    extra_at_step = compare_traces(_trace(TENSOR), _trace(TENSOR, _changed(TENSOR)))
    assert [d.what for d in extra_at_step.differences] == ["observations"]


def test_every_step_is_compared_not_only_the_first_difference():
    later = _changed(TENSOR, step="5")
    found = compare_traces(_trace(TENSOR, later),
                           _trace(_changed(TENSOR, shape=[4]), _changed(later, dtype="float64")))
    assert [(d.step, d.what) for d in found.differences] == [("2", "shape"), ("5", "dtype")]


def test_torch_against_paddle_compares_error_categories_and_notes_texts():
    reworded = _changed(ERROR, message="(PermissionDenied) backward twice")
    found = compare_traces(_trace(ERROR), _trace(reworded), messages="category")
    assert found.same and found.message_notes
    recategorized = _changed(reworded, category="other")
    assert [d.what for d in compare_traces(_trace(ERROR), _trace(recategorized),
                                           messages="category").differences] == ["error category"]
    assert not compare_traces(_trace(ERROR), _trace(reworded)).same  # a reference: texts too


def test_other_observations_compare_every_field_but_the_text():
    flags = {"step": "2", "kind": "flags", "requires_grad": True, "is_leaf": False}
    assert compare_traces(_trace(flags), _trace(_changed(flags))).same
    assert [d.what for d in compare_traces(
        _trace(flags), _trace(_changed(flags, is_leaf=True))).differences] == ["flags"]


def test_steps_after_an_undefined_result_are_not_compared_but_those_before_are():
    undefined = {"step": "3", "kind": "undefined", "reason": "unchecked seed shape"}
    expected = _trace(TENSOR, undefined, _changed(TENSOR, step="4"))
    later_differs = _trace(TENSOR, _changed(TENSOR, step="4", shape=[9]))
    assert compare_traces(expected, later_differs).same
    earlier_differs = _trace(_changed(TENSOR, shape=[9]), _changed(TENSOR, step="4"))
    assert not compare_traces(expected, earlier_differs).same


def test_a_hook_run_by_the_undefined_step_is_not_compared():
    """A hook's print carries the hook's own step (2) but is made by the backward (4) that the
    reference calls undefined; a print of an earlier step (1) made before is compared."""
    printed = _changed(TENSOR, step="1")
    undefined = {"step": "4", "kind": "undefined", "reason": "reads past the memory"}
    after = {"step": "4.after", "kind": "state", "tensors": {}}
    expected = _trace(printed, undefined, after)
    hooked = _trace(printed, _changed(TENSOR, step="2"), after)
    assert not compare_traces(expected, hooked).same
    assert compare_traces(expected, hooked, deferred=frozenset({"2"})).same
    earlier_differs = _trace(_changed(printed, shape=[9]), _changed(TENSOR, step="2"), after)
    assert not compare_traces(expected, earlier_differs, deferred=frozenset({"2"})).same


def test_a_hook_both_ran_in_the_undefined_step_is_not_compared_on_either_side():
    """The reference runs a hook (step 2) in the backward (4) before the accumulation it calls
    undefined: that print is the undefined step's too, as the framework's is."""
    hooked = _changed(TENSOR, step="2")
    undefined = {"step": "4", "kind": "undefined", "reason": "reads the .grad's memory"}
    after = {"step": "4.after", "kind": "state", "tensors": {}}
    expected = _trace(hooked, undefined, after)
    assert compare_traces(expected, _trace(hooked, after), deferred=frozenset({"2"})).same
    assert compare_traces(expected, _trace(_changed(hooked, shape=[9]), after),
                          deferred=frozenset({"2"})).same


def test_a_pinned_difference_matches_only_itself():
    actual = _changed(TENSOR, values=[0.0, 0.0])
    found = compare_traces(_trace(TENSOR), _trace(actual)).differences[0]
    pinned = found.signature()
    assert signature_matches(pinned, found)
    for other in (_changed(TENSOR, values=[0.0, 1.0]), _changed(actual, shape=[1, 2])):
        assert not signature_matches(pinned, compare_traces(_trace(TENSOR), _trace(other))
                                     .differences[0])
    assert not signature_matches({**pinned, "step": "7"}, found)
    assert not signature_matches({**pinned, "what": "shape"}, found)


def test_a_cancelled_value_agrees_within_the_noise_of_the_scale_it_cancelled():
    # a gradient that sums terms of magnitude ~474 to zero: paddle 3.3.1 holds 9.16e-05 where the
    # reference holds 3.05e-05 (fuzz seed 2718); a framework's trace carries no scale of its own
    cancelled = _changed(TENSOR, values=[3.0517578125e-05], shape=[1], rounding_scale=474.1)
    paddle_noise = _changed(TENSOR, values=[9.1552734375e-05], shape=[1])
    assert compare_traces(_trace(cancelled), _trace(paddle_noise)).same
    assert compare_traces(_trace(paddle_noise), _trace(cancelled)).same
    assert not compare_traces(_trace(_changed(cancelled, rounding_scale=None)),
                              _trace(paddle_noise)).same
    # a millionth of the scale is still noise in float32; a ten-thousandth is a difference
    wrong = _changed(paddle_noise, values=[0.05])
    assert [d.what for d in compare_traces(_trace(cancelled), _trace(wrong)).differences] == \
        ["values"]
    doubles = _changed(cancelled, dtype="float64", values=[1e-13])
    assert compare_traces(_trace(doubles), _trace(_changed(doubles, values=[1e-12]))).same
    assert not compare_traces(_trace(doubles), _trace(_changed(doubles, values=[1e-9]))).same


def test_where_noise_was_divided_by_zero_any_non_finite_value_agrees():
    # paddle's softmax gradient cancels to 0 where the reference's leaves 1.6e-8; log's gradient
    # at 0 makes NaN of one and inf of the other (fuzz seed 12586269025)
    singular = _changed(TENSOR, values=[1.6e-8, math.inf], rounding_scale=0.33,
                        rounding_singular=True)
    paddle_side = _changed(TENSOR, values=[0.0, math.nan])
    assert compare_traces(_trace(singular), _trace(paddle_side)).same
    assert not compare_traces(_trace({k: v for k, v in singular.items()
                                      if k != "rounding_singular"}),
                              _trace(paddle_side)).same
    # a finite value against a non-finite one still differs
    assert not compare_traces(_trace(singular), _trace(_changed(paddle_side,
                                                                values=[0.0, 1.0]))).same


def test_an_equal_that_turns_on_rounding_agrees_and_one_that_does_not_differs():
    """``equal`` of two float tensors a few epsilons apart depends on each framework's kernels:
    the side that saw them differ measures how far, and within rounding noise either answer
    agrees; further apart, the answers differ."""
    import numpy as np

    from conformance.judge.compare import compare_observation
    from conformance.run.trace import NOISE_EPSILONS, rounding_gap

    x = np.array([1.829, -1.57, 0.0], np.float32)
    one_ulp = np.nextafter(x, np.float32(3.0))
    gap = rounding_gap(x, one_ulp)
    assert gap is not None and 0 < gap <= 2
    assert rounding_gap(x, x * np.float32(1.001)) > NOISE_EPSILONS
    assert rounding_gap(x, x.astype(np.float64)) is None  # another dtype: no measure
    same = {"kind": "equal", "step": "3", "value": True}
    notes: list[str] = []
    assert compare_observation(same, {**same, "value": False, "gap_epsilons": gap}, notes) is None
    assert notes and "rounding" in notes[0]
    far = {**same, "value": False, "gap_epsilons": 8000.0}
    assert compare_observation(same, far, []) == "equal"
    assert compare_observation(same, {**same, "value": False}, []) == "equal"


def test_each_element_agrees_within_how_far_an_optimizer_step_may_have_moved_it():
    # Adam amplified a cancelled gradient's rounding noise in the bias's third element only
    # (fuzz seed 956722026041: torch -0.68710, the reference -0.68712); the others keep the
    # dtype's tolerance, so a difference there still shows
    moved = _changed(TENSOR, values=[7.3259, -0.68712], shape=[2], step_shift=[3.6e-6, 1.2e-3])
    torch_side = _changed(TENSOR, values=[7.3259, -0.68710], shape=[2])
    assert compare_traces(_trace(moved), _trace(torch_side)).same
    assert compare_traces(_trace(torch_side), _trace(moved)).same
    assert not compare_traces(_trace({k: v for k, v in moved.items() if k != "step_shift"}),
                              _trace(torch_side)).same
    for wrong in ([7.3269, -0.68710], [7.3259, -0.6899]):
        assert not compare_traces(_trace(moved), _trace(_changed(torch_side, values=wrong))).same
