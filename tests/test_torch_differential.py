"""Every program of ``tests/torch_programs.py`` observes the same under torch and the reference."""

from __future__ import annotations

import pytest

from tests import observe
from tests.torch_programs import PROGRAMS


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_same_observations_as_torch(name, ref_torch, real_torch):
    program = PROGRAMS[name]
    theirs = observe.run(program, real_torch)
    ours = observe.run(program, ref_torch)
    observe.assert_same(ours, theirs, name)
