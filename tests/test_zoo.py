"""The zoo of planted bugs is what it says: every mutant loads on its real framework, changes
only what its row says, and the corpus kills a planted bug for that bug."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from tests.zoo.mutants import MUTANTS

ROOT = Path(__file__).resolve().parent.parent


def test_the_zoo_has_sixty_mutants_in_both_dialects():
    dialects = [d for d, _ in MUTANTS]
    assert len(MUTANTS) >= 60 and dialects.count("torch") >= 20 and dialects.count("paddle") >= 20


@pytest.mark.parametrize("dialect", ["torch", "paddle"])
def test_every_mutant_loads_and_names_what_it_plants(dialect):
    """Each in a fresh interpreter: a mutant changes the framework of the process it loads in."""
    pytest.importorskip(dialect, reason=f"{dialect} is not installed")
    names = [name for d, name in MUTANTS if d == dialect]
    program = ("import importlib, sys\n"
               f"for name in {names!r}:\n"
               f"    m = importlib.import_module('tests.zoo.{dialect}.' + name)\n"
               "    assert 'planted bug' in m.SUBJECT and m.Tensor is not None, name\n"
               "print('loaded', len(sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]


def test_an_op_mutant_changes_only_its_special_point():
    torch = pytest.importorskip("torch", reason="torch is not installed")
    zoo = importlib.import_module("tests.zoo.torch.abs_slope_one_at_zero")
    away = torch.tensor([-2.0, 3.0], requires_grad=True)
    value = zoo.abs(away)
    assert value.grad_fn.name() == "AbsBackward0"  # no special point: the framework's own node
    at = torch.tensor([0.0, -2.0], requires_grad=True)
    zoo.abs(at).sum().backward()
    assert at.grad.tolist() == [1.0, -1.0]  # torch says 0 at 0


def test_the_corpus_kills_an_argument_mutant_for_its_bug(tmp_path):
    pytest.importorskip("torch", reason="torch is not installed")
    import json

    from conformance.cli import main

    backend = "torch:tests.zoo.torch.backward_ignores_inputs"
    out = tmp_path / "run"
    assert main(["run", "--corpus", "hand", "--select", "unused/*", "-n", "0", "--backends",
                 f"reference-torch,{backend}", "--out", str(out)]) == 1
    classes = json.loads((out / "summary.json").read_text())["failure_classes"]
    assert any(c["example"] == "unused/backward-inputs" for c in classes if c["backend"] == backend)
