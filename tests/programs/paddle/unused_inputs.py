"""Inputs a pass does not reach or that take no gradient: ``allow_unused``, backward's ``inputs``,
no-grad inputs."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import paddle_program as program


@program
def unused_and_stop_gradient_inputs(paddle):
    a = paddle.to_tensor([1.0], stop_gradient=False)
    u = paddle.to_tensor([1.0], stop_gradient=False)
    b = paddle.to_tensor([2.0])
    return [attempt(lambda: paddle.grad([a * 3], [a, u])),
            attempt(lambda: paddle.grad([a * 3], [a, u], allow_unused=True)),
            attempt(lambda: paddle.grad([a * b], [b])),
            attempt(lambda: paddle.grad([a * b], [a, b], allow_unused=True)),
            attempt(lambda: paddle.grad([b * 3], [a])), attempt(lambda: (b * 3).backward())]


@program
def no_grad_vars(paddle):
    k = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    h = k * 3
    y = (h * h + k).sum()
    return [paddle.grad(y, k, no_grad_vars=[h], retain_graph=True), paddle.grad(y, k)]


@program
def no_grad_vars_cutting_an_operand_of_a_binary_op(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    w = paddle.to_tensor([0.5, 1.5], stop_gradient=False)
    h = x * 3
    return [paddle.grad((h * w).sum(), [x, w], no_grad_vars=[h], allow_unused=True, retain_graph=True),
            paddle.grad((h + w).sum(), [x, w], no_grad_vars=[h], allow_unused=True, retain_graph=True),
            paddle.grad((h * h).sum() + x.sum(), [x], no_grad_vars=[h])]


@program
def stop_gradient_set_on_a_non_leaf(paddle):
    """Ops recorded before keep their edge to it, ops after record none, and paddle.grad still
    reaches it through the nodes recorded before."""
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = x * 3
    before = y * y
    y.stop_gradient = True
    after = y * y + x
    e = paddle.exp(x)
    total = e.sum()
    e.stop_gradient = True
    through = paddle.grad(total, [e])
    (before.sum() + after.sum()).backward()
    return [after.stop_gradient, x.grad, through]


@program
def stop_gradient_set_on_a_leaf_after_it_was_used(paddle):
    """paddle.grad still reaches the leaf through the nodes recorded before (and checks the
    versions of what they saved); a leaf set before any use is unused."""
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = paddle.to_tensor([3.0, 4.0], stop_gradient=False)
    z = (x * y).sum()
    y.stop_gradient = True
    reached = paddle.grad(z, [x, y], allow_unused=True)
    a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    m = paddle.min(a)
    a.stop_gradient = True
    a.zero_()
    w = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    w.stop_gradient = True
    return [reached, attempt(lambda: paddle.grad(m, [a], allow_unused=True)),
            paddle.grad((w * 2).sum(), [w], allow_unused=True)]


@program
def concat_and_stack_hand_every_input_its_gradient(paddle):
    """paddle.grad prunes what leads to no input, except below concat and stack: their kernel
    computes every input's gradient, and the nodes below run (and check what they saved); a
    node of several inputs below prunes again."""
    def case(build):
        x2 = paddle.to_tensor([[1.0, 2.0, 3.0]], stop_gradient=False)
        x4 = paddle.to_tensor([[0.5, 0.7, 0.9]], stop_gradient=False)
        out = build(x2, x4)
        with paddle.no_grad():
            x4.add_(paddle.ones([1, 3]))
        return attempt(lambda: paddle.grad([out], [x2]))
    return [case(lambda x2, x4: x2 * 1.0 + paddle.sin(x4)),
            case(lambda x2, x4: paddle.concat([x2, paddle.sin(x4)])),
            case(lambda x2, x4: paddle.stack([x2, paddle.sin(x4)])),
            case(lambda x2, x4: paddle.concat([x2, paddle.sin(paddle.sin(x4) * 2.0)])),
            case(lambda x2, x4: paddle.concat([x2 + paddle.sin(x4), x2])),
            case(lambda x2, x4: paddle.concat([x2, paddle.max(x4, axis=0, keepdim=True)]))]


@program
def no_grad_vars_cuts_one_piece_per_node(paddle):
    """no_grad_vars keeps one output slot per node: of several pieces of one unbind or split
    listed, only the last is cut (the others' gradients flow)."""
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], stop_gradient=False)
    a, b, c = paddle.unbind(x, 0)
    y = (a * b * c).sum()
    s1, s2, s3 = paddle.split(x, 3, axis=0)
    z = (s1 * s2 * s3).sum()
    return [attempt(lambda: paddle.grad([y], [x], no_grad_vars=cut, retain_graph=True))
            for cut in ([b, a], [a, b], [a, c], [c, a, b], [a, a])] + \
        [attempt(lambda: paddle.grad([z], [x], no_grad_vars=cut, retain_graph=True))
         for cut in ([s1, s2], [s3, s1])]


@program
def no_grad_vars_and_inputs_without_a_node(paddle):
    """paddle.grad finds the nodes of no_grad_vars, then of the inputs: a tensor computed from
    tensors that stop gradient has none and is refused, naming its list and position (fuzz seed
    139583862445); a leaf that stops gradient has its accumulation node, and in no_grad_vars as
    an input too it is only left unreached (None with allow_unused, else the unused error)."""
    a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    c = paddle.to_tensor([1.0, 2.0])
    first, second = paddle.split(c, [1, 1])
    y = (a * 2).sum()
    late = a * 3
    late.stop_gradient = True
    return [attempt(lambda: paddle.grad([y], [c], no_grad_vars=[second], allow_unused=True)),
            attempt(lambda: paddle.grad([y], [a], no_grad_vars=[c, second])),
            attempt(lambda: paddle.grad([y], [first], no_grad_vars=[second], allow_unused=True)),
            attempt(lambda: paddle.grad([y], [first], allow_unused=True)),
            attempt(lambda: paddle.grad([y], [c], no_grad_vars=[c], allow_unused=True)),
            attempt(lambda: paddle.grad([y], [c], no_grad_vars=[c])),
            attempt(lambda: paddle.grad([y], [a, c], no_grad_vars=[c], allow_unused=True)),
            attempt(lambda: paddle.grad([y], [a], no_grad_vars=[late]))]
