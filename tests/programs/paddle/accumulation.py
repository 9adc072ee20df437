"""How ``.grad`` accumulates, is cleared, set and retained on non-leaves, and the flags a gradient
carries."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import paddle_program as program


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
def setting_the_flag_gives_a_tensor_its_accumulation_node(paddle):
    """A tensor no node made (linspace, eye, detach, an op on constants) has no grad_fn until
    its stop_gradient (either way) or requires_grad is set: then it shows GradNodeAccumulation.
    to_tensor, ones, arange and full show theirs from the start; zeros_like, ones_like and
    full_like have none."""
    def node(t):
        return t.grad_fn.name() if t.grad_fn is not None else None
    made = [paddle.linspace(0.0, 1.0, 5), paddle.eye(2), paddle.ones([2]).detach(),
            paddle.linspace(0.0, 1.0, 5) * 2.0, paddle.linspace(0.0, 1.0, 3)]
    result = [[node(t) for t in made], node(paddle.ones([2])), node(paddle.arange(3, dtype="float32"))]
    result.append([node(like(paddle.ones([2]))) for like in
                   (paddle.zeros_like, paddle.ones_like, lambda t: paddle.full_like(t, 2.0))])
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
def a_retained_gradient_of_a_reshape_shares_memory_with_the_kernels_below(paddle):
    """paddle's backward kernels reuse the memory of the gradient they are handed: a reshape's
    (unsqueeze, squeeze, flatten, a transpose that keeps the order in memory) hands on a view of
    it, so its output's retained gradient shows what the kernels below write there: an
    elementwise kernel's result (exp, sin, floor..., not relu or abs), the first operand's
    reduced gradient of an add, a leaf's later accumulations (its first .grad is that memory)
    and a second gradient summed into the first. A retained gradient of the activation's own
    output, a hook that returns a new tensor or a transpose that reorders keeps it apart; a hook
    that returns None hands the kernel the same memory. In a create_graph pass sqrt, rsqrt,
    relu, leaky_relu and clip still write there, the others do not."""
    nnf = paddle.nn.functional
    seen = []
    ops = {"exp": paddle.exp, "sin": paddle.sin, "sqrt": paddle.sqrt, "floor": paddle.floor,
           "square": paddle.square, "tanh": paddle.tanh, "sigmoid": nnf.sigmoid, "relu": nnf.relu,
           "abs": paddle.abs, "gelu": nnf.gelu, "scale": lambda t: t * 2.0}
    views = {"unsqueeze": lambda t: t.unsqueeze(0), "flatten": lambda t: t.reshape([1, 3]).flatten(),
             "identity transpose": lambda t: t.reshape([1, 3]).transpose([0, 1]),
             "reordering transpose": lambda t: t.reshape([1, 3]).t()}
    for vname, view in views.items():
        for name, op in ops.items():
            x = paddle.to_tensor([0.3, 0.5, 0.7], stop_gradient=False)
            t = view(op(x))
            t.retain_grads()
            t.backward()
            seen.append([vname, name, t.grad, x.grad])

    kinks = {"relu": nnf.relu, "leaky_relu": lambda t: nnf.leaky_relu(t, 0.1), "abs": paddle.abs,
             "clip": lambda t: paddle.clip(t, -0.2, 0.2), "elu": nnf.elu, "gelu": nnf.gelu}
    for name, op in kinks.items():  # where their derivative is not one
        x = paddle.to_tensor([-0.3, 0.5, 0.0], stop_gradient=False)
        t = op(x).unsqueeze(0)
        t.retain_grads()
        t.backward()
        seen.append([name, t.grad, x.grad])

    def pair():
        return (paddle.to_tensor([0.3, 0.5, 0.7], stop_gradient=False),
                paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False))
    x, y = pair()
    t = (x + y).unsqueeze(0)
    t.retain_grads()
    t.backward()
    first = t.grad.numpy().copy()
    (x * 10).sum().backward()
    (y * 10).sum().backward()
    seen.append(["add, then accumulate", first, t.grad, x.grad, y.grad])
    for name, combine in (("0-d + x", lambda x, s: s + x), ("x - 0-d", lambda x, s: x - s),
                          ("0-d - x", lambda x, s: s - x), ("x - mean", lambda x, s: x - x.mean()),
                          ("x - x", lambda x, s: x - x)):
        x = paddle.to_tensor([0.3, 0.5, 0.7], stop_gradient=False)
        s = paddle.to_tensor(2.0, stop_gradient=False)
        t = combine(x, s).unsqueeze(0)
        t.retain_grads()
        t.backward()
        seen.append([name, t.grad, x.grad, s.grad])
    x, _ = pair()
    e = paddle.exp(x)
    e.retain_grads()
    t = e.unsqueeze(0)
    t.retain_grads()
    t.backward()
    seen.append(["retained activation output", t.grad, e.grad])
    x, _ = pair()
    t = paddle.exp(x).unsqueeze(0)
    t.retain_grads()
    t.register_hook(lambda g: g * 1.0)
    t.backward()
    seen.append(["hook returning a new tensor", t.grad])
    # in a create_graph pass only some kernels still write there; the recorded gradient is
    # differentiated again as it was computed
    recording = {"sqrt": paddle.sqrt, "relu": nnf.relu, "clip": lambda t: paddle.clip(t, None, 0.45),
                 "leaky_relu": lambda t: nnf.leaky_relu(t, 0.1), "rsqrt": paddle.rsqrt,
                 "exp": paddle.exp, "tanh": paddle.tanh, "elu": nnf.elu}
    for name, op in recording.items():
        x = paddle.to_tensor([[0.3, 0.6, 0.5]], stop_gradient=False)
        v = paddle.unsqueeze(op(x), axis=1)
        v.retain_grads()
        g, = paddle.grad([v], [x], create_graph=True)
        seen.append([f"create_graph {name}", v.grad, g, paddle.grad([g.sum()], [x], allow_unused=True)])
    for hooked in ("activation output", "reshape output"):  # a hook that returns None
        x, _ = pair()
        e = paddle.tanh(x)
        t = e.unsqueeze(0)
        t.retain_grads()
        (e if hooked == "activation output" else t).register_hook(lambda g: None)
        t.backward()
        seen.append([f"hook returning None on the {hooked}", t.grad, x.grad])
    x, _ = pair()
    t = paddle.exp(paddle.sin(x)).unsqueeze(0).unsqueeze(0)
    t.retain_grads()
    ((t * 2 + t).sum() + (x * 5).sum()).backward()
    seen.append(["chain, two uses, another contribution", t.grad, x.grad])
    x, _ = pair()
    u = paddle.exp(x).unsqueeze(0)
    u.retain_grads()
    t = u.unsqueeze(0)
    t.backward(retain_graph=True)
    t.backward()
    seen.append(["inner view, twice", u.grad, x.grad])
    return seen


@program
def an_add_sums_a_broadcast_first_operand_into_the_shared_gradient_only_sometimes(paddle):
    """Which broadcast first operands of add and subtract have their reduced gradient written
    into the first elements of a gradient a retained gradient of a reshape shares: from fewer
    dimensions into two or more, where no broadcast dimension comes before a kept one, and
    only where the other operand is not broadcast itself."""
    pairs = [([2, 1, 3], [2, 2, 3]), ([2, 2, 3], [2, 1, 3]), ([2, 1, 3], [1, 2, 3]),
             ([1, 3], [2, 2, 3]), ([2, 2, 3], [3]), ([2, 1], [1, 3]), ([], [3]), ([1], [3]),
             ([1, 1], [2, 3]), ([3], [2, 3]), ([], [2, 3]), ([1, 3], [2, 3]), ([], [2, 2, 3]),
             ([3], [2, 2, 3]), ([2, 3], [4, 2, 3]), ([1], [2, 3]), ([1, 2, 3], [4, 2, 3]),
             ([1, 1], [2, 2, 3]), ([1, 2], [3, 1, 2]), ([2, 1], [3, 2, 2]),
             ([1, 1, 3], [2, 2, 2, 3]), ([2], [3, 2]), ([2, 1], [2, 1, 3]), ([2, 1], [1, 1, 3]),
             ([2, 1], [1, 2, 3]), ([3], [2, 1, 1]), ([], [2, 1])]
    seen = []
    for a_shape, b_shape in pairs:
        for sub in (False, True):
            a = paddle.full(a_shape, 1.0)
            a.stop_gradient = False
            b = paddle.full(b_shape, 2.0)
            b.stop_gradient = False
            v = a - b if sub else a + b
            r = v.flatten()
            r.retain_grads()
            r.backward()
            seen.append([a_shape, b_shape, sub, r.grad, a.grad, b.grad])
    return seen


@program
def assigning_a_grad_of_another_dtype_into_an_existing_one_is_refused(paddle):
    """Assigning .grad copies into the gradient there is: one of another dtype is refused
    (whatever its shape), also into a gradient clear_grad() zeroed; a tensor without a
    gradient takes any."""
    x = paddle.to_tensor([[0.0, 0.0, 0.0]], stop_gradient=False)
    (x * 2.0).sum().backward()
    seen = []
    for value in (paddle.to_tensor([[1.0, 1.0, 1.0]], dtype="float64"), paddle.to_tensor([[1, 1, 1]]),
                  paddle.to_tensor([1.0, 1.0, 1.0], dtype="float64"), paddle.to_tensor([7.0, 7.0, 7.0])):
        seen.append(attempt(lambda value=value: setattr(x, "grad", value)))
        seen.append(x.grad)
    x.clear_grad()
    seen.append(attempt(lambda: setattr(x, "grad", paddle.to_tensor([1.0, 1.0, 1.0], dtype="float64"))))
    y = paddle.to_tensor([[0.0, 0.0, 0.0]], stop_gradient=False)
    y.grad = paddle.to_tensor([[1.0, 1.0, 1.0]], dtype="float64")
    return seen + [y.grad]


@program
def concat_and_stack_give_each_input_gradient_memory_of_its_own(paddle):
    """concat_grad and stack_grad write each input's gradient into row-major memory of its
    own, so a gradient retained below an identity transpose (a view of it) becomes the leaf's
    .grad itself, and the leaf's second gradient added in place shows in it, whatever the axis."""
    seen = []
    for join in (lambda a, b: paddle.concat([a, b], axis=0), lambda a, b: paddle.concat([a, b], axis=1),
                 lambda a, b: paddle.stack([a, b], axis=1), lambda a, b: paddle.stack([a, b], axis=2),
                 lambda a, b: paddle.split(paddle.concat([a, b], axis=1), 2, axis=1)[0] * 2.0 + b):
        x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
        v = paddle.transpose(x, [0, 1])
        v.retain_grads()
        join(v, x * x).sum().backward()
        seen += [v.grad, x.grad]
    return seen


@program
def a_tensor_and_number_add_below_a_retained_reshape_gradient_gives_new_memory(paddle):
    """Between an elementwise kernel and a reshape whose output's gradient is retained, a
    tensor-and-number add or subtract (paddle's scale kernel) hands the kernel new memory: the
    retained gradient keeps its values; two tensors' add and a multiply by a number as pinned
    above (fuzz seed 86267571272)."""
    seen = []
    middles = {"t + 1.0": lambda t: t + 1.0, "t - 1.0": lambda t: t - 1.0, "1.0 + t": lambda t: 1.0 + t,
               "1.0 - t": lambda t: 1.0 - t, "t + ones": lambda t: t + paddle.ones([3, 1]),
               "t * 2.0": lambda t: t * 2.0}
    for name, middle in middles.items():
        x = paddle.to_tensor([[1.0], [0.0], [0.0]], stop_gradient=False)
        v = paddle.transpose(middle(paddle.exp(x)), [0, 1])
        v.retain_grads()
        pieces = paddle.unbind(v)
        paddle.autograd.backward([pieces[0]])
        seen.append([name, v.grad, x.grad])
    return seen
