"""Tensor, node, module and saved-tensor hooks: when each runs, in which order, and what it may
change."""

from __future__ import annotations

from tests.custom_functions import custom, raising
from tests.observe import attempt
from tests.programs.registry import paddle_program as program


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
def an_error_raised_by_a_programs_backward_code_comes_out_as_external(paddle):
    """What a tensor hook, a PyLayer backward or an unpack hook raises during backward (or
    paddle.grad) comes out of paddle's C++ backward as an OSError "(External) ..." quoting the
    error (a PyLayer's inside a banner naming its node), not as the error raised; after an
    unpack hook's error, recording stays off (pack hooks run with it off). A Layer or a PyLayer
    without forward / backward raises paddle's NotImplementedError."""
    def hooked(error):
        x = paddle.ones([2])
        x.stop_gradient = False
        y = x * 2
        y.register_hook(raising(error))
        return attempt(lambda: y.sum().backward())

    Failing = custom(paddle.autograd.PyLayer, "Failing", lambda ctx, x: x * 2, raising(KeyError("k")))

    class NoBackward(paddle.autograd.PyLayer):
        @staticmethod
        def forward(ctx, x):
            return x * 2

    class NoForward(paddle.autograd.PyLayer):
        pass

    class Bare(paddle.nn.Layer):
        pass

    x = paddle.ones([2])
    x.stop_gradient = False
    packing = []

    def pack(t):
        packing.append(paddle.is_grad_enabled())
        return t

    with paddle.autograd.saved_tensors_hooks(pack, raising(ValueError("unpack"))):
        squared = x * x
    seen = [hooked(ValueError("boom")), hooked(ZeroDivisionError("division by zero")),
            attempt(lambda: Failing.apply(x).sum().backward()),
            attempt(lambda: paddle.grad(Failing.apply(x).sum(), x)),
            attempt(lambda: NoBackward.apply(x).sum().backward()),
            attempt(lambda: NoForward.apply(x)), attempt(lambda: Bare()(x)), packing,
            attempt(lambda: squared.sum().backward()), paddle.is_grad_enabled()]
    paddle.set_grad_enabled(True)  # paddle leaves recording off after the unpack hook's error
    return seen


@program
def the_ready_nodes_run_first_in_first_out_leaf_accumulations_first(paddle):
    """paddle's backward queue is first in, first out (a node's inputs queued in its inputs'
    order), a leaf's accumulation put at the front; several outputs start in the order given,
    one reached from another waiting for it. Hooks show the order the nodes ran in."""
    log = []
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    a = x * 2
    b = a * 3
    c = x * 4
    d = paddle.exp(x)
    e = d * 5
    for name, t in zip("bceadx", (b, c, e, a, d, x)):
        t.register_hook(lambda g, name=name: log.append(name))
    (b + c + e).sum().backward()
    first = list(log)
    orders = []
    for order in ("qp", "pq", "qrp", "rqp"):
        log.clear()
        y = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
        p = y * 2
        q = p * 3
        r = y * 4
        for name, t in zip("pqry", (p, q, r, y)):
            t.register_hook(lambda g, name=name: log.append(name))
        named = {"p": p, "q": q, "r": r}
        paddle.autograd.backward([named[k] for k in order])
        orders.append((order, list(log), y.grad))
    return [first, x.grad, orders]


@program
def a_cleared_node_is_refused_before_its_hooks_run(paddle):
    """A second backward through a node the first cleared: paddle refuses before the node runs,
    so the hooks on its output (and on the outputs of a node of several) do not run again."""
    log = []
    x = paddle.to_tensor([[1.0, 3.0, 2.0]], stop_gradient=False)
    top = paddle.amax(x)
    top.register_hook(lambda g: log.append("amax"))
    paddle.autograd.backward([top])
    second = attempt(lambda: paddle.autograd.backward([top]))
    y = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    a, b = paddle.unbind(y * 2.0, axis=0)
    a.register_hook(lambda g: log.append("a"))
    paddle.autograd.backward([a.sum()])
    third = attempt(lambda: paddle.autograd.backward([a.sum()]))
    return [second, third, log, x.grad, y.grad]


@program
def an_unpacked_saved_view_is_read_with_the_views_layout(paddle):
    """paddle reads a saved view anew from the memory the unpack hook returned, with the
    view's offset and strides: a view at an offset (a piece of unbind past the first, a
    slice, an index) is refused when that memory is too small; a transposed view reads the
    new memory with its strides; the unpack hook's own tensor (or a view at offset 0) is read
    as it is."""
    views = {"first piece": lambda x: paddle.unbind(x, axis=0)[0],
             "second piece": lambda x: paddle.unbind(x, axis=0)[1],
             "slice": lambda x: x[1:], "index": lambda x: x[2],
             "split piece": lambda x: paddle.split(x, 3, axis=0)[1],
             "transposed": lambda x: x.t()}
    seen = []
    for unpack in (lambda t: t, lambda t: t * 2.0, lambda t: t.clone()):
        for name, view in views.items():
            x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], stop_gradient=False)
            v = view(x)
            with paddle.autograd.saved_tensors_hooks(lambda t: t, unpack):
                y = paddle.sin(v)
            seen += [name, attempt(lambda: paddle.grad([y.sum()], [x]))]
    return seen


@program
def grad_of_a_whole_view_hands_its_hook_the_seed(paddle):
    """paddle.grad of one output for one input, the output a view of all the input's elements
    (views of views too): a hook on the output is handed the explicit seed itself (its
    stop_gradient, its memory). Another op on the way, a second input or output, a partial
    view or backward: a gradient that does not stop gradient."""
    x = paddle.to_tensor([[1.0, 2.0, 3.0]], stop_gradient=False)
    y = paddle.to_tensor([[1.0, 2.0, 3.0]], stop_gradient=False)
    seen = []

    def run(make, inputs, api="grad", scale=False):
        v = make()
        v.register_hook(lambda g: seen.append((g.stop_gradient, g.grad_fn is None)))
        if scale:
            v.register_hook(lambda g: g.scale_(2.0))
        s = paddle.full(v.shape, 1.5)
        if api == "grad":
            r = paddle.grad([v], inputs, [s], allow_unused=True)
        else:
            r = paddle.autograd.backward([v], [s])
        return [s, r]

    out = [run(lambda: paddle.squeeze(x), [x]), run(lambda: x.t(), [x]), run(lambda: x[0], [x]),
           run(lambda: paddle.unbind(x, 0)[0], [x]), run(lambda: x[None], [x]),
           run(lambda: paddle.unsqueeze(x, 0).squeeze(0), [x]),
           run(lambda: paddle.squeeze(x), [x], scale=True),
           run(lambda: paddle.squeeze(x), [x, y]), run(lambda: paddle.squeeze(x * 2), [x]),
           run(lambda: x[:, 1:], [x]), run(lambda: paddle.exp(x), [x]),
           run(lambda: paddle.squeeze(x), [x], api="backward")]
    return [out, seen]


@program
def slices_over_every_element_give_the_tensor_back(paddle):
    """Slices that each cover their whole dimension in order give the tensor back (its
    accumulation node as grad_fn); a step other than one is a strided slice."""
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], stop_gradient=False)
    views = [x[0:2], x[:, 0:3], x[0:5], x[-2:], x[::1], x[..., 0:3], x[0:2, ...], x[::-1],
             x[1:], x[0:2:2], x[None, 0:9]]
    return [[v.grad_fn.name() if v.grad_fn else None, v.is_leaf, v.shape] for v in views]


@program
def the_hooks_of_a_splits_outputs_run_as_the_split_node_runs(paddle):
    """One output of several has no node of its own: its gradient passes on at once, but its
    hooks run as the split's node runs, after the nodes queued before it (here a node whose
    saved input was written fails first, and no hook runs), in the order they were registered
    across the outputs, an unreached output's with the zeros paddle fills in."""
    seen = []
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    y = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    a, b = paddle.split(x, [1, 2], axis=0)
    a.register_hook(lambda g: seen.append(("a", g.numpy())))
    b.register_hook(lambda g: seen.append(("b", g.numpy())))
    q = y * 3.0
    q.register_hook(lambda g: seen.append(("q", g.numpy())))
    r = q.exp()
    r.register_hook(lambda g: seen.append(("r", g.numpy())))
    (b * 2.0 * r).sum().backward()
    a, b = paddle.split(x, [1, 2], axis=0)
    b.register_hook(lambda g: seen.append(("b first", g.numpy())))
    a.register_hook(lambda g: seen.append(("a unreached", g.numpy())))
    (b * y).sum().backward()
    w = paddle.to_tensor([[0.0, 0.0, 0.0]], stop_gradient=False)
    m = paddle.max(w)
    with paddle.no_grad():
        w[0] = 0.5
    _, c = paddle.split(x, [1, 2], axis=0)
    c.register_hook(lambda g: seen.append(("c", g.numpy())))
    out = c * 2.0 * m
    return [seen, x.grad.numpy(), attempt(lambda: paddle.autograd.backward([out], retain_graph=True)),
            list(seen[6:])]


@program
def a_pack_hook_runs_before_the_node_is_linked_to_its_inputs(paddle):
    """paddle packs a node's saved tensors before it links the node to its inputs: a tensor
    whose accumulation node that linking makes (a view of a tensor that needs no grad, given
    stop_gradient False by a write under no_grad) shows no grad_fn to the pack hook, and its
    accumulation node once the op is recorded; a leaf that had one shows it."""
    seen = []

    def pack(t):
        seen.append([list(t.shape), t.stop_gradient, t.grad_fn.name() if t.grad_fn is not None else None])
        return t

    for kind in ("unsqueeze", "scaled", "to_tensor"):
        x1 = paddle.to_tensor([0.0, 0.0, 0.0], dtype="float64")
        v = paddle.unsqueeze(x1, axis=1) if kind == "unsqueeze" else \
            (x1 * 2.0).unsqueeze(1) if kind == "scaled" else \
            paddle.to_tensor([[0.0], [0.0], [0.0]], dtype="float64")
        with paddle.no_grad():
            v[0] = paddle.to_tensor([0.0], dtype="float64", stop_gradient=False)
        before = v.grad_fn is not None
        with paddle.autograd.saved_tensors_hooks(pack, lambda t: t):
            z = paddle.to_tensor([2.0], dtype="float64") * v
        seen.append([kind, before, v.grad_fn.name() if v.grad_fn is not None else None])
        z.sum().backward()
        seen.append(v.grad)
    return seen


@program
def torch_style_layer_protocol(paddle):
    """paddle's torch-style Layer and optimizer spellings: named_modules (with a prefix),
    get_sublayer, requires_grad_, register_forward_hook (with_kwargs, prepend) and
    Optimizer.zero_grad (to None, or zeros)."""
    paddle.seed(1)
    nn = paddle.nn
    net = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Sequential(nn.Linear(3, 1)))
    seen = [[name for name, _ in net.named_modules()], [name for name, _ in net.named_modules(prefix="net")],
            type(net.get_sublayer("2.0")).__name__, net.get_sublayer("") is net,
            attempt(lambda: net.get_sublayer("2.5"))]
    net.requires_grad_(False)
    seen.append([p.stop_gradient for p in net.parameters()])
    seen += [net.requires_grad_() is net, [p.stop_gradient for p in net.parameters()]]
    optimizer = paddle.optimizer.SGD(parameters=net.parameters(), learning_rate=0.1)
    net(paddle.ones([1, 2])).sum().backward()
    optimizer.zero_grad(set_to_none=False)
    seen.append(net[0].weight.grad)
    net(paddle.ones([1, 2])).sum().backward()
    optimizer.zero_grad()
    seen.append(net[0].weight.grad)
    calls = []
    plain = net.register_forward_hook(lambda layer, inputs, out: calls.append("plain") or out * 2)
    keyed = net.register_forward_hook(lambda layer, args, kwargs, out: calls.append("kw") or out * 3,
                                      with_kwargs=True, prepend=True)
    hooked = net(paddle.ones([1, 2]))
    plain.remove()
    keyed.remove()
    return seen + [hooked, net(paddle.ones([1, 2])), calls]
