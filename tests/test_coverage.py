"""Generator version 2 reaches the whole feature matrix: every cell the vocabulary defines has at
least 50 of its first 10,000 cases (seed 0), in each dialect that has the API.

The cells are derived from the vocabulary (``conformance.corpus.coverage``), so a new op, step kind or
argument that the generator cannot reach fails here.
"""

from __future__ import annotations

import pytest

from conformance.corpus.case import Case
from conformance.corpus.coverage import cell_counts, op_cells, step_cells
from conformance.corpus.generator import generate
from conformance.corpus.vocabulary import DIALECT_LACKS, DIALECTS, OPS, STEPS_BY_KEY

FLOOR = 50


@pytest.fixture(scope="module")
def counts():
    return cell_counts([Case.trusted(raw, "<generated>") for raw in generate(0, 10000)])


def test_the_cells_come_from_the_vocabulary():
    assert {cell[0] for cell in op_cells()} == set(OPS)
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


@pytest.mark.parametrize("version", [2, 3])
def test_versions_are_deterministic_sliceable_and_well_formed(version):
    from conformance.corpus.generator import corpus_bytes, generate_case
    from conformance.corpus.loader import parse_document

    first = generate(7, 60, version=version)
    assert corpus_bytes(first) == corpus_bytes(generate(7, 60, version=version))
    assert first[31] == generate_case(7, 31, version=version) == \
        generate(7, 10, start=31, version=version)[0]
    assert len({c.id for c in parse_document({"format": 1, "cases": generate(0, 10000, version=version)},
                                             "<generated>")}) == 10000
