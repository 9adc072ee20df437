"""A seed wider than the output its node recorded: the committed table of what paddle's kernels
do with one is what paddle measures, and the reference's paddle dialect, driven by that table,
measures the same.

The table (``reference_engine/dialects/paddle_widened_seeds.json``) is written by
``python -m conformance.probes.paddle_widened_seeds --write``; see that module for its meaning.
"""

from __future__ import annotations

import importlib.util
import json

import pytest

import reference_engine.paddle as reference_paddle
from conformance.probes import paddle_widened_seeds as probe
from reference_engine.dialects.paddle_policy import WIDENED_SEED_OUTCOMES, WIDENED_SEEDS_FILE

TABLE = json.loads(WIDENED_SEEDS_FILE.read_text(encoding="utf-8"))

# forms the reference deliberately answers otherwise, with the outcome it gives and why
NOT_MODELLED = {
    "registry/frac": (
        "undefined",
        "x - trunc(x): the leaf meets the seed handed on wider (float64) and trunc's float32 "
        "zeros in one pass; paddle adds them by reading float64 memory as float32 (its .grad "
        "holds 0, 1.875, …), which the reference refuses as undefined"),
}


def _paddle():
    if importlib.util.find_spec("paddle") is None:
        pytest.skip("paddlepaddle is not installed")
    import paddle

    if paddle.__version__ != TABLE["measured_on"]:
        pytest.skip(f"the table was measured on paddle {TABLE['measured_on']}, not {paddle.__version__}")
    return paddle


@pytest.mark.parametrize("form", sorted(probe.MEASURED_FORMS))
def test_the_table_is_what_paddle_measures(form):
    assert probe.probe_form(_paddle(), probe.MEASURED_FORMS[form]) == TABLE["forms"][form]


@pytest.mark.parametrize("form", sorted(probe.MEASURED_FORMS))
def test_the_reference_measures_the_table(form):
    expected = dict(TABLE["forms"][form])
    if form in NOT_MODELLED:
        outcome, _why = NOT_MODELLED[form]
        assert expected["outcome"] != outcome, "listed as not modelled, but paddle agrees"
        expected["outcome"] = outcome
    assert probe.probe_form(reference_paddle, probe.MEASURED_FORMS[form]) == expected


def test_every_form_is_in_the_table():
    assert set(TABLE["forms"]) == set(probe.MEASURED_FORMS)


def test_each_node_has_one_outcome_where_it_is_measured_alone():
    """The policy looks an outcome up by node name: the forms that measure a node alone agree."""
    composed = {"registry/frac"}  # a node met again inside a composition (see NOT_MODELLED)
    seen: dict[str, set[str]] = {}
    for form, entry in TABLE["forms"].items():
        outcome = entry["outcome"]
        if form not in composed and outcome != "version":
            seen.setdefault(entry["node"], set()).add(_per_input(outcome))
    assert {node: outcomes for node, outcomes in seen.items() if len(outcomes) > 1} == {}
    assert all(_per_input(WIDENED_SEED_OUTCOMES[node]) in outcomes for node, outcomes in seen.items())


def _per_input(outcome: str) -> str:
    """``wide,wide`` (every input of a form) and ``wide`` (its one input) say the same."""
    kinds = set(outcome.split(","))
    return kinds.pop() if len(kinds) == 1 else outcome


def test_the_root_s_hooks_and_retained_gradient_see_the_widened_seed():
    """Measured on paddle 3.3.1: the root's hook is handed the float64 seed, its retained
    gradient is float64, and sum's kernel casts it back, so the leaf collects float32."""
    x = reference_paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], stop_gradient=False)
    root = x.sum(0)
    root.retain_grads()
    handed = []
    root.register_hook(lambda g: handed.append(str(g.dtype)))
    with reference_paddle.no_grad():
        root.multiply_(reference_paddle.to_tensor(2.0, dtype="float64"))
    root.backward()
    assert handed == ["paddle.float64"]
    assert str(root.grad.dtype) == "paddle.float64"
    assert str(x.grad.dtype) == "paddle.float32"


def test_the_command_prints_the_table_it_measures(capsys):
    assert probe.main(["reference_engine.paddle"]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == len(probe.MEASURED_FORMS)
    assert any(line.split()[:3] == ["getitem/int", "SliceGradNode", "refuse:"] for line in printed)
