"""Inputs a pass does not reach or that take no gradient: ``allow_unused``, backward's ``inputs``,
no-grad inputs."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import torch_program as program


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
