"""Seed gradients: when one is filled in, which shapes, dtypes and counts are accepted, and the
errors when not."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import paddle_program as program


def _seed_doc(paddle):
    x = paddle.to_tensor([[1, 2], [3, 4]], dtype="float32", stop_gradient=False)
    y = paddle.to_tensor([[3, 2], [3, 4]], dtype="float32")
    g1 = paddle.to_tensor([[1, 2], [2, 3]], dtype="float32")
    g2 = paddle.to_tensor([[1, 1], [1, 1]], dtype="float32")
    return x, y, g1, g2


@program
def seed_doc_official_example(paddle):
    x, y, g1, g2 = _seed_doc(paddle)
    z1, z2 = paddle.matmul(x, y), paddle.matmul(x, y)
    out = []
    paddle.autograd.backward([z1, z2], [g1, g2], True)
    out.append(x.grad)
    x.clear_grad()
    paddle.autograd.backward([z1, z2], [g1, None], True)
    out.append(x.grad)
    x.clear_grad()
    paddle.autograd.backward([z1, z2])
    out.append(x.grad)
    out.append(attempt(lambda: paddle.autograd.backward([z1, z2])))
    return out


@program
def seed_doc_one_element(paddle):
    x = paddle.to_tensor([1], dtype="float32", stop_gradient=False)
    y = paddle.to_tensor([2], dtype="float32")
    z = paddle.matmul(x, y)
    out = [z, x.grad, y.grad, z.grad]
    paddle.autograd.backward(z, paddle.to_tensor([3], dtype="float32"), retain_graph=True)
    out += [x.grad, y.grad, z.grad]
    paddle.autograd.backward(z, paddle.to_tensor([3], dtype="float32"), retain_graph=True)
    out.append(x.grad)
    paddle.autograd.backward(z, paddle.to_tensor([3], dtype="float32"))
    out += [x.grad, attempt(lambda: paddle.autograd.backward(z, paddle.to_tensor([3.0])))]
    return out


@program
def seed_doc_separate_backwards(paddle):
    x, y, g1, g2 = _seed_doc(paddle)
    z = paddle.matmul(x, y)
    paddle.autograd.backward(z, g1, retain_graph=True)
    first = x.grad
    x2, y2, _, _ = _seed_doc(paddle)
    z1, z2 = paddle.matmul(x2, y2), paddle.matmul(x2, y2)
    paddle.autograd.backward(z1, g1)
    paddle.autograd.backward(z2, g2)
    return [first, x2.grad, y2.grad]


@program
def printing(paddle):
    x, y, _, _ = _seed_doc(paddle)
    z = paddle.matmul(x, y)
    return [repr(v) for v in (x, y, z, paddle.to_tensor([-1.0, 2.5]), paddle.to_tensor([1e9, 1.0]),
                              paddle.to_tensor([1, 2]), paddle.to_tensor(3.0), paddle.to_tensor([True]))]


@program
def implicit_seeds_any_shape(paddle):
    x, y, _, _ = _seed_doc(paddle)
    (x * 3).backward()
    first = x.grad
    g, = paddle.grad(paddle.matmul(x, y), x)
    h = paddle.grad([x * 2, x * x], [x], [None, paddle.ones([2, 2])])
    return [first, g, h]


@program
def seed_shape_checked_by_tensor_backward(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    return [attempt(lambda: (x * 2).backward(paddle.to_tensor([1.0, 2.0, 3.0]))),
            attempt(lambda: (x * 2).backward(1.0)), x.grad]


@program
def seed_dtype_cast(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    (x * 3).backward(paddle.to_tensor([1.0, 1.0], dtype="float64"))
    return [x.grad]


@program
def seed_argument_errors(paddle):
    a = paddle.to_tensor([1.0], stop_gradient=False)
    return [attempt(lambda: paddle.grad([a * 3], [a], [paddle.to_tensor([1.0]), paddle.to_tensor([1.0])])),
            attempt(lambda: paddle.autograd.backward([a * 3], [paddle.to_tensor([1.0]),
                                                               paddle.to_tensor([1.0])])),
            attempt(lambda: paddle.grad([a * 3], [a], 1.0)),
            attempt(lambda: paddle.autograd.backward([a * 3], 1.0)),
            attempt(lambda: paddle.autograd.backward([a * 3], retain_graph=None)),
            attempt(lambda: paddle.grad([a * 3], [a], only_inputs=False)),
            attempt(lambda: paddle.grad([a * 3], [])), attempt(lambda: paddle.grad([], [a])),
            attempt(lambda: paddle.autograd.backward([]))]


@program
def duplicates(paddle):
    a = paddle.to_tensor([1.0], stop_gradient=False)
    z = a * 3
    w = a * 3
    return [attempt(lambda: paddle.autograd.backward([z, z])),
            attempt(lambda: paddle.grad([w, w], [a])), attempt(lambda: paddle.grad([a * 3], [a, a]))]


@program
def the_seed_a_root_hook_sees_in_create_graph(paddle):
    """The default seed of a create_graph pass requires grad but has no node; an explicit seed
    shows its accumulation node."""
    seen = []
    for seed in (None, paddle.to_tensor(2.0), paddle.to_tensor(2.0, stop_gradient=False)):
        x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
        y = (x * x).sum()
        y.register_hook(lambda g: seen.append((g.stop_gradient, g.grad_fn is None, g.numpy())))
        (g,) = paddle.grad(y, [x], grad_outputs=None if seed is None else [seed],
                           create_graph=True)
        seen.append((g.grad_fn is None, g.stop_gradient))
    return seen


@program
def a_seed_of_another_dtype_for_a_leaf_output(paddle):
    """A leaf passed as an output takes its seed as its gradient as it is: a float64 seed for a
    float32 leaf gives a float64 .grad (and grad result, which shows the seed's node), accumulated
    in float64 after; through a node the gradient is the node's dtype."""
    s = paddle.to_tensor([1.5, 0.5], dtype='float64')
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    g, = paddle.grad([x], [x], [s])
    leaf = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    leaf.backward(s)
    first = leaf.grad
    leaf.backward(s)
    y = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    paddle.autograd.backward([y * 2], [s])
    # the seed's values are copied: what accumulates into the leaf's .grad never reaches it
    kept = paddle.to_tensor([1.5, 0.5])
    z = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    z.backward(kept)
    with paddle.no_grad():
        kept.multiply_(paddle.to_tensor([10.0, 10.0]))
    z.backward(paddle.to_tensor([1.0, 1.0]))
    # through a node, paddle.grad hands back a seed of the output's dtype with its node, a cast
    # one without
    w = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    through = [paddle.grad([w * 1], [w * 1], [seed], allow_unused=True)
               for seed in (paddle.to_tensor([1.5, 0.5]), s)]
    v = w * 1
    same, = paddle.grad([v], [v], [paddle.to_tensor([1.5, 0.5])])
    cast, = paddle.grad([v], [v], [s])
    return [g, first, leaf.grad, y.grad, s, kept, z.grad, through, same, cast]
