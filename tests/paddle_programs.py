"""Autograd programs written once against a paddle-shaped module: one or more per SEMANTICS row.

``tests/test_paddle_differential.py`` runs each under paddlepaddle 3.3.1 and under
``reference_engine.paddle`` and requires the same observations.
"""

from __future__ import annotations

from typing import Any, Callable

from tests.custom_functions import context_flag_functions, custom, two_output_functions
from tests.observe import attempt, backward_after_writing
from tests.torch_programs import MORE_ELEMENTWISE

PROGRAMS: dict[str, Callable[[Any], list[Any]]] = {}


def program(fn: Callable[[Any], list[Any]]) -> Callable[[Any], list[Any]]:
    PROGRAMS[fn.__name__] = fn
    return fn


def _seed_doc(paddle):
    x = paddle.to_tensor([[1, 2], [3, 4]], dtype="float32", stop_gradient=False)
    y = paddle.to_tensor([[3, 2], [3, 4]], dtype="float32")
    g1 = paddle.to_tensor([[1, 2], [2, 3]], dtype="float32")
    g2 = paddle.to_tensor([[1, 1], [1, 1]], dtype="float32")
    return x, y, g1, g2


# --- the seed document 000 -----------------------------------------------------------------

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


# --- seeds ----------------------------------------------------------------------------------

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


# --- retain_graph ---------------------------------------------------------------------------

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


# --- create_graph ---------------------------------------------------------------------------

@program
def cube_orders(paddle):
    w = paddle.to_tensor(2.0, stop_gradient=False)
    y = w ** 3
    g1 = paddle.grad(y, w, create_graph=True)[0]
    g2 = paddle.grad(g1, w, create_graph=True)[0]
    g3 = paddle.grad(g2, w)[0]
    return [g1, g2, g3]


@program
def constant_derivative_keeps_stop_gradient_false(paddle):
    w = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    c = paddle.grad((w * 2).sum(), w, create_graph=True)[0]
    return [c, c.stop_gradient, attempt(lambda: paddle.grad(c.sum(), w)),
            attempt(lambda: paddle.grad(c.sum(), w, allow_unused=True))]


def _second_derivatives(paddle: Any, forward: Callable[[Any, Any], Any]) -> list[Any]:
    x = paddle.to_tensor([[0.3, 0.7], [1.2, 0.4]], stop_gradient=False)
    w = paddle.to_tensor([[1.5, -0.5], [0.25, 2.0]], stop_gradient=False)
    gx, gw = paddle.grad(forward(x, w).sum(), [x, w], create_graph=True)
    return [gx, gw, attempt(lambda: paddle.grad((gx * gx).sum() + gw.sum(), [x, w]))]


@program
def second_derivatives_of_matmul_and_tanh(paddle):
    return _second_derivatives(paddle, lambda x, w: paddle.tanh(paddle.matmul(x, w)))


@program
def second_derivatives_of_sigmoid_product(paddle):
    return _second_derivatives(paddle, lambda x, w: paddle.nn.functional.sigmoid(x) * w)


@program
def second_derivatives_of_sqrt_over_tensor(paddle):
    return _second_derivatives(paddle, lambda x, w: paddle.sqrt(x) / w)


@program
def second_derivatives_of_exp_product(paddle):
    return _second_derivatives(paddle, lambda x, w: paddle.exp(x * w))


@program
def second_derivatives_of_log_softmax(paddle):
    """paddle 3.3.1 has no double grad of log_softmax: the first grad with create_graph fails."""
    x = paddle.to_tensor([[0.3, 0.7], [1.2, 0.4]], stop_gradient=False)
    y = paddle.nn.functional.log_softmax(paddle.exp(x * 1.5), axis=1).sum()
    return [attempt(lambda: paddle.grad(y, [x], create_graph=True)), paddle.grad(y, [x])]


@program
def numpy_operands_on_the_left_keep_autograd(paddle):
    """A numpy scalar on the left of an operator gives a tensor of the tensor's dtype, a numpy
    array a tensor of the promoted dtype; both keep autograd."""
    import numpy as np

    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    made = [np.float64(2.0) * x, np.float32(1.5) + x, np.int64(3) - x, np.float64(2.0) / x,
            np.float64(2.0) ** x, np.array([2.0, 3.0]) * x, np.array([2.0, 3.0], dtype=np.float32) - x]
    sum(m.sum() for m in made[:5]).backward()
    return [*made, x.grad]


@program
def tie_gradients_differentiate_by_whole_masks(paddle):
    """maximum and minimum give half the gradient to each side of a tie, but the double-grad
    kernel differentiates it by whole masks: by the seed, 0 for the first operand and 1 for the
    second at a tie (``ddout = ddx * (x > y) + ddy * (x <= y)``)."""
    seen = []
    for op in (paddle.maximum, paddle.minimum):
        x = paddle.to_tensor([1.0, 2.0, 5.0], stop_gradient=False)
        y = paddle.to_tensor([1.0, 3.0, 4.0], stop_gradient=False)
        g = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
        gx, gy = paddle.grad([op(x, y)], [x, y], grad_outputs=[g], create_graph=True)
        by_seed = paddle.grad([gx.sum() + 2 * gy.sum()], [g], retain_graph=True)
        (gx * gx + gy).sum().backward()
        seen += [gx, gy, by_seed, g.grad, x.grad, y.grad]
    return seen


# --- unused and stop_gradient ---------------------------------------------------------------

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


# --- accumulation and .grad -----------------------------------------------------------------

@program
def accumulation_and_clearing(paddle):
    t = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    (t * t).sum().backward()
    (t * 3).sum().backward()
    first = t.grad
    t.clear_grad()
    cleared = t.grad
    (t * 5).sum().backward()
    t.clear_gradient()
    zeroed = t.grad.numpy().copy()  # paddle frees this storage at clear_gradient(False)
    t.clear_gradient(False)
    g = paddle.grad((t * 7).sum(), t)
    return [first, cleared, zeroed, t.grad, g, t.grad_fn.name(), t.is_leaf]


@program
def handed_out_grad_shares_storage(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    (x * 3).sum().backward()
    first = x.grad
    (x * 3).sum().backward()
    second = x.grad
    x.clear_grad()
    (x * 5).sum().backward()
    return [first, second, x.grad]


@program
def non_leaf_grad_and_retain_grads(paddle):
    a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = a * 2
    z = a * 3
    z.retain_grads()
    (y * z).sum().backward(retain_graph=True)
    first = [y.grad, z.grad]
    (y * z).sum().backward()
    paddle.to_tensor([1.0]).retain_grads()
    return first + [z.grad, a.grad]


@program
def flag_changes(paddle):
    q = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    r = (q * q).sum()
    q.stop_gradient = True
    r.backward()
    n = paddle.to_tensor([1.0, 2.0], stop_gradient=False) * 2
    n.stop_gradient = True
    k = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    k.requires_grad = False
    return [q.grad, n.stop_gradient, k.stop_gradient, (k * 2).stop_gradient]


# --- dtypes ---------------------------------------------------------------------------------

@program
def integer_gradients(paddle):
    xi = paddle.to_tensor([1, 2], stop_gradient=False)
    g = paddle.grad(xi * 2, xi)
    h = paddle.grad((xi.astype("float32") * 2).sum(), xi)
    s, s2 = (xi * 2).sum(), (xi * 3).sum()
    return [xi.stop_gradient, g, h, attempt(lambda: paddle.autograd.backward([s, s2]))]


# --- hooks, in-place, modes -----------------------------------------------------------------

@program
def hooks(paddle):
    a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    handle = a.register_hook(lambda g: g * 10)
    g = paddle.grad((a * a).sum(), a)
    (a * a).sum().backward()
    handle.remove()
    (a * 1).sum().backward()
    # values only: paddle runs hooks with recording on, so a hooked .grad carries a grad_fn
    return [g, a.grad.numpy(), attempt(lambda: paddle.to_tensor([1.0]).register_hook(lambda g: g))]


@program
def in_place(paddle):
    a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    e = (a * 1).exp()
    e.add_(paddle.to_tensor([1.0, 1.0]))
    q = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    qq = q * 1
    qq.add_(paddle.to_tensor([1.0, 1.0]))
    qq.scale_(2.0)
    (qq * q).sum().backward()
    r = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    rr = r * 1
    rr[0] = 5.0
    rr.sum().backward()
    s = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    ss = s * 1
    ss.zero_()
    (ss + s).sum().backward()
    return [attempt(lambda: a.add_(paddle.to_tensor([1.0, 1.0]))), attempt(lambda: a.scale_(2.0)),
            attempt(lambda: e.sum().backward()), qq, q.grad, r.grad, s.grad]


@program
def grad_modes(paddle):
    k = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    with paddle.no_grad():
        a = k * 2
        with paddle.enable_grad():
            b = k * 2
    with paddle.set_grad_enabled(False):
        c = k * 2
    return [a.stop_gradient, b.stop_gradient, c.stop_gradient, paddle.is_grad_enabled(),
            (k * 2).detach().stop_gradient]


@program
def ties_and_kinks(paddle):
    x = paddle.to_tensor([[1.0, 3.0, 3.0], [2.0, 2.0, 0.5]], stop_gradient=False)
    outs = [paddle.max(x), paddle.amax(x), paddle.max(x, axis=1), paddle.min(x, axis=0),
            paddle.maximum(x, paddle.to_tensor([[3.0, 3.0, 3.0], [2.0, 2.0, 2.0]])),
            paddle.nn.functional.relu(x - 2), paddle.abs(x - 2), paddle.clip(x, 2.0, 3.0)]
    return [[o, paddle.grad(o.sum(), x)[0]] for o in outs]


@program
def shape_ops(paddle):
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], stop_gradient=False)
    outs = [paddle.reshape(x, [3, 2]), paddle.transpose(x, [1, 0]), paddle.unsqueeze(x, 1),
            paddle.squeeze(paddle.unsqueeze(x, 0)), paddle.expand(x[:, 1:2], [2, 4]), x[1],
            x[:, 0], paddle.concat([x, x * 2], axis=1), paddle.stack([x, x], axis=2),
            paddle.sum(x, axis=0, keepdim=True), paddle.mean(x, axis=[0, 1]),
            paddle.matmul(x, x, transpose_y=True), paddle.nn.functional.softmax(x, axis=0)]
    return [[o, paddle.grad((o * o).sum(), x)[0]] for o in outs]


@program
def promotion(paddle):
    f = paddle.to_tensor([1.0, 2.0])
    return [str((paddle.to_tensor([1, 2]) * 1.5).dtype), str((paddle.to_tensor([1, 2]) / 2).dtype),
            str((f + paddle.to_tensor(2.0, dtype="float64")).dtype),
            attempt(lambda: paddle.to_tensor([1, 2]) + f)]


@program
def hooks_and_retain_grads_in_registration_order(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = x * x
    handed = []
    y.register_hook(lambda g: handed.append((g.stop_gradient, g.grad_fn is None, g.numpy().tolist())))
    y.register_hook(lambda g: g * 2)
    y.retain_grads()
    y.register_hook(lambda g: g * 3)
    x.register_hook(lambda g: handed.append((g.stop_gradient, g.numpy().tolist())))
    y.sum().backward()
    return [handed, y.grad, y.grad.grad_fn is None, x.grad]


@program
def a_hooked_leaf_gradient_keeps_its_history(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    x.register_hook(lambda g: g * 10)
    (x * x).sum().backward()
    return [x.grad, x.grad.grad_fn is None, x.grad.grad_fn.name()]


@program
def reshape_to_the_same_shape_is_the_tensor_itself(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    with paddle.no_grad():
        same = paddle.reshape(x, [2])
        other = paddle.reshape(x, [1, 2])
    (same * 3).sum().backward()
    return [same is x, same.stop_gradient, other.stop_gradient, x.grad, same.grad]


@program
def no_grad_vars_cutting_an_operand_of_a_binary_op(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    w = paddle.to_tensor([0.5, 1.5], stop_gradient=False)
    h = x * 3
    return [paddle.grad((h * w).sum(), [x, w], no_grad_vars=[h], allow_unused=True, retain_graph=True),
            paddle.grad((h + w).sum(), [x, w], no_grad_vars=[h], allow_unused=True, retain_graph=True),
            paddle.grad((h * h).sum() + x.sum(), [x], no_grad_vars=[h])]


@program
def in_place_ops_on_a_leaf_that_requires_grad(paddle):
    """paddle 3.3.1 writes first and raises after (setitem refuses before writing)."""
    seen = []
    for op in ("fill_", "zero_", "scale_", "add_", "setitem"):
        x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
        if op == "setitem":
            failed = attempt(lambda: x.__setitem__(0, 7.0))
        elif op == "add_":
            failed = attempt(lambda: x.add_(paddle.to_tensor([1.0, 1.0])))
        else:
            args = {"fill_": [5.0], "scale_": [2.0]}.get(op, [])
            failed = attempt(lambda: getattr(x, op)(*args))
        seen += [failed, x, x.inplace_version]
    return seen


@program
def a_held_gradient_after_clear_grad_and_another_backward(paddle):
    x = paddle.to_tensor([[1.0, 2.0]], stop_gradient=False)
    (x * x).sum().backward()
    held = x.grad
    x.clear_grad()
    zeroed = held.numpy().tolist()
    (x * 3).sum().backward()
    return [zeroed, held, x.grad]


@program
def pow_recomputes_its_result_instead_of_saving_it(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = paddle.to_tensor([0.5, 1.5], stop_gradient=False)
    p = x ** y
    r = 2.0 ** x
    with paddle.no_grad():
        p[0:1].scale_(10.0)
        r[0:1].scale_(10.0)
    (p.sum() + r.sum()).backward()
    return [x.grad, y.grad, p, r]


@program
def max_and_amax_when_the_saved_input_was_overwritten(paddle):
    """An in-place op on a leaf that requires grad writes, then refuses, leaving the version:
    max_grad then finds no tie (zeros), amax_grad multiplies by an empty mask (NaN)."""
    seen = []
    for reduce in (lambda x: paddle.max(x, axis=0, keepdim=True), lambda x: paddle.amax(x, axis=0)):
        x = paddle.to_tensor([[0.4], [-1.1]], stop_gradient=False)
        y = reduce(x)
        seen.append(attempt(lambda: x.fill_(-0.9)))
        y.sum().backward()
        seen.append(x.grad)
    return seen


@program
def zero_base_pow_by_its_exponent(paddle):
    x = paddle.to_tensor([-1.0, 0.0, 1.0], stop_gradient=False)
    (0.0 ** x).sum().backward()
    return [x.grad]


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
def a_seed_that_requires_grad_takes_part_in_create_graph(paddle):
    """paddle.grad(create_graph=True) connects what it computes to a seed that requires grad."""
    x = paddle.to_tensor([0.5, 1.5], dtype="float64", stop_gradient=False)
    seed = paddle.to_tensor([2.0, 3.0], dtype="float64", stop_gradient=False)
    (g,) = paddle.grad(x * x * x, [x], grad_outputs=[seed], create_graph=True)
    return [g, paddle.grad(g.sum(), [seed, x], create_graph=True)]


@program
def double_grad_of_a_product_with_a_constant(paddle):
    """multiply_grad with a constant operand gives zeros that require grad but have no node;
    a kernel they then pass through (clone's assign) records one."""
    seen = []
    for through_clone in (False, True):
        x = paddle.to_tensor([0.5, 0.9, 1.3], dtype="float64", stop_gradient=False)
        c = paddle.to_tensor([[1.8, -1.8, 0.4]], dtype="float64")
        (g,) = paddle.grad((paddle.multiply(x.clone() if through_clone else x, c)).sum(), [x],
                           create_graph=True)
        (gg,) = paddle.grad(g.sum(), [x], create_graph=True, allow_unused=True)
        seen += [g, gg, gg.stop_gradient, gg.grad_fn is None]
    return seen


@program
def setitem_kernels_by_value(paddle):
    """A number is written by set_value, a tensor by set_value_with_tensor: node names and the
    kernel a create_graph pass finds without a gradient differ."""
    seen = []
    for value in (0.5, paddle.to_tensor([3.0, 4.0], stop_gradient=False)):
        x = paddle.to_tensor([[1.0, 2.0], [5.0, 6.0]], stop_gradient=False)
        y = x * 2
        y[0] = value
        seen += [y.grad_fn.name(), attempt(lambda: paddle.grad(y.sum(), [x], create_graph=True))]
    return seen


@program
def setitem_value_with_leading_ones(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    v = paddle.to_tensor([3.0], stop_gradient=False)
    y = x * 2
    y[0] = v
    y.sum().backward()
    return [y, x.grad, v.grad]


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
def pow_reads_operands_written_by_a_refused_in_place_op(paddle):
    """elementwise_pow_grad recomputes base ** exponent from the operands as they are when it
    runs: a write paddle made before refusing it shows in both gradients."""
    x = paddle.to_tensor([0.5, -1.0], stop_gradient=False)
    y = 2.0 ** x
    refused = attempt(lambda: x.divide_(paddle.to_tensor(2.0)))
    y.sum().backward()
    b = paddle.to_tensor([1.5, 2.5], stop_gradient=False)
    e = paddle.to_tensor([0.5, -1.0], stop_gradient=False)
    z = paddle.pow(b, e)
    refused_too = attempt(lambda: b.scale_(3.0))
    z.sum().backward()
    return [refused, x.grad, refused_too, e.grad, b.grad]


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
def softmax_clips_far_below_the_maximum(paddle):
    """paddle's softmax and log_softmax clip x - max(x) at -64: -inf (log of zero) and far
    entries keep a tiny probability, which reaches the gradient."""
    x = paddle.to_tensor([[0.0, -70.0, -63.0, -65.0]], dtype="float64", stop_gradient=False)
    s = paddle.nn.functional.softmax(x, axis=-1)
    ls = paddle.nn.functional.log_softmax(x, axis=-1)
    z = paddle.to_tensor([[1.4, 0.0, 1.068]], stop_gradient=False)
    paddle.nn.functional.softmax(paddle.log(z), axis=-1).backward(
        paddle.to_tensor([[1.288, 0.792, 1.412]]))
    return [s, ls, paddle.grad((s * s).sum(), x), z.grad]


# --- PyLayer --------------------------------------------------------------------------------

def _tanh_layer(paddle):
    class CusTanh(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x, func1, func2=paddle.square):
            ctx.func = func2
            y = func1(x)
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, dy):
            (y,) = ctx.saved_tensor()
            return dy * (1 - ctx.func(y))
    return CusTanh


@program
def pylayer_forward_backward_and_flags(paddle):
    """The docs' cus_tanh: node name, gradient (which stops gradient), no version check of what
    it saved, create_graph, and a layer none of whose inputs requires grad."""
    layer = _tanh_layer(paddle)
    x = paddle.to_tensor([0.5, 1.0], stop_gradient=False)
    z = layer.apply(x, func1=paddle.tanh)
    z.sum().backward()
    q = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    e = layer.apply(q, paddle.tanh)
    with paddle.no_grad():
        e.scale_(2.0)
    e.sum().backward()
    r = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    created = paddle.grad(layer.apply(r, paddle.tanh).sum(), r, create_graph=True)
    return [z, z.grad_fn.name(), x.grad, q.grad, created,
            layer.apply(paddle.ones([2]), paddle.tanh).stop_gradient]


@program
def pylayer_gradient_for_an_input_that_stops_gradient(paddle):
    class Two(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, a, b):
            return a * b

        @staticmethod
        def backward(ctx, g):
            return g

    b = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    return [attempt(lambda: Two.apply(paddle.ones([2]), b).sum().backward())]


@program
def pylayer_backward_returning_too_many_or_too_few_gradients(paddle):
    """More gradients than tensor inputs is an error; fewer is one where a left-out input
    requires grad; an explicit None is accepted."""
    def layer(returns):
        return custom(paddle.autograd.PyLayer, "Returns", lambda ctx, a, b: a * b,
                      lambda ctx, g: returns(g))

    def run(returns, b_stops=False):
        x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
        w = paddle.to_tensor([3.0, 4.0], stop_gradient=b_stops)
        layer(returns).apply(x, w).sum().backward()
        return [x.grad, w.grad]

    return [attempt(lambda: run(lambda g: (g, g, g))), attempt(lambda: run(lambda g: g)),
            attempt(lambda: run(lambda g: g, b_stops=True)), attempt(lambda: run(lambda g: (g, None)))]


@program
def the_gradient_a_pylayer_backward_is_handed(paddle):
    """It stops no gradient (an explicit seed keeps its node), unless another PyLayer's
    backward returned it."""
    seen = []

    class Ident(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, a):
            return a * 1.0

        @staticmethod
        def backward(ctx, g):
            seen.append([g.stop_gradient, g.grad_fn is not None, g.is_leaf, g])
            return g * 1.0

    def fresh():
        return paddle.to_tensor([1.0, 2.0], stop_gradient=False)

    runs = [
        lambda x: Ident.apply(x).sum().backward(),
        lambda x: Ident.apply(x).backward(),
        lambda x: paddle.grad([Ident.apply(x)], [x], [paddle.to_tensor([1.0, 2.0])]),
        lambda x: paddle.autograd.backward([Ident.apply(x)], [paddle.to_tensor([1.0, 2.0])]),
        lambda x: Ident.apply(Ident.apply(x)).sum().backward(),
        lambda x: (Ident.apply(x) * fresh()).sum().backward(),
        lambda x: paddle.exp(Ident.apply(x)).sum().backward(),
        lambda x: paddle.grad([Ident.apply(x).sum()], [x]),
        lambda x: paddle.grad([Ident.apply(x).sum()], [x], create_graph=True),
    ]
    out = []
    for run in runs:
        seen.clear()
        x = fresh()
        out.append([attempt(lambda: run(x)), [list(s) for s in seen], x.grad])
    return out


@program
def a_pylayer_gradient_stops_gradient_through_hooks_and_retained_grads(paddle):
    """What a PyLayer's backward returns stops gradient: a hook is handed it so, what the hook
    computes from it stops gradient too, and so does the retained .grad made from that."""
    kept, seen = [], []

    def backward(ctx, g):
        (a,) = ctx.saved_tensor()
        ga = g * paddle.cos(a)
        kept.append([ga.stop_gradient, ga.grad_fn is not None, paddle.is_grad_enabled()])
        return ga

    def forward(ctx, a):
        ctx.save_for_backward(a)
        return paddle.sin(a)

    sin = custom(paddle.autograd.PyLayer, "Sin", forward, backward)
    x = paddle.to_tensor([0.5, 1.0], stop_gradient=False)
    v = x * 2.0
    v.register_hook(lambda g: (seen.append(g.stop_gradient), g * 3.0)[1])
    v.retain_grads()
    sin.apply(v).sum().backward()
    y = paddle.to_tensor([0.5, 1.0], stop_gradient=False)
    paddle.autograd.backward([sin.apply(y * 2.0)], [paddle.to_tensor([1.0, 1.0])])
    return [kept, seen, v.grad, x.grad, y.grad]


@program
def a_pylayer_none_and_an_identity_gradient(paddle):
    """paddle.grad: an input a PyLayer returns None for still appears in the backward graph
    (None, no error, even without allow_unused). A backward handing its gradient on unchanged
    gives a .grad that does not stop gradient."""
    def mul_forward(ctx, a, b):
        return a * b

    first_only = custom(paddle.autograd.PyLayer, "FirstOnly", mul_forward,
                        lambda ctx, g: (g * 2.0, None))
    identity = custom(paddle.autograd.PyLayer, "Identity", mul_forward, lambda ctx, g: g)
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    w = paddle.to_tensor([3.0, 4.0], stop_gradient=False)
    v = first_only.apply(x * 1.0, w).mean()
    strict = attempt(lambda: paddle.grad([v], [x, w], retain_graph=True))
    unused = paddle.to_tensor([5.0])
    beyond = attempt(lambda: paddle.grad([v], [x, w, unused], retain_graph=True))
    y = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    identity.apply(y, paddle.to_tensor([3.0, 4.0])).sum().backward()
    return [strict, beyond, y.grad]


@program
def a_hook_on_a_pylayer_output_does_not_change_its_backward(paddle):
    """The hook runs and what it returns is the retained .grad, but the PyLayer's backward is
    handed the gradient as it arrived (paddle.grad too); a hook one op further down counts."""
    calls = []

    def forward(ctx, a):
        o = paddle.exp(a)
        ctx.save_for_backward(o)
        return o

    def backward(ctx, g):
        calls.append(["backward", g])
        (o,) = ctx.saved_tensor()
        return g * o

    exp = custom(paddle.autograd.PyLayer, "Exp", forward, backward)

    def tripled(label):
        return lambda g: (calls.append([label, g]), g * 3.0)[1]

    x = paddle.to_tensor([0.5, -1.5], stop_gradient=False)
    y = exp.apply(x)
    y.register_hook(tripled("hook"))
    y.retain_grads()
    y.sum().backward()
    w = paddle.to_tensor([0.5, -1.5], stop_gradient=False)
    z = exp.apply(w) * 1.0
    z.register_hook(tripled("hook below"))
    z.sum().backward()
    u = paddle.to_tensor([0.5, -1.5], stop_gradient=False)
    v = exp.apply(u)
    v.register_hook(tripled("hook, grad"))
    got = paddle.grad([v.sum()], [u])
    return [calls, x.grad, y.grad, w.grad, got]


@program
def an_unpacked_saved_tensor_stands_where_the_saved_one_was(paddle):
    """What a saved_tensors_hooks unpack returns is put in the saved tensor's place in the graph:
    with create_graph, derivatives through it reach the leaf as the saved tensor did."""
    x = paddle.to_tensor([1.5, 2.0], dtype="float64", stop_gradient=False)
    with paddle.autograd.saved_tensors_hooks(lambda t: t, lambda t: t * -1.0):
        y = paddle.log(x)
    (first,) = paddle.grad([y.sum()], [x], create_graph=True)
    (second,) = paddle.grad([first.sum()], [x], create_graph=True)
    return [first, second]


@program
def a_pylayer_gradient_for_an_input_paddle_grad_does_not_need(paddle):
    """paddle.grad prunes the paths to inputs it was not asked for: a PyLayer returning a
    gradient for an input on such a path fails as one that stops gradient; backward needs it."""
    def forward(ctx, a, b):
        return a * b

    both = custom(paddle.autograd.PyLayer, "Both", forward, lambda ctx, g: (g * 2.0, g * 3.0))
    first = custom(paddle.autograd.PyLayer, "SecondNone", forward, lambda ctx, g: (None, g * 3.0))

    def inputs():
        x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
        return x, paddle.exp(x), paddle.to_tensor([3.0, 4.0], stop_gradient=False)

    x, e, w = inputs()
    pruned = attempt(lambda: paddle.grad([both.apply(e, w).sum()], [w]))
    x, e, w = inputs()
    kept = attempt(lambda: paddle.grad([first.apply(e, w).sum()], [w]))
    x, e, w = inputs()
    asked = attempt(lambda: paddle.grad([both.apply(e, w).sum()], [x, w]))
    x, e, w = inputs()
    both.apply(e, w).sum().backward()
    return [pruned, kept, asked, x.grad, w.grad]


@program
def an_optimizer_step_does_not_bump_the_parameter_version(paddle):
    """paddle's SGD and Adam write the parameters in place without bumping their inplace
    version: a retained graph that saved a parameter runs again with its new values."""
    out = []
    for kind in ("SGD", "Adam"):
        w = paddle.to_tensor([0.5, -1.5], stop_gradient=False)
        opt = getattr(paddle.optimizer, kind)(learning_rate=0.5, parameters=[w])
        s = (w * w).sum()
        s.backward(retain_graph=True)
        opt.step()
        opt.clear_grad()
        out += [w.inplace_version, w, attempt(lambda s=s: s.backward()), w.grad]
    return out


@program
def a_write_to_a_selected_element_reaches_its_base(paddle):
    """x[i] (and w[i, j]) is a 0-d view: a write to it under no_grad changes the base."""
    x = paddle.to_tensor([0.962, 1.172, -1.58], stop_gradient=False)
    v = x[-1]
    with paddle.no_grad():
        v.add_(paddle.to_tensor(0.927))
    w = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    u = w[1, 0]
    u.scale_(10.0)
    return [x, v, w, u]


@program
def clear_gradient_keeps_the_history_a_hook_recorded(paddle):
    """clear_gradient(True) gives new zero storage, but a gradient a hook recorded keeps its
    grad_fn, also after the next backward accumulates into it."""
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    x.register_hook(lambda g: g * -1.0)
    (x * x).sum().backward()
    out = [x.grad.grad_fn is not None]
    x.clear_gradient(True)
    out += [x.grad.grad_fn is not None, x.grad]
    (x * 3.0).sum().backward()
    y = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    (y * y).sum().backward()
    y.clear_gradient(True)
    return out + [x.grad.grad_fn is not None, x.grad, y.grad.grad_fn is not None, y.grad]


@program
def where_makes_a_float32_tensor_of_a_number(paddle):
    """paddle.where(c, 0.893, t) with t float64 rounds 0.893 to float32 first (then promotes);
    multiplying or adding a number does not."""
    x = paddle.to_tensor([1.0, 2.0], dtype="float64")
    c = paddle.to_tensor([True, False])
    return [paddle.where(c, 0.893, x), paddle.where(c, x, 0.893), x * 0.893, x + 0.893]


@program
def what_real_programs_need_on_the_way(paddle):
    """Device boilerplate, the .grad setter, Tensor.gradient() and paddle.base.dygraph.grad."""
    place = paddle.set_device("cpu")
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    before = x.gradient()
    held = paddle.to_tensor([5.0, 5.0])
    x.grad = held
    held.scale_(2.0)
    assigned = x.grad
    (x * x).sum().backward()
    z = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    (z * z).sum().backward()
    z.grad = paddle.to_tensor([7.0, 8.0])
    y = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    return [assigned, z.grad, repr(place), paddle.is_compiled_with_cuda(), paddle.device.get_device(),
            attempt(lambda: paddle.set_device("gpu")), before, x.grad, x.gradient(), held,
            paddle.base.dygraph.grad((y * y).sum(), [y])]


@program
def a_training_loop_with_layers_and_sgd(paddle):
    """Layer / Linear / mse_loss / SGD: gradients accumulate per step and clear_grad zeroes
    them; the weights are set to equal values first."""
    import numpy as np

    class Net(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc1 = paddle.nn.Linear(3, 2)
            self.fc2 = paddle.nn.Linear(2, 1)

        def forward(self, x):
            return self.fc2(paddle.tanh(self.fc1(x)))

    net = Net()
    for p in net.parameters():
        size = int(np.prod(p.shape))
        p.set_value(paddle.to_tensor(np.linspace(-0.5, 0.5, size).reshape(p.shape)
                                     .astype("float32")))
    opt = paddle.optimizer.SGD(learning_rate=0.1, parameters=net.parameters())
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]])
    target = paddle.to_tensor([[1.0], [0.0]])
    seen = [[name for name, _ in net.named_parameters()], net.fc1.bias.stop_gradient]
    for _ in range(3):
        loss = paddle.nn.functional.mse_loss(net(x), target)
        loss.backward()
        opt.step()
        seen += [loss, net.fc1.weight.grad]
        opt.clear_grad()
    net.clear_gradients()
    return seen + [net.fc2.weight, net.fc2.bias.grad, loss.grad_fn.name()]


@program
def lazy_jacobians_and_hessians(paddle):
    """paddle.autograd.jacobian / hessian: shapes (a 0-D side drops out, a batch axis leads),
    indexing, nesting of sequences, and the errors for 0-D indexing and 2-D inputs."""
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = x * x * 3
    jac = paddle.autograd.jacobian(y, x)
    batch = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    batched = paddle.autograd.jacobian(batch * batch, batch, batch_axis=0)
    hess = paddle.autograd.hessian((x * x * x).sum(), x)
    nested = paddle.autograd.jacobian([y, x * 2], [x])
    scalar = paddle.autograd.jacobian((x * x).sum(), x)
    s = paddle.to_tensor(2.0, stop_gradient=False)
    return [type(jac).__name__, jac.shape, jac[:], jac[0], jac[:, 1], jac[-1], jac[0:2, 1],
            batched.shape, batched[:], batched[1], type(hess).__name__, hess.shape, hess[:],
            len(nested), len(nested[0]), nested[1][0][:], scalar.shape, scalar[:],
            attempt(lambda: paddle.autograd.jacobian(s * s, s)[:]),
            attempt(lambda: paddle.autograd.jacobian(batch * batch, batch))]


@program
def sequential_models_and_random_shapes(paddle):
    """nn.Sequential with activation layers (weights set to equal values), and what random
    tensors share with paddle's: shapes, dtypes and flags (not values)."""
    import numpy as np

    paddle.seed(0)
    net = paddle.nn.Sequential(paddle.nn.Linear(3, 4), paddle.nn.ReLU(), paddle.nn.Linear(4, 1),
                               paddle.nn.Tanh())
    for p in net.parameters():
        size = int(np.prod(p.shape))
        p.set_value(paddle.to_tensor(np.linspace(-0.7, 0.9, size).reshape(p.shape)
                                     .astype("float32")))
    x = paddle.to_tensor([[1.0, -2.0, 0.5], [0.3, 0.8, -1.1]])
    net(x).sum().backward()
    noise = paddle.randn([2, 3])
    return [[name for name, _ in net.named_parameters()], len(net), type(net[1]).__name__,
            net[0].weight.grad, net[2].bias.grad, noise.shape, str(noise.dtype),
            noise.stop_gradient, paddle.rand([4]).shape]


@program
def a_regression_with_adam(paddle):
    """paddle.optimizer.Adam over a few steps (paddle's bias correction and epsilon)."""
    w = paddle.to_tensor([[0.2, -0.4], [0.1, 0.5], [0.3, -0.2]], stop_gradient=False)
    opt = paddle.optimizer.Adam(learning_rate=0.05, parameters=[w])
    x = paddle.to_tensor([[1.0, 2.0, 0.5], [0.3, -1.0, 2.0]])
    target = paddle.to_tensor([[1.0, 0.0], [0.0, 1.0]])
    seen = []
    for _ in range(4):
        loss = paddle.nn.functional.mse_loss(paddle.matmul(x, w), target)
        loss.backward()
        opt.step()
        opt.clear_grad()
        seen += [loss, paddle.to_tensor(w.numpy())]
    return seen


@program
def classification_losses_and_linear(paddle):
    """nn.functional.cross_entropy / linear, the CrossEntropyLoss and MSELoss layers, and
    optimizer.minimize after a backward."""
    x = paddle.to_tensor([[1.0, 2.0, 0.5], [0.3, -1.0, 2.0]], stop_gradient=False)
    label = paddle.to_tensor([1, 2])
    loss = paddle.nn.functional.cross_entropy(x, label)
    loss.backward()
    w = paddle.to_tensor([[1.0, 0.0], [0.5, 1.0], [0.0, 2.0]], stop_gradient=False)
    out = paddle.nn.functional.linear(x, w, paddle.to_tensor([0.1, 0.2]))
    opt = paddle.optimizer.SGD(learning_rate=0.5, parameters=[w])
    mse = paddle.nn.MSELoss()(out, out.detach() * 0)
    mse.backward()
    refused = attempt(lambda: opt.minimize(None))
    opt.minimize(mse)
    return [loss, x.grad, paddle.nn.CrossEntropyLoss()(x, paddle.to_tensor([[1], [2]])),
            paddle.nn.functional.cross_entropy(x, label, reduction="sum"),
            paddle.nn.functional.cross_entropy(x, label, reduction="none"),
            paddle.nn.functional.cross_entropy(x, paddle.to_tensor([[0], [1]]), reduction="none"),
            out, w, refused]


@program
def tensor_helpers_around_autograd(paddle):
    """Constructors, comparisons and composed differentiable helpers paddle programs use."""
    x = paddle.to_tensor([[3.0, 4.0], [1.0, 2.0]], stop_gradient=False)
    n = paddle.norm(x)
    scaled = paddle.scale(x, 2.0, 1.0)
    (n + scaled.sum() + paddle.flatten(x).sum() + x.t().sum()).backward()
    return [paddle.allclose(x, x), paddle.equal(x, x * 1), paddle.arange(5),
            paddle.arange(0, 1, 0.25), paddle.linspace(0, 1, 5), paddle.eye(2),
            paddle.full([2], 3.0), paddle.numel(x), paddle.argmax(x), paddle.argmax(x, axis=1),
            n, paddle.flatten(x), scaled.grad_fn.name(), paddle.sign(x),
            paddle.neg(x).grad_fn.name(), x.t().grad_fn.name(), x.T.shape,
            str(x.cast("float64").dtype), paddle.is_tensor(x), paddle.assign(x).grad_fn.name(),
            paddle.mm(x, x).grad_fn.name(), x.grad]


@program
def pylayer_context_flags(paddle):
    """mark_non_differentiable (the output stops gradient but keeps its node),
    set_materialize_grads and mark_not_inplace."""
    NonDifferentiable, Unmaterialized = context_flag_functions(paddle.autograd.PyLayer)  # noqa: N806

    class NotInPlace(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_not_inplace(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = NonDifferentiable.apply(x)
    Unmaterialized.apply(x).sum().backward()
    w = paddle.to_tensor([1.0, 2.0], stop_gradient=False) * 1
    r = NotInPlace.apply(w)
    r.sum().backward()
    return [y.stop_gradient, y.grad_fn is None, x.grad, r is w, r.stop_gradient]


@program
def saved_tensors_hooks_pack_and_unpack(paddle):
    """paddle.autograd.saved_tensors_hooks: each saved tensor packed, unpacked in backward."""
    seen = []

    def pack(t):
        seen.append(("pack", list(t.shape)))
        return t

    def unpack(t):
        seen.append(("unpack", list(t.shape)))
        return t

    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    with paddle.autograd.saved_tensors_hooks(pack, unpack):
        z = paddle.exp(x) * x
    z.sum().backward()
    a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    with paddle.autograd.saved_tensors_hooks(lambda t: t, lambda t: t * 0 + 5):
        b = a * a
    b.sum().backward()
    return [seen, x.grad, a.grad]


@program
def augmented_assignment_makes_a_new_tensor(paddle):
    """paddle has no in-place operators: ``w -= x`` binds ``w`` to a new tensor (which, under
    no_grad, stops gradient), and the old one keeps its values."""
    w = paddle.to_tensor([1.0, -2.0], stop_gradient=False)
    kept = w
    with paddle.no_grad():
        w -= 0.5
    v = paddle.to_tensor([1.0, -2.0])
    held = v
    v *= 3
    return [w is kept, w, w.stop_gradient, kept, held is v, held, v, kept.inplace_version]


@program
def more_tensor_functions_around_autograd(paddle):
    """var / std, cumsum (flattened without an axis), index_select, tile and masked_fill,
    composed from the core's operations, with their gradients."""
    x = paddle.to_tensor([[1.0, 2.0, 4.0], [3.0, 5.0, 9.0]], stop_gradient=False)
    picks = paddle.to_tensor([2, 0])
    weights = paddle.arange(12, dtype="float32").reshape([4, 3])
    total = (paddle.var(x) + paddle.std(x, axis=1).sum() + (paddle.cumsum(x, axis=1) * x).sum()
             + paddle.index_select(x, picks, axis=1).sum()
             + (paddle.tile(x, [2, 1]) * weights).sum() + paddle.masked_fill(x, x > 3, 0.0).sum())
    total.backward()
    return [paddle.var(x), paddle.std(x, axis=1), paddle.var(x, axis=0, unbiased=False),
            paddle.cumsum(x), paddle.cumsum(x, axis=1), paddle.index_select(x, picks, axis=1),
            paddle.tile(x, [2, 1]).shape, paddle.masked_fill(x, x > 3, 0.0), x.grad]


@program
def a_cleared_gradient_keeps_and_takes_a_pylayers_flag(paddle):
    """clear_grad() zeroes a gradient a PyLayer's backward made and keeps its stop_gradient;
    the next gradient to arrive replaces the zeros with its own flag, whichever it is."""
    Scale = custom(paddle.autograd.PyLayer, "Scale", lambda ctx, a: a * 3.0,  # noqa: N806
                   lambda ctx, g: g * 3.0)
    x = paddle.to_tensor([-0.5, 0.5], stop_gradient=False)
    Scale.apply(x).mean().backward()
    seen = [x.grad.stop_gradient]
    x.clear_grad()
    seen += [x.grad.stop_gradient, x.grad]
    (x * 2.0).sum().backward()
    seen += [x.grad.stop_gradient, x.grad]
    y = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    (y * 2.0).sum().backward()
    y.clear_gradient(True)
    seen.append(y.grad.stop_gradient)
    Scale.apply(y).sum().backward()
    seen += [y.grad.stop_gradient, y.grad]
    return seen


@program
def momentum_carries_the_first_gradient_into_later_steps(paddle):
    """paddle.optimizer.Momentum, plain and Nesterov: the velocity starts at the first gradient;
    the updates do not bump the parameter's inplace version."""
    seen = []
    for nesterov in (False, True):
        p = paddle.to_tensor([1.0, -2.0], stop_gradient=False)
        opt = paddle.optimizer.Momentum(learning_rate=0.1, momentum=0.9, parameters=[p],
                                        use_nesterov=nesterov)
        for scale in (1.0, 2.0, 3.0):
            (p * p * scale).sum().backward()
            opt.step()
            opt.clear_grad()
            seen.append(p.numpy().tolist())
        seen.append(p.inplace_version)
    return seen


@program
def an_assigned_gradient_takes_the_flag_of_the_one_held_before(paddle):
    """x.grad = t copies t's values; the gradient keeps the stop_gradient of the gradient the
    tensor held before, even one cleared to None (clear_gradient(False) or assigning None) or of
    another shape; only a tensor that never had a gradient gets one that stops gradient."""
    def state(t):
        return None if t.grad is None else [t.grad.numpy().tolist(), t.grad.stop_gradient]

    seen = []
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    (x * 2).sum().backward()
    x.clear_gradient(False)
    x.grad = paddle.to_tensor([4.0, 4.0])
    seen.append(state(x))
    (x * 2).sum().backward()
    seen.append(state(x))
    y = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y.grad = paddle.to_tensor([1.0, 1.0])
    y.clear_gradient(False)
    y.grad = paddle.to_tensor([3.0, 3.0])
    seen.append(state(y))
    u = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    (u * 2).sum().backward()
    u.grad = None
    seen.append(state(u))
    u.grad = paddle.to_tensor([3.0, 3.0])
    seen.append(state(u))
    w = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    (w * 2).sum().backward()
    w.grad = paddle.to_tensor([1.0, 1.0, 1.0])
    seen.append(state(w))
    hooked = paddle.to_tensor([1.0, 2.0], stop_gradient=False)  # a hook recorded the gradient
    hooked.register_hook(lambda g: g * 3)
    (hooked * 2).sum().backward()
    hooked.clear_gradient(False)
    hooked.grad = paddle.to_tensor([4.0, 4.0])
    seen += [state(hooked), hooked.grad.grad_fn is not None]
    return seen


@program
def a_pylayer_with_two_outputs(paddle):
    """A PyLayer returning two tensors: backward is handed one gradient per output (zeros for
    an unused one, None without materialized gradients), a hook on one output does not change
    what backward is handed, retain_grads keeps that output's gradient, double grad goes
    through a differentiable backward, and a non-differentiable output stops gradient."""
    Two, Split, handed = two_output_functions(paddle.autograd.PyLayer, lambda ctx: ctx.saved_tensor(),  # noqa: N806
                                              lambda x: paddle.cast(x > 0, x.dtype))
    x = paddle.to_tensor([1.0, -2.0], stop_gradient=False)
    y = paddle.to_tensor([0.5, 3.0], stop_gradient=False)
    a, b = Two.apply(x, y)
    gx, gy = paddle.grad((a * b).sum(), [x, y], create_graph=True)
    seen = [gx, gy, gx.stop_gradient]
    s, positive = Split.apply(x)
    s.sum().backward()
    # read now: a gradient tensor held past clear_gradient(False) is left uninitialized
    seen += [positive.stop_gradient, s.stop_gradient, handed, x.grad.numpy().tolist()]
    x.clear_gradient(False)
    y.clear_gradient(False)
    a, b = Two.apply(x, y)
    a.register_hook(lambda g: g * 100)
    b.retain_grads()
    (a.sum() * 2 + b.sum()).backward()
    seen += [x.grad, y.grad, b.grad, a.grad]
    a, b = Two.apply(x, y)
    seen.append(attempt(lambda: paddle.grad(a.sum(), x)))  # the pruned y gets a gradient
    return seen


@program
def exp_in_place_and_divide_save_their_output(paddle):
    """exp_ saves its output at the version the write gave it, and divide (a tensor divisor or
    dividend, not a number divisor) saves its output too: a later in-place write to either
    output fails the backward with paddle's version error."""
    divisor = paddle.to_tensor(1.5)
    writes = {"exp": lambda h: h.exp_(), "add": lambda h: h.add_(divisor),
              "div": lambda h: h.divide_(divisor), "scale": lambda h: h.scale_(0.5)}
    seen = []
    for ops in (("exp",), ("exp", "exp"), ("exp", "add"), ("add", "exp"), ("div", "exp"),
                ("scale", "exp")):
        x = paddle.to_tensor([0.5, -1.0], stop_gradient=False)
        h = x * 2
        for op in ops:
            writes[op](h)
        seen += [h.inplace_version, attempt(lambda: h.sum().backward()), x.grad]
    for made in (lambda x: x / 2.0, lambda x: 2.0 / x, lambda x: x / paddle.to_tensor(2.0)):
        x = paddle.to_tensor([0.5, -1.0], stop_gradient=False)
        q = made(x)
        q.add_(divisor)
        seen += [attempt(lambda: q.sum().backward()), x.grad]
    return seen


@program
def a_gradient_held_past_its_release_is_uninitialized(paddle):
    """A gradient tensor held while the gradient is cleared to None (clear_gradient(False),
    assigning None) keeps its shape but reads as no values; cleared to zeros it reads zeros;
    the next backward's gradient is new storage."""
    seen = []
    for clear in (lambda x: x.clear_gradient(False), lambda x: setattr(x, "grad", None),
                  lambda x: x.clear_gradient(True)):
        x = paddle.to_tensor([1.0, -2.0], stop_gradient=False)
        (x * 3).sum().backward()
        held = x.grad
        clear(x)
        seen += [list(held.shape), held.numpy().shape, held.numpy().tolist()]
        (x * 2).sum().backward()
        seen += [held.numpy().tolist(), x.grad]
    return seen


@program
def batched_jacobians_and_hessians_check_in_paddles_order(paddle):
    """jacobian / hessian with batch_axis: ys is checked before xs (1 or 2 dims), hessian
    checks ys's size (per batch row with a batch axis, where a 0-D ys fails at ys[0]) and the
    batch axis itself; an integer index past an axis is paddle's OutOfRange error."""
    x = paddle.to_tensor([[0.1, 0.2], [0.3, 0.4]], dtype="float64", stop_gradient=False)
    v = paddle.to_tensor([0.1, 0.2, 0.3], dtype="float64", stop_gradient=False)
    seen = []
    for ys, axis in ((x * x, None), ((x * x).sum(), 0), (x * x, 0), ((x * x).sum(axis=1), 1),
                     ((x * x).sum(axis=1), 0), ((x * x).sum(), None)):
        seen.append(attempt(lambda: paddle.autograd.hessian(ys, x, batch_axis=axis)[:]))
    for ys, xs in (((v * v).reshape([1, 3, 1]), v), (v * v, v.reshape([1, 1, 3])),
                   ((v * v).sum(), v)):
        seen.append(attempt(lambda: paddle.autograd.jacobian(ys, xs, batch_axis=0).shape))
    scalar = paddle.to_tensor(0.5)
    seen += [attempt(lambda: scalar[0]), attempt(lambda: x[2]), attempt(lambda: x[0, -3]),
             attempt(lambda: x[:, 5])]
    return seen


@program
def comparisons_and_truth_reductions(paddle):
    """Tensor.equal / not_equal / less_than / less_equal / greater_than / greater_equal and
    all / any (over everything or an axis): bool tensors that stop gradient."""
    a = paddle.to_tensor([[1.0, 2.0], [3.0, 0.0]], stop_gradient=False)
    b = paddle.to_tensor([[1.0, 0.0], [3.0, 5.0]])
    same = a.equal(b)
    return [same, a.not_equal(b), a.less_than(b), a.less_equal(b), a.greater_than(b),
            a.greater_equal(b), same.all(), same.any(axis=1), (a > 0).all(axis=0, keepdim=True),
            same.stop_gradient]


@program
def floor_ceil_round_and_argmin(paddle):
    """floor, ceil and round (halves to even) have zero derivatives; argmin is an int64 index
    that stops gradient."""
    x = paddle.to_tensor([0.4, 1.6, -2.5], stop_gradient=False)
    seen = []
    for name in ("floor", "ceil", "round"):
        y = getattr(x, name)()
        (y * x).sum().backward()
        seen += [y, getattr(paddle, name)(x), x.grad.numpy().tolist()]
        x.clear_gradient(False)
    return seen + [x.argmin(), paddle.argmin(x, axis=0, keepdim=True), x.argmin().stop_gradient]


@program
def the_norm_and_its_gradient_at_zero(paddle):
    """Tensor.norm is one PNormGradNode; its gradient is a / norm, and 0 where the norm is 0."""
    zero = paddle.zeros([2])
    zero.stop_gradient = False
    zero.norm().backward()
    rows = paddle.to_tensor([[1.0, 2.0], [3.0, 0.0]], stop_gradient=False)
    total = rows.norm()
    total.backward()
    return [zero.grad, rows.grad, total.grad_fn.name(), paddle.linalg.norm(rows, axis=1)]


@program
def split_chunk_and_unbind_make_copies_of_one_node(paddle):
    """split (into a number of pieces or by sections, -1 for the rest), chunk and unbind: every
    piece is an output of one node (SplitWithNumGradNode, SplitGradNode, UnbindGradNode), a
    new tensor for split and chunk (unbind's pieces view the input); a piece no gradient
    reached gets zeros, which its hooks and retained gradient see (stopping gradient)."""
    x = paddle.to_tensor([0.0, 1, 2, 3, 4, 5], stop_gradient=False)
    a, b, c = paddle.split(x, 3)
    result = [a.grad_fn.name(), a.shape]
    (a * c.sum()).sum().backward()
    result.append(x.grad)
    m = paddle.to_tensor([[0.0, 1, 2], [3, 4, 5]], stop_gradient=False)
    p, q = paddle.split(m, [1, -1], axis=1)
    result += [p.grad_fn.name(), p.shape, q.shape, [t.shape for t in m.chunk(3, axis=1)],
               m.unbind(1)[0].grad_fn.name(), paddle.unbind(paddle.to_tensor([1.0, 2.0]))[0].shape]
    result.append(paddle.grad(m.unbind(1)[2].sum() * 3, m))
    for bad in (lambda: paddle.split(m, [1, 1], axis=1), lambda: paddle.split(m, 2, axis=1),
                lambda: m.chunk(4, axis=1), lambda: m.chunk(0, axis=1), lambda: m.unbind(2)):
        result.append(attempt(bad))
    s = paddle.to_tensor([0.0, 1, 2, 3, 4, 5], stop_gradient=False)
    t = s * 1
    p1, p2 = paddle.split(t, 2)
    p1.scale_(2)
    result += [t, p1.grad_fn.name()]
    seen = []
    p2.register_hook(lambda g: seen.append(g))
    p2.retain_grads()
    (p1 * 2).sum().backward()
    result += [s.grad, seen, [g.stop_gradient for g in seen], p2.grad]
    return result


@program
def prod_divides_by_the_input(paddle):
    """paddle's prod gradient is ``g * result / x``: nan where an element is zero; prod_grad
    has no double grad."""
    result = []
    for values in ([2.0, 3.0, 4.0], [2.0, 0.0, 4.0], [0.0, 0.0, 4.0]):
        x = paddle.to_tensor(values, stop_gradient=False)
        y = paddle.prod(x)
        y.backward()
        result += [y.grad_fn.name(), x.grad]
    m = paddle.to_tensor([[2.0, 0.0], [3.0, 4.0]], stop_gradient=False)
    for f in (lambda t: t.prod(1), lambda t: paddle.prod(t, axis=0, keepdim=True),
              lambda t: paddle.prod(t, [0, 1])):
        r = f(m)
        result += [r.shape, paddle.grad(r.sum(), m)]
    z = paddle.to_tensor([2.0, 3.0, 4.0], stop_gradient=False)
    result.append(attempt(lambda: paddle.grad(paddle.grad(z.prod(), z, create_graph=True)[0].sum(), z)))
    return result


@program
def setting_the_flag_gives_a_tensor_its_accumulation_node(paddle):
    """A tensor no node made (linspace, eye, detach, an op on constants) has no grad_fn until
    its stop_gradient (either way) or requires_grad is set: then it shows GradNodeAccumulation.
    to_tensor, ones, arange and full show theirs from the start."""
    def node(t):
        return t.grad_fn.name() if t.grad_fn is not None else None
    made = [paddle.linspace(0.0, 1.0, 5), paddle.eye(2), paddle.ones([2]).detach(),
            paddle.linspace(0.0, 1.0, 5) * 2.0, paddle.linspace(0.0, 1.0, 3)]
    result = [[node(t) for t in made], node(paddle.ones([2])), node(paddle.arange(3, dtype="float32"))]
    made[0].stop_gradient = True
    made[1].stop_gradient = False
    made[2].stop_gradient = False
    made[3].stop_gradient = False
    made[4].requires_grad = False
    result.append([(node(t), t.is_leaf, t.stop_gradient) for t in made])
    (made[1] * 3.0).sum().backward()
    result.append(made[1].grad)
    return result


@program
def an_expanded_tensor_is_a_copy(paddle):
    """paddle's expand makes a new tensor: a later write to its source does not show in it."""
    x = paddle.to_tensor([[1.5], [-2.0], [0.5]], dtype="float64", stop_gradient=False)
    v = paddle.expand(paddle.transpose(x, [1, 0]), [3, 3])
    with paddle.no_grad():
        x.scale_(2.0)
    w = paddle.to_tensor([[0.5, 1.0, -1.0], [2.0, 0.5, 1.0], [1.0, -1.0, 0.25]], dtype="float64",
                         stop_gradient=False)
    paddle.mm(v, w).sum().backward()
    return [v, w.grad, x.grad]


@program
def equal_all_compares_shape_and_values(paddle):
    """paddle.equal_all: a 0-D bool tensor for shape and values; mixed dtypes and anything but a
    tensor are paddle's InvalidArgument errors. linspace computes as the kernel does."""
    a = paddle.to_tensor([1.0, 2.0])
    return [paddle.equal_all(a, a * 1), paddle.equal_all(a, paddle.to_tensor([1.0, 2.0, 3.0])),
            attempt(lambda: paddle.equal_all(a, paddle.to_tensor([1.0, 2.0], dtype="float64"))),
            attempt(lambda: paddle.equal_all(a, None)), attempt(lambda: paddle.equal_all(None, a)),
            attempt(lambda: paddle.equal_all(a, 3)),
            paddle.linspace(0.1, 0.7, 7), paddle.linspace(-2.5, 3.3, 11, dtype="float64"),
            paddle.equal_all(paddle.linspace(0.0, 1.0, 5), paddle.to_tensor([0.0, 0.25, 0.5, 0.75, 1.0]))]


@program
def a_matrix_product_of_two_dtypes_is_refused(paddle):
    """matmul, mm, dot and bmm refuse operands of different dtypes: the kernel reads the second
    operand as the first's type (dot the other way), after checking the sizes."""
    def ones(shape, dtype="float32"):
        return paddle.ones(shape, dtype=dtype)
    return [attempt(fn) for fn in (
        lambda: paddle.mm(ones([2, 3]), ones([3, 2], "float64")),
        lambda: paddle.matmul(ones([2, 3], "int64"), ones([3, 2])),
        lambda: paddle.matmul(ones([3]), ones([3], "float64")),
        lambda: paddle.dot(ones([3]), ones([3], "float64")),
        lambda: paddle.bmm(ones([1, 2, 3]), ones([1, 3, 2], "float64")),
        lambda: paddle.matmul(ones([2, 3]), ones([2, 2], "float64")),
        lambda: paddle.matmul(ones([2, 3], "int64"), ones([3, 2], "int64")))]


@program
def an_unused_output_of_a_pylayer_hands_its_hooks_none(paddle):
    """A PyLayer's output no gradient reached: its hooks are handed None (backward is handed
    zeros), its retained gradient stays None, and a hook that returns a tensor for it is
    paddle's error."""
    Two, _, _ = two_output_functions(paddle.autograd.PyLayer, lambda ctx: ctx.saved_tensor(),  # noqa: N806
                                     lambda x: paddle.cast(x > 0, x.dtype))
    x = paddle.to_tensor([1.0, -2.0], stop_gradient=False)
    y = paddle.to_tensor([0.5, 3.0], stop_gradient=False)
    a, b = Two.apply(x, y)
    seen = []
    b.retain_grads()
    b.register_hook(lambda g: seen.append(g))
    a.sum().backward()
    result = [seen, b.grad, x.grad, y.grad]
    a, b = Two.apply(x, y)
    b.register_hook(lambda g: paddle.ones([2]) * 5.0)
    return result + [attempt(lambda: a.sum().backward())]


@program
def more_elementwise_functions(paddle):
    """tan, sinh, cosh, atan, asin, acos, log1p, expm1, log2, log10, reciprocal, rsqrt and erf:
    values, gradients, the second derivative or paddle's error where the kernel has none, and
    which tensor each kernel reads (tan its input, unlike torch)."""
    seen = []
    for name in MORE_ELEMENTWISE:
        x = paddle.to_tensor([0.3, 0.6], dtype="float64", stop_gradient=False)
        y = getattr(paddle, name)(x)
        seen += [name, y, y.grad_fn.name(), paddle.grad(y.sum(), x)]
        seen.append(attempt(lambda: paddle.grad(paddle.grad(y.sum(), x, create_graph=True)[0].sum(), x)))
        seen += backward_after_writing(x, lambda t: getattr(t, name)(), paddle.no_grad,
                                       lambda t: t.scale_(1.0))
    return seen


@program
def leaky_relu_and_its_double_backward(paddle):
    """leaky_relu: the slope side's gradient; its double-grad node is not connected to the
    input, and has no grad of its own."""
    x = paddle.to_tensor([-0.7, 0.0, 1.2], dtype="float64", stop_gradient=False)
    y = paddle.nn.functional.leaky_relu(x, 0.1)
    g, = paddle.grad(y.sum(), x, create_graph=True)
    return [y, y.grad_fn.name(), g, g.grad_fn.name(), attempt(lambda: paddle.grad(g.sum(), x)),
            paddle.grad(g.sum(), x, allow_unused=True),
            attempt(lambda: paddle.grad(g.sum(), x, create_graph=True, allow_unused=True)),
            paddle.nn.functional.leaky_relu(x).sum()]


@program
def softplus_elu_gelu_and_silu(paddle):
    """softplus (beta, threshold), elu (alpha), gelu (exact, tanh) and silu: values,
    gradients, the double-grad node (gelu has none) and which tensors each kernel reads (elu
    and silu their output too)."""
    functional = paddle.nn.functional
    seen = []
    for name, fn in (("softplus", lambda t: functional.softplus(t, beta=2.0, threshold=1.0)),
                     ("elu", lambda t: functional.elu(t, 0.5)), ("gelu", functional.gelu),
                     ("gelu_tanh", lambda t: functional.gelu(t, approximate=True)),
                     ("silu", functional.silu)):
        x = paddle.to_tensor([0.5, -1.2, 0.0, 0.8], dtype="float64", stop_gradient=False)
        y = fn(x)
        seen += [name, y, y.grad_fn.name(), paddle.grad(y.sum(), x)]
        first = attempt(lambda: paddle.grad(fn(x).sum(), x, create_graph=True)[0])
        seen.append(first)
        if "error" not in first:
            g, = paddle.grad(fn(x).sum(), x, create_graph=True)
            seen += [g.grad_fn.name(), paddle.grad(g.sum(), x)]
        seen += backward_after_writing(x, fn, paddle.no_grad, lambda t: t.scale_(1.0))
    return seen


@program
def a_nan_gradient_through_relu_abs_and_maximum(paddle):
    """paddle's relu and maximum kernels multiply the gradient by their mask, so a nan gradient
    stays nan where the mask is 0; abs's kernel gives 0 at 0 whatever the gradient."""
    x = paddle.to_tensor([-1.0, 0.0, 2.0], stop_gradient=False)
    nan = paddle.to_tensor(float("nan"))
    functional = paddle.nn.functional
    return [paddle.grad((fn(x) * nan).sum(), x) for fn in (
        functional.relu, paddle.abs, lambda t: paddle.maximum(t, paddle.zeros([3])),
        lambda t: paddle.minimum(t, paddle.zeros([3])), lambda t: paddle.clip(t, -0.5, 1.0))]


@program
def set_value_writes_without_a_version(paddle):
    """Tensor.set_value writes new values without a version change or a record: a backward
    afterwards reads them (no version error); a value of another shape is refused."""
    import numpy as np
    c = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = c * c
    start = c.inplace_version
    c.set_value(np.array([5.0, 6.0], np.float32))
    y.sum().backward()
    return [c, c.inplace_version - start, c.grad,
            attempt(lambda: c.set_value(np.array([1.0, 2.0, 3.0], np.float32))),
            paddle.in_dynamic_mode(), str(paddle.CPUPlace()),
            paddle.to_tensor([1.0], place=paddle.CPUPlace())]


@program
def norms_of_other_orders(paddle):
    """linalg.norm with p = 1, 3, inf, 0.5, -inf, 1.5: PNormGradNode; its gradient is nan at a
    zero for p < 1, and for inf each tied element gets all of it; no p-norm has a double grad."""
    seen = []
    for p in (1, 3, float("inf"), 0.5, float("-inf"), 1.5):
        x = paddle.to_tensor([[3.0, -4.0, 0.0], [1.0, 2.0, -2.0]], stop_gradient=False)
        y = paddle.linalg.norm(x, p=p)
        seen += [y, y.grad_fn.name(), paddle.grad(y, x),
                 paddle.grad(paddle.norm(x, p=p, axis=1, keepdim=True).sum(), x)]
    x = paddle.to_tensor([3.0, -4.0], stop_gradient=False)
    for p in (2, 3):  # p_norm_grad has no grad op
        seen.append(attempt(lambda: paddle.grad(paddle.linalg.norm(x, p=p), x, create_graph=True)))
    return seen


@program
def masked_fill_is_one_node(paddle):
    """masked_fill with a number records MaskedFillGradNode; its gradient comes from
    MaskedFillDoubleGradNode when the pass records."""
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = paddle.masked_fill(x, x > 1.5, 0.5)
    g, = paddle.grad(y, x, paddle.ones([3]), create_graph=True)
    return [y, y.grad_fn.name(), g, g.grad_fn.name(), x.masked_fill(x < 1.5, -1.0)]


@program
def var_and_std_divide_by_a_tensor(paddle):
    """paddle's var divides the sum of squares by the count as a tensor (DivideGradNode); std
    is its square root."""
    x = paddle.to_tensor([[0.5, 1.2, 0.8], [1.5, 0.3, 0.9]], dtype="float64", stop_gradient=False)
    seen = []
    for fn in (lambda t: paddle.var(t), lambda t: paddle.std(t), lambda t: paddle.var(t, axis=1),
               lambda t: paddle.std(t, axis=0, unbiased=False)):
        out = fn(x)
        seen += [out, out.grad_fn.name(), paddle.grad(out.sum(), x)]
    return seen


@program
def functions_composed_from_the_core(paddle):
    """flip, roll, tril/triu, diag both ways, diagonal, trace, outer, logsumexp, lerp (whose
    weight gets no gradient), hypot, logaddexp, broadcast_to, topk (whose indices are
    recorded), sort, gather, add_n, l1_loss and normalize: values, node names and gradients;
    isnan / any / all."""
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, -6.0]], stop_gradient=False)
    v = paddle.to_tensor([0.5, -1.0, 2.0], stop_gradient=False)
    w = paddle.to_tensor(0.25, stop_gradient=False)
    index = paddle.to_tensor([1, 0, 1])
    nnf = paddle.nn.functional
    outs = [paddle.flip(x, 0), paddle.flip(x, [0, 1]), x.flip(1), paddle.roll(x, 1),
            paddle.roll(x, [1, -1], [0, 1]), paddle.tril(x), x.triu(1), paddle.tril(x, -1),
            paddle.diag(v), paddle.diag(v, 1), paddle.diag(v, -2, padding_value=3.0),
            paddle.diag(x), paddle.diag(x, 1), paddle.diagonal(x), x.diagonal(-1),
            paddle.trace(x), paddle.trace(x, 1), paddle.outer(v, v), paddle.logsumexp(x, 1),
            paddle.logsumexp(x), paddle.logsumexp(x, [0, 1], keepdim=True),
            paddle.lerp(x, x * 2, 0.3), paddle.lerp(x, x.exp(), w), paddle.hypot(x, x * 3),
            paddle.logaddexp(x, x * 0.5), paddle.broadcast_to(v, (2, 3)), paddle.topk(x, 2)[0],
            paddle.topk(x, 2, axis=0, largest=False)[0], paddle.sort(x, descending=True),
            paddle.sort(x, axis=0), paddle.gather(x, index), paddle.gather(x, index, axis=1),
            paddle.add_n([x, x * 2, x.exp()]), paddle.add_n([x]), nnf.l1_loss(x, x * 2),
            nnf.l1_loss(x, x * 2, "sum"), nnf.normalize(x), nnf.normalize(x, p=1, axis=0)]
    sum((o * (i + 1)).sum() for i, o in enumerate(outs)).backward()
    values, indices = paddle.topk(x, 2)
    return ([o.detach() for o in outs] + [o.grad_fn.name() for o in outs]
            + [x.grad, v.grad, w.grad, indices, indices.stop_gradient, indices.grad_fn.name(),
               paddle.isnan(x), paddle.isinf(x / 0), paddle.isfinite(x), paddle.any(x > 4),
               x.all(), attempt(lambda: paddle.topk(x, 4)), attempt(lambda: paddle.topk(x, -1)),
               attempt(lambda: paddle.roll(x, [1, 2], [0])),
               attempt(lambda: paddle.diag(paddle.ones([2, 2, 2]))),
               attempt(lambda: paddle.add_n([])), attempt(lambda: paddle.trace(v))])


@program
def composed_functions_show_the_framework_node(paddle):
    """index_select, cumsum, tile, bmm, dot, flatten, square and expand_as are composed from the
    core's operations; the node a program sees has paddle's name."""
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], stop_gradient=False)
    b = paddle.to_tensor([[[1.0, 2.0], [3.0, 4.0]]], stop_gradient=False)
    v = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    made = [paddle.index_select(x, paddle.to_tensor([2, 0]), axis=1), paddle.cumsum(x, 1),
            paddle.cumsum(x), paddle.tile(x, [2, 1]), paddle.tile(v, [1]), paddle.bmm(b, b),
            paddle.dot(v, v), paddle.flatten(x), paddle.flatten(v), paddle.square(x),
            paddle.expand_as(v, x), v.expand_as(x)]
    return [[t.grad_fn.name(), t.detach()] for t in made]



@program
def activation_loss_and_container_layers(paddle):
    """nn's activation layers with their settings, its loss layers, Identity, Flatten and
    LayerList: values, node names, gradients, parameter names."""
    nn = paddle.nn
    x = paddle.to_tensor([[0.5, -1.5, 2.0], [-0.25, 1.0, -3.0]], stop_gradient=False)
    target = paddle.to_tensor([[0.2, 0.8, 0.0], [1.0, 0.0, 0.5]])
    layers = [nn.ReLU(), nn.LeakyReLU(0.2), nn.ELU(alpha=0.5), nn.GELU(), nn.Silu(), nn.SiLU(),
              nn.Softplus(beta=2.0), nn.Softmax(axis=1), nn.LogSoftmax(axis=0), nn.Tanh(),
              nn.Sigmoid(), nn.Identity()]
    outs = [m(x) for m in layers]
    losses = [nn.MSELoss()(x, target), nn.L1Loss(reduction="sum")(x, target),
              nn.CrossEntropyLoss(reduction="none")(x, paddle.to_tensor([1, 2]))]
    sum((o * (i + 1)).sum() for i, o in enumerate(outs + losses)).backward()
    stack = nn.LayerList([nn.Linear(3, 2), nn.ReLU()])
    stack.append(nn.Linear(2, 1))
    cube = paddle.ones([2, 3, 4])
    return ([o.detach() for o in outs + losses] + [o.grad_fn.name() for o in outs[:-1] + losses]
            + [x.grad, nn.Identity()(x) is x, len(stack), [n for n, _ in stack.named_parameters()],
               nn.Flatten()(cube).shape, nn.Flatten(0, 1)(cube).shape])


@program
def more_in_place_methods(paddle):
    """sqrt_, tanh_, reciprocal_, exp_ and clip_: node, result and gradient, and whether writing
    into the result afterwards fails the backward; amax / amin / maximum / minimum as methods."""
    seen = []
    for name, args in (("sqrt_", ()), ("tanh_", ()), ("reciprocal_", ()), ("exp_", ()),
                       ("clip_", (0.6, 1.8))):
        x = paddle.to_tensor([0.5, 1.5, 2.0], stop_gradient=False)
        y = x * 1.0
        r = getattr(y, name)(*args)
        seen += [r is y, y.grad_fn.name(), y.detach()]
        y.sum().backward()
        seen.append(x.grad)
        x2 = paddle.to_tensor([0.5, 1.5, 2.0], stop_gradient=False)
        z = getattr(x2 * 1.0, name)(*args)
        w = z * 2
        z.add_(paddle.to_tensor(1.0))
        seen.append(attempt(lambda: (w.sum().backward(), x2.grad)[1]))
    x = paddle.to_tensor([[0.5, -1.5, 2.0]], stop_gradient=False)
    for r in (x.amax(1), x.amin(), x.maximum(x * 2), x.minimum(x * 2)):
        seen += [r.grad_fn.name(), r.detach()]
    return seen


@program
def mixed_second_derivatives_through_activation_backward_nodes(paddle):
    """d/dw of the gradient of sum(act(x) * w) with respect to x: the derivative of each
    activation's backward node with respect to the gradient it was handed (or paddle's error
    where its kernel has no double grad)."""
    nnf = paddle.nn.functional
    activations = {"relu": nnf.relu, "leaky_relu": lambda t: nnf.leaky_relu(t, 0.2),
                   "elu": lambda t: nnf.elu(t, 0.7), "gelu": nnf.gelu, "silu": nnf.silu,
                   "softplus": lambda t: nnf.softplus(t, 2.0), "sigmoid": nnf.sigmoid,
                   "tanh": paddle.tanh, "softmax": lambda t: nnf.softmax(t, 1),
                   "log_softmax": lambda t: nnf.log_softmax(t, 1)}
    seen = []
    for name, act in activations.items():
        x = paddle.to_tensor([[0.5, -1.5, 2.0], [-0.3, 0.8, -2.2]], stop_gradient=False)
        w = paddle.to_tensor([[1.5, -0.5, 2.0], [0.25, 1.0, -1.0]], stop_gradient=False)
        v = paddle.to_tensor([[1.0, 2.0, -1.0], [0.5, -0.5, 3.0]])

        def mixed():
            gx, = paddle.grad((act(x) * w).sum(), x, create_graph=True)
            gw, = paddle.grad((gx * v).sum(), w)
            return [gx.detach(), gw]

        seen += [name, attempt(mixed)]
    return seen


@program
def behaviours_paddle_has_and_torch_has_not(paddle):
    """A retained gradient keeps the latest pass's; integer casts record; negating a bool tensor
    keeps its values; writes into an expanded tensor and into split pieces are allowed; linear
    is a matmul and an add; hooks of nodes grad() does not need do not run; a non-leaf input's
    own node is not run by grad(), so a later backward through it works."""
    seen = []
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = x * 2
    y.retain_grads()
    y.sum().backward(retain_graph=True)
    (y * 3).sum().backward()
    cast = x.astype("int64")
    seen += [y.grad, cast.stop_gradient, cast.grad_fn.name()]
    flags = paddle.to_tensor([True, False])
    seen += [-flags, flags.neg(), -paddle.to_tensor(True)]
    base = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False) * 1
    wide = paddle.expand(base.unsqueeze(0), [2, 3])
    seen.append(attempt(lambda: wide.add_(paddle.to_tensor(1.0))))
    pieces = paddle.split(paddle.to_tensor([1.0, 2.0, 3.0, 4.0], stop_gradient=False) * 1, 2)

    def write_piece():
        pieces[0].add_(paddle.to_tensor(1.0))
        (pieces[0] * pieces[1]).sum().backward()
        return pieces[0]

    seen.append(attempt(write_piece))
    row = paddle.to_tensor([[1.0, 2.0]], stop_gradient=False)
    weight = paddle.to_tensor([[1.0], [2.0]], stop_gradient=False)
    bias = paddle.to_tensor([0.5], stop_gradient=False)
    seen.append(paddle.nn.functional.linear(row, weight, bias).grad_fn.name())
    ran = []
    a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    q = paddle.to_tensor([3.0, 4.0], stop_gradient=False)
    ya, yq = a * 2, q * 3
    ya.register_hook(lambda g: ran.append("ya"))
    yq.register_hook(lambda g: ran.append("yq"))
    paddle.grad((ya + yq).sum(), [a])
    seen.append(sorted(ran))
    xx = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    yy = xx * xx
    paddle.grad((yy * 2).sum(), [yy])
    seen.append(attempt(lambda: (yy.sum().backward(), xx.grad)[1]))
    return seen


@program
def tensors_of_different_dtypes(paddle):
    """paddle promotes two tensors only when both are floating point: bool with int, int32
    with int64 and int with float are refused by every elementwise op; bool has no subtract,
    maximum, minimum or pow kernel; concat and stack refuse mixed dtypes; a Python number goes
    with any tensor."""
    flags = paddle.to_tensor([True, False])
    ints = paddle.to_tensor([1, 2])
    ints32 = paddle.to_tensor([1, 2], dtype="int32")
    floats = paddle.to_tensor([1.5, 2.5])
    doubles = paddle.to_tensor([1.5, 2.5], dtype="float64")
    ops = {"add": lambda p, q: p + q, "sub": lambda p, q: p - q, "mul": lambda p, q: p * q,
           "div": lambda p, q: p / q, "maximum": paddle.maximum, "minimum": paddle.minimum,
           "pow": lambda p, q: p ** q, "gt": lambda p, q: p > q}
    pairs = {"bool,int64": (flags, ints), "int64,bool": (ints, flags),
             "bool,int32": (flags, ints32), "int32,int64": (ints32, ints),
             "int64,float32": (ints, floats), "float32,float64": (floats, doubles),
             "bool,bool": (flags, flags)}
    seen = []
    for name, op in ops.items():
        for pair, (p, q) in pairs.items():
            if name == "div" and pair == "bool,bool":
                continue  # an integer division by zero, in paddle's own exception class
            seen.append([name, pair, attempt(lambda: op(p, q))])
    seen += [ints / ints, ints32 / ints32, ints / 2, 3 / ints,
             flags - 1, flags - 1.5, 1 - flags, attempt(lambda: True - flags), flags * 2,
             attempt(lambda: flags.subtract_(flags)),
             attempt(lambda: paddle.concat([ints32, ints])),
             attempt(lambda: paddle.concat([floats, doubles])),
             attempt(lambda: paddle.concat([floats, paddle.to_tensor([[1, 2]])])),
             attempt(lambda: paddle.stack([floats, doubles])),
             attempt(lambda: paddle.stack([ints, floats])),
             attempt(lambda: paddle.where(flags, doubles, floats)),
             attempt(lambda: paddle.where(flags, flags, ints))]
    return seen


@program
def comparing_a_tensor_with_none(paddle):
    """``x == None`` and ``x != None`` are Python's False and True."""
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    before = [x.grad == None, x == None, x != None]  # noqa: E711 - what the program tests
    (x * 2).sum().backward()
    return before + [x.grad == None, x.grad != None]  # noqa: E711


@program
def optimizers_over_several_steps(paddle):
    """SGD, Momentum (and Nesterov), Adam (float32 beta powers) and AdamW (decoupled decay)
    over six steps of one loss."""
    import numpy as np

    seen = []
    for name, settings in (("SGD", {"learning_rate": 0.1}),
                           ("Momentum", {"learning_rate": 0.05, "momentum": 0.9}),
                           ("Momentum", {"learning_rate": 0.05, "momentum": 0.9,
                                         "use_nesterov": True}),
                           ("Adam", {"learning_rate": 0.1}),
                           ("Adam", {"learning_rate": 0.01, "beta1": 0.8, "beta2": 0.99}),
                           ("AdamW", {"learning_rate": 0.01, "weight_decay": 0.1}),
                           ("AdamW", {"learning_rate": 0.1})):
        w = paddle.create_parameter([4], "float32", default_initializer=paddle.nn.initializer.Assign(
            np.array([0.5, -1.25, 2.0, 0.3], np.float32)))
        optimizer = getattr(paddle.optimizer, name)(parameters=[w], **settings)
        for _ in range(6):
            ((w * w * 1.7 - 0.3) ** 2 - w * 3.0).sum().backward()
            optimizer.step()
            optimizer.clear_grad()
        seen.append(w.detach())
    return seen


@program
def a_float64_default_dtype(paddle):
    """``set_default_dtype("float64")``: Python floats and float constructors make float64;
    an integer division stays float32, as does a float32 tensor times a number; only float
    dtypes may be the default."""
    before = paddle.get_default_dtype()
    paddle.set_default_dtype("float64")
    try:
        x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
        (x * x).sum().backward()
        made = [paddle.get_default_dtype(), x, x.grad, paddle.ones([2]), paddle.zeros([2]),
                paddle.full([2], 1.5), paddle.arange(3.0), paddle.arange(3),
                paddle.linspace(0, 1, 3), paddle.eye(2), paddle.to_tensor(1),
                paddle.to_tensor([1, 2]) / paddle.to_tensor([2, 2]),
                paddle.to_tensor([1.0], dtype="float32") * 1.5,
                attempt(lambda: paddle.set_default_dtype("int64"))]
    finally:
        paddle.set_default_dtype(before)
    return made + [paddle.get_default_dtype(), paddle.to_tensor([1.0])]



# --- layers: normalisation, dropout, convolution, embedding, weighted losses ----------------

@program
def layer_norm_and_batch_norm(paddle):
    """LayerNorm and BatchNorm1D/2D in training and in eval: values, first derivatives (the
    input's scaled by LayerNorm's weight only where the pass computes the weight's gradient
    too), LayerNorm's missing double grad, the running statistics (``_mean``, ``_variance``) a
    training step moves with paddle's momentum, and the state_dict keys."""
    nn = paddle.nn
    x = paddle.to_tensor([[[0.5, -1.0, 2.0, 0.0], [1.5, 0.25, -0.5, 1.0], [0.0, 3.0, -2.0, 0.5]],
                          [[1.0, 1.0, -1.0, 0.5], [0.0, -0.5, 2.5, 1.5], [2.0, 0.0, 1.0, -1.0]]],
                         stop_gradient=False)
    ln = nn.LayerNorm(4)
    ln.weight.set_value(paddle.to_tensor([1.0, 0.5, -1.0, 2.0]))
    ln.bias.set_value(paddle.to_tensor([0.0, 0.1, 0.2, 0.3]))
    y = ln(x)
    # paddle 3.3.1 scales x's gradient by the weight only when the pass computes the weight's
    seen = [y, paddle.grad((y * y * y).sum(), x, retain_graph=True)[0],
            paddle.grad((y * y * y).sum(), [x, ln.weight], retain_graph=True)[0],
            paddle.grad(y.sum(), [ln.weight, ln.bias], retain_graph=True),
            attempt(lambda: paddle.grad((y * y * y).sum(), x, create_graph=True)),
            nn.functional.layer_norm(x, [3, 4], epsilon=1e-3)]
    bn = nn.BatchNorm1D(3)
    bn.weight.set_value(paddle.to_tensor([1.0, 2.0, 0.5]))
    out = bn(x)
    (gb,) = paddle.grad((out * out * paddle.to_tensor([1.0, -1.0, 2.0, 0.5])).sum(), x)
    seen += [out, gb, bn._mean, bn._variance, list(bn.state_dict().keys())]
    bn.eval()
    seen += [bn(x), bn.training]
    two = nn.BatchNorm2D(2, momentum=0.5, weight_attr=False, bias_attr=False)
    image = x.reshape([2, 2, 3, 2])
    for _ in range(2):
        two(image * 2)
    seen += [two._mean, two._variance, attempt(lambda: two(x))]
    seen.append([t.grad_fn.name() for t in (y, out, nn.functional.layer_norm(x, [4]))])
    return seen


@program
def convolution_embedding_dropout(paddle):
    """Conv1D (padding, dilation, stride) and Conv2D (groups) values and gradients of input,
    weight and bias; Embedding with padding_idx (no gradient to its row); dropout's identities
    (eval, p=0, p=1) and downscale_in_infer's scaling."""
    nn = paddle.nn
    x = paddle.to_tensor([[[0.5, -1.0, 2.0, 0.0, 1.0], [1.5, 0.25, -0.5, 1.0, -2.0]]],
                         stop_gradient=False)
    conv = nn.Conv1D(2, 3, 2, stride=2, padding=1, dilation=2)
    conv.weight.set_value(paddle.to_tensor([[[0.1, 0.2], [0.3, -0.4]], [[-0.5, 0.6], [0.7, 0.8]],
                                            [[0.9, -1.0], [0.0, 0.5]]]))
    conv.bias.set_value(paddle.to_tensor([0.1, -0.1, 0.0]))
    y = conv(x)
    seen = [y, paddle.grad((y * y).sum(), x, retain_graph=True)[0],
            paddle.grad(y.sum(), [conv.weight, conv.bias])]
    image = paddle.to_tensor([[[[1.0, 2.0, 0.0], [0.5, -1.0, 1.5], [2.0, 0.0, -0.5]],
                               [[0.0, 1.0, 1.0], [-1.0, 0.5, 0.0], [1.0, 1.0, 2.0]]]],
                             stop_gradient=False)
    conv2 = nn.Conv2D(2, 2, 2, groups=2, bias_attr=False)
    conv2.weight.set_value(paddle.to_tensor([[[[1.0, -1.0], [0.5, 0.0]]], [[[0.0, 2.0], [1.0, -0.5]]]]))
    z = conv2(image)
    z.sum().backward()
    seen += [z, image.grad, conv2.weight.grad,
             nn.functional.conv2d(image, conv2.weight, None, 1, 1, 1, 2)]
    (gy,) = paddle.grad((conv(x) ** 2).sum(), x, create_graph=True)
    seen.append(paddle.grad(gy.sum(), conv.weight)[0])
    emb = nn.Embedding(4, 2, padding_idx=1)
    emb.weight.set_value(paddle.to_tensor([[0.1, 0.2], [0.0, 0.0], [0.5, -0.5], [1.0, 2.0]]))
    e = emb(paddle.to_tensor([[0, 1, 3], [1, 1, 2]]))
    (e * paddle.to_tensor([1.0, 2.0])).sum().backward()
    seen += [e, emb.weight.grad,
             attempt(lambda: paddle.grad((emb(paddle.to_tensor([0, 2])) ** 2).sum(), emb.weight,
                                         create_graph=True))]
    drop = nn.Dropout(0.5)
    drop.eval()
    h = x * 2
    seen += [drop(h), nn.functional.dropout(h, 0.0), nn.functional.dropout(h, 1.0),
             nn.functional.dropout(h, 0.25, training=False, mode="downscale_in_infer"),
             attempt(lambda: paddle.grad(drop(h).sum(), x, create_graph=True))]
    seen.append([t.grad_fn.name() for t in (y, z, e, drop(h), nn.functional.dropout(h, 0.0),
                                             nn.functional.dropout(h, 0.25, training=False,
                                                                   mode="downscale_in_infer"))])
    return seen


@program
def weighted_nll_loss(paddle):
    """nll_loss with a class weight, ignore_index and each reduction (the mean divides by the
    counted rows' weights): values, first and second derivatives."""
    F = paddle.nn.functional
    logits = paddle.to_tensor([[0.5, 1.0, -1.0], [2.0, 0.0, 0.5], [-0.5, 0.5, 1.5], [1.0, 1.0, 0.0]],
                              stop_gradient=False)
    target = paddle.to_tensor([1, 0, 2, 1])
    weight = paddle.to_tensor([1.0, 2.0, 0.5])
    log_p = F.log_softmax(logits, 1)
    seen = []
    for reduction in ("mean", "sum", "none"):
        loss = F.nll_loss(log_p, target, weight=weight, ignore_index=2, reduction=reduction)
        seen += [loss, paddle.grad(loss.sum(), logits, retain_graph=True)[0]]
    seen += [F.nll_loss(log_p, target),
             attempt(lambda: paddle.grad(F.nll_loss(log_p, target), logits, create_graph=True)),
             [F.nll_loss(log_p, target).grad_fn.name(),
              F.binary_cross_entropy_with_logits(logits, logits.detach() * 0,
                                                 reduction="none").grad_fn.name(),
              F.binary_cross_entropy_with_logits(logits, logits.detach() * 0).grad_fn.name()]]
    return seen


@program
def missing_names_and_helpers(paddle):
    """Helpers real programs reach for: masked_select (gradient to the picked entries),
    meshgrid, argsort, nonzero (both forms), the random draws' shapes and dtypes; and a name
    neither engine has is an AttributeError that hasattr answers."""
    x = paddle.to_tensor([[1.0, 5.0], [3.0, -2.0]], stop_gradient=False)
    picked = paddle.masked_select(x * 2, paddle.to_tensor([[True, False], [False, True]]))
    picked.sum().backward()
    a, b = paddle.meshgrid(paddle.to_tensor([1.0, 2.0]), paddle.to_tensor([3.0, 4.0, 5.0]))
    v = paddle.to_tensor([3.0, 1.0, 2.0, 0.0])
    drawn = [paddle.uniform([2, 3]), paddle.uniform([2], dtype="float64", min=0.0, max=2.0),
             paddle.normal(shape=[3]), paddle.randint(0, 5, [2, 3]), paddle.randperm(4)]
    return [picked, x.grad, a, b, paddle.argsort(v), v.argsort(descending=True), paddle.nonzero(v),
            paddle.nonzero(v, as_tuple=True),
            [(list(t.shape), str(t.dtype), t.stop_gradient) for t in drawn],
            hasattr(paddle, "definitely_not_an_api")]


@program
def einsum_equations(paddle):
    """paddle.einsum: values, the EinsumGradNode, gradients of every operand, and its missing
    double grad."""
    a = paddle.to_tensor([[1.0, 2.0, 0.5], [-1.0, 0.0, 3.0]], stop_gradient=False)
    b = paddle.to_tensor([[0.5, 1.0], [2.0, -1.0], [1.0, 1.0]], stop_gradient=False)
    v = paddle.to_tensor([1.0, -2.0, 0.5], stop_gradient=False)
    seen = []
    for equation, operands in (("ij,jk->ik", (a, b)), ("ij,j->i", (a, v)), ("i,i->", (v, v)),
                               ("ij->ji", (a,)), ("ij->", (a,)), ("i,j->ij", (v, v)), ("ij,jk", (a, b))):
        out = paddle.einsum(equation, *operands)
        seen += [equation, out, out.grad_fn.name(),
                 paddle.grad(out.sum(), [a, b, v], allow_unused=True)]
    out = paddle.einsum("ij,jk->ik", a, b)
    seen.append(attempt(lambda: paddle.grad(out.sum(), a, create_graph=True)))
    return seen


@program
def register_buffer_refusals(paddle):
    """register_buffer's checks, in paddle's order and words: a dotted name, an empty one, a
    name an attribute holds, a value that is no tensor."""
    m = paddle.nn.Layer()
    m.weight_like = 3
    return [attempt(lambda: m.register_buffer("a.b", paddle.ones([1]))),
            attempt(lambda: m.register_buffer("", paddle.ones([1]))),
            attempt(lambda: m.register_buffer("weight_like", paddle.ones([1]))),
            attempt(lambda: m.register_buffer("b", [1.0])),
            list(m.state_dict().keys())]


@program
def unbind_pieces_view_and_in_place_promotion(paddle):
    """Found by observing every tensor's version: unbind's pieces are views of the input (its
    version counter and memory, so a write to the input reaches a saved piece and the pass
    refuses), split's are copies, a reshape shares the counter; and an in-place add, subtract,
    multiply or divide by a float64 tensor turns a float32 tensor into a float64 one (setitem
    keeps it float32)."""
    a = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    b = a * 2
    d = b.detach()
    d.add_(paddle.to_tensor(1.0))
    p, q = paddle.unbind(b, axis=0)
    s = paddle.split(b, 2, axis=0)
    r = b.reshape([4])
    result = [b.inplace_version, p.inplace_version, s[0].inplace_version, r.inplace_version]
    b.add_(paddle.to_tensor(10.0))
    result += [p, p.inplace_version, s[0], r.inplace_version]
    z = (q * q).sum()
    b.add_(paddle.to_tensor(1.0))
    result.append(attempt(lambda: z.backward()))
    wide = paddle.to_tensor([0.5, 0.25], dtype="float64", stop_gradient=False)
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    for op in ("add_", "subtract_", "multiply_", "divide_"):
        y = x * 3
        getattr(y, op)(wide)
        result += [op, str(y.dtype), y.inplace_version, y.grad_fn.name()]
    y = x * 3
    y.multiply_(wide)
    (y * y).sum().backward()
    result += [x.grad, wide.grad]
    kept = paddle.to_tensor([1.0, 2.0])
    kept[0] = wide[0]
    result.append(str(kept.dtype))
    return result


@program
def setitem_without_recording_takes_the_flag(paddle):
    """Under no_grad, writing a tensor that requires grad into one that does not with setitem
    makes it a leaf that requires grad (it collects its own gradient; the value gets none); an
    in-place add leaves the flag."""
    x = paddle.to_tensor([-1.5, 1.0, 2.0], stop_gradient=False)
    d = paddle.to_tensor([[1.0, 2.0, 3.0]])
    with paddle.no_grad():
        d[0] = x
    c = paddle.to_tensor([1.0, 2.0, 3.0])
    w = x * 1
    with paddle.no_grad():
        c.add_(w)
    (d * 2).sum().backward()
    return [d.stop_gradient, d.is_leaf, c.stop_gradient, d.grad, x.grad]


@program
def written_leaves_collect_and_unrecorded_create_graph(paddle):
    """Found by the pairs of argument value × state: a tensor that needs no grad, written in
    place with one that does (add, subtract, multiply, setitem), collects in its .grad the
    gradient reaching its value before the write; detach_() clears a leaf's accumulation node;
    paddle.grad(create_graph=True) under no_grad records nothing, its results leaves that
    require grad."""
    x = paddle.to_tensor([0.5, 0.25, 1.0], stop_gradient=False)
    result = []
    for op in ("add_", "subtract_", "multiply_"):
        t = paddle.to_tensor([1.0, 2.0, 3.0]) * 1
        getattr(t, op)(x)
        (t * 3).sum().backward()
        result += [op, t.stop_gradient, t.is_leaf, t.grad]
    s = paddle.to_tensor([1.0, 2.0, 3.0])
    s[0] = x[1]
    e = paddle.to_tensor([1.0, 2.0, 3.0])
    e.add_(x)
    e.exp_()
    ((s * 2).sum() + e.sum()).backward()
    result += [s.grad, e.grad, x.grad]
    plain = paddle.to_tensor([1.0, 2.0])
    had = plain.grad_fn is not None
    plain.detach_()
    result += [had, plain.grad_fn is None, plain.stop_gradient]
    a = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    b = paddle.to_tensor([3.0, 4.0], stop_gradient=False)
    product = (a * b * a).sum()
    with paddle.no_grad():
        g = paddle.grad(product, [a, b], create_graph=True)
    result.append([(t.stop_gradient, t.grad_fn is None, t.is_leaf) for t in g])
    (g[0] * g[0]).sum().backward()
    result += [a.grad, g[0].grad]
    return result


@program
def optimizer_and_lr_scheduler_arguments_are_refused_as_paddle_does(paddle):
    """The argument errors of paddle.optimizer.lr's schedulers and of minimize, with paddle's
    types and texts (ExponentialDecay's gamma is an assertion that shows no value)."""
    lr = paddle.optimizer.lr

    def minimize():
        leaf = paddle.to_tensor([1.0], stop_gradient=False)
        return paddle.optimizer.SGD(0.1, parameters=[leaf]).minimize(3)

    return [attempt(f) for f in (
        lambda: lr.StepDecay("a", 2), lambda: lr.StepDecay(0.1, 2.0),
        lambda: lr.StepDecay(0.1, 2, gamma=1.5), lambda: lr.MultiStepDecay(0.1, [3, 2]),
        lambda: lr.MultiStepDecay(0.1, [2, 3], gamma=1.5), lambda: lr.ExponentialDecay(0.1, gamma=1.5),
        lambda: lr.ExponentialDecay(0.1, gamma=0.0), lambda: lr.LambdaDecay(0.1, 3),
        lambda: lr.CosineAnnealingDecay(0.1, 2.5), minimize)]


@program
def jacobian_hessian_and_layer_arguments_are_refused_as_paddle_does(paddle):
    """The argument errors of paddle.autograd.jacobian / hessian, of the losses' reduction, of
    dropout's mode, of set_default_dtype and of a batch norm's input rank."""
    F = paddle.nn.functional

    def leaf(rows=None):
        return paddle.to_tensor([[1.0, 2.0, 3.0]] if rows else [1.0, 2.0, 3.0], stop_gradient=False)

    def hessian(ys_of, rows=None, **kwargs):
        x = leaf(rows)
        return paddle.autograd.hessian(ys_of(x), x, **kwargs)

    return [attempt(f) for f in (
        lambda: paddle.autograd.jacobian(leaf() * 2, leaf(), batch_axis=1),
        lambda: hessian(lambda x: x * 2), lambda: hessian(lambda x: (x * x).sum(), batch_axis="a"),
        lambda: hessian(lambda x: (x * x).sum(1), rows=1, batch_axis=1),
        lambda: hessian(lambda x: x * x, rows=1, batch_axis=0),
        lambda: F.l1_loss(leaf(), leaf(), reduction="avg"),
        lambda: F.binary_cross_entropy_with_logits(leaf(), leaf(), reduction="avg"),
        lambda: F.nll_loss(leaf(1), paddle.to_tensor([0]), reduction="avg"),
        lambda: F.dropout(leaf(), 0.5, mode="x"), lambda: paddle.set_default_dtype("int32"),
        lambda: paddle.nn.BatchNorm1D(3)(paddle.ones([1, 3, 2, 2])))]


@program
def concat_stack_and_add_n_of_no_tensors_are_refused(paddle):
    """An empty list: paddle's InvalidArgument naming the function and its argument."""
    return [attempt(lambda: paddle.concat([])), attempt(lambda: paddle.stack([])),
            attempt(lambda: paddle.add_n([])), paddle.concat([paddle.ones([1])])]
