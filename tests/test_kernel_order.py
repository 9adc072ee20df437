"""The reference's sums in torch's kernel order (``reference_engine.kernel_order``) are torch's,
bit for bit: the exact zeros of a cancelling sum come out where torch's do."""

from __future__ import annotations

import importlib.util
from fractions import Fraction

import numpy as np
import pytest

from reference_engine import fused, kernel_order, sleef


def _torch():
    if importlib.util.find_spec("torch") is None:
        pytest.skip("torch is not installed")
    import torch

    capability = torch.backends.cpu.get_cpu_capability()
    if capability != "AVX512":
        pytest.skip(f"the order modelled is torch's AVX-512 kernels', this CPU runs {capability}")
    torch.set_num_threads(1)
    return torch


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_fused_multiply_add_rounds_once(dtype):
    rng = np.random.default_rng(7)
    a, b, c = (rng.standard_normal(2000).astype(dtype) for _ in range(3))
    exact = [float(Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z)))
             for x, y, z in zip(a, b, c)]
    assert np.array_equal(fused.fused_multiply_add(a, b, c), np.array(exact, dtype))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("seed", range(4))
def test_softmax_backward_is_torchs_bit_for_bit(dtype, seed):
    torch = _torch()
    rng = np.random.default_rng(seed)
    for _ in range(150):
        ndim = int(rng.integers(1, 4))
        shape = tuple(int(s) for s in rng.integers(1, 40, size=ndim))
        dim = int(rng.integers(-ndim, ndim))
        output = torch.softmax(torch.tensor(rng.standard_normal(shape).astype(dtype)), dim)
        if rng.random() < 0.5:  # a mean's seed: the sum cancels to zero or nearly
            grad = torch.full(shape, 1 / float(np.prod(shape)), dtype=output.dtype)
        else:
            grad = torch.tensor(rng.standard_normal(shape).astype(dtype))
        expected = torch._softmax_backward_data(grad, output, dim, output.dtype).numpy()
        got = kernel_order.softmax_backward(grad.numpy(), output.numpy(), dim)
        assert np.array_equal(got, expected, equal_nan=True), (shape, dim)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_sleef_exp_is_torchs_bit_for_bit(dtype):
    """torch's softmax kernels' ``Vectorized::exp``, read back through log_softmax's backward:
    with a seed of 1 at one place and 0 elsewhere, ``0 - exp(y) * 1`` is ``-exp(y)`` exactly."""
    torch = _torch()
    rng = np.random.default_rng(11)
    x = (rng.standard_normal(40000) * rng.choice([1, 5, 40, 200], 40000)).astype(dtype)
    x[:7] = [np.inf, -np.inf, np.nan, 0.0, -0.0, 1e-30, -745.5]
    seed = torch.zeros(x.size + 1, dtype=getattr(torch, dtype))
    seed[0] = 1
    output = torch.cat([torch.zeros(1, dtype=seed.dtype), torch.tensor(x)])
    expected = -torch._log_softmax_backward_data(seed, output, 0, seed.dtype).numpy()[1:]
    assert np.array_equal(sleef.exp(x), expected, equal_nan=True)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("seed", range(3))
def test_softmax_is_torchs_bit_for_bit(dtype, seed):
    torch = _torch()
    rng = np.random.default_rng(100 + seed)
    for _ in range(150):
        ndim = int(rng.integers(1, 4))
        shape = tuple(int(s) for s in rng.integers(1, 40, size=ndim))
        dim = int(rng.integers(-ndim, ndim))
        x = (rng.standard_normal(shape) * rng.choice([1, 5, 50])).astype(dtype)
        expected = torch.softmax(torch.tensor(x), dim).numpy()
        assert np.array_equal(kernel_order.softmax(x, dim), expected), (shape, dim)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_sleef_log_is_torchs_bit_for_bit(dtype):
    """torch's log_softmax kernel's ``Vectorized::log`` of its sums, read back from a row whose
    maximum is its first element: that output is ``-log(Σ exp(x - max))`` exactly, and the
    sums are SLEEF's exponentials added in ``reduce_all``'s order (measured above)."""
    torch = _torch()
    rng = np.random.default_rng(12)
    for width in (2, 5, 40):
        rows = rng.uniform(-6, 0, (3000, width)).astype(dtype)
        rows[:, 0] = 0
        expected = -torch.log_softmax(torch.tensor(rows), 1).numpy()[:, 0]
        assert np.array_equal(sleef.log(kernel_order._lane_sum(sleef.exp(rows))), expected)
    # the values of log that calculus fixes exactly
    special = np.array([0.0, -0.0, np.inf, -1.0, np.nan, 1.0], dtype)
    exact = np.array([-np.inf, -np.inf, np.inf, np.nan, np.nan, 0.0], dtype)
    assert np.array_equal(sleef.log(special), exact, equal_nan=True)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("seed", range(3))
def test_log_softmax_and_its_backward_are_torchs_bit_for_bit(dtype, seed):
    torch = _torch()
    rng = np.random.default_rng(200 + seed)
    for _ in range(100):
        ndim = int(rng.integers(1, 4))
        shape = tuple(int(s) for s in rng.integers(1, 40, size=ndim))
        dim = int(rng.integers(-ndim, ndim))
        x = (rng.standard_normal(shape) * rng.choice([1, 5, 50])).astype(dtype)
        output = torch.log_softmax(torch.tensor(x), dim)
        assert np.array_equal(kernel_order.log_softmax(x, dim), output.numpy()), (shape, dim)
        if rng.random() < 0.5:  # a mean's seed: the difference cancels to zero or nearly
            grad = torch.full(shape, 1 / float(np.prod(shape)), dtype=output.dtype)
        else:
            grad = torch.tensor(rng.standard_normal(shape).astype(dtype))
        expected = torch._log_softmax_backward_data(grad, output, dim, output.dtype).numpy()
        got = kernel_order.log_softmax_backward(grad.numpy(), output.numpy(), dim)
        assert np.array_equal(got, expected), (shape, dim)


def test_softmax_outputs_that_sum_to_one_leave_a_zero_gradient():
    """The fuzz-found program: torch's float64 softmax of three values sums to exactly 1, so the
    gradient of its sum is exactly 0 (divided by the sum instead of times its inverse, the
    outputs are an ulp lower and the gradient 3e-17)."""
    torch = _torch()
    import reference_engine.torch as reference

    grads = []
    for module in (torch, reference):
        x = module.tensor([0.0, 0.0, 0.402], requires_grad=True)
        y = module.softmax(x ** module.tensor([1.0, 1.022, 1.206], dtype=module.float64), 0)
        grads.append(module.autograd.grad([y.sum()], [x])[0].numpy())
    assert not grads[0].any()
    assert np.array_equal(grads[1], grads[0])


def test_a_cancelling_sum_stays_zero_through_sqrt_at_zero():
    """The fuzz-found program: torch's sum cancels exactly in column 2, so sqrt's gradient at 0
    gets 0, not inf."""
    torch = _torch()
    import reference_engine.torch as reference

    grads = []
    for module in (torch, reference):
        x = module.tensor([[0.0, 0.0, 1.5], [0.0, 0.0, 0.0]], requires_grad=True)
        module.softmax(module.sqrt(x), dim=0).mean().backward()
        grads.append(x.grad.numpy())
    assert grads[0][0, 2] == 0
    assert np.array_equal(grads[1], grads[0], equal_nan=True)


def test_batch_norm_out_of_training_is_torchs_bit_for_bit():
    """torch's CPU batch norm out of training: ``x * alpha + beta`` fused, ``beta`` fused too."""
    if importlib.util.find_spec("torch") is None:
        pytest.skip("torch is not installed")
    import torch

    import reference_engine.torch as reference

    rng = np.random.default_rng(3)
    for _ in range(100):
        channels = int(rng.integers(1, 12))
        shape = (int(rng.integers(1, 8)), channels) + ((3, 2) if rng.random() < 0.5 else ())
        values = [rng.standard_normal(shape), rng.standard_normal(channels),
                  rng.random(channels) + 0.1, rng.standard_normal(channels), rng.standard_normal(channels)]
        values = [v.astype("float32") for v in values]
        expected = torch.nn.functional.batch_norm(*[torch.tensor(v) for v in values], training=False)
        got = reference.nn.functional.batch_norm(*[reference.tensor(v) for v in values], training=False)
        assert np.array_equal(got.numpy(), expected.numpy()), shape


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_digamma_is_torchs_bit_for_bit(dtype):
    """torch's digamma is a scalar kernel (``calc_digamma``, single precision for float32), so
    any CPU computes it alike: the reference follows it step for step."""
    if importlib.util.find_spec("torch") is None:
        pytest.skip("torch is not installed")
    import torch

    from reference_engine import special_functions

    rng = np.random.default_rng(11)
    x = np.concatenate([rng.uniform(0.01, 30.0, 4000), rng.uniform(-10.0, 0.0, 1000),
                        np.arange(-3.0, 21.0) * 0.5, [0.0, -0.0, np.inf, -np.inf, np.nan]]).astype(dtype)
    theirs = torch.digamma(torch.from_numpy(x)).numpy()
    ours = special_functions.digamma(x)
    assert ours.dtype == theirs.dtype
    np.testing.assert_array_equal(ours, theirs)
