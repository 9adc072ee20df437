"""The default generator reaches the whole feature matrix: every cell the vocabulary defines has
at least 50 of its first 10,000 cases (seed 0), in each dialect that has the API; and every pair
of argument value × state (``conformance.corpus.pairs``) at least 20.

The cells and pairs are derived from the vocabulary, so a new op, step kind or argument that the
generator cannot reach fails here.
"""

from __future__ import annotations

import pytest

from conformance.corpus.case import Case
from conformance.corpus.coverage import cell_counts, op_cells, step_cells
from conformance.corpus.generator import generate
from conformance.corpus.pairs import CALL_STATES, UNREACHABLE, all_pairs, pair_counts, pairs_of
from conformance.corpus.step_kinds import DIALECT_LACKS, STEPS_BY_KEY
from conformance.corpus.vocabulary import DIALECTS, MATRIX_OPS

FLOOR = 50
PAIR_FLOOR = 20


@pytest.fixture(scope="module")
def generated():
    return [Case.trusted(raw, "<generated>") for raw in generate(0, 10000)]


@pytest.fixture(scope="module")
def counts(generated):
    return cell_counts(generated)


def test_the_cells_come_from_the_vocabulary():
    assert {cell[0] for cell in op_cells()} == set(MATRIX_OPS)
    for dialect in DIALECTS:
        lacked = {key for key, field in DIALECT_LACKS[dialect] if field == ""}
        assert {cell[0] for cell in step_cells(dialect)} == set(STEPS_BY_KEY) - lacked


@pytest.mark.parametrize("table", ["steps", "ops"])
def test_every_cell_has_at_least_fifty_generated_cases(counts, table):
    thin = {cell: per for cell, per in counts[table].items() if any(n < FLOOR for n in per.values())}
    assert not thin, f"{len(thin)} cells under {FLOOR} of 10,000 generated cases: {thin}"


def test_what_a_dialect_lacks_is_no_cell_of_it(counts):
    assert "paddle" not in counts["steps"][("backward", "inputs", "given")]
    assert "torch" not in counts["steps"][("grad", "no_grad_vars", "given")]


@pytest.mark.parametrize("version", [2, 3, 5])
def test_versions_are_deterministic_sliceable_and_well_formed(version):
    from conformance.corpus.generator import corpus_bytes, generate_case
    from conformance.corpus.loader import parse_document

    first = generate(7, 60, version=version)
    assert corpus_bytes(first) == corpus_bytes(generate(7, 60, version=version))
    assert first[31] == generate_case(7, 31, version=version) == \
        generate(7, 10, start=31, version=version)[0]
    assert len({c.id for c in parse_document({"format": 1, "cases": generate(0, 10000, version=version)},
                                             "<generated>")}) == 10000


def test_every_pair_of_argument_value_and_state_has_at_least_twenty_generated_cases(generated):
    counts = pair_counts(generated)
    thin = {pair: per for pair, per in counts.items() if any(n < PAIR_FLOOR for n in per.values())}
    assert not thin, f"{len(thin)} pairs under {PAIR_FLOOR} of 10,000 generated cases: {thin}"
    for dialect in DIALECTS:
        assert len([p for p, per in counts.items() if dialect in per]) == len(all_pairs(dialect)) > 400


def test_the_pairs_cross_every_autograd_argument_with_every_state():
    for dialect in DIALECTS:
        pairs = set(all_pairs(dialect))
        for key, field, value in step_cells(dialect):
            if key in ("backward", "grad") and field not in ("", "into"):
                assert {(f"{key} {field}={value}", s) for s in CALL_STATES} <= pairs
        assert not pairs & set(UNREACHABLE[dialect])


def _case(*steps: dict) -> Case:
    return Case.trusted({"id": "t", "about": "t", "steps": list(steps)}, "<test>")


def test_a_pair_is_the_argument_value_in_the_state_it_meets():
    leaf = {"leaf": "x", "value": [1.0, 2.0], "requires_grad": True}
    square = {"let": "y", "op": "mul", "args": ["x", "x"]}
    loss = {"let": "s", "op": "sum", "args": ["y"]}
    found = pairs_of(_case(leaf, square, loss, {"backward": "s", "retain_graph": True},
                           {"hook": "y"}, {"no_grad": [{"grad": "s", "wrt": ["x"], "retain_graph": False}]}))
    assert ("backward retain_graph=true", "plain graph") in found
    kept = ("graph kept by a pass", "a hooked tensor", "grad mode off", "a leaf's .grad already set")
    assert {("grad retain_graph=false", s) for s in kept} <= found
    assert ("grad retain_graph=false", "plain graph") not in found
    written = pairs_of(_case({"leaf": "t", "value": [1.0, 2.0]}, leaf,
                             {"inplace": "t", "op": "add", "args": ["x"]},
                             {"let": "u", "op": "sum", "args": ["t"], "kwargs": {"dim": -1}}))
    assert {("in-place add", "a value that requires grad into a target that does not"),
            ("in-place add", "target a leaf"), ("op sum", "a negative dim"),
            ("op sum", "an operand written in place")} <= written
