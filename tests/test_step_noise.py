"""The noise an optimizer's step amplifies, followed forward (``reference_engine.step_noise``):
the shifts the reference notes cover how far torch's values really are from its own, element by
element, and stay at rounding size where nothing amplified them."""

from __future__ import annotations

import numpy as np
import pytest

import reference_engine.torch as ref
from reference_engine import step_noise

torch = pytest.importorskip("torch", reason="torch is not installed")

WEIGHT = [[0.599, 0.308, 0.426], [-0.993, 0.82, -0.685], [-0.35, -0.525, -0.425]]
BIAS = [0.943, -0.423, -0.41]
INPUT = [[-0.742, 0.339, -0.316], [1.824, -0.827, -1.646], [1.793, -0.855, -1.232]]


def _train(fw, steps: int):
    """The fuzz-found program (seed 956722026041): a Linear layer trained by Adam, a backward
    after each step; the weight's third row cancels its gradient to about 0.002."""
    net = fw.nn.Linear(3, 3)
    with fw.no_grad():
        net.weight.copy_(fw.tensor(WEIGHT))
        net.bias.copy_(fw.tensor(BIAS))
    x = fw.tensor(INPUT)
    opt = fw.optim.Adam(net.parameters(), lr=0.1)
    for i, loss in enumerate(("sum", "mean", "sum", "mean")[:steps + 1]):
        if i:
            opt.step()
        y = net(x)
        fw.autograd.backward([getattr(fw, loss)(y * y)])  # (the gradients accumulate)
    return net


def _values(t) -> np.ndarray:
    return np.asarray(t.detach().numpy(), dtype=np.float64)


def test_shifts_cover_how_far_torch_is_from_the_reference_element_by_element():
    torch.set_num_threads(1)
    for steps in (1, 2, 3):
        real, mine = _train(torch, steps), _train(ref, steps)
        for real_t, mine_t in ((real.weight, mine.weight), (real.bias.grad, mine.bias.grad),
                               (real.weight.grad, mine.weight.grad)):
            gap = np.abs(_values(real_t) - _values(mine_t))
            shift = step_noise.elementwise_bound(mine_t._data)
            assert shift is not None
            # rtol/atol: the judge's float32 tolerance, which the shifts widen
            assert (gap <= 1e-5 + 1.3e-6 * np.abs(_values(real_t)) + shift).all(), (steps, gap, shift)
    # the bias's third gradient element moved beyond float32's tolerance after two steps (1.3e-5
    # to 1.9e-5, as the CPU's matrix kernels round): only its shift covers it
    real, mine = _train(torch, 2), _train(ref, 2)
    expected = float(real.bias.grad[2])
    assert abs(expected - float(mine.bias.grad._data[2])) > 1e-5 + 1.3e-6 * abs(expected)


def test_a_well_conditioned_element_keeps_a_rounding_size_shift():
    mine = _train(ref, 2)
    shift = step_noise.elementwise_bound(mine.weight._data)
    assert shift[2, 2] > 1e-5             # the cancelled gradient's weight, amplified by Adam
    assert shift[:2].max() < 1e-8         # the others: Adam's step hardly moves them
    assert step_noise.elementwise_bound(mine.bias.grad._data)[:2].max() < 1e-5


def test_adams_first_step_moves_nothing_however_far_its_gradient_moves():
    # Adam's first step is lr * g / (|g| + eps): shifting the gradient shifts both, and the step
    # moves only through eps. The first element's gradient of 1e-3 is shifted by 7e-5 (the
    # noise of the tensor's scale, 300): shifting g and |g| apart would move the step by 7e-3
    p = ref.tensor([1.0, 1.0, 1.0], requires_grad=True)
    (p * ref.tensor([1e-3, -5.0, 300.0])).sum().backward()
    ref.optim.Adam([p], lr=0.1).step()
    assert step_noise.elementwise_bound(p.grad._data).min() > 5e-5
    assert step_noise.elementwise_bound(p._data).max() < 1e-7


def test_values_no_step_reached_carry_no_shift():
    x = ref.tensor([0.5, -2.0], requires_grad=True)
    y = (x.exp() * x).sum()
    y.backward()
    assert step_noise.of(x.grad._data) is None and step_noise.of(y._data) is None
    # an optimizer's step moves what it reads and writes, not values computed before it
    ref.optim.SGD([x], lr=0.1).step()
    assert step_noise.of(y._data) is None
    assert step_noise.elementwise_bound(x._data).max() > 0
