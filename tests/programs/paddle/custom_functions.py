"""Custom autograd functions: forward / backward, their context flags, and the gradients they hand
on."""

from __future__ import annotations

from tests.custom_functions import context_flag_functions, custom, two_output_functions
from tests.observe import attempt
from tests.programs.registry import paddle_program as program


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
def a_pylayer_gradient_of_another_dtype_reaches_a_leaf_as_its_accumulation_decides(paddle):
    """paddle hands a PyLayer's gradient on without casting it to the input's dtype: a leaf
    to_tensor made from data keeps a float64 gradient for its float32 .grad, another leaf's
    accumulation casts it; both stop gradient, as a PyLayer's gradient does. Through an op, the
    op's node casts it to the dtype it recorded."""
    class Mul(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, a, b):
            ctx.save_for_backward(a, b)
            return a * b

        @staticmethod
        def backward(ctx, g):
            a, b = ctx.saved_tensor()
            return g * b, g * a

    seen = []
    for make in (lambda: paddle.to_tensor([1.0, 2.0]), lambda: paddle.ones([2])):
        x = paddle.to_tensor([1.0, 2.0], dtype="float64", stop_gradient=False)
        y = make()
        y.stop_gradient = False
        Mul.apply(x, y).sum().backward()
        seen.append([y.grad, y.grad.numpy().dtype.name, y.grad.stop_gradient])
        z = make()
        z.stop_gradient = False
        Mul.apply(x, z * 1.0).sum().backward()
        seen.append([z.grad.numpy().dtype.name, z.grad.stop_gradient])
    return seen
