"""The differential harness itself must notice differences, or its passes mean nothing."""

from __future__ import annotations

import pytest

from tests import observe
from tests.programs.registry import programs


def test_value_difference_is_caught(ref_torch):
    a = observe.describe(ref_torch.tensor([1.0, 2.0]))
    b = observe.describe(ref_torch.tensor([1.0, 2.1]))
    with pytest.raises(AssertionError):
        observe.assert_same(a, b)


@pytest.mark.parametrize("field", ["requires_grad", "dtype", "shape"])
def test_flag_dtype_shape_differences_are_caught(ref_torch, field):
    base = ref_torch.tensor([1.0, 2.0], requires_grad=True)
    other = {"requires_grad": ref_torch.tensor([1.0, 2.0]),
             "dtype": ref_torch.tensor([1.0, 2.0], dtype=ref_torch.float64, requires_grad=True),
             "shape": ref_torch.tensor([[1.0, 2.0]], requires_grad=True)}[field]
    with pytest.raises(AssertionError):
        observe.assert_same(observe.describe(base), observe.describe(other))


def test_error_message_difference_is_caught():
    with pytest.raises(AssertionError):
        observe.assert_same({"error": "RuntimeError", "message": "a"},
                            {"error": "RuntimeError", "message": "b"})


def test_a_broken_rule_fails_a_program(ref_torch, real_torch, monkeypatch):
    import dataclasses

    from reference_engine import rules

    broken = dataclasses.replace(rules.RULES["mul"], vjps=(
        lambda g, b: rules.F.mul(g, 2.0), lambda g, a: rules.F.mul(g, a)))
    monkeypatch.setitem(rules.RULES, "mul", broken)
    program = programs("torch")["broadcasting_is_undone"]
    with pytest.raises(AssertionError):
        observe.assert_same(observe.run(program, ref_torch), observe.run(program, real_torch))
