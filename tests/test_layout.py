"""The conformance package's layout: modules grouped by job, earlier flat paths still usable."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import conformance

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("earlier", sorted(conformance.MOVED))
def test_an_earlier_module_path_imports_the_module_itself(earlier):
    old = importlib.import_module(f"conformance.{earlier}")
    new = importlib.import_module(f"conformance.{conformance.MOVED[earlier]}")
    assert old is new
    assert old.__spec__.name == new.__name__  # its own spec, not the alias's
    group = Path(old.__file__).relative_to(ROOT / "conformance").parts[0]
    assert group in ("corpus", "run", "judge", "report")


def test_earlier_paths_work_in_every_import_form_and_for_patching(monkeypatch):
    from conformance import compare
    from conformance.corpus.generators import v3 as current_v3
    from conformance.generators import v3
    from conformance.judge import compare as judged

    assert compare is judged and v3 is current_v3
    monkeypatch.setattr("conformance.isolation.LOOKAHEAD_PROBE", 7, raising=False)
    assert importlib.import_module("conformance.run.isolation").LOOKAHEAD_PROBE == 7


def test_an_unknown_module_still_fails_to_import():
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("conformance.no_such_module")
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("conformance.compare.no_such_submodule")


def test_a_fresh_interpreter_imports_an_earlier_path_first():
    """No module of the new layout loaded beforehand: the alias alone brings it in."""
    code = ("import conformance.loader as old, sys; "
            "assert old is sys.modules['conformance.corpus.loader']; print(old.__name__)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "conformance.corpus.loader"


def test_the_top_level_holds_only_the_jobs():
    top = sorted(p.name for p in (ROOT / "conformance").glob("*.py"))
    assert top == ["__init__.py", "cli.py", "pytest_plugin.py", "sweep.py"]
