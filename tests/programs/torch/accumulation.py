"""How ``.grad`` accumulates, is cleared, set and retained on non-leaves, and the flags a gradient
carries."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import torch_program as program


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
