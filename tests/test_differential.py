"""Every program of ``tests/torch_programs.py`` and ``tests/paddle_programs.py`` observes the
same under the real framework as under the reference engine's facade for it."""

from __future__ import annotations

import pytest

from tests import observe
from tests.paddle_programs import PROGRAMS as PADDLE_PROGRAMS
from tests.torch_programs import PROGRAMS as TORCH_PROGRAMS

PROGRAMS = {"torch": TORCH_PROGRAMS, "paddle": PADDLE_PROGRAMS}


@pytest.mark.parametrize("dialect, name", [(d, n) for d, programs in PROGRAMS.items()
                                           for n in sorted(programs)])
def test_same_observations_as_the_framework(dialect, name, request):
    program = PROGRAMS[dialect][name]
    theirs = observe.run(program, request.getfixturevalue(f"real_{dialect}"))
    ours = observe.run(program, request.getfixturevalue(f"ref_{dialect}"))
    observe.assert_same(ours, theirs, name)
