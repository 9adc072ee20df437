"""Autograd programs written once against a torch-shaped module: one or more per SEMANTICS row.

Each returns its observations; ``tests/test_torch_differential.py`` runs every program under
torch 2.13.0 and under ``reference_engine.torch`` and requires the same observations.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from tests.custom_functions import context_flag_functions, custom, tripled_in_place, two_output_functions
from tests.observe import attempt, backward_after_writing

PROGRAMS: dict[str, Callable[[Any], list[Any]]] = {}


def program(fn: Callable[[Any], list[Any]]) -> Callable[[Any], list[Any]]:
    PROGRAMS[fn.__name__] = fn
    return fn


def _xy(torch):
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = torch.tensor([[3.0, 2.0], [3.0, 4.0]])
    return x, y


# --- seed gradients -----------------------------------------------------------------------

@program
def seed_explicit_two_outputs(torch):
    x, y = _xy(torch)
    z1, z2 = torch.matmul(x, y), torch.matmul(x, y)
    g1 = torch.tensor([[1.0, 2.0], [2.0, 3.0]])
    torch.autograd.backward([z1, z2], [g1, torch.ones(2, 2)], retain_graph=True)
    return [x.grad, y.grad, z1.grad_fn is not None]


@program
def seed_none_entry_non_scalar(torch):
    x, y = _xy(torch)
    z1, z2 = x @ y, x @ y
    g1 = torch.tensor([[1.0, 2.0], [2.0, 3.0]])
    return [attempt(lambda: torch.autograd.backward([z1, z2], [g1, None])), x.grad]


@program
def seed_none_entry_scalar(torch):
    x, _ = _xy(torch)
    a, b = (x * 2).sum(), (x * x).sum()
    torch.autograd.backward([a, b], [torch.tensor(2.0), None])
    return [x.grad]


@program
def seed_missing_non_scalar(torch):
    x, y = _xy(torch)
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


# --- retain_graph ---------------------------------------------------------------------------

@program
def retain_graph_accumulates(torch):
    x = torch.tensor([1.0], requires_grad=True)
    z = x * torch.tensor([2.0])
    out = []
    for _ in range(3):
        z.backward(torch.tensor([3.0]), retain_graph=True)
        out.append(x.grad.clone())
    return out


@program
def second_backward_after_free(torch):
    x, y = _xy(torch)
    z = (x @ y).sum()
    z.backward()
    return [attempt(lambda: z.backward()), x.grad]


@program
def second_backward_nothing_saved(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    z = (x + 1).sum()
    z.backward()
    z.backward()
    w = x.reshape(2, 1).t().expand(3, 2).sum()
    w.backward()
    w.backward()
    return [x.grad]


@program
def grad_then_grad_frees(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    z = (x * x).sum()
    first = torch.autograd.grad(z, x)
    return [first, attempt(lambda: torch.autograd.grad(z, x)), attempt(lambda: z.backward())]


@program
def retain_graph_none_follows_create_graph(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    z = (x ** 3).sum()
    g, = torch.autograd.grad(z, x, create_graph=True)
    again, = torch.autograd.grad(z, x)
    return [g, again, attempt(lambda: torch.autograd.grad(z, x))]


@program
def freed_per_op(torch):
    out = []
    x = torch.tensor([0.5, 1.5], requires_grad=True)
    ops = [lambda v: v * 2, lambda v: v / 2, lambda v: v - 1, lambda v: -v, lambda v: v ** 2,
           lambda v: 2 ** v, lambda v: v.exp(), lambda v: v.log(), lambda v: v.sqrt(),
           lambda v: v.abs(), lambda v: v.sin(), lambda v: v.cos(), lambda v: v.tanh(),
           lambda v: v.sigmoid(), lambda v: v.relu(), lambda v: v.clamp(0, 1),
           lambda v: torch.maximum(v, torch.tensor([1.0, 1.0])), lambda v: v.softmax(0),
           lambda v: v.log_softmax(0), lambda v: v.clone(), lambda v: v.unsqueeze(0),
           lambda v: v[0], lambda v: v[0:1], lambda v: torch.cat([v, v]),
           lambda v: torch.stack([v, v]), lambda v: v.max(), lambda v: v.amax(0),
           lambda v: v.max(0).values, lambda v: v.mean(), lambda v: v @ v,
           lambda v: torch.where(torch.tensor([True, False]), v, 0.0)]
    for op in ops:
        s = op(x).sum()
        s.backward()
        out.append(attempt(lambda: s.backward()))
    return out


# --- create_graph and higher order ----------------------------------------------------------

@program
def cube_orders_one_to_three(torch):
    x = torch.tensor(2.0, requires_grad=True)
    y = x ** 3
    g1, = torch.autograd.grad(y, x, create_graph=True)
    g2, = torch.autograd.grad(g1, x, create_graph=True)
    g3, = torch.autograd.grad(g2, x)
    return [g1, g2, g3]


@program
def constant_derivative_does_not_require_grad(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    g, = torch.autograd.grad((x * 2).sum(), x, create_graph=True)
    return [g, attempt(lambda: torch.autograd.grad(g.sum(), x)),
            attempt(lambda: torch.autograd.grad(g.sum(), x, allow_unused=True))]


@program
def backward_create_graph(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x ** 3).sum().backward(create_graph=True)
    first = x.grad
    g2, = torch.autograd.grad(first.sum(), x)
    return [first, g2]


@program
def second_derivatives_of_ops(torch):
    x = torch.tensor([[0.3, 0.7], [1.2, 0.4]], requires_grad=True)
    w = torch.tensor([[1.5, -0.5], [0.25, 2.0]], requires_grad=True)
    y = (torch.tanh(x @ w) * x.sigmoid() + (x * w).exp().log_softmax(1) + x.sqrt() / w).sum()
    gx, gw = torch.autograd.grad(y, [x, w], create_graph=True)
    hx = torch.autograd.grad((gx * gx).sum() + gw.sum(), [x, w])
    return [gx, gw, hx]


# --- unused, unreachable, no-grad -----------------------------------------------------------

@program
def unused_inputs(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    z = torch.tensor([3.0, 4.0], requires_grad=True)
    y = (x * 2).sum()
    return [attempt(lambda: torch.autograd.grad(y, [x, z], retain_graph=True)),
            attempt(lambda: torch.autograd.grad(y, [x, z], allow_unused=True, retain_graph=True)),
            attempt(lambda: torch.autograd.grad(y, [x, z], materialize_grads=True,
                                                retain_graph=True)),
            attempt(lambda: torch.autograd.grad(y, [x, z], materialize_grads=True,
                                                create_graph=True)),
            attempt(lambda: torch.autograd.grad(y, [x, z], materialize_grads=True,
                                                allow_unused=False))]


@program
def input_without_grad(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    c = torch.tensor([1.0, 2.0])
    y = (x * c).sum()
    return [attempt(lambda: torch.autograd.grad(y, [x, c], retain_graph=True)),
            attempt(lambda: torch.autograd.grad(y, [x, c], allow_unused=True))]


@program
def output_without_grad(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    c = torch.tensor([1.0, 2.0])
    return [attempt(lambda: c.sum().backward()),
            attempt(lambda: torch.autograd.grad([(x * 2).sum(), c.sum()], [x])),
            attempt(lambda: torch.autograd.backward([(x * 2).sum(), c.sum()]))]


@program
def empty_inputs_and_outputs(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    return [attempt(lambda: torch.autograd.grad((x * 2).sum(), [])),
            attempt(lambda: torch.autograd.grad([], [x])),
            attempt(lambda: (x * 2).sum().backward(inputs=[]))]


@program
def backward_inputs(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    h = x * w
    loss = (h * h).sum()
    loss.backward(inputs=[w], retain_graph=True)
    first = [x.grad, w.grad]
    loss.backward(inputs=[h], retain_graph=True)
    other = torch.tensor([1.0], requires_grad=True)
    loss.backward(inputs=[other, x])
    return first + [h.retains_grad, h.grad, x.grad, w.grad, other.grad,
                    attempt(lambda: (x * 2).sum().backward(inputs=[torch.tensor([1.0])]))]


@program
def only_inputs_false(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    return [attempt(lambda: torch.autograd.grad((x * x).sum(), x, only_inputs=False))]


# --- accumulation and .grad -----------------------------------------------------------------

@program
def accumulation_and_clearing(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * x).sum().backward()
    grad_object = x.grad
    (x * 3).sum().backward()
    same_object = x.grad is grad_object
    first = x.grad.clone()
    x.grad = None
    (x * 5).sum().backward()
    g, = torch.autograd.grad((x * 7).sum(), x)
    return [first, same_object, x.grad, g, x.grad.requires_grad, x.grad.grad_fn is None]


@program
def non_leaf_grad_and_retain(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    z = x * 3
    z.retain_grad()
    (y * z).sum().backward(retain_graph=True)
    first = [y.grad, z.grad, z.retains_grad, y.retains_grad, y.is_leaf, x.is_leaf]
    (y * z).sum().backward()
    return first + [z.grad, attempt(lambda: torch.tensor([1.0]).retain_grad())]


@program
def flags_after_forward(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    x.requires_grad_(False)
    y.backward()
    w = x * 1
    return [x.grad, attempt(lambda: (y * 1).requires_grad_(False)),
            attempt(lambda: setattr(torch.tensor([1.0], requires_grad=True) * 2,
                                    "requires_grad", True)),
            x.grad_fn is None, w.requires_grad]


@program
def grad_setter(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.grad = torch.tensor([5.0, 5.0])
    (x * 2).sum().backward()
    return [x.grad, attempt(lambda: setattr(x, "grad", 1.0)),
            attempt(lambda: setattr(x, "grad", torch.tensor([1.0, 2.0, 3.0])))]


# --- dtypes ---------------------------------------------------------------------------------

@program
def integer_tensors_refused(torch):
    def setter():
        t = torch.tensor([1, 2])
        t.requires_grad = True
    return [attempt(lambda: torch.tensor([1, 2], requires_grad=True)),
            attempt(lambda: torch.tensor([1, 2]).requires_grad_()), attempt(setter)]


@program
def float64_stays_float64(torch):
    x = torch.tensor([0.1, 0.2], dtype=torch.float64, requires_grad=True)
    y = (x.exp() * 3 + x.sin()).sum()
    y.backward()
    mixed = torch.tensor([1.0, 2.0], requires_grad=True) * torch.tensor(2.0, dtype=torch.float64)
    return [y, x.grad, mixed, torch.tensor([1, 2]) * 1.5, torch.tensor([1, 2]) / 2]


# --- hooks, in-place, modes -----------------------------------------------------------------

@program
def hooks(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    seen = []
    handle = x.register_hook(lambda g: g * 10)
    g, = torch.autograd.grad((x * x).sum(), x)
    (x * x).sum().backward()
    handle.remove()
    (x * 1).sum().backward()
    y = x * 2
    y.register_hook(lambda g: seen.append(g.clone()))
    y.retain_grad()
    y.register_hook(lambda g: g * 100)
    y.sum().backward()
    return [g, x.grad, seen, y.grad, attempt(lambda: torch.tensor([1.0]).register_hook(print))]


@program
def in_place_errors(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a.exp()
    b.add_(1)
    c = a * 1
    d = c * c
    c.mul_(2)
    const = torch.tensor([[1.0, 2.0]], dtype=torch.float64)
    e = a * const
    const.add_(1)
    return [attempt(lambda: x.add_(1)), attempt(lambda: b.sum().backward()),
            attempt(lambda: d.sum().backward()), attempt(lambda: e.sum().backward())]


@program
def in_place_on_non_leaf(torch):
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = torch.tensor([2.0, 2.0, 2.0], requires_grad=True)
    h = a * 1
    h.mul_(w)
    h.add_(a)
    h.sub_(1)
    h[0] = 5.0
    k = a * 2
    k.zero_()
    m = a * 3
    m.fill_(2.0)
    (h.sum() + (k * a).sum() + m.sum()).backward()
    with torch.no_grad():
        a.add_(1)
    return [h, a.grad, w.grad, a]


@program
def grad_modes(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.no_grad():
        a = x * 2
        with torch.enable_grad():
            b = x * 2
    torch.set_grad_enabled(False)
    c = x * 2
    torch.set_grad_enabled(True)
    with torch.set_grad_enabled(False):
        d = x * 2

    @torch.no_grad()
    def f(v):
        return v * 2

    e = f(x)
    return [a.requires_grad, b.requires_grad, c.requires_grad, d.requires_grad, e.requires_grad,
            torch.is_grad_enabled(), x.grad]


@program
def backward_under_no_grad(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    recorded = (x * x).sum()
    with torch.no_grad():
        unrecorded = (x * x).sum()
        recorded.backward()
        failed = attempt(lambda: unrecorded.backward())
    return [x.grad, failed, torch.is_grad_enabled()]


@program
def detach(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    d = y.detach()
    d2 = (x * 3).detach_()
    z = (y * d).sum()
    z.backward()
    return [d, d.is_leaf, d.requires_grad, d2, x.grad]


@program
def numpy_scalars_on_the_left_keep_autograd(torch):
    """``np.float64(2.0) * t`` is a tensor of t's dtype that requires grad, as a Python number
    on the left would give; a numpy array on the left is refused."""
    import numpy as np

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    made = [np.float64(2.0) * x, np.float32(1.5) + x, np.int64(3) - x, np.float64(2.0) / x,
            np.float64(2.0) ** x]
    sum(m.sum() for m in made).backward()
    refused = [attempt(lambda: np.array([2.0, 3.0]) * x), attempt(lambda: np.array([2.0, 3.0]) - x)]
    return [*made, x.grad, refused]


@program
def constructors_take_numpy_scalars_arrays_and_tensors(torch):
    """torch.tensor of numpy scalars, a list of numpy arrays or of tensors: each element's own
    dtype counts (a Python float is the default float); ``to(other)`` takes other's dtype and
    records the cast."""
    import numpy as np

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    moved = x.to(torch.tensor([1, 2], dtype=torch.float64))
    moved.sum().backward()
    return [torch.tensor([np.array([1.0, 2.0]), np.array([3.0, 4.0])]),
            torch.tensor([np.float32(1.0), np.float64(2.0)]), torch.tensor([1.0, np.float32(2.0)]),
            torch.tensor([np.int32(1), 2]), torch.tensor(np.float64(2.5)),
            torch.tensor([torch.tensor(1.0), torch.tensor(2.0)]), moved, x.grad,
            x.to(torch.tensor(1.0)) is x]


@program
def saved_tensor_detached_in_place(torch):
    """A saved input detach_()ed before backward is refused; a saved output (exp's result) and
    a saved leaf are not: torch reads a saved input's node from the tensor, and detach_ cleared
    it."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a = x * 1
    product = a * a  # saves a as an input
    a.detach_()
    refused = attempt(lambda: product.sum().backward())
    x2 = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x2.exp()  # saves its result
    total = (y * 2).sum()
    y.detach_()
    total.backward()
    x3 = torch.tensor([0.5, 1.5], requires_grad=True)
    s = x3.sin()  # saves the leaf x3
    s.detach_()
    x3_grad = attempt(lambda: (x3.sin() * 1).sum().backward())
    return [refused, x.grad, x2.grad, x3_grad, x3.grad]


# --- operations and broadcasting ------------------------------------------------------------

@program
def broadcasting_is_undone(torch):
    a = torch.tensor([[1.0], [2.0], [3.0]], requires_grad=True)
    b = torch.tensor([0.5, -1.0, 2.0, 4.0], requires_grad=True)
    s = torch.tensor(2.0, requires_grad=True)
    y = ((a + b) * (a - b) / (b * b + 1) + a * s).sum()
    y.backward()
    return [y, a.grad, b.grad, s.grad]


@program
def matmul_shapes(torch):
    def run(shape_a, shape_b):
        a = torch.ones(*shape_a) * 0.5
        a.requires_grad_()
        b = torch.ones(*shape_b) * 1.5
        b.requires_grad_()
        (torch.matmul(a, b) ** 2).sum().backward()
        return [a.grad, b.grad]
    return [run(sa, sb) for sa, sb in [((3,), (3,)), ((2, 3), (3, 4)), ((3,), (3, 4)),
                                       ((2, 3), (3,)), ((5, 2, 3), (3, 4)), ((2, 1, 2, 3), (4, 3, 2)),
                                       ((3,), (2, 3, 4)), ((2, 2, 3), (3,))]]


@program
def reductions_and_ties(torch):
    x = torch.tensor([[1.0, 3.0, 3.0], [2.0, 2.0, 0.5]], requires_grad=True)
    outs = [x.max(), x.min(), x.amax(1), x.amin(0), x.max(1).values, x.min(0, keepdim=True).values,
            x.sum((0, 1)), x.mean(1, keepdim=True), x.sum(-1), torch.amax(x, (0, 1))]
    grads = [torch.autograd.grad(o.sum(), x)[0] for o in outs]
    return [outs, grads, x.max(1).indices]


@program
def shape_ops(torch):
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    w = torch.tensor([[0.5, 1.0, 1.5], [2.0, 2.5, 3.0]])
    outs = [x.reshape(3, 2), x.view(-1), x.t(), x.transpose(0, 1), x.permute(1, 0),
            x.unsqueeze(1), x.unsqueeze(0).squeeze(), x.reshape(1, 2, 1, 3).squeeze(2),
            x[:, None, 1:].expand(2, 4, 2), x[1], x[..., 0], x[-1, ::2], x[[0, 1, 1]],
            torch.cat([x, x * 2], 1), torch.stack([x, w], 2), x.clone()]
    grads = [torch.autograd.grad((o * o).sum(), x)[0] for o in outs]
    return [outs, grads]


@program
def elementwise_ops(torch):
    x = torch.tensor([[0.3, -0.7], [1.2, 2.5]], requires_grad=True)
    p = torch.tensor([[0.3, 0.7], [1.2, 2.5]], requires_grad=True)
    e = torch.tensor([[2.0, 0.5], [1.5, 3.0]], requires_grad=True)
    outs = [x.exp(), p.log(), p.sqrt(), x.abs(), x.sin(), x.cos(), x.tanh(), x.sigmoid(),
            x.relu(), x.clamp(-0.5, 1.0), x.clamp(min=0.0), torch.maximum(x, p * 0.5),
            torch.minimum(x, p * 0.5), torch.where(x > 0, x, p), x.softmax(1), x.log_softmax(0),
            torch.nn.functional.relu(x), torch.nn.functional.softmax(x, dim=0), p ** e, 2 ** x,
            x ** 3, x ** 0, -x, 1 / p, 3 - x, x / e]
    grads = [torch.autograd.grad((o * o).sum(), [x, p, e], allow_unused=True) for o in outs]
    return [outs, grads]


@program
def argument_errors(torch):
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    return [attempt(lambda: x + torch.tensor([1.0, 2.0])),
            attempt(lambda: x @ torch.tensor([[1.0, 2.0, 3.0]])),
            attempt(lambda: torch.tensor([1.0, 2.0]) @ torch.tensor([1.0, 2.0, 3.0])),
            attempt(lambda: x @ torch.tensor([1.0, 2.0])),
            attempt(lambda: torch.ones(2, 3, 4) @ torch.ones(2, 5, 4)),
            attempt(lambda: torch.ones(2, 3, 4) @ torch.ones(3)),
            attempt(lambda: torch.matmul(x, 2)),
            attempt(lambda: torch.matmul(torch.tensor(1.0), torch.tensor(2.0))),
            attempt(lambda: x.reshape(4)), attempt(lambda: x.sum(2)),
            attempt(lambda: x.transpose(0, 3)), attempt(lambda: x.expand(3, 2)),
            attempt(lambda: torch.cat([x, torch.tensor([1.0])])),
            attempt(lambda: torch.cat([x, torch.ones(2, 2)], 0)),
            attempt(lambda: torch.stack([x, torch.ones(3)])),
            attempt(lambda: x.numpy()), attempt(lambda: x[5]), attempt(lambda: x.item()),
            attempt(lambda: torch.ones(2, 3, 4).t()), attempt(lambda: x.expand(3)),
            attempt(lambda: torch.tensor([[1.0, 2.0], [3.0]]))]


@program
def printing(torch):
    x = torch.tensor([[0.3386, 0.4305, 0.9076], [0.0469, -0.2624, 100.0]], requires_grad=True)
    y = (x * 2).sum()
    values = [x, y, x * 2, torch.tensor([1.5e-5, 2.0]), torch.tensor([1e9, 1.0]),
              torch.tensor([1, 2]), torch.tensor([True]), torch.tensor([1.0], dtype=torch.float64),
              torch.arange(30.0).reshape(2, 15) / 7, torch.arange(2000.0), torch.zeros(0),
              torch.zeros(2, 0), torch.tensor(float("nan")), torch.tensor([-1.0, 2.5])]
    return [repr(v) for v in values] + [repr(x.shape), repr(x.dtype), x.grad_fn is None,
                                        type(y.grad_fn).__name__ if False else y.grad_fn.name()]


@program
def wrong_argument_types(torch):
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    return [attempt(lambda: x + "a"), attempt(lambda: torch.mul(x, "a")),
            attempt(lambda: x.reshape(2.5)), attempt(lambda: x[1.5]), attempt(lambda: x.transpose(0, "a")),
            attempt(lambda: torch.cat(x)), attempt(lambda: x.clamp()), attempt(lambda: x.permute(0, 0)),
            attempt(lambda: x.softmax(3)), attempt(lambda: x.unsqueeze(5)), attempt(lambda: x.max(4))]


# --- recording, dtypes, hooks and grad modes (once unit tests of the reference alone) ---------

@program
def recording_follows_create_graph_and_grad_mode(torch):
    x = torch.tensor([0.5, 1.5], requires_grad=True)
    y = (x.exp() * x).sum()
    g, = torch.autograd.grad(y, x, retain_graph=True)
    h, = torch.autograd.grad(y, x, create_graph=True)
    with torch.no_grad():
        z = x * x
    return [g, h, z, z.grad_fn is None]


@program
def float32_stays_float32(torch):
    x = torch.tensor([0.1, 0.2], requires_grad=True)
    y = (x.exp() / 3).sum()
    y.backward()
    return [y, x.grad]


@program
def removed_hook_no_longer_runs(torch):
    x = torch.tensor([1.0], requires_grad=True)
    handle = x.register_hook(lambda g: g * 0)
    handle.remove()
    (x * 2).sum().backward()
    return [x.grad]


@program
def set_grad_enabled_as_function_context_and_decorator(torch):
    seen = [torch.is_grad_enabled()]
    torch.set_grad_enabled(False)
    seen.append(torch.is_grad_enabled())
    torch.set_grad_enabled(True)
    with torch.set_grad_enabled(False):
        seen.append(torch.is_grad_enabled())
    seen.append(torch.is_grad_enabled())

    @torch.set_grad_enabled(False)
    def inside() -> bool:
        return torch.is_grad_enabled()

    return seen + [inside(), torch.is_grad_enabled()]


@program
def bad_construction_raises_the_frameworks_errors(torch):
    return [attempt(lambda: torch.tensor(bad)) for bad in ("a", [1, "x"])]


@program
def views_made_under_no_grad(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.no_grad():
        v = x[0:1]
        e = x.expand(2)
        r = x.reshape(2)
    y = v * 3
    seen = [v.requires_grad, v.is_leaf, v.grad_fn is None, y.requires_grad, y.grad_fn is None]
    y.sum().backward()
    seen += [v.grad, x.grad, attempt(lambda: v.mul_(2))]
    with torch.no_grad():
        e.mul_(1)
    return seen + [x, attempt(lambda: torch.autograd.grad((r * 2).sum(), x))]


@program
def clamp_with_tensor_bounds(torch):
    x = torch.tensor([1.0, 2.0, 3.0, 2.0], requires_grad=True)
    low = torch.tensor([1.5, 2.0, 1.0, 2.0], requires_grad=True)
    high = torch.tensor([2.5, 2.0, 2.0, 3.0], requires_grad=True)
    both = torch.clamp(x, min=low, max=high)
    below = torch.clamp(x, min=low)
    above = torch.clamp(x, max=high)
    (both.sum() + below.sum() * 2 + above.sum() * 3).backward()
    return [both, below, above, x.grad, low.grad, high.grad, both.grad_fn.name()]


@program
def node_names_in_version_errors_and_views_of_no_grad_views(torch):
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with torch.no_grad():
        v = x[0:2]
    w = v[0:1]
    seen = [w.requires_grad, w.grad_fn is None, attempt(lambda: w.mul_(2))]
    a, b, d = x * 1, x * 1, x * 1
    a.fill_(2.0)
    b.zero_()
    d[0] = 5.0
    seen += [t.grad_fn.name() for t in (a, b, d, x ** 2, x ** torch.tensor(2.0), 2.0 ** x)]
    y = x * 1
    z = y ** torch.tensor([2.0, 2.0, 2.0])
    y.mul_(2)
    seen.append(attempt(lambda: z.sum().backward()))
    e = x.expand(2, 3)
    seen.append(attempt(lambda: e.detach().mul_(2)))
    t = torch.tensor([True, False])
    return seen + [attempt(lambda: t - 1.0), attempt(lambda: t - t), attempt(lambda: -t)]


@program
def backward_inputs_still_run_the_roots_hooks(torch):
    x2 = torch.tensor([1.0, 2.0], requires_grad=True)
    x4 = torch.tensor([3.0, 4.0], requires_grad=True)
    v = (x4 * 2).mean()
    v.retain_grad()
    v.register_hook(lambda g: g * 3)
    v.backward(inputs=[x2])
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a * 3
    b.retain_grad()
    (b * b).sum().backward(inputs=[a])
    return [x2.grad, v.grad, x4.grad, b.grad, a.grad]


@program
def writes_into_expanded_tensors(torch):
    seen = []
    for write in (lambda t: t.zero_(), lambda t: t.fill_(1.0), lambda t: t.__setitem__(0, 1.0),
                  lambda t: t.add_(1.0), lambda t: t[1].__setitem__(0, 5.0)):
        e = torch.tensor([[1.0], [2.0]]).expand(2, 3)
        seen.append(attempt(lambda: write(e)))
    row = torch.tensor([[1.0, 2.0, 3.0]]).expand(3, 3)[2]
    row[0] = 7.0
    return seen + [row]


@program
def retain_grad_follows_an_in_place_op_and_hooks_stay(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    v = x * 3
    v.retain_grad()
    v.register_hook(lambda g: g * -1)
    v.mul_(2)
    v.sum().backward()
    return [v.grad, x.grad, v.grad_fn.name()]


@program
def scalar_base_pow_saves_its_exponent_and_zero_base_gradients(torch):
    x = torch.tensor([-1.0, 0.0, 1.0], requires_grad=True)
    torch.pow(0.0, x).sum().backward()
    t = torch.tanh(torch.tensor([[0.5, 1.0]], requires_grad=True))
    y = torch.pow(2.0, t)
    t[0] = 0.7
    return [x.grad, attempt(lambda: y.sum().backward())]


@program
def a_leaf_written_after_the_graph_was_built_refuses_its_gradient(torch):
    x = torch.ones(3, requires_grad=True)
    y = torch.ones(3, requires_grad=True)
    z = (x * 2).sum()
    x.requires_grad_(False)
    x[0] = y[0] * 3
    return [attempt(lambda: z.backward()), x.grad_fn.name(), y.grad]


@program
def writes_into_no_grad_views_by_operand_and_index(torch):
    seen = []
    a = torch.ones(2, requires_grad=True)
    for base_requires_grad in (False, True):
        for other in (a * 1, torch.ones(2), 2.0):
            b = torch.ones(2, 2, requires_grad=base_requires_grad) * 1
            with torch.no_grad():
                v = b[:]
            seen.append(attempt(lambda: v.mul_(other if isinstance(other, float) else other[0])))
    for index in (0, (slice(0, 1),), (0, slice(None)), (slice(None), slice(None, None, 2)),
                  [0], ..., (..., 0), None, (0, [0]), (slice(None), slice(None))):
        b = torch.ones(2, 2, requires_grad=True) * 1
        with torch.no_grad():
            v = b[:]
        seen.append(attempt(lambda: v.__setitem__(index, 3.0)))
    return seen


@program
def matmul_saves_its_operands_as_it_reshaped_them(torch):
    """torch folds, transposes, squeezes or expands matmul's operands and saves the results:
    views (named AsStrided, with the view's shape, once the operand is written) or copies
    (which a later write does not reach). Every pair of ranks 1-4, with size-1 batch dims."""
    matrices = {1: (3,), 2: (2, 3), 3: (2, 2, 3), 4: (2, 2, 2, 3)}
    seen = []
    for rank_a in matrices:
        for rank_b in matrices:
            shape_b = tuple(reversed(matrices[rank_b][-2:])) if rank_b > 1 else (3,)
            shape_b = matrices[rank_b][:-2] + shape_b
            for one_a, one_b in ((False, False), (True, False), (False, True)):
                sa = ((1,) + matrices[rank_a][1:]) if one_a and rank_a >= 3 else matrices[rank_a]
                sb = ((1,) + shape_b[1:]) if one_b and rank_b >= 3 else shape_b
                for written in range(2):
                    a = torch.ones(*sa, requires_grad=True)
                    b = torch.ones(*sb, requires_grad=True)
                    out = torch.matmul(a, b)
                    with torch.no_grad():
                        (a, b)[written].add_(1.0)
                    seen.append([sa, sb, out.grad_fn.name(), attempt(lambda: out.sum().backward())])
    return seen


@program
def saved_tensors_are_checked_in_torchs_order(torch):
    """Both operands views of one written tensor: the version error names the one torch
    unpacks first (its own names for them, alphabetically; for matmul, after its fold)."""
    ranks = {1: (3,), 2: (2, 3), 3: (2, 2, 3), 4: (2, 2, 2, 3)}
    pairs = [(sa, sb[:-2] + sb[:-3:-1] if len(sb) > 1 else sb) for sa in ranks.values()
             for sb in ranks.values()]
    pairs += [((1, 2, 3), (2, 3, 2)), ((2, 2, 3), (1, 3, 2))]
    programs = [("matmul", sa, sb, torch.matmul) for sa, sb in pairs]
    programs += [(name, (2, 3), (1, 3), f) for name, f in (
        ("mul", lambda a, b: a * b), ("div", lambda a, b: a / b), ("maximum", torch.maximum),
        ("pow", torch.pow), ("clamp", lambda a, b: torch.clamp(a, min=b, max=b + 1)))]
    seen = []
    for name, sa, sb, f in programs:
        base = torch.ones(64, requires_grad=True) * 1
        a = base[:math.prod(sa)].view(sa)
        b = base[-math.prod(sb):].view(sb)
        out = f(a, b)
        with torch.no_grad():
            base.add_(1.0)
        seen.append([name, sa, sb, attempt(lambda: out.sum().backward())])
    return seen


@program
def a_no_grad_view_requires_grad_while_its_base_does(torch):
    x = torch.ones(3, requires_grad=True)
    with torch.no_grad():
        v = x[:2]
    seen = [v.requires_grad, attempt(lambda: v.mul_(2.0))]
    x.requires_grad_(False)
    seen += [v.requires_grad, attempt(lambda: v.add_(1.0)), attempt(lambda: v.__setitem__(0, 1.0)),
             v.requires_grad, v.grad_fn, attempt(lambda: v.mul_(torch.ones(2, requires_grad=True)))]
    w = v * torch.ones(2, requires_grad=True)
    return seen + [w.requires_grad, w.grad_fn.name()]


@program
def advanced_indexing_saves_its_index_and_frees_it(torch):
    seen = []
    for index in ([1, 1, 0], slice(1, None), 1):
        x = torch.ones(3, requires_grad=True)
        y = x[index].sum()
        torch.autograd.grad(y, x, retain_graph=False)
        seen.append(attempt(lambda: torch.autograd.grad(y, x)))
    return seen


@program
def in_place_operands_that_partly_share_the_written_memory(torch):
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    writes = (lambda: x.div_(x.t()), lambda: x.add_(x), lambda: x.add_(x[0]),
              lambda: x[0].add_(x[1]), lambda: x[:, 0].mul_(x[0]), lambda: x.__setitem__(0, x[1]),
              lambda: x.__setitem__(slice(None), x.t()), lambda: x.__setitem__([0, 1], x[0]),
              lambda: x.__setitem__(0, x[:, 0]))
    seen = [[attempt(write), x.tolist()] for write in writes]
    leaf = torch.ones(2, 2, requires_grad=True)
    return seen + [attempt(lambda: leaf.add_(leaf.t()))]


@program
def saved_inputs_are_checked_before_saved_outputs(torch):
    seen = []
    for f in (torch.pow, lambda a, b: torch.amax(a, dim=0, keepdim=True),
              lambda a, b: torch.pow(2.0, a), lambda a, b: torch.max(a, dim=0)[0]):
        base = torch.ones(8, requires_grad=True) * 1
        a, b = base[:4].view(2, 2), base[4:6].view(1, 2)
        y = f(a, b)
        with torch.no_grad():
            base.add_(1.0)
            y.add_(1.0)
        seen.append(attempt(lambda: y.sum().backward()))
    return seen


@program
def backward_inputs_run_a_non_leaf_inputs_own_node(torch):
    x = torch.ones(2, requires_grad=True)
    y = x.exp()
    (y * 2).sum().backward(inputs=[y])
    seen = [y.grad, x.grad, attempt(lambda: y.sum().backward()), x.grad]
    x = torch.ones(2, requires_grad=True)
    y = x.exp()
    s = (y * 2).sum()
    with torch.no_grad():
        y.add_(1.0)
    seen += [attempt(lambda: s.backward(inputs=[y])), y.grad]
    x = torch.ones(2, requires_grad=True)
    y = x.exp()
    calls = []
    y.register_hook(lambda g: calls.append(g))
    w = y * 1
    (w * 2).sum().backward(inputs=[w], retain_graph=True)
    return seen + [w.grad, calls, x.grad]


@program
def a_saved_no_grad_view_written_later_is_refused_as_a_view(torch):
    seen = []
    for write_base in (False, True):
        x = torch.ones(3, requires_grad=True)
        with torch.no_grad():
            v = x[:2]
        y = (torch.ones(2, requires_grad=True) * v).sum()
        with torch.no_grad():
            (x if write_base else v).mul_(2.0)
        seen.append(attempt(lambda: y.backward()))
    return seen


@program
def setitem_value_with_leading_ones(torch):
    """A value with extra leading size-1 dimensions is written (they are dropped); its gradient
    keeps the value's shape, and the result prints its node by class name."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    v = torch.tensor([3.0], requires_grad=True)
    y = x * 2
    y[0] = v
    printed = repr(y)
    y.sum().backward()
    return [printed, x.grad, v.grad]


@program
def matmul_saves_a_recorded_view_of_a_vector(torch):
    """matmul(vector, matrix) saves vector.unsqueeze(0), recorded while the vector required
    grad: a create_graph gradient computed from it still requires grad after
    requires_grad_(False). A matrix saved as itself does not."""
    v = torch.tensor([1.059, 1.721, 1.745], dtype=torch.float64, requires_grad=True)
    w = torch.tensor([[-1.598, -0.326], [0.463, -1.098], [1.63, -1.172]], dtype=torch.float64,
                     requires_grad=True)
    out = torch.matmul(v, w)
    v.requires_grad_(False)
    (g,) = torch.autograd.grad(out.sum(), [w], create_graph=True)
    g.sum().backward()
    m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    c = torch.tensor([[1.0], [2.0]], requires_grad=True)
    p = torch.matmul(m, c)
    m.requires_grad_(False)
    (h,) = torch.autograd.grad(p.sum(), [c], create_graph=True)
    return [g.requires_grad, g.grad_fn is not None, v.grad, w.grad, h.requires_grad]


# --- custom functions -----------------------------------------------------------------------

def _exp_function(torch):
    class Exp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, i):
            result = i.exp()
            ctx.save_for_backward(result)
            return result

        @staticmethod
        def backward(ctx, grad_output):
            (result,) = ctx.saved_tensors
            return grad_output * result
    return Exp


@program
def custom_function_forward_backward_and_freeing(torch):
    """The docs' Exp: its node, its gradient, double backward through a differentiable
    backward, the freed error on a second backward, and the version check of a saved output."""
    exp = _exp_function(torch)
    x = torch.tensor([0.5, 1.0], requires_grad=True)
    y = exp.apply(x)
    printed = [repr(y), y.grad_fn.name()]
    y.sum().backward()
    first = x.grad.clone()
    second = attempt(lambda: y.sum().backward())
    q = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(exp.apply(q).sum(), q, create_graph=True)
    (gg,) = torch.autograd.grad(g.sum(), q)
    w = torch.ones(2, requires_grad=True) * 1
    z = exp.apply(w)
    total = z.sum()
    with torch.no_grad():
        z.mul_(2)
    return printed + [first, second, g, gg, attempt(lambda: total.backward()),
                      exp.apply(torch.ones(2)).requires_grad]


@program
def custom_function_arguments_and_errors(torch):
    """needs_input_grad, non-tensor arguments, setup_context, and torch's errors for a wrong
    number or shape of returned gradients."""
    seen = []

    class Scale(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a, b, k):
            ctx.k = k
            return a * b * k

        @staticmethod
        def backward(ctx, g):
            seen.append(ctx.needs_input_grad)
            return g * ctx.k, None, None

    class Setup(torch.autograd.Function):
        @staticmethod
        def forward(a, k):
            return a * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            a, k = inputs
            ctx.k = k
            ctx.save_for_backward(a)

        @staticmethod
        def backward(ctx, g):
            (a,) = ctx.saved_tensors
            return g * ctx.k * a, None

    class TooFew(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            return a * b

        @staticmethod
        def backward(ctx, g):
            return g

    wrong_shape = custom(torch.autograd.Function, "WrongShape", lambda ctx, a: a * 2,
                         lambda ctx, g: torch.ones(3))

    a = torch.ones(2, requires_grad=True)
    Scale.apply(a, torch.ones(2), 3.0).sum().backward()
    q = torch.tensor([1.0, 2.0], requires_grad=True)
    Setup.apply(q, 3.0).sum().backward()
    return [seen, a.grad, q.grad,
            attempt(lambda: TooFew.apply(torch.ones(2, requires_grad=True), torch.ones(2))
                    .sum().backward()),
            attempt(lambda: wrong_shape.apply(torch.ones(2, requires_grad=True)).sum().backward())]


@program
def what_real_programs_need_on_the_way(torch):
    """Constructors, parameters, devices and tensor functions tutorials use before autograd."""
    data = torch.Tensor([[1, 2], [3, 4]])
    sized = torch.Tensor(2, 3)
    weight = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
    variable = torch.autograd.Variable(torch.ones(2), requires_grad=True)
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True).to(dev)
    b = a.mm(a)
    c = a * 1
    c.exp_()
    (b.sum() + c.sum() + (weight * weight).sum() + variable.sum()).backward()
    steps = torch.linspace(0, 1, steps=5, requires_grad=True)
    result = [data, sized.shape, repr(weight), type(weight * 2).__name__, variable.requires_grad,
            repr(dev), str(a.device), b.grad_fn.name(), c.grad_fn.name(), a.grad, weight.grad,
            variable.grad, steps, torch.equal(a, a), a.equal(b), torch.cuda.device_count(),
            attempt(lambda: torch.Tensor(1.5)), attempt(lambda: torch.Tensor(True)),
            a.eq(b), a.ne(b), a.lt(b), a.ge(2.0), a.eq(b).all(), (a > 1.5).any(dim=1),
            (a > 0).all(dim=0, keepdim=True), a.floor(), torch.ceil(a), (a * 0.5).round(),
            torch.round(a).grad_fn.name(), a.argmin(), torch.argmin(a, dim=1, keepdim=True),
            a.to(torch.int64).requires_grad, a.to(torch.int64).grad_fn is None,
            a.type_as(a) is a, a.type_as(torch.tensor([1])), a.where(a > 2.0, torch.tensor(0.0)),
            a.where(a > 2.0, torch.tensor(0.0)).grad_fn.name()]
    clamped = a * 1
    clamped.clamp_(min=1.5, max=3.5)
    clamped.sum().backward()
    result += [clamped, clamped.grad_fn.name(), clamped._version, a.grad,
               attempt(lambda: a.clamp_(0.0))]
    zero = torch.zeros(2, requires_grad=True)
    zero.norm().backward()  # the norm's gradient is 0 where the norm is 0
    rows = torch.tensor([[1.0, 2.0], [3.0, 0.0]], requires_grad=True)
    rows.norm(dim=1).sum().backward()
    return result + [zero.grad, rows.grad, rows.norm().grad_fn.name()]


@program
def advanced_index_setitem_and_create_graph_grad(torch):
    """Writing through advanced indices is index_put_ (IndexPutBackward0), freed like any node;
    a first .grad accumulated with create_graph is a copy (CopyBackwards), a later one a sum."""
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    y[[0, 2]] = torch.tensor([5.0, 6.0])
    total = (y * y).sum()
    total.backward()
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    (a * a).sum().backward(create_graph=True)
    first = a.grad.grad_fn.name()
    (a * a).sum().backward(create_graph=True)
    b = torch.tensor([1.0, 2.0], requires_grad=True)
    (b * 3).sum().backward(create_graph=True)
    return [y.grad_fn.name(), x.grad, attempt(lambda: total.backward()), first,
            a.grad.grad_fn.name(), a.grad, b.grad.grad_fn is None, b.grad.requires_grad]


@program
def functional_jacobians_hessians_and_products(torch):
    from importlib import import_module

    functional = import_module(torch.__name__ + ".autograd.functional")

    def f(x):
        return x ** 2 * 3

    def pair(a, b):
        return (a * b, a + b)

    def cubic(x):
        return (x ** 3).sum()

    x = torch.tensor([1.0, 2.0])
    m = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    v = torch.tensor([1.0, -1.0])
    return [functional.jacobian(f, x), functional.jacobian(pair, (x, v)),
            functional.jacobian(lambda a: torch.ones(2), x), functional.jacobian(f, x).requires_grad,
            functional.jacobian(f, x, create_graph=True).requires_grad,
            functional.jacobian(lambda a: a.sum(1), m).shape, functional.hessian(cubic, x),
            functional.hessian(lambda a, b: (a * b).sum(), (x, v)), functional.vjp(f, x, v),
            functional.jvp(f, x, v), functional.hvp(cubic, x, v), functional.vhp(cubic, x, v)]


@program
def a_training_loop_with_modules_and_sgd(torch):
    """Module / Linear / MSELoss / SGD with momentum: gradients accumulate per step and are
    cleared by zero_grad; the weights are set to equal values first."""
    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = torch.nn.Linear(3, 2)
            self.fc2 = torch.nn.Linear(2, 1)

        def forward(self, x):
            return self.fc2(torch.tanh(self.fc1(x)))

    net = Net()
    with torch.no_grad():
        for p in net.parameters():
            p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape))
    opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    x = torch.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]])
    target = torch.tensor([[1.0], [0.0]])
    seen = [[name for name, _ in net.named_parameters()], repr(net.fc1)]
    for _ in range(3):
        opt.zero_grad()
        loss = torch.nn.MSELoss()(net(x), target)
        loss.backward()
        opt.step()
        seen += [loss.detach(), net.fc1.weight.grad.clone()]
    net.zero_grad(set_to_none=False)
    return seen + [net.fc2.weight, net.fc1.bias.grad,
                   torch.nn.functional.mse_loss(net(x), target, reduction="sum").detach()]


@program
def hooks_on_nodes_and_after_accumulation(torch):
    """grad_fn.register_prehook / register_hook (replacing what flows), a leaf's
    post-accumulate-grad hook, next_functions and node names."""
    seen = []
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    z = y.exp()
    pre = z.grad_fn.register_prehook(lambda g_out: seen.append(("pre", g_out[0].tolist())))
    z.grad_fn.register_hook(lambda g_in, g_out: seen.append(
        ("post", g_in[0].tolist(), g_out[0].tolist())))
    y.grad_fn.register_prehook(lambda g_out: (g_out[0] * 2,))
    y.grad_fn.register_hook(lambda g_in, g_out: (g_in[0] + 1, None))
    x.register_post_accumulate_grad_hook(lambda p: seen.append(("accumulated", p.grad.tolist())))
    z.sum().backward(retain_graph=True)
    pre.remove()
    z.sum().backward()
    leaf_node = y.grad_fn.next_functions[0][0]
    return [seen, x.grad, z.grad_fn.name(), [f.name() for f, _ in z.grad_fn.next_functions],
            leaf_node.name(), leaf_node.variable is x,
            attempt(lambda: y.register_post_accumulate_grad_hook(lambda p: None))]


@program
def saved_tensors_hooks_pack_and_unpack(torch):
    """Each tensor a node saves is packed (not a Python number an op was given); backward
    unpacks what was kept, with no version check."""
    seen = []

    def pack(t):
        seen.append(("pack", tuple(t.shape)))
        return t.clone() * 1

    def unpack(t):
        seen.append(("unpack", tuple(t.shape)))
        return t

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = x.exp()
        z = y * x * 3
    z.sum().backward()
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        b = a * a
    with torch.no_grad():
        a.mul_(2)
    b.sum().backward()
    c = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t.detach() * 0 + 5, lambda t: t):
        d = c * c
    d.sum().backward()
    return [seen, x.grad, a.grad, c.grad]


@program
def inference_mode_and_inference_tensors(torch):
    """Tensors made in inference_mode: no grad, is_inference(); saving one for backward is
    refused, using it where nothing is saved is not; an in-place write outside the mode writes,
    then is refused; the decorator and inference_mode(False)."""
    with torch.inference_mode():
        q = torch.ones(2) * 2
        r = torch.ones(2, requires_grad=True) * 2
    w = torch.ones(2, requires_grad=True)
    saved = attempt(lambda: (q * w).sum().backward())
    (q + w).sum().backward()
    written = attempt(lambda: q.add_(1))
    p = torch.ones(2, requires_grad=True)

    @torch.inference_mode()
    def double(t):
        return t * 2

    with torch.inference_mode(False):
        off = [torch.is_inference_mode_enabled(), (p * 2).requires_grad]
    with torch.inference_mode():
        on = [torch.is_inference_mode_enabled(), q.add_(1)]
    return [q.requires_grad, q.is_inference(), r.requires_grad, r.is_inference(), saved, w.grad,
            written, p.is_inference(), double(p).requires_grad, double(p).is_inference(), off, on]


@program
def sequential_models_and_random_shapes(torch):
    """nn.Sequential with activation modules (weights set to equal values), and what random
    tensors share with torch's: shapes, dtypes and flags (not values)."""
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1),
                              torch.nn.Tanh())
    with torch.no_grad():
        for p in net.parameters():
            p.copy_(torch.linspace(-0.7, 0.9, p.numel()).reshape(p.shape))
    x = torch.tensor([[1.0, -2.0, 0.5], [0.3, 0.8, -1.1]])
    net(x).sum().backward()
    noise = torch.randn(2, 3, requires_grad=True)
    return [[name for name, _ in net.named_parameters()], len(net), repr(net[1]),
            net[0].weight.grad, net[2].bias.grad, noise.shape, str(noise.dtype), noise.requires_grad,
            torch.rand(4).shape, str(torch.randn((2, 2)).dtype)]


@program
def classification_with_adam_and_tensor_helpers(torch):
    """F.linear, F.cross_entropy / nll_loss, optim.Adam over a few steps, and the tensor helpers
    programs use around them (norm, flatten, square, argmax, dot, allclose, eye, from_numpy)."""
    import numpy as np

    functional = torch.nn.functional
    w = torch.tensor([[0.2, -0.4, 0.1], [0.5, 0.3, -0.2]], requires_grad=True)
    b = torch.tensor([0.1, -0.1], requires_grad=True)
    opt = torch.optim.Adam([w, b], lr=0.05)
    x = torch.tensor([[1.0, 2.0, 0.5], [0.3, -1.0, 2.0], [1.5, 0.2, -0.7]])
    target = torch.tensor([1, 0, 1])
    seen = []
    for _ in range(4):
        opt.zero_grad()
        loss = functional.cross_entropy(functional.linear(x, w, b), target)
        loss.backward()
        opt.step()
        seen += [loss.detach(), w.grad.clone()]
    logits = functional.linear(x, w, b)
    v = torch.tensor([[3.0, 4.0], [1.0, 2.0]], requires_grad=True)
    n = v.norm()
    n.backward()
    return seen + [w.detach(), b.detach(),
                   functional.nll_loss(functional.log_softmax(logits, 1), target,
                                       reduction="sum").detach(),
                   n.detach(), v.grad, torch.norm(v, dim=1).detach(), v.flatten().shape,
                   torch.dot(torch.ones(2), torch.ones(2)), v.square().detach(), v.argmax(),
                   torch.argmax(v, dim=1), torch.allclose(v, v), torch.eye(2),
                   str(torch.from_numpy(np.ones(2)).dtype)]


@program
def the_autograd_tutorial(torch):
    """PyTorch's "Automatic Differentiation with torch.autograd" tutorial, with its random
    weights replaced by fixed ones."""
    x = torch.ones(5)
    y = torch.zeros(3)
    w = torch.tensor([[0.1 * (i - j) for j in range(3)] for i in range(5)], requires_grad=True)
    b = torch.tensor([0.3, -0.2, 0.1], requires_grad=True)
    z = torch.matmul(x, w) + b
    loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
    loss.backward()
    seen = [w.grad, b.grad, loss.detach(), z.requires_grad]
    with torch.no_grad():
        z = torch.matmul(x, w) + b
    seen += [z.requires_grad, z.detach().requires_grad]
    inp = torch.eye(4, 5, requires_grad=True)
    out = (inp + 1).pow(2).t()
    out.backward(torch.ones_like(out), retain_graph=True)
    seen.append(inp.grad.clone())
    out.backward(torch.ones_like(out), retain_graph=True)
    seen.append(inp.grad.clone())
    inp.grad.zero_()
    out.backward(torch.ones_like(out), retain_graph=True)
    p = torch.tensor([0.2, 0.9, 0.5], requires_grad=True)
    bce = torch.nn.functional.binary_cross_entropy(p, torch.tensor([0.0, 1.0, 1.0]))
    bce.backward()
    return seen + [inp.grad, bce.detach(), p.grad]


@program
def cross_entropy_loss_module(torch):
    x = torch.tensor([[1.0, 2.0, 0.5], [0.3, -1.0, 2.0]], requires_grad=True)
    loss = torch.nn.CrossEntropyLoss()(x, torch.tensor([1, 2]))
    loss.backward()
    return [loss.detach(), x.grad,
            torch.nn.CrossEntropyLoss(reduction="none")(x, torch.tensor([0, 0])).detach()]


@program
def anomaly_detection_names_the_function_that_returned_nan(torch):
    """detect_anomaly / set_detect_anomaly: a backward function returning nan fails, naming
    itself; the warnings' first lines (torch follows the second with a forward traceback)."""
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        x = torch.tensor([0.0, 1.0], requires_grad=True)
        with torch.autograd.detect_anomaly():
            inside = attempt(lambda: (torch.sqrt(x) * 0).sum().backward())
        after = torch.is_anomaly_enabled()
        torch.autograd.set_detect_anomaly(True)
        switched = attempt(lambda: (x.log() * 0).sum().backward())
        torch.autograd.set_detect_anomaly(False)
        (x.log() * 0).sum().backward()
    return [inside, after, switched, x.grad,
            [str(w.message).split("\n")[0] for w in caught if "Anomaly" not in str(w.message)]]


@program
def custom_function_context_flags(torch):
    """mark_non_differentiable, set_materialize_grads and once_differentiable (imported the
    way programs import it: torch.autograd.function.once_differentiable)."""
    NonDifferentiable, Unmaterialized = context_flag_functions(torch.autograd.Function)  # noqa: N806

    class Once(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 2

        @staticmethod
        @torch.autograd.function.once_differentiable
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * 2 * x

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = NonDifferentiable.apply(x)
    Unmaterialized.apply(x).sum().backward()
    q = torch.tensor([1.0, 2.0], requires_grad=True)
    (g,) = torch.autograd.grad(Once.apply(q).sum(), q, create_graph=True)
    # handed a gradient that requires grad, once_differentiable returns the output of an Error
    # node: differentiating the first derivative again fails with torch's message
    y2 = Once.apply(q)
    (h,) = torch.autograd.grad((y2 * y2).sum(), q, create_graph=True)
    return [y.requires_grad, y.grad_fn is None, x.grad, g, g.requires_grad,
            attempt(lambda: g.sum().backward()), h, h.requires_grad, h.grad_fn.name(), h.is_leaf,
            attempt(lambda: h.sum().backward()), q.grad]


@program
def a_manual_training_loop_with_in_place_operators(torch):
    """``w -= lr * w.grad`` under no_grad updates the leaf in place (torch's in-place operators);
    outside no_grad it is refused."""
    w = torch.tensor([1.0, -2.0], requires_grad=True)
    b = torch.tensor(0.5, requires_grad=True)
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    y = torch.tensor([1.0, 0.0])
    seen = []
    for _ in range(3):
        loss = ((x @ w + b - y) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            w -= 0.01 * w.grad
            b -= 0.01 * b.grad
            w *= 1.0
            w /= 1.0
            b += 0.0
            w.grad.zero_()
            b.grad.zero_()
        seen += [loss.item(), w.detach().clone(), b.detach().clone()]

    def refused():
        v = torch.tensor([1.0], requires_grad=True)
        v += 1
    return seen + [attempt(refused), w.is_leaf, w.requires_grad, w._version, b._version,
                   w.grad._version]


@program
def more_tensor_methods_around_autograd(torch):
    """var / std, masked_fill, gather, index_select, repeat and cumsum (composed from the core's
    operations), with their gradients; new_* constructors and integer casts."""
    x = torch.tensor([[1.0, 2.0, 4.0], [3.0, 5.0, 9.0]], requires_grad=True)
    index = torch.tensor([[0, 2], [1, 0]])
    weights = torch.arange(12.0).reshape(4, 3)
    total = (x.var() + x.std(dim=1).sum() + x.masked_fill(x > 3, 0.0).sum()
             + x.gather(1, index).sum() + x.index_select(1, torch.tensor([2, 0])).sum()
             + (x.repeat(2, 1) * weights).sum() + (x.cumsum(1) * x).sum())
    total.backward()
    return [x.var().detach(), x.std(dim=1).detach(), x.var(dim=0, unbiased=False).detach(),
            x.masked_fill(x > 3, 0.0).detach(), x.gather(1, index).detach(),
            x.index_select(1, torch.tensor([2, 0])).detach(), x.new_zeros(2), x.new_ones((1, 2)),
            x.new_tensor([1, 2]), x.new_full((2,), 7.0), x.long(), str(x.int().dtype),
            x.repeat(2, 1, 2).shape, torch.cumsum(x, 0).detach(), x.grad]


@program
def a_custom_function_none_is_an_undefined_gradient_below(torch):
    """The nodes below still run: tensor hooks are handed None, a retained gradient stays None,
    saved tensors are freed (a later pass fails), a custom backward gets zeros unless it turned
    materialized gradients off."""
    seen = []
    drop = custom(torch.autograd.Function, "Drop", lambda ctx, a: a * 1.0, lambda ctx, g: None)

    def keep_backward(ctx, g):
        seen.append(["Keep", g])
        return g * 2.0

    keep = custom(torch.autograd.Function, "Keep", lambda ctx, a: a * 2.0, keep_backward)

    def unmaterialized_forward(ctx, a):
        ctx.set_materialize_grads(False)
        return a * 3.0

    def unmaterialized_backward(ctx, g):
        seen.append(["Unmaterialized", g])
        return None if g is None else g * 3.0

    unmaterialized = custom(torch.autograd.Function, "Unmaterialized", unmaterialized_forward,
                            unmaterialized_backward)
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    v = torch.exp(x)
    v.retain_grad()
    v.register_hook(lambda g: seen.append(["hook", g]))
    drop.apply(v).sum().backward()
    again = attempt(lambda: drop.apply(v).sum().backward())
    y = torch.tensor([1.0, 2.0], requires_grad=True)
    drop.apply(keep.apply(y)).sum().backward()
    z = torch.tensor([1.0, 2.0], requires_grad=True)
    drop.apply(unmaterialized.apply(z)).sum().backward()
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    unused = attempt(lambda: torch.autograd.grad(drop.apply(torch.exp(w)).sum(), [w]))
    allowed = torch.autograd.grad(drop.apply(torch.exp(w)).sum(), [w], allow_unused=True)
    mixed_leaf = torch.tensor([3.0, 4.0], requires_grad=True)
    (drop.apply(x * mixed_leaf) + mixed_leaf).sum().backward()
    return [seen, x.grad, v.grad, again, y.grad, z.grad, unused, allowed, mixed_leaf.grad]


@program
def saved_tensors_of_a_freed_function_that_saved_nothing(torch):
    """Reading ctx.saved_tensors in a second backward fails once the graph was freed, even when
    the forward saved nothing; with retain_graph it reads an empty tuple."""
    def backward(ctx, g):
        return g * 3.0 + 0.0 * len(ctx.saved_tensors)

    out = []
    for save in (False, True):
        def forward(ctx, a, save=save):
            if save:
                ctx.save_for_backward()
            return a * 3.0

        scale = custom(torch.autograd.Function, "Scale", forward, backward)
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        s = scale.apply(x).sum()
        s.backward()
        out.append(attempt(lambda s=s: s.backward()))
        y = torch.tensor([1.0, 2.0], requires_grad=True)
        r = scale.apply(y).sum()
        r.backward(retain_graph=True)
        r.backward()
        out += [x.grad, y.grad]
    return out


@program
def node_inputs_of_reflected_operators_and_where(torch):
    """A Python float on the left: n + t and n * t are t + n and t * n (the node lists t first),
    n - t is rsub (one input), n / t is t.reciprocal() * n; where lists (self, other), not its
    condition. Seen by node hooks and next_functions."""
    x = torch.tensor([0.5, 1.5], requires_grad=True)
    w = torch.tensor([2.0, 3.0], requires_grad=True)
    made = [1.11 + x, 1.11 - x, 2.0 * x, 2.0 / x, 2.0 ** x, x - 1.11, x / 2.0,
            torch.where(x > 1.0, x, 0.0), torch.where(x > 1.0, x, w), torch.where(x > 1.0, 1.0, w)]
    out = []
    for y in made:
        seen = []
        y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.append(list(grad_inputs)))
        y.sum().backward()
        out.append([y.grad_fn.name(), len(y.grad_fn.next_functions), seen, y])
    return out + [x.grad, w.grad]


@program
def a_pass_frees_copy_slices_even_when_it_fails_later(torch):
    """A setitem's CopySlices node holds its copy's function, which the pass frees: a pass that
    ran it and then failed (a version error below) leaves a freed graph; with retain_graph the
    second pass fails on the version again."""
    out = []
    for retain in (False, True):
        x = torch.tensor([[1.782, 0.805, 0.591], [1.393, 0.306, 1.688]], requires_grad=True)
        t = torch.tanh(x)
        t[0] = 0.701
        s = torch.stack([t, t], 1).sum()
        out += [attempt(lambda s=s, x=x: torch.autograd.grad([s], [x], retain_graph=retain))
                for _ in range(2)]
    y = torch.tensor([1.0, 2.0], requires_grad=True)
    z = y * 1.0
    z[0] = 5.0
    r = z.sum()
    r.backward()
    out.append(attempt(lambda: r.backward()))
    return out + [y.grad]


@program
def an_unpacked_saved_tensor_stands_where_the_saved_one_was(torch):
    """What a saved_tensors_hooks unpack returns is put in the saved tensor's place in the graph:
    with create_graph, derivatives through it reach the leaf as the saved tensor did."""
    x = torch.tensor([1.5, 2.0], dtype=torch.float64, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t * -1.0):
        y = torch.log(x)
        z = torch.exp(x * 1.0)
    (first,) = torch.autograd.grad(y.sum(), [x], create_graph=True)
    (second,) = torch.autograd.grad(first.sum(), [x], create_graph=True)
    (through_result,) = torch.autograd.grad(z.sum(), [x], create_graph=True)
    (again,) = torch.autograd.grad(through_result.sum(), [x])
    return [first, second, through_result, again]


@program
def inference_tensors_outside_inference_mode(torch):
    """An op whose tensor inputs are all inference tensors records nothing, outside
    inference_mode too (a Python number alongside is a normal tensor: that op records); one that
    saves an inference tensor next to a normal one is torch's error."""
    with torch.inference_mode():
        c = torch.tensor([1.0, 2.0], requires_grad=True)
        d = torch.tensor([1.0, 2.0])
    x = torch.tensor([3.0, 4.0], requires_grad=True)
    made = [lambda: c * c, lambda: c + c, lambda: torch.exp(c), lambda: c + x, lambda: c * x,
            lambda: d * x, lambda: d + x, lambda: c * 2.0]
    out = []
    for make in made:
        y = attempt(make)
        out.append(y)
    product = c * c
    return out + [product.is_inference(), attempt(lambda: product.sum().backward())]


@program
def a_write_to_a_selected_element_reaches_its_base(torch):
    """x[i] (and w[i, j]) is a 0-d view: a write to it under no_grad changes the base."""
    x = torch.tensor([0.962, 1.172, -1.58], requires_grad=True)
    v = x[-1]
    with torch.no_grad():
        v.add_(0.927)
    w = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    u = w[1, 0]
    u.mul_(10.0)
    return [x, v, w, u, v._version, x._version]


@program
def a_constant_written_to_an_expanded_tensor_reaches_its_source(torch):
    """zero_, fill_ and item writes on an expanded tensor write its source (through a slice
    too); other in-place ops on it are torch's overlap error."""
    x = torch.tensor([[1.372], [-1.343]], dtype=torch.float64, requires_grad=True)
    v = x.expand(2, 3)
    with torch.no_grad():
        v.zero_()
    y = torch.tensor([[1.0, 2.0, 3.0]])
    w = y[:, 1:].expand(2, 2)
    w.fill_(7.0)
    z = torch.tensor([1.0, 2.0])
    e = z.expand(3, 2)
    seen = [x, x._version, y, w, attempt(lambda: e.mul_(2.0)), z]
    # an item written through an expanded view reaches the source element all its aliases
    # share, and the view shows it at every alias
    for index, value in ((0, 0.375), ((1, 0), 5.0), ((0, slice(None), 1), [7.0, 8.0]),
                         (2, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), ((slice(None), 0), 1.0)):
        a = torch.tensor([[0.9, 1.2, 1.0], [-1.5, 1.2, 1.0]], requires_grad=True)
        view = a.unsqueeze(0).expand(3, 2, 3)
        with torch.no_grad():
            seen.append(attempt(lambda: view.__setitem__(index, torch.tensor(value))))
        seen += [a, view, a._version]
    return seen


@program
def functional_apis_in_strict_mode(torch):
    """strict: an output computed without the inputs is an error in every functional API;
    jacobian also refuses an output independent of one of the inputs. torch.autograd exposes
    functional as an attribute."""
    functional = torch.autograd.functional
    x = torch.tensor([0.5, -0.25], dtype=torch.float64)
    w = torch.tensor([1.0, 2.0], dtype=torch.float64)
    return [attempt(lambda: functional.jacobian(lambda a: w * 2.0, x, strict=True)),
            attempt(lambda: functional.jacobian(lambda a, b: a * 3.0, (x, w), strict=True)),
            attempt(lambda: functional.vjp(lambda a: w * 2.0, x, w, strict=True)),
            attempt(lambda: functional.hessian(lambda a: (w * 2.0).sum(), x, strict=True)),
            attempt(lambda: functional.jacobian(lambda a: a * 0.0 + w, x, strict=True)),
            attempt(lambda: functional.jacobian(lambda a: w * 2.0, x))]


@program
def a_custom_function_marks_its_input_dirty(torch):
    """ctx.mark_dirty: the input written in place is returned as the output, with the custom
    node as its history and its version bumped once more; a leaf that requires grad is refused,
    and so is a dirty input that is not returned. A graph that saved the input before fails.
    Marked non-differentiable too, the output is a detached alias and the input keeps its
    history."""
    def saved(ctx, x):
        ctx.save_for_backward(x)
        return x

    def non_differentiable(ctx, x):
        ctx.mark_non_differentiable(x)
        return x

    Triple = tripled_in_place(torch.autograd.Function, "Triple", saved)  # noqa: N806
    NotReturned = tripled_in_place(torch.autograd.Function, "NotReturned",  # noqa: N806
                                   lambda ctx, x: x.clone())
    Frozen = tripled_in_place(torch.autograd.Function, "Frozen", non_differentiable)  # noqa: N806

    def add_into(ctx, x, y):
        x.add_(y)
        ctx.mark_dirty(x)
        return x

    AddInto = custom(torch.autograd.Function, "AddInto", add_into,  # noqa: N806
                     lambda ctx, g: (g, g * 2))

    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a * 2
    before = b._version
    c = Triple.apply(b)
    seen = [c is b, before, b._version, b.grad_fn.name(), b.grad_fn.next_functions[0][0].name(),
            b.requires_grad, b.is_leaf]
    (c * c).sum().backward()
    seen.append(a.grad)
    seen.append(attempt(lambda: Triple.apply(torch.tensor([1.0], requires_grad=True))))
    seen.append(attempt(lambda: NotReturned.apply(a * 1)))
    plain = torch.tensor([1.0, 2.0])
    y = torch.tensor([3.0, 4.0], requires_grad=True)
    z = AddInto.apply(plain, y)
    seen += [z is plain, plain._version, z.requires_grad, z.is_leaf]
    z.sum().backward()
    seen.append(y.grad)
    with torch.no_grad():
        q = a * 1
        r = Triple.apply(q)
    seen += [r is q, r.grad_fn is None, q._version]
    kept = a * 1
    product = kept * kept
    Triple.apply(kept)
    seen.append(attempt(lambda: product.sum().backward()))
    h = a * 2
    frozen = Frozen.apply(h)
    seen += [frozen is h, frozen.requires_grad, h.grad_fn.name(), frozen._version, h._version]
    leaf = torch.tensor([1.0, 2.0], requires_grad=True)
    alias = Frozen.apply(leaf)
    seen += [alias is leaf, alias.requires_grad, leaf._version, leaf]
    return seen


def _two_output_function_and_inputs(torch):
    """``two_output_functions`` for torch, and two leaves to apply them to."""
    functions = two_output_functions(torch.autograd.Function, lambda ctx: ctx.saved_tensors,
                                     lambda x: (x > 0).to(x.dtype))
    return (*functions, torch.tensor([1.0, -2.0], requires_grad=True),
            torch.tensor([0.5, 3.0], requires_grad=True))


@program
def a_custom_function_with_two_outputs(torch):
    """A forward returning two tensors: both share the function's node (next_functions name
    its outputs 0 and 1), its backward is handed one gradient per output (zeros for an unused
    one, None without materialized gradients), a tensor hook and retain_grad act per output,
    double backward goes through a differentiable backward, a non-differentiable output
    requires no grad, and a second backward finds the graph freed."""
    Two, Split, handed, x, y = _two_output_function_and_inputs(torch)  # noqa: N806
    a, b = Two.apply(x, y)
    seen = []
    a.grad_fn.register_prehook(lambda gs: seen.append(list(gs)))
    p = a * b
    links = [(n.name(), i) for n, i in p.grad_fn.next_functions]
    gx, gy = torch.autograd.grad(p.sum(), (x, y), create_graph=True)
    (gx.sum() + gy.sum()).backward()
    result = [a.grad_fn is b.grad_fn, a.grad_fn.name(), links, gx, gy, seen, x.grad, y.grad,
              attempt(lambda: p.sum().backward())]
    s, positive = Split.apply(x)
    s.sum().backward()
    result += [positive.requires_grad, positive.grad_fn is None, handed, x.grad]
    a, b = Two.apply(x, y)
    a.register_hook(lambda g: g * 100)
    b.retain_grad()
    (a.sum() * 2 + b.sum()).backward()
    result += [x.grad, y.grad, b.grad]
    a, b = Two.apply(x, y)
    result.append(torch.autograd.grad(b.sum(), x))
    return result


@program
def exp_in_place_saves_what_it_wrote(torch):
    """exp_ saves its result, the tensor itself at the version the write gave it: a later
    write to it (another exp_, add_) fails the backward; writes before it do not."""
    seen = []
    for ops in (("exp",), ("exp", "exp"), ("exp", "add"), ("add", "exp")):
        x = torch.tensor([0.5, -1.0], requires_grad=True)
        h = x * 2
        for op in ops:
            h.exp_() if op == "exp" else h.add_(1.5)
        seen += [h._version, attempt(lambda: h.sum().backward()), x.grad]
    return seen


@program
def split_chunk_and_unbind_make_views_of_one_node(torch):
    """split (by size or by sizes), chunk and unbind: every piece is an output of one node
    (SplitBackward0, SplitWithSizesBackward0, UnbindBackward0), a view that may not be written
    in place; a piece no gradient reached gets zeros in the input's gradient, and its tensor
    hooks are handed None (a hook may not replace it)."""
    x = torch.arange(6.0, requires_grad=True)
    a, b = torch.split(x, 4)
    result = [a.grad_fn.name(), a.grad_fn is b.grad_fn, [(n.name(), i) for n, i in b.grad_fn.next_functions]]
    (a * b.sum()).sum().backward()
    result.append(x.grad)
    m = torch.arange(6.0, requires_grad=True).reshape(2, 3)
    result += [[t.shape for t in m.chunk(2, 1)], [t.shape for t in torch.chunk(m, 3, 0)],
               m.split([1, 2], 1)[0].grad_fn.name(), m.unbind(1)[2].grad_fn.name()]
    result.append(torch.autograd.grad(torch.unbind(m, 1)[2].sum() * 3, m))
    for bad in (lambda: m.split([2, 3], 1), lambda: m.split(0, 1), lambda: m.split(-1),
                lambda: m.split([4, -1], 1), lambda: m.chunk(0), lambda: m.unbind(2)):
        result.append(attempt(bad))
    s = torch.arange(6.0, requires_grad=True) * 1
    p1, p2 = s.split(3)
    result += [attempt(lambda: p2.mul_(2)), attempt(lambda: s.unbind()[1].add_(1)),
               attempt(lambda: s.split([1, 5])[1].add_(1))]
    seen = []
    p1.retain_grad()
    p2.retain_grad()
    p2.register_hook(lambda g: seen.append(g))
    (p1 * 2).sum().backward(retain_graph=True)
    result += [p1.grad, p2.grad, list(seen)]
    p2.register_hook(lambda g: torch.ones(3) if g is None else g)
    result.append(attempt(lambda: p1.sum().backward()))
    return result


@program
def an_unused_output_of_a_custom_function_hands_its_hooks_none(torch):
    """A custom function's output no gradient reached: its tensor hooks are handed None as the
    function's node runs, and its retained gradient stays None."""
    Two, _, _, x, y = _two_output_function_and_inputs(torch)  # noqa: N806
    a, b = Two.apply(x, y)
    seen = []
    b.register_hook(lambda g: seen.append(g))
    b.retain_grad()
    a.sum().backward()
    return [seen, b.grad, x.grad, y.grad]


@program
def prod_gradients_are_exact_at_zeros(torch):
    """prod's gradient is the product of the other elements, exact where an element is zero;
    without zeros it is ``g * (result / x)``; the second derivative at a zero is exact too."""
    result = []
    for values in ([2.0, 3.0, 4.0], [2.0, 0.0, 4.0], [0.0, 0.0, 4.0]):
        x = torch.tensor(values, requires_grad=True)
        y = x.prod()
        y.backward()
        result += [y.grad_fn.name(), x.grad]
    m = torch.tensor([[2.0, 0.0], [3.0, 4.0]], requires_grad=True)
    for f in (lambda t: t.prod(1), lambda t: torch.prod(t, 0, keepdim=True), lambda t: t.prod()):
        r = f(m)
        result += [r.grad_fn.name(), torch.autograd.grad(r.sum(), m)]
    for values in ([2.0, 3.0, 4.0], [2.0, 0.0, 4.0], [0.0, 0.0, 4.0, -1.5]):
        z = torch.tensor(values, dtype=torch.float64, requires_grad=True)
        g, = torch.autograd.grad(z.prod(), z, create_graph=True)
        h, = torch.autograd.grad((g * g).sum(), z, create_graph=True)
        result += [g.grad_fn.name(), h, torch.autograd.grad(h.sum(), z)]
    m = torch.tensor([[0.0, 2.0, -1.0], [1.5, 0.0, 0.0]], dtype=torch.float64, requires_grad=True)
    g, = torch.autograd.grad(m.prod(1).sum(), m, create_graph=True)
    h, = torch.autograd.grad((g * m).sum(), m, create_graph=True)
    return result + [g, h, torch.autograd.grad(h.sum(), m)]


@program
def an_expanded_tensor_shows_later_writes_to_its_source(torch):
    """expand is a view: a write to its source after it was made (under no_grad, or through a
    row of the expanded tensor, whose elements are distinct) shows in it, and a product computed
    from it afterwards uses the new values."""
    x = torch.tensor([[1.5], [-2.0], [0.5]], dtype=torch.float64, requires_grad=True)
    v = x.transpose(0, 1).expand(3, 3)
    with torch.no_grad():
        x.mul_(2.0)
    w = torch.tensor([[0.5, 1.0, -1.0], [2.0, 0.5, 1.0], [1.0, -1.0, 0.25]], dtype=torch.float64,
                     requires_grad=True)
    torch.mm(v, w).sum().backward()
    seen = [v, w.grad, x.grad]
    y = torch.tensor([1.0, 2.0, 3.0])
    e = y.expand(2, 3)
    with torch.no_grad():
        e[1].mul_(3.0)
    return seen + [y, e, attempt(lambda: e[:, 0].mul_(2.0))]


@program
def equal_compares_shape_and_values(torch):
    """Tensor.equal / torch.equal: one bool for shape and values (dtypes may differ); anything
    but a tensor is a TypeError naming the argument."""
    a, b = torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0], dtype=torch.float64)
    return [a.equal(b), torch.equal(a, torch.tensor([1.0, 2.0, 3.0])), a.equal(a * 1),
            torch.equal(a, torch.tensor([1, 2])), attempt(lambda: a.equal(None)),
            attempt(lambda: a.equal(3)), attempt(lambda: torch.equal(a, None)),
            attempt(lambda: torch.equal(None, a)),
            torch.linspace(0.0, 1.0, 5).equal(torch.tensor([0.0, 0.25, 0.5, 0.75, 1.0])),
            torch.linspace(-1.0, 2.0, 4, dtype=torch.float64, requires_grad=True)]


@program
def a_matrix_product_of_two_dtypes_is_refused(torch):
    """matmul, mm, mv, dot and bmm refuse operands of different dtypes, with the message of the
    kernel the form runs (dot's before its sizes are checked, the others' after)."""
    def ones(*shape, dtype=torch.float32):
        return torch.ones(*shape, dtype=dtype)
    f64, i64 = torch.float64, torch.int64
    return [attempt(fn) for fn in (
        lambda: torch.mm(ones(2, 3), ones(3, 2, dtype=f64)),
        lambda: ones(3) @ ones(3, 2, dtype=f64),
        lambda: torch.matmul(ones(2, 3, dtype=f64), ones(3)),
        lambda: torch.mv(ones(2, 3), ones(3, dtype=f64)),
        lambda: torch.dot(ones(3, dtype=f64), ones(2)),
        lambda: torch.matmul(ones(3), ones(2, 3, 2, dtype=f64)),
        lambda: torch.matmul(ones(2, 2, 3), ones(3, dtype=f64)),
        lambda: torch.matmul(ones(2, 2, 3, dtype=f64), ones(3, 2)),
        lambda: torch.matmul(ones(2, 1, 2, 3), ones(3, 3, 2, dtype=f64)),
        lambda: torch.bmm(ones(1, 2, 3, dtype=f64), ones(1, 3, 2)),
        lambda: torch.mm(ones(2, 3, dtype=i64), ones(3, 2)),
        lambda: torch.mm(ones(2, 3), ones(2, 2, dtype=f64)),
        lambda: torch.matmul(ones(2, 3, dtype=i64), ones(3, dtype=i64)))]


# elementwise functions in both facades beyond the case vocabulary's
MORE_ELEMENTWISE = ("tan", "sinh", "cosh", "atan", "asin", "acos", "log1p", "expm1", "log2", "log10",
                    "reciprocal", "rsqrt", "erf")


@program
def more_elementwise_functions(torch):
    """tan, sinh, cosh, atan, asin, acos, log1p, expm1, log2, log10, reciprocal, rsqrt and erf:
    values, gradients, second derivatives and their node, and which tensor each saves (an
    in-place write to its input or to its output afterwards fails the backward or not)."""
    seen = []
    for name in MORE_ELEMENTWISE:
        x = torch.tensor([0.3, 0.6], dtype=torch.float64, requires_grad=True)
        y = getattr(torch, name)(x)
        g, = torch.autograd.grad(y.sum(), x, create_graph=True)
        seen += [name, y, y.grad_fn.name(), g, g.grad_fn.name(), torch.autograd.grad(g.sum(), x)]
        seen += backward_after_writing(x, lambda t: getattr(t, name)(), torch.no_grad,
                                       lambda t: t.mul_(1.0))
    return seen


@program
def add_and_sub_with_alpha(torch):
    """add / sub with alpha are one node (AddBackward0, SubBackward0) whose second operand's
    gradient is scaled; in place too, as a hand-written SGD step writes it; a float alpha on
    integer tensors is refused."""
    x = torch.tensor([1.0, -2.0], requires_grad=True)
    y = torch.tensor([0.5, 3.0], requires_grad=True)
    z = torch.add(x, y * y, alpha=3) + x.sub(y, alpha=0.5) + torch.sub(x, 2.0, alpha=2)
    gx, gy = torch.autograd.grad(z.sum(), (x, y), create_graph=True)
    seen = [z, z.grad_fn.name(), [n.name() for n, _ in z.grad_fn.next_functions], gx, gy,
            torch.autograd.grad(gy.sum(), y)]
    h = x * 1
    h.add_(y, alpha=-0.1)
    h.sub_(y, alpha=2)
    h.sum().backward()
    seen += [h, h.grad_fn.name(), x.grad, y.grad]
    with torch.no_grad():
        x.add_(x.grad, alpha=-0.1)
    x.data.add_(y.data, alpha=0.5)
    seen += [x, attempt(lambda: torch.add(torch.tensor([1, 2]), torch.tensor([3, 4]), alpha=0.5)),
             torch.add(torch.tensor([1, 2]), torch.tensor([3, 4]), alpha=2)]
    return seen


@program
def gradcheck_and_gradgradcheck(torch):
    """gradcheck / gradgradcheck: True for correct derivatives (ops, a custom function), the
    Jacobian mismatch error with both Jacobians (or False without raising) for a wrong backward,
    the float32 warning, and the error when no input requires grad; inputs keep their version."""
    x = torch.tensor([0.3, 0.6], dtype=torch.float64, requires_grad=True)
    y = torch.tensor([1.5, -0.5], dtype=torch.float64, requires_grad=True)
    m = torch.tensor([[0.3, 0.6, 0.1], [1.2, -0.4, 0.8]], dtype=torch.float64, requires_grad=True)
    n = (m * 2).detach().requires_grad_()
    def saving(ctx, a, result):
        ctx.save_for_backward(a)
        return result
    # a wrong backward (half the derivative of a * a) and a right one (of exp)
    square = custom(torch.autograd.Function, "HalfSquare", lambda ctx, a: saving(ctx, a, a * a),
                    lambda ctx, g: g * ctx.saved_tensors[0])
    exp = custom(torch.autograd.Function, "Exp", lambda ctx, a: saving(ctx, a, a.exp()),
                 lambda ctx, g: g * ctx.saved_tensors[0].exp())
    check, twice = torch.autograd.gradcheck, torch.autograd.gradgradcheck
    return [check(lambda a, b: (a * b).sin(), (x, y)), twice(lambda a, b: (a * b).sin(), (x, y)),
            check(lambda a, b: torch.matmul(a, b.t()).exp().sum(1), (m, n)),
            attempt(lambda: check(lambda a, b: torch.matmul(a, b.t()).exp().sum(1), (m, m * 2))),
            twice(lambda a: (a * a).prod(1), (m,)), check(exp.apply, (x,)), twice(exp.apply, (x,)),
            attempt(lambda: check(square.apply, (x,))), check(square.apply, (x,), raise_exception=False),
            attempt(lambda: check(lambda t: t * 2, torch.tensor([0.3, 0.6], requires_grad=True))),
            attempt(lambda: check(lambda t: t * 2, (torch.ones(2, dtype=torch.float64),))),
            check(lambda t: (t * 2, t.detach()), x), x._version]


@program
def leaky_relu_and_its_double_backward(torch):
    """leaky_relu: the slope side's gradient (0 counts as negative), the gradient's node
    (LeakyReluBackwardBackward0, linked to the input with a zero derivative)."""
    x = torch.tensor([-0.7, 0.0, 1.2], dtype=torch.float64, requires_grad=True)
    y = torch.nn.functional.leaky_relu(x, 0.1)
    g, = torch.autograd.grad(y.sum(), x, create_graph=True)
    return [y, y.grad_fn.name(), g, g.grad_fn.name(), [n.name() for n, _ in g.grad_fn.next_functions if n],
            torch.autograd.grad(g.sum(), x), torch.nn.functional.leaky_relu(x).sum()]


@program
def softplus_elu_gelu_and_silu(torch):
    """softplus (beta, threshold), elu (alpha), gelu (exact, tanh) and silu: values, gradients,
    the gradient's node when recorded (one fused node each, silu's composed) and second
    derivatives; each saves its input."""
    functional = torch.nn.functional
    seen = []
    for name, fn in (("softplus", lambda t: functional.softplus(t, beta=2.0, threshold=1.0)),
                     ("elu", lambda t: functional.elu(t, 0.5)), ("gelu", functional.gelu),
                     ("gelu_tanh", lambda t: functional.gelu(t, approximate="tanh")),
                     ("silu", functional.silu)):
        x = torch.tensor([0.5, -1.2, 0.0, 0.8], dtype=torch.float64, requires_grad=True)
        y = fn(x)
        g, = torch.autograd.grad(y.sum(), x, create_graph=True)
        seen += [name, y, y.grad_fn.name(), g, g.grad_fn.name(), torch.autograd.grad(g.sum(), x)]
        seen += backward_after_writing(x, fn, torch.no_grad, lambda t: t.mul_(1.0))
    return seen


@program
def a_nan_gradient_through_relu_abs_and_maximum(torch):
    """torch's relu (threshold_backward) and maximum select the gradient, so a nan gradient
    becomes 0 where they pass none; abs's gradient is ``grad * sgn(x)``: nan at 0 too."""
    x = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)
    nan = float("nan")
    return [torch.autograd.grad((fn(x) * nan).sum(), x) for fn in (
        torch.relu, torch.abs, lambda t: torch.maximum(t, torch.zeros(3)),
        lambda t: torch.minimum(t, torch.zeros(3)), lambda t: torch.clamp(t, -0.5, 1.0))]


@program
def prod_along_one_element_at_a_zero(torch):
    """prod along a dimension of one element, with a zero: the gradient's factor is the empty
    product, ones no input reaches, so a first create_graph gradient requires no grad."""
    x = torch.tensor([[0.0, 1.5], [-2.0, 0.0]], requires_grad=True)
    g, = torch.autograd.grad(x.unsqueeze(2).prod(2, keepdim=True).sum(), x, create_graph=True)
    return [g, torch.tensor([0.0], requires_grad=True).prod()]


@program
def an_undefined_gradient_reaching_a_split(torch):
    """Only an undefined gradient (a custom function's None) reaches the pieces of a split: the
    split passes it on undefined, and every piece's hooks, the unreached one's too, see None."""
    nothing = custom(torch.autograd.Function, "Nothing", lambda ctx, a: a * 3.0, lambda ctx, g: None)
    x = torch.tensor([[1.0, -2.0, 0.5]], requires_grad=True)
    seen = []
    h = x * 1
    h.register_hook(lambda g: seen.append(("h", g)))
    a, b = torch.split(h, [2, 1], dim=1)
    a.register_hook(lambda g: seen.append(("a", g)))
    b.register_hook(lambda g: seen.append(("b", g)))
    nothing.apply(b * 2.0).sum().backward()
    return [seen, x.grad]


@program
def the_hooks_of_a_split_run_in_registration_order(torch):
    """The tensor hooks on the pieces of a split (and the outputs of a custom function with two)
    run together as the node runs, in the order they were registered, each handed its piece's
    gradient or None."""
    seen = []
    x = torch.tensor([[1.0, -2.0, 0.5]], requires_grad=True)
    a, b, c = torch.split(x * 1, 1, dim=1)
    c.register_hook(lambda g: seen.append(("c", g)))
    a.register_hook(lambda g: seen.append(("a", g)))
    b.register_hook(lambda g: seen.append(("b", g)))
    (b * 2.0 + c).sum().backward()
    Two, _, _, x, y = _two_output_function_and_inputs(torch)  # noqa: N806
    p, q = Two.apply(x, y)
    q.register_hook(lambda g: seen.append(("q", g)))
    p.register_hook(lambda g: seen.append(("p", g)))
    (p * 3.0).sum().backward()
    # one piece an input of backward: its node runs, and the other pieces' hooks see None
    u, v = torch.split(torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True).sqrt(), 2, dim=1)
    v.register_hook(lambda g: seen.append(("v", g)))
    (u * 2.0).sum().backward(inputs=[u])
    return seen + [u.grad, v.grad]


@program
def jvp_with_create_graph(torch):
    """jvp with create_graph: the product J·v keeps its graph (MulBackward0; a scalar
    output's is SumBackward0, torch's sum_to of a 0-d gradient), so it differentiates again;
    at inputs that require no grad it needs none."""
    seen = []
    for fn in (lambda t: (t * t).sin(), lambda t: t.exp().sum(), lambda t: t * 3.0,
               lambda t: (t.sin(), t * t)):
        x = torch.tensor([0.5, 1.5], dtype=torch.float64, requires_grad=True)
        v = torch.tensor([1.0, -1.0], dtype=torch.float64)
        _, jv = torch.autograd.functional.jvp(fn, x, v, create_graph=True)
        products = jv if isinstance(jv, tuple) else (jv,)
        seen += [[(p, p.grad_fn.name() if p.grad_fn else None) for p in products],
                 attempt(lambda: torch.autograd.grad(sum(p.sum() for p in products), x))]
        _, jv = torch.autograd.functional.jvp(fn, torch.tensor([0.5, 1.5], dtype=torch.float64), v,
                                              create_graph=True)
        products = jv if isinstance(jv, tuple) else (jv,)
        seen.append([p.grad_fn.name() if p.grad_fn else None for p in products])
    return seen


@program
def clipping_gradients_in_place(torch):
    """nn.utils.clip_grad_norm_ scales every gradient in place (by a factor clamped to 1, so
    each call grows its version) and returns the total norm before clipping, of order 2, 1 or
    inf; a non-finite norm is an error on request. clip_grad_value_ clamps them."""
    w = torch.tensor([[3.0, 4.0]], requires_grad=True)
    b = torch.tensor([12.0], requires_grad=True)
    (w.sum() * 1 + b.sum()).backward()
    with torch.no_grad():
        w.grad.mul_(torch.tensor([[3.0, 4.0]]))
    start = w.grad._version
    clip = torch.nn.utils.clip_grad_norm_
    seen = [clip([w, b], 1.0), w.grad, b.grad, w.grad._version - start, clip([w, b], 100.0),
            w.grad._version - start, clip(w, 1.0, norm_type=1.0), w.grad,
            clip([w, b], 0.5, norm_type=float("inf")), b.grad,
            clip([torch.zeros(2, requires_grad=True)], 1.0), clip([], 1.0)]
    x = torch.tensor([1.0], requires_grad=True)
    x.grad = torch.tensor([float("inf")])
    seen.append(attempt(lambda: clip([x], 1.0, error_if_nonfinite=True)))
    torch.nn.utils.clip_grad_value_([w, b], 0.25)
    return seen + [w.grad, b.grad]


@program
def norms_of_other_orders(torch):
    """norm with p = 1, 3, inf, 0.5, -inf, 1.5 (whole and along a dim): LinalgVectorNormBackward0,
    its gradient (0 at zeros for p < 1, shared among ties for inf) and second derivative node."""
    seen = []
    for p in (1, 3, float("inf"), 0.5, float("-inf"), 1.5):
        x = torch.tensor([[3.0, -4.0, 0.0], [1.0, 2.0, -2.0]], requires_grad=True)
        y = x.norm(p=p)
        g, = torch.autograd.grad(y, x, create_graph=True)
        seen += [y, y.grad_fn.name(), g, g.grad_fn.name(),
                 torch.autograd.grad(torch.norm(x, p, dim=1, keepdim=True).sum(), x)]
    return seen


@program
def a_linear_layer_with_a_bias_is_one_addmm(torch):
    """nn.Linear / functional.linear with a bias record one AddmmBackward0 (bias, input, the
    weight's transpose); a vector or a batch is viewed as a matrix first and the result viewed
    back (ViewBackward0); without a bias, MmBackward0."""
    seen = []
    for x in (torch.ones(4, 3), torch.ones(3), torch.ones(2, 4, 3), torch.ones(4, 3, requires_grad=True)):
        layer = torch.nn.Linear(3, 2)
        with torch.no_grad():
            layer.weight.copy_(torch.tensor([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]]))
            layer.bias.copy_(torch.tensor([0.7, -0.8]))
        y = layer(x)
        y.sum().backward()
        seen += [y, y.grad_fn.name(), [n.name() if n else None for n, _ in y.grad_fn.next_functions],
                 layer.weight.grad, layer.bias.grad, x.grad]
    w = torch.tensor([[0.1, -0.2, 0.3]], requires_grad=True)
    linear = torch.nn.functional.linear
    return seen + [linear(torch.ones(2, 3), w).grad_fn.name(),
                   linear(torch.ones(2, 3), w, torch.ones(1)).grad_fn.name()]


@program
def the_nodes_of_gradients_a_recording_pass_computes(torch):
    """The node each first-order gradient comes from when the pass records: tanh's, sigmoid's,
    softmax's and log_softmax's fused backward nodes, mean's division by the count
    (DivBackward1), a quotient's divisor gradient (MulBackward0), squeeze's unsqueeze and
    unsqueeze's squeeze; and their second derivatives."""
    forms = (lambda t: t.tanh(), lambda t: t.sigmoid(), lambda t: t.mean(), lambda t: t.mean(0),
             lambda t: t.unsqueeze(1), lambda t: t.unsqueeze(0).squeeze(0),
             lambda t: t.unsqueeze(2).squeeze(), lambda t: t / (t + 2.0), lambda t: t.softmax(1),
             lambda t: t.log_softmax(0))
    seen = []
    for fn in forms:
        x = torch.tensor([[0.5, 1.2, 0.8], [1.5, 0.3, 0.9]], dtype=torch.float64, requires_grad=True)
        out = fn(x)
        seed = torch.ones_like(out).requires_grad_(True)
        g, = torch.autograd.grad(out, x, seed, create_graph=True)
        seen += [g.grad_fn.name(), [n.name() if n else None for n, _ in g.grad_fn.next_functions],
                 torch.autograd.grad(g.sum(), (x, seed), allow_unused=True)]
    return seen


@program
def masked_fill_is_one_node(torch):
    """masked_fill with a number records MaskedFillBackward0 (the tensor its only input); its
    gradient is masked_fill again; with a tensor value MaskedFillBackward1."""
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.masked_fill(x > 1.5, 0.5)
    g, = torch.autograd.grad(y, x, torch.ones(3, requires_grad=True), create_graph=True)
    return [y, y.grad_fn.name(), [n.name() if n else None for n, _ in y.grad_fn.next_functions],
            g, g.grad_fn.name(), torch.masked_fill(x, x < 1.5, -1.0)]


@program
def a_loss_function_is_one_node(torch):
    """mse_loss, nll_loss (cross_entropy's last node), binary_cross_entropy and its logits form:
    one node each (MseLossBackward0, NllLossBackward0, ...) listing input and target (nll: the
    input), their values and gradients for every reduction, and second derivatives."""
    functional = torch.nn.functional
    seen = []
    for reduction in ("mean", "sum", "none"):
        x = torch.tensor([[0.5, -1.2, 0.8], [1.5, 0.3, -0.9]], dtype=torch.float64, requires_grad=True)
        y = torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 0.5]], dtype=torch.float64, requires_grad=True)
        classes = torch.tensor([0, 2])
        for loss in (functional.mse_loss(x, y, reduction=reduction),
                     functional.cross_entropy(x, classes, reduction=reduction),
                     functional.nll_loss(x, classes, reduction=reduction),
                     functional.binary_cross_entropy(x.sigmoid(), y, reduction=reduction),
                     functional.binary_cross_entropy_with_logits(x, y, reduction=reduction)):
            g = torch.autograd.grad(loss.sum(), (x, y), create_graph=True, allow_unused=True)
            links = [n.name() if n else None for n, _ in loss.grad_fn.next_functions]
            seen += [loss, loss.grad_fn.name(), links, g,
                     torch.autograd.grad(g[0].sum(), x, allow_unused=True)]
    return seen


@program
def var_and_std_are_one_node(torch):
    """var and std record one node (VarBackward0, StdBackward0) over every dim or some, with a
    correction; std's gradient is 0 where the std is 0; second derivatives."""
    seen = []
    for fn in (lambda t: t.var(), lambda t: t.std(), lambda t: t.var(1, keepdim=True),
               lambda t: torch.std(t, 0, correction=0), lambda t: t.var(unbiased=False)):
        x = torch.tensor([[0.5, 1.2, 0.8], [1.5, 0.3, 0.9]], dtype=torch.float64, requires_grad=True)
        out = fn(x)
        g, = torch.autograd.grad(out.sum(), x, create_graph=True)
        seen += [out, out.grad_fn.name(), g, torch.autograd.grad(g.sum(), x)]
    flat = torch.tensor([2.0, 2.0], requires_grad=True)
    return seen + [torch.autograd.grad(flat.std(), flat)]


@program
def contiguous_copies_a_tensor_out_of_order(torch):
    """contiguous() returns the tensor itself when its memory is in order, otherwise a copy
    (CloneBackward0): a transpose, an expansion, a column."""
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    y = x * 1
    copies = [y.t().contiguous(), y[0:1].expand(2, 3).contiguous(), y[:, 1].contiguous(), y[0].contiguous()]
    return [y.contiguous() is y, [c.grad_fn.name() for c in copies],
            [t.is_contiguous() for t in (y, y.t(), copies[0], y[:, 1], y[0])]]


@program
def a_basic_index_names_its_last_step(torch):
    """Basic indexing applies one step per component (None an unsqueeze, an integer a select, a
    slice a slice; ``...`` and, in a tuple, ``:`` are skipped): the last step names the node,
    an alias when none applies; a write through such a view names it in the version error."""
    x = torch.tensor([[0.5, 1.2, 0.8], [1.5, 0.3, 0.9]], requires_grad=True)
    h = x * 1
    views = [h[None], h[:, None], h[..., 1], h[...], h[:], h[:, 1], h[1, :2], h[:2, 1], h[1:, None],
             h[None, 1], h[:, :], h[..., None], h[::2]]
    seen = [v.grad_fn.name() for v in views]
    e = h.exp()
    w = e[:, None]
    with torch.no_grad():
        w.mul_(2.0)
    return seen + [attempt(lambda: e.sum().backward())]


@program
def gather_and_its_gradient(torch):
    """gather records GatherBackward0; its gradient adds into zeros at the gathered places
    (repeats add up; ScatterAddBackward0 when recording), whose own gradient gathers again."""
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    index = torch.tensor([[0, 2], [1, 1]])
    y = torch.gather(x, 1, index)
    seed = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    g, = torch.autograd.grad(y, x, seed, create_graph=True)
    return [y, y.grad_fn.name(), [n.name() if n else None for n, _ in y.grad_fn.next_functions], g,
            g.grad_fn.name(), torch.autograd.grad(g.sum(), seed), x.gather(0, torch.tensor([[1, 0, 1]]))]


@program
def functions_composed_from_the_core(torch):
    """flip, roll, tril/triu, diag both ways, diagonal, trace, outer, logsumexp, narrow, select,
    lerp, hypot, logaddexp, broadcast_to, topk, sort, l1_loss and normalize: values, node names
    and the gradients of a weighted sum of all of them; isnan / any / all."""
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, -6.0]], requires_grad=True)
    v = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    w = torch.tensor(0.25, requires_grad=True)
    nnf = torch.nn.functional
    outs = [x.flip(0), torch.flip(x, [0, 1]), x.flip(1, 0), torch.roll(x, 1),
            torch.roll(x, [1, -1], [0, 1]), torch.tril(x), x.triu(1), torch.tril(x, -1),
            torch.diag(v), torch.diag(v, 1), torch.diag(v, -2), torch.diag(x), torch.diag(x, 1),
            torch.diagonal(x), x.diagonal(-1), torch.trace(x), torch.outer(v, v),
            torch.logsumexp(x, 1), torch.logsumexp(x, (0, 1), keepdim=True), x.narrow(1, 1, 2),
            x.narrow(0, -1, 1), x.select(1, -1), torch.lerp(x, x * 2, 0.3),
            torch.lerp(x, x.exp(), w), torch.hypot(x, x * 3), torch.logaddexp(x, x * 0.5),
            torch.broadcast_to(v, (2, 3)), torch.topk(x, 2).values,
            torch.topk(x, 2, dim=0, largest=False).values, torch.sort(x, descending=True).values,
            x.sort(dim=0).values, nnf.l1_loss(x, x * 2), nnf.l1_loss(x, v, reduction="sum"),
            nnf.normalize(x), nnf.normalize(x, p=1.0, dim=0)]
    sum(((o * (i + 1)).sum() for i, o in enumerate(outs)), torch.tensor(0.0)).backward()
    return ([o.detach() for o in outs] + [o.grad_fn.name() for o in outs]
            + [x.grad, v.grad, w.grad, torch.topk(x, 2).indices, torch.sort(x, 0, True).indices,
               torch.isnan(x), torch.isinf(x / 0), torch.isfinite(x), torch.any(x > 4),
               x.all(), attempt(lambda: x.narrow(1, 2, 2)), attempt(lambda: torch.topk(x, 4)),
               attempt(lambda: torch.roll(x, [1, 2], [0])),
               attempt(lambda: torch.diag(torch.ones(2, 2, 2)))])


@program
def composed_functions_show_the_framework_node(torch):
    """index_select, cumsum, repeat and bmm are composed from the core's operations; the node a
    program sees has torch's name. flatten over one dimension returns the tensor itself."""
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    b = torch.tensor([[[1.0, 2.0], [3.0, 4.0]]], requires_grad=True)
    v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    made = [x.index_select(1, torch.tensor([2, 0])), x.cumsum(1), v.cumsum(0), x.repeat(2, 1),
            v.repeat(1), torch.bmm(b, b), x.flatten(), x.flatten(1, 1), v.flatten()]
    return [[t.grad_fn.name() if t.grad_fn is not None else None, t.detach()] for t in made] + [
        x.flatten(1, -1) is x, v.flatten() is v, attempt(lambda: x.flatten(5, 5))]



@program
def activation_loss_and_container_modules(torch):
    """nn's activation modules with their settings, its loss modules (the functional's nodes),
    Identity, Flatten and ModuleList: values, node names, gradients, parameter names."""
    nn = torch.nn
    x = torch.tensor([[0.5, -1.5, 2.0], [-0.25, 1.0, -3.0]], requires_grad=True)
    target = torch.tensor([[0.2, 0.8, 0.0], [1.0, 0.0, 0.5]])
    modules = [nn.ReLU(), nn.LeakyReLU(0.2), nn.ELU(alpha=0.5), nn.GELU(), nn.SiLU(),
               nn.Softplus(beta=2.0), nn.Softmax(dim=1), nn.LogSoftmax(dim=0), nn.Tanh(),
               nn.Sigmoid(), nn.Identity(7, scale=2)]
    outs = [m(x) for m in modules]
    losses = [nn.MSELoss()(x, target), nn.L1Loss(reduction="sum")(x, target),
              nn.BCEWithLogitsLoss()(x, target), nn.BCELoss()(torch.sigmoid(x), target),
              nn.NLLLoss()(torch.log_softmax(x, 1), torch.tensor([2, 0])),
              nn.CrossEntropyLoss(reduction="none")(x, torch.tensor([1, 2]))]
    sum(((o * (i + 1)).sum() for i, o in enumerate(outs + losses)), torch.tensor(0.0)).backward()
    stack = nn.ModuleList([nn.Linear(3, 2), nn.ReLU()])
    stack.append(nn.Linear(2, 1))
    cube = torch.ones(2, 3, 4)
    return ([o.detach() for o in outs + losses] + [o.grad_fn.name() for o in outs[:-1] + losses]
            + [x.grad, nn.Identity()(x) is x, len(stack), [n for n, _ in stack.named_parameters()],
               nn.Flatten()(cube).shape, nn.Flatten(0, 1)(cube).shape, nn.Flatten()(x) is x])


@program
def more_in_place_methods(torch):
    """abs_, neg_, log_, sqrt_, sin_, cos_, tanh_, sigmoid_, relu_, pow_ and masked_fill_: node,
    version and gradient, and whether writing into the result afterwards fails the backward
    (the functions that save their result); clamp_min / clamp_max, view_as, reshape_as,
    maximum / minimum as methods. PowBackward1 saves its result when only the base needs a
    gradient too."""
    seen = []
    for name in ("abs_", "neg_", "log_", "sqrt_", "sin_", "cos_", "tanh_", "sigmoid_", "relu_"):
        x = torch.tensor([0.5, -1.5, 2.0], requires_grad=True)
        y = x.abs() + 0.5
        r = getattr(y, name)()
        seen += [r is y, y.grad_fn.name(), y._version, y.detach()]
        y.sum().backward()
        seen.append(x.grad)
        x2 = torch.tensor([0.5, -1.5, 2.0], requires_grad=True)
        z = getattr(x2.abs() + 0.5, name)()
        w = z * 2
        z.add_(1)
        seen.append(attempt(lambda: (w.sum().backward(), x2.grad)[1]))
    x = torch.tensor([0.5, -1.5, 2.0], requires_grad=True)
    y = x * 1.0
    y.pow_(2)
    seen += [y.grad_fn.name(), y._version]
    y.pow_(torch.tensor(2.0))
    seen.append(y.grad_fn.name())
    y.masked_fill_(x > 0, 0.5)
    seen += [y.grad_fn.name(), y._version, attempt(lambda: y.sum().backward())]
    base = torch.tensor([0.5, 1.5, 2.0], requires_grad=True)
    powered = base.pow(torch.tensor([2.0, 1.0, 3.0]))
    powered.add_(1)
    seen.append(attempt(lambda: powered.sum().backward()))
    for r in (x.clamp_min(0.0), x.clamp_max(1.0), x.view_as(torch.ones(3, 1)),
              x.reshape_as(torch.ones(1, 3)), x.maximum(x * 2), x.minimum(x * 2)):
        seen += [r.grad_fn.name(), r.detach()]
    return seen


@program
def mixed_second_derivatives_through_activation_backward_nodes(torch):
    """d/dw of the gradient of sum(act(x) * w) with respect to x: the derivative of each
    activation's backward node with respect to the gradient it was handed (act'(x) * v)."""
    nnf = torch.nn.functional
    activations = {"relu": nnf.relu, "leaky_relu": lambda t: nnf.leaky_relu(t, 0.2),
                   "elu": lambda t: nnf.elu(t, 0.7), "gelu": nnf.gelu, "silu": nnf.silu,
                   "softplus": lambda t: nnf.softplus(t, 2.0), "sigmoid": torch.sigmoid,
                   "tanh": torch.tanh, "softmax": lambda t: torch.softmax(t, 1),
                   "log_softmax": lambda t: torch.log_softmax(t, 1)}
    seen = []
    for name, act in activations.items():
        x = torch.tensor([[0.5, -1.5, 2.0], [-0.3, 0.8, -2.2]], requires_grad=True)
        w = torch.tensor([[1.5, -0.5, 2.0], [0.25, 1.0, -1.0]], requires_grad=True)
        v = torch.tensor([[1.0, 2.0, -1.0], [0.5, -0.5, 3.0]])
        gx, = torch.autograd.grad((act(x) * w).sum(), x, create_graph=True)
        gw, = torch.autograd.grad((gx * v).sum(), w)
        seen += [name, gx.detach(), gw]
    return seen


@program
def split_pieces_after_their_base_is_written(torch):
    """split / chunk / unbind pieces are views sharing their input's version counter: once the
    input (or a piece) is written in place, even without recording, using a piece or reading
    its grad_fn fails, as torch cannot rebuild the history of one of several views."""
    seen = []
    for make in (lambda t: t.split(2), lambda t: t.chunk(2), lambda t: t.reshape(2, 2).unbind(),
                 lambda t: t.split([1, 3])):
        x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
        y = x * 1.0
        first, second = make(y)
        seen += [first._version, first.grad_fn.name()]
        with torch.no_grad():
            y.add_(1.0)
        seen += [first._version, first.detach(), attempt(lambda: first.grad_fn),
                 attempt(lambda: first * second)]
        with torch.no_grad():
            seen.append(first * second)  # without recording nothing is rebuilt
    x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    first, second = (x * 1.0).split(2)
    with torch.no_grad():
        first.mul_(3.0)
    seen.append(attempt(lambda: (second * 2.0).sum()))
    kept = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    y = kept * 1.0
    first, second = y.split(2)
    product = first * second
    with torch.no_grad():
        y.add_(1.0)
    seen.append(attempt(lambda: product.sum().backward()))
    # where keeps a Python number a double; hooks run with recording as the pass does
    cond = torch.tensor([True, False])
    seen.append(torch.where(cond, 16777217.0, torch.tensor([0.5, 0.25], dtype=torch.float64)))
    modes = []
    z = x * 2
    z.register_hook(lambda g: modes.append(torch.is_grad_enabled()))
    z.sum().backward()
    w = x * 3
    w.register_hook(lambda g: modes.append(torch.is_grad_enabled()))
    torch.autograd.grad(w.sum(), x, create_graph=True)
    # an identity rule (clone) hands on the very gradient it was handed
    handed = []
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a.clone()
    b.register_hook(lambda g: handed.append(g))
    a.register_hook(lambda g: handed.append(g))
    (b * 1.0).sum().backward()
    return seen + [modes, handed[0] is handed[1]]


@program
def a_failing_pass_keeps_what_leaves_accumulated_first(torch):
    """torch's ready queue runs a leaf's accumulation as soon as it is ready, before more
    recent nodes: when a later node fails (its saved result was written in place), the leaf
    reached first already holds its gradient."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = torch.tensor([0.5, 1.5], requires_grad=True)
    earlier = x * 1.0  # x's accumulation node is made before the nodes below
    grown = y.exp()
    grown.add_(1.0)
    total = x.sum() + grown.sum()
    return [attempt(total.backward), x.grad, y.grad, earlier.grad_fn.name()]


@program
def comparing_a_tensor_with_none(torch):
    """``x == None`` and ``x != None`` are Python's False and True, as beginners write them
    about ``.grad``."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    before = [x.grad == None, x == None, x != None]  # noqa: E711 - what the program tests
    (x * 2).sum().backward()
    return before + [x.grad == None, x.grad != None]  # noqa: E711


@program
def sgd_steps_and_scaled_adds_round_once(torch):
    """torch's add / sub with alpha round once (a fused multiply-add), and SGD's steps are
    made of them: five steps of plain, momentum, dampened and Nesterov SGD with weight decay
    give the framework's float32 values bit for bit."""
    seen = []
    for settings in ({"lr": 0.1}, {"lr": 0.05, "momentum": 0.9},
                     {"lr": 0.03, "momentum": 0.8, "dampening": 0.1, "weight_decay": 0.01},
                     {"lr": 0.07, "momentum": 0.9, "nesterov": True, "weight_decay": 0.003}):
        w = torch.tensor([0.5, -1.25, 2.0, 0.3], requires_grad=True)
        optimizer = torch.optim.SGD([w], **settings)
        for _ in range(5):
            optimizer.zero_grad()
            ((w * w * 1.7 - 0.3) ** 2).sum().backward()
            optimizer.step()
        seen.append(w.detach().numpy().tobytes().hex())
    x = torch.tensor([1.5, -2.5, 0.1])
    y = torch.tensor([0.3, 0.7, -1.1])
    return seen + [torch.add(x, y, alpha=0.1).numpy().tobytes().hex(),
                   torch.sub(x, y, alpha=-0.37).numpy().tobytes().hex()]


@program
def adam_variants_over_several_steps(torch):
    """Adam, with weight decay, amsgrad (the largest second moment so far) and maximize, over
    six steps (values within float32 tolerance: torch's kernels round some steps once)."""
    seen = []
    for settings in ({"lr": 0.1}, {"lr": 0.01, "betas": (0.8, 0.99), "weight_decay": 0.01},
                     {"lr": 0.05, "eps": 1e-6, "amsgrad": True},
                     {"lr": 0.05, "amsgrad": True, "weight_decay": 0.1},
                     {"lr": 0.02, "maximize": True}, {"lr": 0.02, "foreach": False}):
        w = torch.tensor([0.5, -1.25, 2.0, 0.3], requires_grad=True)
        optimizer = torch.optim.Adam([w], **settings)
        for _ in range(6):
            optimizer.zero_grad()
            ((w * w * 1.7 - 0.3) ** 2 - w * 3.0).sum().backward()
            optimizer.step()
        seen.append(w.detach())
    return seen


@program
def optimizer_scheduler_and_scaler_arguments_are_refused_as_torch_does(torch):
    """The argument errors of SGD / Adam, their parameter groups and state dicts, the
    schedulers and GradScaler, with torch's types and texts (unscale_, step and update before
    any scale() are refused; a scheduler resumed without initial_lr explains why)."""
    def leaf():
        return torch.tensor([1.0], requires_grad=True)

    def sgd(**settings):
        return torch.optim.SGD([leaf()], **{"lr": 0.1, **settings})

    def shared():
        p = leaf()
        return torch.optim.SGD([{"params": [p]}, {"params": [p]}], lr=0.1)

    def scaler_call(name):
        scaler, optimizer = torch.amp.GradScaler("cpu"), sgd()
        return getattr(scaler, name)(optimizer) if name != "update" else scaler.update()

    scaled = torch.amp.GradScaler("cpu")
    scaled.scale(leaf() * 2.0)
    return [attempt(f) for f in (
        lambda: torch.optim.SGD(leaf()), lambda: torch.optim.SGD([]), lambda: torch.optim.SGD([1.0]),
        lambda: torch.optim.SGD([{"params": {leaf()}}], lr=0.1),
        lambda: torch.optim.SGD([leaf() * 2], lr=0.1), lambda: sgd(lr=-1.0),
        lambda: sgd(momentum=-0.5), lambda: sgd(weight_decay=-2.0), lambda: sgd(nesterov=True),
        lambda: torch.optim.Adam([leaf()], eps=-1.0), lambda: torch.optim.Adam([leaf()], betas=(0.9, 1.5)),
        lambda: torch.optim.Adam([leaf()], lr=-0.5), lambda: torch.optim.Adam([leaf()], weight_decay=-1.0),
        shared, lambda: sgd().add_param_group([1]),
        lambda: sgd().load_state_dict({"state": {}, "param_groups": []}),
        lambda: sgd().load_state_dict({"state": {}, "param_groups": [{"params": [0, 1]}]}),
        lambda: torch.optim.lr_scheduler.StepLR(sgd(), 1, last_epoch=3),
        lambda: torch.optim.lr_scheduler.LambdaLR(sgd(), [lambda e: 1, lambda e: 2]),
        lambda: torch.amp.GradScaler("cpu", growth_factor=0.5),
        lambda: torch.amp.GradScaler("cpu", backoff_factor=1.5),
        lambda: scaler_call("unscale_"), lambda: scaler_call("step"), lambda: scaler_call("update"),
        lambda: scaled.step(sgd(), closure=lambda: None), scaled.update,
        lambda: torch.amp.GradScaler("cpu").load_state_dict({}))]


@program
def module_and_layer_arguments_are_refused_as_torch_does(torch):
    """nn.Module's and nn.functional's argument errors with torch's types and texts: a
    layer_norm shape shows the input's size as a list, batch_norm in evaluation names the
    missing statistic (running_mean first), Variable of a non-tensor is a TypeError."""
    F = torch.nn.functional

    def linear():
        return torch.nn.Linear(2, 2)

    return [attempt(f) for f in (
        lambda: linear().register_parameter("w2", 3),
        lambda: torch.nn.Sequential(linear()).get_submodule("0.foo"), lambda: linear().train(3),
        lambda: linear().load_state_dict({"weight": torch.zeros(2, 2)}),
        lambda: linear().load_state_dict({"weight": torch.zeros(2, 2), "bias": torch.zeros(2),
                                          "extra": torch.zeros(1)}),
        lambda: F.nll_loss(torch.zeros(2, 3), torch.tensor([0, 1]), reduction="avg"),
        lambda: F.mse_loss(torch.zeros(2), torch.zeros(2), reduction="avg"),
        lambda: F.layer_norm(torch.zeros(2, 3), (4,)),
        lambda: F.batch_norm(torch.zeros(2, 3), None, None, training=False),
        lambda: F.batch_norm(torch.zeros(2, 3), torch.zeros(3), None, training=False),
        lambda: torch.autograd.Variable(3), lambda: setattr(torch.zeros(2), "data", 3))]


@program
def cat_and_stack_of_no_tensors_are_refused(torch):
    """An empty list: cat's ValueError and stack's RuntimeError, in torch's words."""
    return [attempt(lambda: torch.cat([])), attempt(lambda: torch.concat([])),
            attempt(lambda: torch.stack([])), torch.cat([torch.ones(1)], 0)]


@program
def nn_init_fills_in_place_without_recording(torch):
    """``nn.init``'s fillers write in place under no_grad: the same tensor back, its version
    grown, no node; a graph built before the write still runs (mul by a number saves nothing).
    The random ones keep shapes and bounds (their values are the generator's)."""
    init = torch.nn.init
    w = torch.nn.Parameter(torch.ones(2, 3))
    before = w * 2
    seen = [init.constant_(w, 0.5) is w, w._version, w.requires_grad, w.grad_fn is None,
            w.detach().clone()]
    init.zeros_(w)
    before.sum().backward()
    seen += [w._version, w.grad, init.eye_(torch.empty(2, 3)), init.ones_(torch.empty(2)),
             attempt(lambda: init.eye_(torch.empty(2))), init.calculate_gain("tanh"),
             init.calculate_gain("leaky_relu", 0.2), init.calculate_gain("relu"),
             attempt(lambda: init.calculate_gain("swish"))]
    inner = torch.ones(2, requires_grad=True) * 1
    init.zeros_(inner)
    seen.append([inner.grad_fn.name(), inner._version, inner.detach()])
    for fill in (init.xavier_uniform_, init.kaiming_uniform_):
        filled = fill(torch.empty(4, 6))
        seen.append([filled.shape, bool((filled.abs() <= 1.0).all())])
    return seen


@program
def a_float64_default_dtype(torch):
    """``set_default_dtype(torch.float64)``: Python floats, float constructors, integer true
    division and a float number times an integer tensor make float64; a float32 tensor stays
    float32; only float dtypes may be the default."""
    before = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        (x * x).sum().backward()
        made = [str(torch.get_default_dtype()), x, x.grad, torch.ones(2), torch.zeros(2, 3),
                torch.arange(3.0), torch.arange(3), torch.linspace(0, 1, 3), torch.tensor(1),
                torch.Tensor([1, 2]), torch.tensor([1, 2]) / torch.tensor([2, 2]),
                torch.tensor([1, 2]) * 1.5, torch.tensor([1.0], dtype=torch.float32) * 1.5,
                str(torch.empty(2).dtype), attempt(lambda: torch.set_default_dtype(torch.int64))]
    finally:
        torch.set_default_dtype(before)
    return made + [str(torch.get_default_dtype()), torch.tensor([1.0])]


# --- layers: normalisation, dropout, convolution, embedding, weighted losses ----------------

def _set(torch, param, values):
    with torch.no_grad():
        param.copy_(torch.tensor(values))


@program
def layer_norm_and_batch_norm(torch):
    """LayerNorm and BatchNorm1d/2d in training and in eval: values, first and second derivatives,
    the running statistics a training step moves (momentum 0.1 and the cumulative average),
    ``num_batches_tracked``, and the state_dict keys."""
    nn = torch.nn
    x = torch.tensor([[[0.5, -1.0, 2.0, 0.0], [1.5, 0.25, -0.5, 1.0], [0.0, 3.0, -2.0, 0.5]],
                      [[1.0, 1.0, -1.0, 0.5], [0.0, -0.5, 2.5, 1.5], [2.0, 0.0, 1.0, -1.0]]],
                     requires_grad=True)
    ln = nn.LayerNorm(4)
    _set(torch, ln.weight, [1.0, 0.5, -1.0, 2.0])
    _set(torch, ln.bias, [0.0, 0.1, 0.2, 0.3])
    y = ln(x)
    (g,) = torch.autograd.grad((y * y * y).sum(), x, create_graph=True)
    seen = [y, g, torch.autograd.grad(g.sum(), x, retain_graph=True)[0],
            torch.autograd.grad(y.sum(), [ln.weight, ln.bias]),
            nn.functional.layer_norm(x, (3, 4), eps=1e-3)]
    bn = nn.BatchNorm1d(3)
    _set(torch, bn.weight, [1.0, 2.0, 0.5])
    out = bn(x)
    (gb,) = torch.autograd.grad((out * out * torch.tensor([1.0, -1.0, 2.0, 0.5])).sum(), x,
                                create_graph=True)
    seen += [out, gb, torch.autograd.grad(gb.sum(), x)[0], bn.running_mean, bn.running_var,
             bn.num_batches_tracked, list(bn.state_dict().keys())]
    bn.eval()
    seen += [bn(x), bn.training]
    cumulative = nn.BatchNorm2d(2, momentum=None, affine=False)
    image = x.reshape(2, 2, 3, 2)
    for _ in range(2):
        cumulative(image * 2)
    seen += [cumulative.running_mean, cumulative.running_var, cumulative.num_batches_tracked,
             attempt(lambda: cumulative(x))]
    seen.append([t.grad_fn.name() for t in (y, out, nn.functional.layer_norm(x, (4,)),
                                             nn.functional.batch_norm(x, None, None, training=True))])
    return seen


@program
def convolution_embedding_dropout(torch):
    """Conv1d (padding, dilation, stride) and Conv2d (groups) values and gradients of input,
    weight and bias, a second derivative through a convolution; Embedding with padding_idx (no
    gradient to its row); dropout's identities (eval, p=0, p=1)."""
    nn = torch.nn
    x = torch.tensor([[[0.5, -1.0, 2.0, 0.0, 1.0], [1.5, 0.25, -0.5, 1.0, -2.0]]], requires_grad=True)
    conv = nn.Conv1d(2, 3, 2, stride=2, padding=1, dilation=2)
    _set(torch, conv.weight, [[[0.1, 0.2], [0.3, -0.4]], [[-0.5, 0.6], [0.7, 0.8]],
                              [[0.9, -1.0], [0.0, 0.5]]])
    _set(torch, conv.bias, [0.1, -0.1, 0.0])
    y = conv(x)
    (g,) = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    seen = [y, g, torch.autograd.grad(g.sum(), conv.weight, retain_graph=True)[0],
            torch.autograd.grad(y.sum(), [conv.weight, conv.bias])]
    image = torch.tensor([[[[1.0, 2.0, 0.0], [0.5, -1.0, 1.5], [2.0, 0.0, -0.5]],
                           [[0.0, 1.0, 1.0], [-1.0, 0.5, 0.0], [1.0, 1.0, 2.0]]]], requires_grad=True)
    conv2 = nn.Conv2d(2, 2, 2, groups=2, bias=False)
    _set(torch, conv2.weight, [[[[1.0, -1.0], [0.5, 0.0]]], [[[0.0, 2.0], [1.0, -0.5]]]])
    z = conv2(image)
    z.sum().backward()
    seen += [z, image.grad, conv2.weight.grad,
             nn.functional.conv2d(image, conv2.weight, None, 1, 1, 1, 2)]
    emb = nn.Embedding(4, 2, padding_idx=1)
    _set(torch, emb.weight, [[0.1, 0.2], [0.0, 0.0], [0.5, -0.5], [1.0, 2.0]])
    ids = torch.tensor([[0, 1, 3], [1, 1, 2]])
    e = emb(ids)
    (e * torch.tensor([1.0, 2.0])).sum().backward()
    seen += [e, emb.weight.grad, nn.functional.embedding(torch.tensor([2, 2]), emb.weight)]
    drop = nn.Dropout(0.5)
    drop.eval()
    h = x * 2
    seen += [drop(h), nn.functional.dropout(h, 0.0), nn.functional.dropout(h, 1.0),
             attempt(lambda: nn.Dropout(1.5))]
    seen.append([t.grad_fn.name() for t in (y, z, e, nn.functional.dropout(h, 1.0),
                                             nn.functional.dropout(h, 0.0), drop(h))])
    return seen


@program
def weighted_nll_and_cross_entropy(torch):
    """nll_loss and cross_entropy with a class weight, ignore_index and each reduction (the mean
    divides by the counted rows' weights), as functions and as modules with their weight
    buffer; first and second derivatives."""
    nn = torch.nn
    logits = torch.tensor([[0.5, 1.0, -1.0], [2.0, 0.0, 0.5], [-0.5, 0.5, 1.5], [1.0, 1.0, 0.0]],
                          requires_grad=True)
    target = torch.tensor([1, 0, 2, 1])
    weight = torch.tensor([1.0, 2.0, 0.5])
    seen = []
    for reduction in ("mean", "sum", "none"):
        loss = nn.functional.cross_entropy(logits, target, weight=weight, ignore_index=2,
                                           reduction=reduction)
        (g,) = torch.autograd.grad(loss.sum(), logits, create_graph=True)
        seen += [loss, g, torch.autograd.grad((g * g).sum(), logits)[0]]
    log_p = torch.log_softmax(logits, 1)
    seen += [nn.functional.nll_loss(log_p, target, weight),
             nn.functional.nll_loss(log_p, target, ignore_index=0),
             nn.NLLLoss(weight, reduction="sum")(log_p, target),
             list(nn.CrossEntropyLoss(weight).state_dict().keys()),
             nn.CrossEntropyLoss(ignore_index=1)(logits, target)]
    seen.append([t.grad_fn.name() for t in (nn.functional.nll_loss(log_p, target, weight),
                                             nn.functional.nll_loss(log_p, target, ignore_index=0),
                                             nn.functional.nll_loss(log_p, target))])
    return seen


@program
def missing_names_and_helpers(torch):
    """Helpers real programs reach for: nan_to_num (no gradient to the replaced entries),
    masked_select, meshgrid in both indexings, tile, argsort, nonzero, logical ops, the *_like
    draws' shapes and dtypes, mT, bool(), nelement(); and a name neither engine has is an
    AttributeError that hasattr answers."""
    x = torch.tensor([[1.0, float("nan")], [float("inf"), -2.0]], requires_grad=True)
    y = torch.nan_to_num(x, nan=0.5, posinf=9.0)
    picked = torch.masked_select(x * 2, torch.tensor([[True, False], [False, True]]))
    (y.sum() + picked.sum()).backward()
    a, b = torch.meshgrid(torch.tensor([1.0, 2.0], requires_grad=True), torch.tensor([3.0, 4.0, 5.0]),
                          indexing="xy")
    c, d = torch.meshgrid(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0, 5.0]), indexing="ij")
    v = torch.tensor([3.0, 1.0, 2.0, 0.0])
    drawn = [torch.randn_like(x), torch.rand_like(x, dtype=torch.float64), torch.empty_like(v),
             torch.randint(0, 5, (2, 3)), torch.randperm(4)]
    return [y, x.grad, picked, a, b, c, d, torch.tile(v, (2, 1)), v.tile((2,)),
            torch.argsort(v), v.argsort(descending=True), torch.nonzero(v),
            torch.nonzero(v, as_tuple=True), torch.logical_and(v > 0, v < 3), (v > 1).logical_not(),
            [(tuple(t.shape), str(t.dtype), t.requires_grad) for t in drawn], x.detach().mT, v.bool(),
            v.nelement(),
            hasattr(torch, "definitely_not_an_api")]


@program
def grads_batched(torch):
    """``autograd.grad(..., is_grads_batched=True)``: a batch of seeds gives a batch of
    gradients (a Jacobian from the identity's rows), with create_graph and retain_graph."""
    x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    y = x.sin() * x
    (jac,) = torch.autograd.grad(y, x, torch.eye(3), retain_graph=True, is_grads_batched=True)
    (twice,) = torch.autograd.grad(y, x, torch.eye(3) * 2, create_graph=True, is_grads_batched=True)
    (second,) = torch.autograd.grad(twice.sum(), x)
    return [jac, twice, second,
            attempt(lambda: torch.autograd.grad(y, x, torch.eye(3), is_grads_batched=True))]


@program
def einsum_equations(torch):
    """einsum for matrix products, matrix-vector, dot, transpose, full sum, batched products,
    outer products, diagonals and traces, with an implicit output: values, the result's node
    name and the gradients of every operand."""
    a = torch.tensor([[1.0, 2.0, 0.5], [-1.0, 0.0, 3.0]], requires_grad=True)
    b = torch.tensor([[0.5, 1.0], [2.0, -1.0], [1.0, 1.0]], requires_grad=True)
    v = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
    m = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], requires_grad=True)
    batch_a, batch_b = a.unsqueeze(0) * torch.tensor([[[1.0]], [[2.0]]]), b.unsqueeze(0).expand(2, 3, 2)
    seen = []
    for equation, operands in (("ij,jk->ik", (a, b)), ("ij,j->i", (a, v)), ("i,i->", (v, v)),
                               ("ij->ji", (a,)), ("ij->", (a,)), ("bij,bjk->bik", (batch_a, batch_b)),
                               ("i,j->ij", (v, v)), ("ii->i", (m,)), ("ii", (m,)), ("ij,jk", (a, b)),
                               ("ik,jk->ij", (a, m))):
        out = torch.einsum(equation, *operands)
        grads = torch.autograd.grad(out.sum(), [a, b, v, m], allow_unused=True)
        seen += [equation, out, out.grad_fn.name(), grads]
    seen.append(torch.einsum("ij,jk->ik", [a, b]))
    return seen


@program
def module_backward_hooks(torch):
    """Full backward hooks and backward pre-hooks on modules: what they are handed (grad_input
    None where an argument needs no gradient), replacing grad_output and grad_input, the order
    they run in, a module none of whose arguments require grad, and removal."""
    nn = torch.nn
    seen = []
    lin = nn.Linear(2, 2)
    with torch.no_grad():
        lin.weight.copy_(torch.tensor([[1.0, -1.0], [0.5, 2.0]]))
        lin.bias.zero_()
    pre = lin.register_full_backward_pre_hook(
        lambda m, go: (seen.append(("pre", go[0])), (go[0] * 2,))[1])
    post = lin.register_full_backward_hook(lambda m, gi, go: seen.append(("post", gi, go)))
    x = torch.tensor([[1.0, 2.0]], requires_grad=True)
    lin(x).sum().backward()
    seen += [x.grad, lin.weight.grad]
    const = torch.tensor([[3.0, -1.0]])
    lin.zero_grad()
    lin(const).sum().backward()
    seen.append(lin.weight.grad)
    pre.remove()
    post.remove()
    replacing = lin.register_full_backward_hook(lambda m, gi, go: (gi[0] * 0 + 1,))
    x2 = torch.tensor([[1.0, 2.0]], requires_grad=True)
    lin(x2).sum().backward()
    seen.append(x2.grad)
    replacing.remove()
    seen.append(attempt(lambda: lin.register_full_backward_hook(lambda m, gi, go: (gi[0], gi[0]))
                        and lin(x2).sum().backward()))
    return seen


@program
def register_buffer_refusals(torch):
    """register_buffer's checks, in torch's order and words: a dotted name, an empty one, a
    name an attribute holds, a value that is no tensor; None is a buffer that state_dict skips."""
    m = torch.nn.Module()
    m.weight_like = 3
    m.register_buffer("empty", None)
    return [attempt(lambda: m.register_buffer("a.b", torch.ones(1))),
            attempt(lambda: m.register_buffer("", torch.ones(1))),
            attempt(lambda: m.register_buffer("weight_like", torch.ones(1))),
            attempt(lambda: m.register_buffer("b", [1.0])),
            list(m.state_dict().keys()), [n for n, _ in m.named_buffers()]]


@program
def versions_a_program_can_read(torch):
    """Found by observing every tensor's version: a new module's parameters and buffers are at
    version 1 (reset_parameters fills them in place; 2 for an Embedding's padded weight), a
    vector @ matrix product at 1 (squeeze_), a reshape that must copy is a new tensor (a clone,
    then UnsafeViewBackward0), inference tensors refuse to say, and mark_dirty counts the
    write before refusing a leaf."""
    result = []
    for module in (torch.nn.Linear(3, 2), torch.nn.LayerNorm(3), torch.nn.BatchNorm1d(3),
                   torch.nn.Embedding(4, 3), torch.nn.Embedding(4, 3, padding_idx=0)):
        result.append([t._version for t in [*module.parameters(), *module.buffers()]])
    v = torch.tensor([1.0, 2.0], requires_grad=True)
    m = torch.tensor([[1.0, 0.5], [2.0, -1.0]])
    result += [torch.matmul(v, m)._version, torch.matmul(m, v)._version,
               torch.matmul(m, m)._version]
    x = torch.tensor([[[1.0, 2.0, 3.0]], [[4.0, 5.0, 6.0]]], requires_grad=True) * 1
    copied, viewed = x.transpose(-1, 0).reshape(6), x.reshape(6)
    with torch.no_grad():
        x.mul_(2)
    result += [copied._version, viewed._version, copied, copied.grad_fn.name(),
               copied.grad_fn.next_functions[0][0].name()]
    with torch.inference_mode():
        made = torch.ones(2)
    result.append(attempt(lambda: made._version))
    leaf = torch.tensor([0.5, -1.5], requires_grad=True)

    class Triple(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            a.mul_(3.0)
            ctx.mark_dirty(a)
            return a

        @staticmethod
        def backward(ctx, g):
            return g * 3

    result += [attempt(lambda: Triple.apply(leaf)), leaf._version]
    return result


@program
def views_made_without_recording_whose_base_changed(torch):
    """A view made under no_grad refuses to show is_leaf or grad_fn once its base was written
    to with recording, as it refuses to be used; one of a tensor that needed no grad then
    requires grad and refuses alike."""
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = x * 2
    with torch.no_grad():
        v = b[:2]
    b.mul_(2)
    y = torch.tensor([1.0, 2.0, 3.0]) * 1
    with torch.no_grad():
        u = y[:2]
    y.mul_(x)
    return [v.requires_grad, attempt(lambda: v.is_leaf), attempt(lambda: v.grad_fn), v._version,
            attempt(lambda: v * 2), u.requires_grad, attempt(lambda: u.is_leaf),
            attempt(lambda: u.grad_fn), attempt(lambda: u * 2)]


@program
def views_of_split_pieces_refuse_use_once_the_base_changed(torch):
    """A view of a piece of split is refused like the piece once the base was written to,
    named by its own node ("Output 0 of Squeeze")."""
    x = torch.tensor([[[0.8, 0.7, 1.2], [0.8, 1.8, 1.2]]], requires_grad=True)
    a, b = (x[0:] * 1).split([1, 2], dim=2)
    view = a.squeeze()
    with torch.no_grad():
        x.mul_(2)
    base = x * 1
    a2, _ = base.split([1, 2], dim=2)
    view2 = a2.squeeze()
    base.mul_(2)
    return [view, attempt(lambda: view2.is_leaf), attempt(lambda: view2 * 2),
            attempt(lambda: view2.grad_fn)]


@program
def detach_in_place_refuses_views_and_a_first_create_graph_grad_is_none(torch):
    """Found by the pairs of argument value × state: detach_() refuses any view (of a leaf, of
    a result, a piece of unbind), the refused tensor keeps its history; a first .grad that a
    create_graph pass stores is a copy, never a view of the gradient (so an optimizer's
    zero_grad can detach it in place)."""
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    viewed = (x * 1.0).reshape(3, 2)
    result = [attempt(lambda: viewed.detach_()), viewed.requires_grad, viewed.grad_fn is not None,
              attempt(lambda: torch.ones(3)[0:2].detach_()),
              attempt(lambda: torch.ones(2, 3).unbind(0)[0].detach_())]
    (viewed * 2).sum().backward()
    result.append(x.grad)
    leaf = torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    leaf.sum().backward(create_graph=True)
    result += [leaf.grad._base is None, leaf.grad.requires_grad, attempt(lambda: leaf.grad.detach_())]
    optimizer = torch.optim.SGD([leaf], lr=0.1)
    optimizer.zero_grad(set_to_none=False)
    result.append(leaf.grad)
    return result


# --- reduced precision and autocast (CPU) -------------------------------------------------

@program
def reduced_precision_tensors_compute_in_float32_and_round(torch):
    x = torch.tensor([1.1, 2.3, -0.7], requires_grad=True)
    b, h = x.bfloat16(), x.half()
    y = (b * b + b.exp()).sum() + (h.tanh() * 3.0).sum()
    y.backward()
    w = torch.tensor([[0.3, -1.2], [2.2, 0.5], [1.0, 1.0]], dtype=torch.bfloat16, requires_grad=True)
    m = b.detach()[None] @ w
    m.float().sum().backward()
    return [b, h, y, x.grad, m, w.grad, b + torch.ones(3), b + h, b * 2, b + 1.5, h + torch.tensor(1.0),
            b.double(), repr(b), b.tolist(), (b.sum() * 1.0).item(), str(torch.bfloat16), str(torch.half),
            attempt(lambda: x @ torch.ones(3, dtype=torch.bfloat16)),
            attempt(lambda: torch.mm(x[None], torch.ones(3, 1, dtype=torch.float16)))]


def _linear_module(torch, w):
    layer = torch.nn.Linear(3, 2)
    with torch.no_grad():
        layer.weight.copy_(w.t())
        layer.bias.fill_(0.5)
    return layer


def _autocast_operands(torch):
    x = torch.tensor([[0.3, -1.2, 0.7], [2.2, 0.5, -0.1]], requires_grad=True)
    w = torch.tensor([[0.5, -0.25], [1.5, 0.75], [-1.0, 2.0]], requires_grad=True)
    return x, w


@program
def autocast_lower_precision_ops_cast_float32_inputs(torch):
    F = torch.nn.functional
    out: list = []
    for dtype in (torch.bfloat16, torch.float16):
        ops = {
            "mm": lambda x, w: torch.mm(x, w), "matmul": lambda x, w: torch.matmul(x, w),
            "operator": lambda x, w: x @ w, "method": lambda x, w: x.matmul(w),
            "mm method": lambda x, w: x.mm(w), "bmm": lambda x, w: torch.bmm(x[None], w[None]),
            "einsum": lambda x, w: torch.einsum("ij,jk->ik", x, w),
            "linear": lambda x, w: F.linear(x, w.t()),
            "conv1d": lambda x, w: F.conv1d(x[None], w.t()[:, :2, None]),
            "unbatched conv1d": lambda x, w: F.conv1d(x, w.t()[:, :2, None]),
            "conv2d": lambda x, w: F.conv2d(x[None, None], w[None, None, :2]),
            "Linear module": lambda x, w: _linear_module(torch, w)(x),
        }
        for name, op in ops.items():
            x, w = _autocast_operands(torch)
            with torch.autocast("cpu", dtype=dtype):
                y = op(x, w)
            y.float().sum().backward()
            out += [name, y, y.grad_fn is not None and y.grad_fn.name(), x.grad, w.grad]
    return out


@program
def autocast_float32_ops_cast_reduced_inputs(torch):
    F = torch.nn.functional
    target = torch.tensor([0, 2])
    ops = {
        "prod": lambda a: a.prod(), "torch.prod": lambda a: torch.prod(a),
        "mse_loss": lambda a: F.mse_loss(a, torch.zeros(2, 3)),
        "l1_loss": lambda a: F.l1_loss(a, torch.ones(2, 3, dtype=torch.bfloat16)),
        "nll_loss": lambda a: F.nll_loss(a, target), "cross_entropy": lambda a: F.cross_entropy(a, target),
        "binary_cross_entropy": lambda a: F.binary_cross_entropy(a.sigmoid(), torch.full((2, 3), 0.25)),
        "with_logits": lambda a: F.binary_cross_entropy_with_logits(a, torch.full((2, 3), 0.25)),
        "MSELoss module": lambda a: torch.nn.MSELoss()(a, torch.zeros(2, 3)),
        "CrossEntropyLoss module": lambda a: torch.nn.CrossEntropyLoss()(a, target),
    }
    out: list = []
    for name, op in ops.items():
        x = torch.tensor([[0.3, -1.2, 0.7], [2.2, 0.5, -0.1]], dtype=torch.bfloat16, requires_grad=True)
        with torch.autocast("cpu"):
            y = op(x)
        y.backward()
        out += [name, y, x.grad]
    return out


@program
def autocast_leaves_other_ops_and_float64_alone(torch):
    x, w = _autocast_operands(torch)
    with torch.autocast("cpu"):
        h = x @ w
        out = [torch.dot(x[0], w[:, 0]), torch.mv(w.t(), x[0]), h.relu(), h.sum(), h.softmax(1),
               h + torch.ones(2, 2), torch.cat([h, torch.ones(1, 2)]), x.double() @ w.double(),
               attempt(lambda: torch.mm(x.double(), w))]
    h.float().pow(2).sum().backward()
    return [*out, x.grad, w.grad]


@program
def autocast_regions_nest_cache_and_refuse(torch):
    x, w = _autocast_operands(torch)
    out: list = [torch.is_autocast_enabled("cpu"), str(torch.get_autocast_dtype("cpu"))]
    with torch.autocast("cpu", dtype=torch.float16):
        out += [torch.is_autocast_enabled("cpu"), torch.is_autocast_enabled(),
                str(torch.get_autocast_dtype("cpu"))]
        a, b = x @ w, torch.mm(x, w)
        out.append(a.grad_fn.next_functions[0][0] is b.grad_fn.next_functions[0][0])  # x cast once
        with torch.autocast("cpu", enabled=False):
            out += [x @ w, torch.is_autocast_enabled("cpu")]
        out.append(x @ w)
    with torch.autocast("cpu", cache_enabled=False):
        a, b = x @ w, x @ w
        out.append(a.grad_fn.next_functions[0][0] is b.grad_fn.next_functions[0][0])
    out += [torch.is_autocast_enabled("cpu"), str(torch.get_autocast_dtype("cpu"))]

    @torch.autocast("cpu")
    def decorated(a, b):
        return a @ b

    out.append(decorated(x, w))
    with torch.autocast("cpu", dtype=torch.float32):  # warns: CPU autocast takes bf16 and f16 only
        out.append(x @ w)
    with torch.autocast("cuda"):  # warns: no CUDA
        out.append(x @ w)
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        y = (x @ w).float().pow(2).sum()
        g, = torch.autograd.grad(y, x, create_graph=True)
    g.sum().backward()
    out += [g, w.grad, attempt(lambda: torch.autocast(3)), attempt(lambda: torch.autocast("xpu2")),
            attempt(lambda: torch.autocast("metal"))]
    with torch.autocast("cpu:0", dtype=torch.float16):  # a device index: the same CPU region
        out += [x @ w, str(torch.get_autocast_dtype("cpu"))]
    with torch.autocast("cuda:0"):  # disabled, measured without the no-CUDA warning
        out.append(x @ w)
    return out


@program
def convolution_arguments_are_checked_in_torchs_order(torch):
    F = torch.nn.functional
    x = torch.ones(1, 2, 3)
    return [attempt(f) for f in (
        lambda: F.conv1d(x, torch.ones(2, 3, 1)), lambda: F.conv2d(x[:, None], torch.ones(1, 2, 1, 1)),
        lambda: F.conv1d(x, torch.ones(2, 2, 5)), lambda: F.conv1d(x[0], torch.ones(2, 2, 1)),
        lambda: F.conv1d(torch.ones(1, 1, 2, 3), torch.ones(1, 1, 1)),
        lambda: F.conv2d(torch.ones(2, 3), torch.ones(1, 1, 1, 1)),
        lambda: F.conv2d(torch.ones(1, 1, 2, 3), torch.ones(1, 1, 5, 5)),
        lambda: F.conv1d(torch.ones(1, 4, 3), torch.ones(2, 2, 1), groups=2),
        lambda: F.conv1d(torch.ones(1, 4, 3), torch.ones(2, 3, 1), groups=2),
        lambda: F.conv1d(torch.ones(1, 4, 3), torch.ones(3, 2, 1), groups=2),
        lambda: F.conv1d(x, torch.ones(2, 2)), lambda: F.conv1d(x, torch.ones(2, 2, 2), dilation=3),
        lambda: F.conv2d(torch.ones(2, 3, 3), torch.ones(1, 2, 2, 2)))]
