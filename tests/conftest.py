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
