"""The run's options travel as one object: the CLI's JSON, a flag beside it, bad input."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.run.options import FLAGS, RunOptions

ROOT = Path(__file__).resolve().parents[1]


class _Config:
    """Stands for a pytest config: the flags a command line gave."""

    def __init__(self, **given: object) -> None:
        self.given = given

    def getoption(self, flag: str) -> object:
        defaults = {"--oracle-memory": "auto", "--oracle-progress": False, "--oracle-known-file": []}
        return self.given.get(flag, defaults.get(flag))


def test_every_field_has_its_flag():
    assert set(FLAGS) == {f.name for f in dataclasses.fields(RunOptions)}


def test_the_json_round_trips():
    options = RunOptions(backends="reference-torch,torch-cpu", corpus="all", seed=3, count=20,
                         generator=4, select="seeds/*", shard="1/2", timeout=5.0, memory="1GB",
                         report="out", progress=True, known_files=("torch-cpu=k.json",))
    assert RunOptions.from_json(options.to_json()) == options


def test_a_flag_overrides_its_field_of_the_json():
    options = RunOptions(backends="torch-cpu", seed=3, count=20).to_json()
    read = RunOptions.from_pytest(_Config(**{"--oracle-run": options, "--oracle-seed": 7,
                                             "--oracle-known-file": ["a.json"]}))
    assert (read.backends, read.seed, read.count, read.known_files) == ("torch-cpu", 7, 20, ("a.json",))


def test_flags_alone_give_the_options():
    read = RunOptions.from_pytest(_Config(**{"--oracle-backends": "paddle-cpu", "--shard": "2/3"}))
    assert read == RunOptions(backends="paddle-cpu", shard="2/3")


@pytest.mark.parametrize("text, words", [
    ("{not json", "not JSON"),
    ("[1, 2]", "JSON object"),
    ('{"seeds": 3}', "unknown option(s) seeds"),
])
def test_bad_run_options_name_what_is_wrong(text, words):
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        RunOptions.from_json(text)


def test_pytest_refuses_bad_run_options_as_a_usage_error(tmp_path):
    (tmp_path / "corpus.oracle").write_text("{}")
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider",
                           "--oracle-run", '{"seeds": 3}', "corpus.oracle"],
                          cwd=tmp_path, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})  # this checkout's plugin
    assert done.returncode == pytest.ExitCode.USAGE_ERROR, done.stdout + done.stderr
    assert "unknown option(s) seeds" in done.stderr
