"""Seed gradients: when one is filled in, which shapes, dtypes and counts are accepted, and the
errors when not."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import torch_program as program
from tests.programs.torch.common import xy


@program
def seed_explicit_two_outputs(torch):
    x, y = xy(torch)
    z1, z2 = torch.matmul(x, y), torch.matmul(x, y)
    g1 = torch.tensor([[1.0, 2.0], [2.0, 3.0]])
    torch.autograd.backward([z1, z2], [g1, torch.ones(2, 2)], retain_graph=True)
    return [x.grad, y.grad, z1.grad_fn is not None]


@program
def seed_none_entry_non_scalar(torch):
    x, y = xy(torch)
    z1, z2 = x @ y, x @ y
    g1 = torch.tensor([[1.0, 2.0], [2.0, 3.0]])
    return [attempt(lambda: torch.autograd.backward([z1, z2], [g1, None])), x.grad]


@program
def seed_none_entry_scalar(torch):
    x, _ = xy(torch)
    a, b = (x * 2).sum(), (x * x).sum()
    torch.autograd.backward([a, b], [torch.tensor(2.0), None])
    return [x.grad]


@program
def seed_missing_non_scalar(torch):
    x, y = xy(torch)
    return [attempt(lambda: (x @ y).backward()), attempt(lambda: torch.autograd.grad(x @ y, x))]


@program
def seed_wrong_shape(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    return [attempt(lambda: (x * 2).backward(torch.tensor([1.0, 2.0, 3.0]))),
            attempt(lambda: (x * 2).backward(torch.tensor([[1.0, 2.0]]))),
            attempt(lambda: torch.autograd.grad(x * 2, x, torch.ones(3)))]


@program
def seed_zero_dim_output_one_element_seed(torch):
    x = torch.tensor([1.0], requires_grad=True)
    y = torch.tensor([2.0])
    z = torch.matmul(x, y)
    return [z, attempt(lambda: torch.autograd.backward(z, torch.tensor([3.0])))]


@program
def seed_other_dtype(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * 3).backward(torch.tensor([1.0, 1.0], dtype=torch.float64))
    g, = torch.autograd.grad((x * x).sum(), x, torch.tensor(2.0, dtype=torch.float64))
    return [x.grad, g]


@program
def seed_not_a_tensor(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    return [attempt(lambda: (x * 2).backward(1.0)),
            attempt(lambda: torch.autograd.backward([(x * 2).sum()], [1.0])),
            attempt(lambda: torch.autograd.grad((x * 2).sum(), [x], [1.0]))]


@program
def seed_count(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a, b = (x * 2).sum(), (x * 3).sum()
    return [attempt(lambda: torch.autograd.backward([a, b], [torch.tensor(1.0)])),
            attempt(lambda: torch.autograd.backward([a], [torch.tensor(1.0), torch.tensor(5.0)])),
            x.grad,
            attempt(lambda: torch.autograd.grad([a], [x], [torch.tensor(1.0), torch.tensor(2.0)]))]


@program
def same_output_twice(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    z = (x * x).sum()
    torch.autograd.backward([z, z], retain_graph=True)
    g = torch.autograd.grad([z, z], [x, x])
    return [x.grad, g]


@program
def a_leaf_takes_a_view_of_the_given_seed_as_its_grad(torch):
    """AccumulateGrad steals a first gradient nothing else holds: a view's backward makes a view
    of the seed the caller gave, which becomes the leaf's .grad as it is, sharing the seed's
    memory and version (zeroing the .grad zeroes the seed; a second backward adds into it),
    where its strides fit the leaf's layout. The seed itself, a transposed view that does not
    fit, or what a computing backward made is copied."""
    views = [lambda x: torch.permute(x, dims=(0, 1)), lambda x: x.view(1, 2),
             lambda x: x.unsqueeze(0), lambda x: x.flatten(), lambda x: x.squeeze(1),
             lambda x: x.t(), lambda x: x, lambda x: x.narrow(0, 0, 2), lambda x: x * 1.0]
    seen = []
    for view in views:
        x = torch.tensor([[1.0], [2.0]], requires_grad=True) if view is not views[5] else \
            torch.ones(2, 3, requires_grad=True)
        v = view(x)
        seed = torch.full(v.shape, 3.0)
        torch.autograd.backward([v], [seed])
        x.grad.zero_()
        seen.append([seed._version, seed.sum().item()])
    x = torch.tensor([[0.0], [0.0]], requires_grad=True)
    seed = torch.tensor([[1.0, 2.0]])
    x.t().backward(seed)
    x.t().backward(seed)
    x.t().backward(torch.tensor([[1.0, 2.0]]), create_graph=True)
    seen.append([seed.tolist(), seed._version, x.grad.tolist()])
    return seen
