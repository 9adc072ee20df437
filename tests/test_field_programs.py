"""Real autograd programs from the field (``tests/field/``) print the same under the real
framework and, unchanged, under the reference engine standing in for it.

Each engine runs every program of a dialect in one process that imports the framework once and
forks a child per program (``tests/field/runner.py``). The printouts must match, numbers up to
float32 rounding (``tests/field/compare.py``).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.field.compare import first_difference, same_printout

FIELD = Path(__file__).parent / "field"
PROGRAMS = {d: sorted(p.name for p in (FIELD / d).glob("*.py")) for d in ("torch", "paddle")}
ROOT = Path(__file__).parent.parent


def _printouts(engine: str, dialect: str, out: Path) -> dict[str, str]:
    paths = [str(FIELD / dialect / name) for name in PROGRAMS[dialect]]
    env = {**os.environ, "GLOG_minloglevel": "2", "OMP_NUM_THREADS": "1"}
    subprocess.run([sys.executable, "-m", "tests.field.runner", engine, dialect, str(out), *paths],
                   cwd=ROOT, env=env, check=True, timeout=600, capture_output=True)
    return json.loads(out.read_text(encoding="utf-8"))


@pytest.fixture(scope="module", params=sorted(PROGRAMS))
def printouts(request, tmp_path_factory):
    dialect = request.param
    if importlib.util.find_spec(dialect) is None:
        pytest.skip(f"{dialect} is not installed")
    folder = tmp_path_factory.mktemp(f"field-{dialect}")
    return dialect, {engine: _printouts(engine, dialect, folder / f"{engine}.json")
                     for engine in ("real", "reference")}


def test_there_are_thirty_programs_in_both_dialects():
    assert len(PROGRAMS["torch"]) + len(PROGRAMS["paddle"]) >= 30
    assert min(len(PROGRAMS["torch"]), len(PROGRAMS["paddle"])) >= 10


def test_every_program_cites_its_source():
    for dialect, names in PROGRAMS.items():
        for name in names:
            text = (FIELD / dialect / name).read_text(encoding="utf-8")
            assert text.startswith('"""') and "Changed:" in text, f"{dialect}/{name}"


def test_programs_print_the_same(printouts):
    dialect, printed = printouts
    real, reference = printed["real"], printed["reference"]
    differing = {name: first_difference(reference[name], real[name])
                 for name in PROGRAMS[dialect] if not same_printout(reference[name], real[name])}
    assert not differing, "\n".join(f"{dialect}/{name}: {why}" for name, why in differing.items())


def test_programs_ran_to_the_end(printouts):
    """A program that stops at an uncaught error on the real framework tests nothing more."""
    dialect, printed = printouts
    stopped = [name for name, text in printed["real"].items() if "uncaught " in text]
    assert not stopped, f"{dialect} programs stop on the real framework: {stopped}"


def test_the_stand_in_command_runs_a_program_unchanged(tmp_path):
    """``python -m reference_engine.standin torch program.py``: the program's ``import torch``
    and submodule imports give the facade; a submodule the facade lacks is an ImportError that
    names it."""
    program = tmp_path / "program.py"
    program.write_text("import torch\nimport torch.nn.functional as F\nfrom torch.autograd import grad\n"
                       "x = torch.tensor([1.0, 2.0], requires_grad=True)\n"
                       "print(torch.__name__, F.__name__, grad((x ** 3).sum(), x))\n"
                       "import torch.onnx\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "reference_engine.standin", "torch", str(program)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.stdout.splitlines()[0] == ("reference_engine.torch reference_engine.torch.nn.functional "
                                           "(tensor([ 3., 12.]),)")
    assert done.returncode != 0
    assert "ModuleNotFoundError: reference_engine.torch has no torch.onnx" in done.stderr
