"""Shared fixtures: the two torch-shaped modules every differential test runs on."""

from __future__ import annotations

from pathlib import Path

import pytest

import reference_engine.torch as reference_torch


@pytest.fixture(scope="session")
def real_torch():
    return pytest.importorskip("torch", reason="torch is not installed")


@pytest.fixture(scope="session")
def ref_torch():
    return reference_torch


@pytest.fixture(scope="session")
def real_paddle():
    paddle = pytest.importorskip("paddle", reason="paddlepaddle is not installed")
    paddle.set_device("cpu")
    return paddle


@pytest.fixture(scope="session")
def ref_paddle():
    import reference_engine.paddle as reference_paddle

    return reference_paddle


@pytest.fixture(scope="module")
def small_run(tmp_path_factory) -> Path:
    """A small finished run of the reference (the seed cases): a report folder to read, diff or
    damage; one per test module."""
    from conformance.cli import main

    out = tmp_path_factory.mktemp("small") / "run"
    assert main(["run", "-n", "0", "--corpus", "hand", "--select", "seeds/*", "--backends",
                 "reference-torch", "--out", str(out)]) == 0
    return out
