"""Every program of ``tests/paddle_programs.py`` observes the same under paddle and the reference."""

from __future__ import annotations

import pytest

from tests import observe
from tests.paddle_programs import PROGRAMS


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_same_observations_as_paddle(name, ref_paddle, real_paddle):
    program = PROGRAMS[name]
    theirs = observe.run(program, real_paddle)
    ours = observe.run(program, ref_paddle)
    observe.assert_same(ours, theirs, name)
