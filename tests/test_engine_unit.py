"""Properties of the engine that no framework comparison shows: memory and graph structure.

Expected values here come from the seed documents or from the definitions themselves (a freed
graph holds nothing; a leaf is reached through one accumulation node). Behaviour a framework
shows too is checked against it, in ``tests/programs/torch/``.
"""

from __future__ import annotations

import gc
import math

import numpy as np

import reference_engine.torch as torch
from reference_engine import engine
from reference_engine.graph import AccumulateGrad, Node


def _saved_arrays(root: Node) -> int:
    return sum(len(node.saved) for node in engine.topological_order([root]))


def test_backward_without_retain_graph_frees_every_saved_tensor():
    x = torch.tensor([0.5, 1.5], requires_grad=True)
    y = x
    for _ in range(1000):
        y = (y * 1.0001).sin()
    assert _saved_arrays(y.grad_fn) > 0
    y.sum().backward()
    assert _saved_arrays(y.grad_fn) == 0


def test_retain_graph_keeps_saved_tensors():
    x = torch.tensor([0.5, 1.5], requires_grad=True)
    y = (x.exp() * x).sum()
    y.backward(retain_graph=True)
    assert _saved_arrays(y.grad_fn) > 0


def test_seed_document_000_example_values():
    # 000_6248871245ead1a3.txt: x.grad [[12, 18], [17, 25]] with explicit seeds
    x = torch.tensor([[1, 2], [3, 4]], dtype=torch.float32, requires_grad=True)
    y = torch.tensor([[3, 2], [3, 4]], dtype=torch.float32)
    z1, z2 = torch.matmul(x, y), torch.matmul(x, y)
    torch.autograd.backward([z1, z2], [torch.tensor([[1.0, 2.0], [2.0, 3.0]]),
                                       torch.ones(2, 2)], True)
    np.testing.assert_array_equal(x.grad.numpy(), [[12, 18], [17, 25]])


def test_seed_document_002_second_derivative_is_two():
    # 002_7084aba416a79cc0.txt ③: the second derivative of x**2 is 2 everywhere
    x = torch.tensor([[0.6094, 0.91], [0.5815, 0.184]], requires_grad=True)
    g1, = torch.autograd.grad(x ** 2, x, torch.ones(2, 2), create_graph=True)
    g2, = torch.autograd.grad(g1, x, torch.ones(2, 2))
    np.testing.assert_array_equal(g2.numpy(), np.full((2, 2), 2.0, np.float32))


def test_leaves_are_reached_through_one_accumulate_node():
    x = torch.tensor([1.0], requires_grad=True)
    a, b = x * 2, x * 3
    assert a.grad_fn.edges[0] is b.grad_fn.edges[0]
    assert isinstance(a.grad_fn.edges[0], AccumulateGrad)


def test_graph_is_collectable_after_backward():
    import weakref

    x = torch.tensor([0.5], requires_grad=True)
    y = (x.exp() * x).sum()
    y.backward()
    nodes = [weakref.ref(y.grad_fn), weakref.ref(y.grad_fn.edges[0])]
    del y
    gc.collect()
    assert all(ref() is None for ref in nodes)  # the leaf keeps no node of the graph alive
    assert x.grad is not None


def test_seeding_makes_random_tensors_and_initial_weights_reproducible():
    """Each facade has a generator of its own: a seed gives the same draws and weights again,
    and reseeding one facade leaves the other's stream where it was."""
    import reference_engine.paddle as paddle_ref
    import reference_engine.torch as torch_ref

    draws = []
    for _ in range(2):
        torch_ref.manual_seed(7)
        paddle_ref.seed(7)
        draws.append((torch_ref.randn(3).numpy().tolist(), paddle_ref.randn([3]).numpy().tolist(),
                      torch_ref.nn.Linear(2, 2).weight.detach().numpy().tolist()))
    assert draws[0] == draws[1]
    torch_ref.manual_seed(7)
    paddle_ref.seed(1)
    assert torch_ref.randn(3).numpy().tolist() == draws[0][0]


def test_a_gradient_notes_the_scale_of_the_terms_it_cancelled():
    # d/dx sum(expand(x) * [1000, -1000]) = 1000 - 1000: zero, from terms of magnitude 1000
    from reference_engine import rounding
    x = torch.tensor([2.0], requires_grad=True)
    (x.expand(2) * torch.tensor([1000.0, -1000.0])).sum().backward()
    assert x.grad.tolist() == [0.0]
    assert rounding.scale_of(x.grad) == 1000.0
    # a hook that scales the gradient scales its noise too
    x = torch.tensor([2.0], requires_grad=True)
    x.register_hook(lambda g: g * 2.0)
    (x.expand(2) * torch.tensor([1000.5, -1000.0])).sum().backward()
    assert x.grad.tolist() == [1.0]
    assert rounding.scale_of(x.grad) == 1000.5 * 2
    # a node's saved tensor multiplies what reached it: d/dw of sum(x * w) with x of 3000
    w = torch.tensor([0.5], requires_grad=True)
    (torch.tensor([3000.0]) * w).sum().backward()
    assert rounding.scale_of(w.grad) == 3000.0
    # a gradient nothing cancelled has only its own magnitude
    z = torch.tensor([2.0, -4.0], requires_grad=True)
    (z * 1.0).sum().backward()
    assert rounding.scale_of(z.grad) == 1.0


def test_a_rule_that_scales_the_values_scales_their_noise():
    # the gradient reaching z is 1000.5 - 1000, cancelling terms of 1000.5; the number z was
    # multiplied by (2) and the index that picks y's element three times scale its noise as they
    # scale its values: 3.0 carries the noise of 1000.5 * 2 * 3
    from reference_engine import rounding
    y = torch.tensor([2.0], requires_grad=True)
    z = y[[0, 0, 0]] * 2.0
    (z[:, None].expand(3, 2) * torch.tensor([1000.5, -1000.0])).sum().backward()
    assert y.grad.tolist() == [3.0]
    assert rounding.scale_of(y.grad) == 1000.5 * 2 * 3


def test_noise_divided_by_zero_marks_the_gradient_singular():
    # 1000.5 - 1000.5 cancels to 0 (noise of a scale of 1000.5) before sqrt's gradient at 0
    # divides it: 0/0 is NaN here, and inf where another order of summation leaves 1e-4
    from reference_engine import rounding
    x = torch.tensor([0.0, 4.0], requires_grad=True)
    (x.sqrt()[:, None].expand(2, 2) * torch.tensor([1000.5, -1000.5])).sum().backward()
    assert math.isnan(x.grad.tolist()[0])
    assert rounding.noted_singular(x.grad)
    # a gradient of 1 divided by zero is inf whatever the order: not noise
    y = torch.tensor([0.0, 4.0], requires_grad=True)
    y.sqrt().sum().backward()
    assert y.grad.tolist()[0] == math.inf
    assert not rounding.noted_singular(y.grad)


def test_paddle_grad_results_keep_the_rounding_scale_of_what_they_copy():
    import reference_engine.paddle as paddle
    from reference_engine import rounding
    x = paddle.to_tensor([2.0], stop_gradient=False)
    y = (paddle.expand(x, [2]) * paddle.to_tensor([1000.5, -1000.0])).sum()
    (g,) = paddle.grad([y], [x])
    assert g.tolist() == [0.5]
    assert rounding.scale_of(g) == 1000.5
