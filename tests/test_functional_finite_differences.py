"""``torch.autograd.functional`` of the reference engine against central differences."""

from __future__ import annotations

import numpy as np
import pytest

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


# functions composed from the core's operations (reference_engine.composed), at points away
# from their kinks; each maps a float64 tensor of shape (2, 3) to a tensor
COMPOSED = {
    "flip": lambda t: torch.flip(t, [0, 1]),
    "roll": lambda t: torch.roll(t, [1, -1], [0, 1]) * t,
    "tril": lambda t: torch.tril(t * t, -1) + torch.triu(t.exp(), 1),
    "diag": lambda t: torch.diag(torch.diag(t, 1) ** 2, -1),
    "diagonal": lambda t: torch.diagonal(t.reshape(3, 2).sin(), 0).exp(),
    "trace": lambda t: torch.trace(t.reshape(3, 2) @ t) * t,
    "outer": lambda t: torch.outer(t[0], t[1].sin()),
    "logsumexp": lambda t: torch.logsumexp(t * t, 1) * torch.logsumexp(t, (0, 1)),
    "narrow_select": lambda t: t.narrow(1, 1, 2) * t.select(1, 0).unsqueeze(1),
    "lerp": lambda t: torch.lerp(t, t.exp(), t[0, 0]),
    "hypot": lambda t: torch.hypot(t, t.cos()),
    "logaddexp": lambda t: torch.logaddexp(t, 2.0 * t.sin()),
    "topk": lambda t: torch.topk(t * t, 2).values.exp(),
    "sort": lambda t: torch.sort(t.sin(), dim=0, descending=True).values * t,
    "l1_loss": lambda t: torch.nn.functional.l1_loss(t * t, t.exp(), reduction="none"),
    "normalize": lambda t: torch.nn.functional.normalize(t.exp(), p=3.0, dim=1),
}
POINT = np.array([[0.31, -1.17, 0.83], [1.42, -0.56, 0.27]])


@pytest.mark.parametrize("name", sorted(COMPOSED))
def test_composed_function_derivatives_match_central_differences(name):
    """First derivatives (the Jacobian) and second (the Hessian of a weighted sum, through the
    recorded backward) of each composed function."""
    fn = COMPOSED[name]
    x = torch.tensor(POINT, dtype=torch.float64)
    numeric = _numeric_jacobian(fn, POINT)
    np.testing.assert_allclose(functional.jacobian(fn, x).numpy().reshape(numeric.shape), numeric,
                               rtol=1e-6, atol=1e-8)
    weights = np.linspace(0.5, 1.5, fn(x).numel()).reshape(tuple(fn(x).shape))

    def scalar(t):
        return (fn(t) * torch.tensor(weights, dtype=torch.float64)).sum()

    def gradient(t):
        return functional.vjp(scalar, t)[1]

    numeric = _numeric_jacobian(gradient, POINT)
    np.testing.assert_allclose(functional.hessian(scalar, x).numpy().reshape(numeric.shape),
                               numeric, rtol=1e-5, atol=1e-7)


_NNF = torch.nn.functional
ACTIVATIONS = {
    "relu": _NNF.relu, "leaky_relu": lambda t: _NNF.leaky_relu(t, 0.2),
    "elu": lambda t: _NNF.elu(t, 0.7), "gelu": _NNF.gelu, "silu": _NNF.silu,
    "softplus": lambda t: _NNF.softplus(t, 2.0), "sigmoid": torch.sigmoid, "tanh": torch.tanh,
    "softmax": lambda t: torch.softmax(t, 1), "log_softmax": lambda t: torch.log_softmax(t, 1),
}
X_POINT = np.array([[0.5, -1.5, 2.0], [-0.3, 0.8, -2.2]])
W_POINT = np.array([[1.5, -0.5, 2.0], [0.25, 1.0, -1.0]])
V_POINT = np.array([[1.0, 2.0, -1.0], [0.5, -0.5, 3.0]])


@pytest.mark.parametrize("name", sorted(ACTIVATIONS))
def test_mixed_second_derivative_through_an_activation_backward_node(name):
    """d/dw of <grad_x sum(act(x) * w), v>: the derivative of the activation's backward node
    with respect to the gradient it was handed, against central differences in w."""
    act = ACTIVATIONS[name]
    x = torch.tensor(X_POINT, dtype=torch.float64, requires_grad=True)
    v = torch.tensor(V_POINT, dtype=torch.float64)

    def directional(w):
        gx, = torch.autograd.grad((act(x) * w).sum(), x, create_graph=True)
        return (gx * v).sum()

    w = torch.tensor(W_POINT, dtype=torch.float64, requires_grad=True)
    exact, = torch.autograd.grad(directional(w), w)
    numeric = _numeric_jacobian(lambda t: directional(t).detach(), W_POINT)
    np.testing.assert_allclose(exact.numpy().reshape(numeric.shape), numeric, rtol=1e-6, atol=1e-8)
