"""The README's two commands stay true: CI runs the test command exactly, and the main-job
command's arguments are ones the CLI accepts."""

from __future__ import annotations

import shlex
from pathlib import Path

from conformance.cli import parser

ROOT = Path(__file__).resolve().parent.parent


def _readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    block = text.split("```bash\n", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line.strip()]


def test_readme_opens_with_the_two_commands():
    main_job, tests = _readme_commands()[:2]
    assert "autograd-oracle run" in main_job and "pytest" in tests


def test_ci_runs_the_readme_test_command_exactly():
    tests = _readme_commands()[1]
    assert tests in (ROOT / ".ci" / "run").read_text().splitlines()


def test_main_job_arguments_are_accepted_by_the_cli():
    main_job = _readme_commands()[0]
    run = main_job.split("&&", 1)[1].strip()
    argv = shlex.split(run)[1:]
    args, extra = parser().parse_known_args(argv)
    assert args.command == "run" and not extra
    assert set(args.backends.split(",")) == {"reference-torch", "torch-cpu", "reference-paddle",
                                             "paddle-cpu"}


def test_the_readme_fits_on_a_screen_or_two_and_links_pages_that_exist():
    text = (ROOT / "README.md").read_text()
    assert len(text.splitlines()) <= 90
    import re

    for link in re.findall(r"\]\((docs/[^)#]+)\)", text):
        assert (ROOT / link).exists(), link


def test_the_readme_example_prints_what_the_frameworks_print():
    """The example runs on the reference facades and, with the imports swapped, on torch and
    paddle: the same lines come out."""
    import subprocess
    import sys

    import pytest

    pytest.importorskip("torch", reason="torch is not installed")
    pytest.importorskip("paddle", reason="paddle is not installed")
    example = (ROOT / "README.md").read_text().split("```python\n", 1)[1].split("```", 1)[0]
    real = example.replace("import reference_engine.torch as torch", "import torch").replace(
        "import reference_engine.paddle as paddle", "import paddle")
    assert real != example

    def printed(program: str) -> list[str]:
        done = subprocess.run([sys.executable, "-c", program], cwd=ROOT, capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout.splitlines()

    ours = printed(example)
    assert ours == printed(real) and len(ours) == 2
