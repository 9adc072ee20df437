"""The seed documents' torch programs print exactly what torch prints, on the reference engine."""

from __future__ import annotations

import pytest

from conformance.corpus import seed_examples


@pytest.mark.parametrize("program", seed_examples.PROGRAMS, ids=lambda p: p.__name__)
def test_prints_what_torch_prints(program, ref_torch, real_torch):
    assert seed_examples.capture(program, ref_torch) == seed_examples.capture(program, real_torch)


def test_main_job_reports_agreement(capsys, real_torch):
    assert seed_examples.main() == 0
    assert f"{len(seed_examples.PROGRAMS)}/{len(seed_examples.PROGRAMS)} programs print the same" \
        in capsys.readouterr().out
