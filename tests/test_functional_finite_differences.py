"""``torch.autograd.functional`` of the reference engine against central differences."""

from __future__ import annotations

import numpy as np

import reference_engine.torch as torch
from reference_engine.torch.autograd import functional

STEP = 1e-6


def _f(x):
    return torch.sin(x) * x.sum() + x ** 3


def _numeric_jacobian(fn, x: np.ndarray) -> np.ndarray:
    columns = []
    for i in range(x.size):
        step = np.zeros_like(x)
        step.flat[i] = STEP
        plus = fn(torch.tensor(x + step, dtype=torch.float64)).numpy()
        minus = fn(torch.tensor(x - step, dtype=torch.float64)).numpy()
        columns.append((plus - minus) / (2 * STEP))
    return np.stack(columns, axis=-1)


def test_jacobian_matches_central_differences():
    x = np.array([0.3, -1.2, 0.8])
    exact = functional.jacobian(_f, torch.tensor(x, dtype=torch.float64)).numpy()
    np.testing.assert_allclose(exact, _numeric_jacobian(_f, x), rtol=1e-6, atol=1e-8)


def test_hessian_matches_central_differences_of_the_gradient():
    x = np.array([0.3, -1.2, 0.8])

    def scalar(t):
        return _f(t).sum()

    def gradient(t):
        return functional.vjp(scalar, t)[1]

    exact = functional.hessian(scalar, torch.tensor(x, dtype=torch.float64)).numpy()
    np.testing.assert_allclose(exact, _numeric_jacobian(gradient, x), rtol=1e-5, atol=1e-7)
