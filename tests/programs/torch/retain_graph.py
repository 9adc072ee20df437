"""What a pass frees, what ``retain_graph`` keeps, and the errors of a second pass through a freed
graph."""

from __future__ import annotations

from tests.custom_functions import custom
from tests.observe import attempt
from tests.programs.registry import torch_program as program
from tests.programs.torch.common import xy


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
    x, y = xy(torch)
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
