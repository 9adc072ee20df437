"""The porting guide (docs/COMPAT.md): classes by root cause, each with a checked rewrite.

The committed guide is what a run of the default corpus on torch and paddle gives today (every
class, count and example); every "when porting" pair prints the same in both frameworks; titles
are plain; every documented difference and every differing seed example has its class.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.judge.causes import chronological, findings
from conformance.report.build import load_run
from conformance.report.divergence import explain, porting_guide, undescribed_lacks
from conformance.report.escape import markdown_text
from conformance.report.pair_check import check_pairs
from conformance.report.porting_classes import CLASSES, NO_COUNTERPART, SEMANTICS_ROWS, TOPICS

ROOT = Path(__file__).resolve().parent.parent
COMPAT = ROOT / "docs" / "COMPAT.md"
GUIDE_LIMIT = 60  # classes the guide may have, explained or not


@pytest.fixture(scope="module")
def default_run(tmp_path_factory):
    """The default corpus run on torch and paddle (what the committed guide was written from)."""
    out = tmp_path_factory.mktemp("guide-run")
    main(["run", "--backends", "torch-cpu,paddle-cpu", "-n", "0", "--out", str(out)])
    return out


@pytest.fixture(scope="module")
def guide(default_run):
    _, results, cases, _ = load_run(default_run)
    return porting_guide(results, cases)


def test_the_committed_guide_is_what_the_default_corpus_shows(default_run):
    written = default_run / "COMPAT.md"
    assert main(["compat", str(default_run), "--out", str(written)]) == 0
    assert written.read_text(encoding="utf-8") == COMPAT.read_text(encoding="utf-8"), (
        "docs/COMPAT.md is stale: run `autograd-oracle run --backends torch-cpu,paddle-cpu` and "
        "`autograd-oracle compat reports/latest --out docs/COMPAT.md`")
    assert (default_run / "guide.html").read_text(encoding="utf-8").count("class='pair'") >= len(CLASSES)


def test_fewer_than_60_classes_cover_every_diverging_case(guide):
    assert guide.diverging > 5000  # the corpus reaches the differences at all
    assert len(guide) < GUIDE_LIMIT
    covered = {c for cls in guide.classes + guide.unexplained for c in cls.cases}
    assert len(covered) == guide.diverging
    explained = {c for cls in guide.classes for c in cls.cases}
    assert len(explained) >= 0.999 * guide.diverging, [c.signature for c in guide.unexplained]


def test_every_class_of_the_table_shows_in_the_default_corpus(guide):
    assert {c.key for c in guide.classes} == {c.key for c in CLASSES}
    assert all(api.cases for api in guide.missing), [a.entry.key for a in guide.missing if not a.cases]


def test_differing_seed_examples_each_have_an_explained_class(guide):
    seeds = {c for cls in guide.classes + guide.unexplained for c in cls.cases if c.startswith("seed/")}
    assert {"seed/000/official-no-seeds", "seed/000/second-backward-fails"} <= seeds
    for case_id in seeds:
        assert all(cls.entry is not None for cls in guide.class_of(case_id)), case_id
    assert "freed-graph-error" in {cls.key for cls in guide.class_of("seed/000/second-backward-fails")}


@pytest.mark.parametrize("pair", [*CLASSES, *NO_COUNTERPART], ids=lambda p: p.key)
def test_every_rewrite_prints_what_its_original_prints(pair):
    outcome, = check_pairs([pair])
    assert outcome.original.strip(), f"{pair.key}: the original prints nothing"
    assert "uncaught" not in outcome.original, outcome.original
    assert outcome.rewrite == outcome.original
    assert outcome.agrees


MECHANICAL = re.compile(r" vs |vs nothing|nothing vs|\btensor \+ tensor|error:|warning:|differs$")


def test_titles_are_plain_and_every_class_is_written_out():
    keys = [c.key for c in CLASSES] + [m.key for m in NO_COUNTERPART]
    assert len(keys) == len(set(keys))
    for c in CLASSES:
        assert not MECHANICAL.search(c.title), c.title
        assert c.topic in TOPICS and c.source in ("torch", "paddle")
        assert c.explanation.endswith(".") and c.porting and c.explains
        assert c.original.startswith(f"import {c.source}") or f"\nimport {c.source}" in c.original
        other = "paddle" if c.source == "torch" else "torch"
        assert f"import {other}" in c.rewrite and f"import {c.source}\n" not in c.rewrite


def test_every_documented_difference_and_missing_api_is_in_the_guide():
    documented = {row for c in [*CLASSES, *NO_COUNTERPART] for row in c.documented}
    assert documented == set(SEMANTICS_ROWS)
    assert undescribed_lacks() == []
    text = COMPAT.read_text(encoding="utf-8")
    for row in SEMANTICS_ROWS:
        assert f"| {markdown_text(row)} | [" in text, row  # the row, linked to its class


# --- the findings behind the classes ---------------------------------------------------------

def _tensor(step: str, values: list[float], requires_grad: bool = False) -> dict:
    return {"step": step, "kind": "tensor", "dtype": "float32", "shape": [len(values)],
            "values": values, "requires_grad": requires_grad, "has_grad_fn": False}


def _after(step: str) -> dict:
    return {"step": f"{step}.after", "kind": "state", "tensors": {}}


def _error(step: str, error: str, category: str) -> dict:
    return {"step": step, "kind": "error", "error": error, "category": category, "message": category}


def test_a_hook_print_is_moved_to_the_backward_that_ran_it():
    observations = [_tensor("2", [1.0]), _error("3", "RuntimeError", "x"), _tensor("1", [2.0]), _after("3")]
    assert [o["step"] for o in chronological(observations, None)] == ["2", "3", "3>1"]


def test_flags_are_independent_and_only_the_first_flow_difference_counts():
    torch = [_tensor("1", [1.0]), _tensor("2", [2.0]), _tensor("3", [3.0])]
    paddle = [_tensor("1", [1.0], requires_grad=True), _tensor("2", [5.0], requires_grad=True),
              _tensor("3", [4.0])]
    found = [(f.signature, f.independent) for f in findings(None, torch, paddle)]
    assert found == [("a step: requires_grad False/True", True), ("a step: requires_grad False/True", True),
                     ("a step: values", False)]


def test_a_step_printing_more_tensors_is_one_signature_whatever_the_count():
    two = findings(None, [_tensor("1", [1.0]), _tensor("1", [1.0])], [_tensor("1", [1.0])])
    three = findings(None, [_tensor("1", [1.0])] * 3, [_tensor("1", [1.0])])
    assert two[0].signature == three[0].signature == "a step: tensor: more in torch"


def test_a_step_seen_first_in_paddle_sorts_where_it_ran():
    torch = [_tensor("5", [1.0])]
    paddle = [_error("3", "SystemError", "freed-graph"), _tensor("5", [2.0])]
    found = findings(None, torch, paddle)
    assert [f.step for f in found] == ["3"]  # the error first; the values after it follow from it
    assert found[0].signature == "a step: nothing vs error:freed-graph"
    assert explain(found[0].cause).key == "backward-frees-every-node"


def test_a_hook_run_before_a_shared_error_names_the_error_raised_at_another_node():
    # torch's hook (step 1) prints while step 3 runs, before step 3 raises; paddle raises first
    torch = [_tensor("2", [2.0]), _tensor("1", [1.0]), _error("3", "RuntimeError", "version-counter"),
             _after("3")]
    paddle = [_tensor("2", [2.0]), _error("3", "RuntimeError", "version-counter"), _after("3")]
    found = findings(None, torch, paddle)
    assert [f.signature for f in found] == ["a step: error:version-counter raised at another node"]
    assert explain(found[0].cause).key == "version-error-node"
