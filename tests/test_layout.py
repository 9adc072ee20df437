"""The conformance package's layout: modules grouped by job."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_top_level_holds_only_the_jobs():
    top = sorted(p.name for p in (ROOT / "conformance").glob("*.py"))
    # arguments.py: the command line's value types, the cli job's own module
    assert top == ["__init__.py", "arguments.py", "cli.py", "pytest_plugin.py", "sweep.py"]
