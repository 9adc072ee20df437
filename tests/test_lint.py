"""ruff over the whole project, so style is checked wherever the tests run."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(shutil.which("ruff") is None and sys.platform != "linux",
                    reason="ruff is not installed")
def test_ruff_finds_nothing():
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "reference_engine",
                             "conformance", "tests", "benchmarks"],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
