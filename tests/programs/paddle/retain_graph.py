"""What a pass frees, what ``retain_graph`` keeps, and the errors of a second pass through a freed
graph."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import paddle_program as program


@program
def backward_frees_every_node(paddle):
    a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    z = (a + 1).sum()
    z.backward()
    w = (a.exp()).sum()
    w.backward()
    return [attempt(lambda: z.backward()), attempt(lambda: paddle.grad(w, a)), a.grad]


@program
def grad_runs_on_a_copy(paddle):
    a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    z = a.exp().sum()
    first = paddle.grad(z, a)
    second = paddle.grad(z, a, retain_graph=False)
    third = paddle.grad(z, a)
    z.backward()
    return [first, second, third, a.grad]
