"""Shared fixtures: the two torch-shaped modules every differential test runs on."""

from __future__ import annotations

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
