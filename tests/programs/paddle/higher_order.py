"""``create_graph`` and higher derivatives: which gradients record, and the second derivatives of
the ops."""

from __future__ import annotations

from typing import Any, Callable

from tests.observe import attempt
from tests.programs.registry import paddle_program as program


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
def bmm_grad_links_a_constant_operand_matmul_grad_does_not(paddle):
    """With b constant, the create_graph gradient of paddle.bmm(a, b) has a zero derivative in
    a (zeros), paddle.matmul's of the same operands none (None)."""
    seen = []
    for product in (paddle.bmm, paddle.matmul):
        a = paddle.to_tensor([[[0.5, -1.2, 0.3]], [[1.1, 0.7, -0.4]]], dtype="float64",
                             stop_gradient=False)
        b = paddle.to_tensor([[[1.5], [0.2], [-0.8]], [[0.6], [-1.3], [0.9]]], dtype="float64")
        (g,) = paddle.grad(product(a, b).sum(), [a], create_graph=True)
        (gg,) = paddle.grad(g.sum(), [a], allow_unused=True)
        seen += [g, g.stop_gradient, gg]
    return seen


@program
def dot_mv_and_bce_have_no_double_grad(paddle):
    """dot_grad, mv_grad and bce_loss_grad have no grad op: create_graph through them is
    refused when the pass runs them, naming the kernel."""
    x = paddle.to_tensor([0.2, 0.7, 0.4], dtype="float64", stop_gradient=False)
    m = paddle.to_tensor([[0.5, 1.5, -1.0], [2.0, 0.3, 0.1]], dtype="float64", stop_gradient=False)
    y = paddle.to_tensor([0.0, 1.0, 0.5], dtype="float64")
    bce = paddle.nn.functional.binary_cross_entropy
    return [attempt(lambda: paddle.grad(paddle.dot(x, y), [x], create_graph=True)),
            attempt(lambda: paddle.grad(paddle.mv(m, x).sum(), [m, x], create_graph=True)),
            attempt(lambda: paddle.grad(bce(x, y, reduction="sum"), [x], create_graph=True)),
            bce(x, y, reduction="none"), bce(x, y, reduction="none").grad_fn.name(),
            paddle.grad(bce(x, y), [x])]


@program
def a_double_grad_kernel_links_its_operands_by_what_it_computed(paddle):
    """The zero derivative of a product's gradient in its own operand: multiply_double_grad and
    matmul_double_grad run for both operands' gradients record it (a node); run for one,
    multiply's fills in zeros without a node and matmul's has none (the operand is not in
    the graph); bmm's zeros never have a node. Broadcast operands' gradients are summed over
    leading dimensions in one sum."""
    def described(t):
        return None if t is None else [t.stop_gradient, t.grad_fn is None, t]
    products = {"multiply": (lambda a, b: a * b, [2, 3], [2, 3]),
                "broadcast": (lambda a, b: a * b, [2, 3], [3]),
                "matmul": (paddle.matmul, [2, 3], [3, 2]),
                "vector-matrix": (paddle.matmul, [3], [3, 2]),
                "batched": (paddle.matmul, [2, 2, 3], [2, 3, 2]), "bmm": (paddle.bmm, [2, 2, 3], [2, 3, 2])}
    seen = []
    for name, (product, s1, s2) in products.items():
        for wanted in ((0,), (1,), (0, 1)):
            a = paddle.full(s1, 2.0, dtype="float64")
            a.stop_gradient = False
            b = paddle.full(s2, 3.0, dtype="float64")
            b.stop_gradient = False
            operands = (a, b)
            grads = paddle.grad([product(a, b)], [operands[i] for i in wanted], create_graph=True)
            for g in grads:
                for w in operands:
                    seen.append([name, wanted, attempt(
                        lambda: described(paddle.grad([g.sum()], [w], create_graph=True)[0]))])
    return seen


@program
def log_third_derivative_is_composite(paddle):
    """log's double grad is composite, -(dout * ddx) / (x * x): at 0 the third derivative is
    inf * 0 (nan), not the inf calculus gives; the seed's own second derivative is ddx / x."""
    x = paddle.to_tensor([0.0, 1.0, -2.0], dtype="float64", stop_gradient=False)
    s = paddle.to_tensor([2.0, 3.0, 0.5], dtype="float64", stop_gradient=False)
    g1 = paddle.grad(paddle.log(x), x, grad_outputs=s, create_graph=True)[0]
    gs, gx = paddle.grad(g1.sum(), [s, x], create_graph=True)
    g3 = paddle.grad(gx.sum(), x, create_graph=True)[0]
    return [g1, gs, gx, g3, g3.grad_fn is not None,
            attempt(lambda: paddle.grad(gs.sum(), s, allow_unused=True))]


@program
def concat_double_grad_with_a_constant_input_cannot_run(paddle):
    """concat's and stack's double-grad node keeps a gradient slot per forward input: one that
    did not require grad leaves a slot it cannot fill, and running the node fails."""
    def second(join, other_requires_grad):
        x = paddle.to_tensor([0.0, 1.0], stop_gradient=False)
        c = paddle.to_tensor([2.0, 3.0], stop_gradient=not other_requires_grad)
        g = paddle.grad(join([x * x, c]), x, create_graph=True)[0]
        return [g, g.grad_fn.name(), attempt(lambda: paddle.grad(g.sum(), x)),
                attempt(lambda: paddle.autograd.backward([g.sum()]))]

    return [second(paddle.stack, False), second(paddle.concat, False),
            second(paddle.stack, True), second(paddle.concat, True)]


@program
def a_saved_leaf_keeps_its_node_after_stop_gradient_is_set(paddle):
    """A leaf saved by multiply while it required grad keeps its node in paddle's saved copy:
    a create_graph pass after its stop_gradient was set records from it, and a backward
    through that fills its .grad."""
    x = paddle.to_tensor([[0.5, 1.0, 0.0]], stop_gradient=False)
    w = paddle.to_tensor([[1.0, 2.0, 3.0]], stop_gradient=False)
    y = paddle.nn.functional.sigmoid(x) * w
    w.stop_gradient = True
    g = paddle.grad([y], [x], create_graph=True)[0]
    g2 = paddle.grad([g], [x], create_graph=True)[0]
    paddle.autograd.backward([g2])
    return [g, g2, x.grad, w.grad, w.stop_gradient]


@program
def the_zeros_of_a_recorded_link_stay_zeros_beside_a_nan(paddle):
    """matmul_double_grad run for both operands' gradients records the zeros of a link; in the
    next pass they stay zeros where what reaches them holds a NaN (it does not spread to the
    other elements). The NaN: a refused in-place write leaves its values in the leaf sin saved."""
    seen = []
    for both in (True, False):
        x = paddle.to_tensor([0.0, 0.0, 0.0], dtype="float64", stop_gradient=False)
        s = paddle.sin(x)
        seen.append(attempt(lambda x=x: x.multiply_(
            paddle.to_tensor([float("nan"), 0.0, 0.0], dtype="float64"))))
        w = paddle.to_tensor([[0.0, 0.0, 0.0]] * 3, dtype="float64", stop_gradient=False)
        first, _ = paddle.split(paddle.mm(paddle.unsqueeze(s, axis=0), w), [1, 2], axis=1)
        g = paddle.grad([first], [x, w] if both else [x], create_graph=True)[0]
        seen.append([g, paddle.grad([g], [x])[0]])
    return seen


@program
def a_leaf_saved_before_it_required_grad_is_restored_without_a_node(paddle):
    """A leaf saved by a node while it required no grad is restored as it was saved (its
    TensorWrapper keeps no node), so a create_graph gradient computed from it does not reach it
    once stop_gradient is set False: None with allow_unused. Where it is saved only after that,
    it is reached."""
    out = []
    for name, f in (("multiply", lambda a, b: a * b), ("divide", lambda a, b: a / b),
                    ("where", lambda a, b: paddle.where(b > 0, a, 0.5) * b),
                    ("matmul", lambda a, b: paddle.matmul(a, b))):
        x1 = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
        x2 = paddle.to_tensor([3.0, 4.0])
        v = f(x1, x2)
        x2.stop_gradient = False
        g, = paddle.grad([v.sum()], [x1], create_graph=True)
        out.append([name, g, attempt(lambda: paddle.grad([g.sum()], [x2], allow_unused=True))])
        later = f(x1, x2)
        g, = paddle.grad([later.sum()], [x1], create_graph=True)
        out.append([name + " saved later", paddle.grad([g.sum()], [x2], allow_unused=True)])
    return out


@program
def abs_second_order_at_zero(paddle):
    """paddle's abs gradient is 0 at 0 whatever it is handed, and so is what differentiates
    through it there: x * |x| has the second derivative 0 at 0 (2 sign(x) elsewhere), and the
    gradient with respect to a seed that abs's gradient scaled is 0 at 0 (measured on 3.3.1)."""
    out = []
    for dtype in ("float32", "float64"):
        x = paddle.to_tensor([[0.0, -2.0, 1.5]], dtype=dtype, stop_gradient=False)
        g, = paddle.grad([x * paddle.abs(x)], [x], create_graph=True)
        out.append([g, paddle.grad([g], [x])])
        seed = paddle.to_tensor([[1.0, 2.0, 3.0]], dtype=dtype, stop_gradient=False)
        h, = paddle.grad([paddle.abs(x)], [x], [seed], create_graph=True)
        out.append([h, attempt(lambda h=h, seed=seed: paddle.grad([h.sum()], [seed]))])
    return out


@program
def signs_gradient_is_a_recorded_scale_by_zero(paddle):
    """In a create_graph pass sign's gradient is the gradient scaled by 0 (ScaleGradNode on the
    gradient's own history), so it does not stop gradient; outside one it is plain zeros."""
    x = paddle.to_tensor([1.5, -2.0, 0.0], stop_gradient=False)
    recorded, = paddle.grad(paddle.sign(x).sum(), x, create_graph=True)
    plain, = paddle.grad(paddle.sign(x).sum(), x)
    again, = paddle.grad(recorded.sum(), x, allow_unused=True)
    return [recorded, recorded.grad_fn.name(), plain, plain.grad_fn is None, again]


@program
def second_order_through_layers_and_attention(paddle):
    """Which layer kernels paddle 3.3.1 can differentiate twice: interpolation has no double
    grad, the recurrent layers fail already in the create_graph pass; scaled_dot_product_attention
    as the CPU path composes it (its softmax has no double grad); no_grad_vars cutting the only
    input of a node off every way to the inputs is defined."""
    F = paddle.nn.functional
    paddle.seed(0)
    x = paddle.randn([1, 2, 3, 3])
    x.stop_gradient = False
    s = paddle.randn([2, 5, 3])
    s.stop_gradient = False
    q = paddle.randn([2, 3, 2, 4])
    q.stop_gradient = False
    seen = []
    for mode in ("nearest", "bilinear"):
        y = F.interpolate(x, scale_factor=2, mode=mode)
        first, = paddle.grad((y ** 2).sum(), [x], retain_graph=True)
        seen += [y.grad_fn.name(), first,
                 attempt(lambda: paddle.grad((y ** 2).sum(), [x], create_graph=True))]
    for cls in (paddle.nn.LSTM, paddle.nn.GRU, paddle.nn.SimpleRNN):
        out = cls(3, 4)(s)[0]
        seen += [attempt(lambda: paddle.grad((out ** 2).sum(), [s], create_graph=True))]
    attention = F.scaled_dot_product_attention(q, q * 2, q + 1)
    causal = F.scaled_dot_product_attention(q, q, q, is_causal=True, scale=0.3)
    attention.sum().backward()
    w = paddle.to_tensor([[0.5, 1.5, 2.0]], stop_gradient=False)
    xx = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    return seen + [attention, attention.grad_fn.name(), causal, q.grad,
                   attempt(lambda: paddle.grad(F.scaled_dot_product_attention(q, q, q).sum(), q,
                                               create_graph=True)),
                   paddle.grad((xx * xx * w.sum()).sum(), [xx], no_grad_vars=[w])]


@program
def log_derivatives_are_composed_of_primitive_ops_from_the_second_on(paddle):
    """paddle composes log's double grad from divide, multiply, scale and one conj of x
    (squared); its third derivative runs those ops' own gradient kernels, ending in conj."""
    x = paddle.to_tensor([0.5, 2.0], dtype="float64", stop_gradient=False)
    seed = paddle.to_tensor([1.0, 3.0], dtype="float64", stop_gradient=False)
    g1, = paddle.grad([paddle.log(x)], [x], grad_outputs=[seed], create_graph=True)
    g2x, g2s = paddle.grad([g1], [x, seed], create_graph=True)
    g3x, = paddle.grad([g2x], [x], create_graph=True)
    g3s, = paddle.grad([g2s], [x], create_graph=True)
    names = [g.grad_fn.name() for g in (g1, g2x, g2s, g3x, g3s)]
    return [g1, g2x, g2s, g3x, g3s, names,
            [n.name() for n in g2x.grad_fn.next_functions],
            attempt(lambda: paddle.grad([g3x], [x], create_graph=True))]


@program
def node_classes_as_programs_print_them(paddle):
    """paddle's nodes are one class to Python (``GradNodeBase``), named by ``name()``; a
    tensor-and-number op (the scale kernel) lists the tensor's node alone."""
    import re

    def masked(node):
        return re.sub(r"0x[0-9a-f]+", "0x…", repr(node))
    x = paddle.to_tensor([0.5, 1.0], stop_gradient=False)
    y = paddle.ones([2])
    scaled, added, product = x * 2, 1 + x, x * y
    return [masked(scaled.grad_fn), type(scaled.grad_fn).__name__, str(type(scaled.grad_fn)),
            [len(t.grad_fn.next_functions) for t in (scaled, added, product, x - 3.0)],
            [n is None for n in product.grad_fn.next_functions],
            [paddle.pi, paddle.e, paddle.inf, repr(paddle.nan), paddle.newaxis]]


@program
def kernels_without_double_grad_refuse_create_graph(paddle):
    """paddle 3.3.1's gradient kernels that have no grad op of their own: a create_graph pass
    through them is refused, naming the kernel (measured op by op)."""
    x = paddle.to_tensor([[[0.1, 0.7, -0.3, 0.9], [0.2, -0.4, 0.6, 0.8], [1.1, -0.5, 0.3, 0.0]],
                          [[0.4, 0.2, -0.9, 0.5], [0.3, 0.6, -0.1, 0.7], [0.8, 0.1, 0.2, -0.6]]],
                         stop_gradient=False)
    functional = paddle.nn.functional
    forms = [lambda: paddle.flatten(x, 1), lambda: paddle.roll(x, 1, 0), lambda: paddle.cumsum(x, 1),
             lambda: paddle.logsumexp(x, 1), lambda: functional.group_norm(x.reshape([2, 3, 4, 1]), 3),
             lambda: paddle.sort(x, 1), lambda: paddle.topk(x, 2)[0], lambda: paddle.trace(x[0, :, :3]),
             lambda: paddle.diagonal(x[0]), lambda: paddle.median(x), lambda: paddle.nanmedian(x),
             lambda: paddle.kthvalue(x, 2)[0], lambda: paddle.mode(x)[0], lambda: paddle.lerp(x, x * 2, 0.3),
             lambda: paddle.dist(x, x * 2), lambda: paddle.triu(x), lambda: paddle.tril(x),
             lambda: functional.l1_loss(x, x * 0), lambda: paddle.quantile(x, 0.3, axis=1)]
    out = []
    for form in forms:
        y = form()
        out.append(attempt(lambda y=y: paddle.grad(y.sum(), x, create_graph=True)[0].grad_fn.name()))
    return out
