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
