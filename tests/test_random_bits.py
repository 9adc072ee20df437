"""torch's random draws, bit for bit: the reference's generator against torch's own for the
draws programs make most (the differential programs compare with float tolerances, which an
ulp off in half the draws would pass)."""

from __future__ import annotations

import numpy as np
import pytest

import reference_engine.torch as reference

torch = pytest.importorskip("torch", reason="torch is not installed")


def _draws(t):
    """The same program on either module: every draw it makes, as arrays."""
    t.manual_seed(11)
    out = [t.rand(37), t.randn(7), t.randn(16), t.randn(1000), t.randn(40, dtype=t.float64),
           t.empty(33).uniform_(-2.5, 1.3), t.empty(21).normal_(0.5, 2.0), t.empty(5).normal_(-1.0, 0.3),
           t.linspace(-1, 1, 16), t.linspace(-3.7, 2.2, 41), t.linspace(0.5, 9.0, 23, dtype=t.float64)]
    linear, conv = t.nn.Linear(5, 7), t.nn.Conv2d(2, 3, 3)
    out += [linear.weight, linear.bias, conv.weight, t.nn.Embedding(6, 4).weight,
            t.nn.LSTM(3, 4).weight_hh_l0]
    for init in (t.nn.init.xavier_uniform_, t.nn.init.xavier_normal_, t.nn.init.kaiming_normal_,
                 lambda w: t.nn.init.trunc_normal_(w, std=0.02)):
        weight = t.empty(20, 6)
        init(weight)
        out.append(weight)
    return [np.asarray(x.detach().numpy()) for x in out]


def test_draws_equal_torchs_bit_for_bit():
    ours, theirs = _draws(reference), _draws(torch)
    for i, (a, b) in enumerate(zip(ours, theirs)):
        assert a.dtype == b.dtype and a.shape == b.shape, i
        different = np.flatnonzero(a.ravel() != b.ravel())
        assert different.size == 0, f"draw {i}: {different.size} of {b.size} differ, first at {different[:3]}"
