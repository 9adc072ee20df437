"""In-place writes, versions and views, and which tensors a node saves and checks at backward."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import paddle_program as program


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
def a_flag_taken_from_an_unrecorded_write_comes_without_a_node(paddle):
    """A view, or an op's result, that takes the flag from a write under no_grad has no node
    until an op takes it as an input: as a backward root it is skipped silently (no .grad, no
    grad_fn after), as an input of paddle.grad it is refused; a fresh tensor written the same
    way has its accumulation node from the start."""
    def written(make):
        t = make()
        with paddle.no_grad():
            t[0] = paddle.to_tensor(5.0, stop_gradient=False)
        return t

    seen = []
    for make in (lambda: paddle.to_tensor([1.0, 2.0, 3.0])[1:],
                 lambda: paddle.to_tensor([1.0, 2.0, 3.0]) * 1,
                 lambda: paddle.to_tensor([1.0, 2.0, 3.0])):
        root = written(make)
        seen += [root.stop_gradient, root.grad_fn is None, attempt(lambda r=root: r.backward()),
                 root.grad, root.grad_fn is None]
        alone = written(make)
        seen.append(attempt(lambda a=alone: paddle.grad([a], [a])))
        used = written(make)
        seen += [paddle.grad([used * 2], [used]), used.grad_fn is None]
    return seen


@program
def an_unrecorded_write_of_another_dtype_takes_no_flag(paddle):
    """v[0] = t under no_grad with t requiring grad: the written tensor requires grad from then
    on where t has its dtype, and not where t has another (paddle casts t first, unrecorded)."""
    seen = []
    for dtype in ("float32", "float64"):
        v = paddle.cast(paddle.to_tensor([[1.0, 2.0, 3.0]]), "float64")
        t = paddle.to_tensor([[4.0, 5.0, 6.0]], dtype=dtype, stop_gradient=False)
        with paddle.no_grad():
            v[0] = t
        seen += [v.stop_gradient, v]
    return seen


@program
def a_recorded_write_of_another_dtype_casts_the_value_in_a_node_of_its_own(paddle):
    """v[0] = t with t of another dtype: paddle casts t first, recorded (CastGradNode between
    the write's node and t), so a pass that fails at a node queued before that cast leaves t
    without a gradient; a value of v's own dtype is reached first (leaf accumulations go to
    the front of paddle's queue)."""
    seen = []
    for dtype in ("float32", "float64"):
        x = paddle.to_tensor([[1.0, 2.0, 3.0]], stop_gradient=False)
        v = paddle.exp(paddle.cast(x, "float64"))
        t = paddle.to_tensor([5.0], dtype=dtype, stop_gradient=False)
        v[0] = t
        seen += [[n.name() for n in v.grad_fn.next_functions] if hasattr(v.grad_fn, "next_functions")
                 else None, attempt(lambda v=v: paddle.autograd.backward([v.sum()])), t.grad]
    return seen


@program
def a_kernel_without_a_strided_form_saves_a_contiguous_copy_of_a_transposed_view(paddle):
    """An input that is a transposed view, written in place after the op: the kernels that read
    strided inputs (multiply, sin, square) saved the view and refuse the backward; those that
    copy it to contiguous memory first (pow, erf, clip, gelu, the 2-norm) saved the copy and
    do not see the write. A view that stays row-major (a slice of rows) is saved by all."""
    ops = {"multiply": lambda t: t * t, "sin": paddle.sin, "square": paddle.square,
           "pow": lambda t: t ** 3, "rpow": lambda t: 2.0 ** t, "erf": paddle.erf,
           "clip": lambda t: paddle.clip(t, -1.0, 1.0),
           "gelu": paddle.nn.functional.gelu, "norm": paddle.linalg.norm}
    seen = {}
    for view_name, view in (("transpose", lambda x: paddle.transpose(x, [1, 0])),
                            ("rows", lambda x: x[0:1])):
        for name, op in ops.items():
            x = paddle.to_tensor([[1.0, 0.5], [2.0, -1.5]], stop_gradient=False)
            v = view(x)
            out = op(v)
            v[0] = -0.596
            seen[f"{view_name} {name}"] = attempt(lambda out=out: out.sum().backward())
    return seen


@program
def multiply_in_place_saves_a_copy_outside_the_graph(paddle):
    """multiply_ saves a copy of the tensor it writes, without its history: a second
    derivative through the saved copy reaches nothing ((x * 1).multiply_(x) differentiates
    twice to 1, not 2); divide_ and the activations' in-place forms keep what they save."""
    x = paddle.to_tensor([0.5, -0.3], stop_gradient=False)
    b = paddle.to_tensor([0.7, 0.2], stop_gradient=False)
    seen = []
    for name in ("multiply_", "divide_", "tanh_"):
        v = x * 1.0
        written = getattr(v, name)(b) if name != "tanh_" else v.tanh_()
        grads = paddle.grad([written], [x, b], create_graph=True, allow_unused=True)
        seen.append([name, [None if g is None else paddle.grad([g.sum()], [x, b], allow_unused=True)
                            for g in grads]])
    v = x * 1.0
    v.multiply_(x)
    (g,) = paddle.grad([v], [x], create_graph=True)
    seen.append(paddle.grad([g.sum()], [x]))
    return seen


@program
def a_write_of_a_wider_dtype_casts_the_written_tensor_first(paddle):
    """A write of a float64 operand (a 0-D one too, which an out-of-place op would not widen
    to) into a float32 tensor makes it float64, cast without a node of its own: its node's
    first input is the tensor's history, whose gradient comes back as float32. A tensor
    detach made of it is the same tensor and follows; a view keeps its old memory; a
    transposed view takes the dtype and is then refused by its kernel."""
    seen = []
    for shape in ([], [2]):
        x = paddle.to_tensor([0.5, 1.0], stop_gradient=False)
        z = paddle.full(shape, 3.0, dtype="float64")
        z.stop_gradient = False
        y = x * 1.0
        y.multiply_(z)
        seen.append([str(y.dtype), y.grad_fn.name(), [n.name() for n in y.grad_fn.next_functions]])
        (y * y).sum().backward()
        seen += [x.grad, z.grad, str(paddle.multiply(x, z).dtype)]
    a = paddle.to_tensor([0.5, 1.0]) * 1.0
    twin = a.detach()
    twin.add_(paddle.to_tensor(1.0, dtype="float64"))
    base = paddle.to_tensor([[0.5, 1.0, 2.0], [1.0, 2.0, 3.0]]) * 1.0
    view = base.unsqueeze(0)
    view.add_(paddle.ones([1, 2, 3], dtype="float64"))
    strided = (paddle.to_tensor([[0.5, 1.0, 2.0], [1.0, 2.0, 3.0]]) * 1.0).t()
    leaf = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 0.5, 6.0]], stop_gradient=False)
    smallest = paddle.min(leaf)
    refused = attempt(lambda: leaf.multiply_(paddle.cast(leaf, "float64")))
    # the leaf's write is refused after it was made: min's saved input is float64 now
    kernels = []
    for op in (paddle.abs, paddle.sin, paddle.min):  # abs_grad is typed by its input
        x = paddle.to_tensor([0.5, 0.7], stop_gradient=False)
        y = op(x)
        attempt(lambda: x.multiply_(paddle.to_tensor([1.0, 1.0], dtype="float64")))
        kernels.append(attempt(lambda: y.sum().backward()))
    return [seen, a, twin, base, view,
            attempt(lambda: strided.add_(paddle.ones([3, 2], dtype="float64"))), str(strided.dtype),
            refused, str(leaf.dtype), attempt(lambda: smallest.backward()), leaf.grad, kernels]


@program
def a_write_that_broadcasts_the_tensor_larger_is_refused(paddle):
    """x.add_(y) where y broadcasts x to a larger shape: refused before anything runs (a leaf
    that requires grad included), whatever the dtypes."""
    seen = []
    for target, other, dtype in (([], [2], "float32"), ([1], [2], "float64"), ([2, 1], [2, 3], "float32")):
        for name in ("add_", "multiply_", "subtract_", "divide_"):
            t = paddle.zeros(target)
            seen.append(attempt(lambda: getattr(t, name)(paddle.ones(other, dtype=dtype))))
    leaf = paddle.zeros([1])
    leaf.stop_gradient = False
    seen.append(attempt(lambda: leaf.add_(paddle.ones([2]))))
    return seen


@program
def the_refused_write_to_a_leaf_names_it_only_where_it_has_a_name(paddle):
    """paddle names a tensor when its name is first read (``eager_tmp_N``), except one
    to_tensor made from data (``generated_tensor_N``) or detach made (``eager_in_tmp_N``),
    named at once; the error refusing an in-place write to a leaf that requires grad shows the
    name it has then, or nothing."""
    import re

    import numpy as np
    makers = [lambda: paddle.to_tensor([1.0]), lambda: paddle.to_tensor(paddle.ones([1])),
              lambda: paddle.zeros([1]), lambda: paddle.full([1], 2.0),
              lambda: paddle.arange(1.0, 2.0, 1.0), lambda: paddle.linspace(1.0, 1.0, 1),
              lambda: paddle.assign(np.ones(1, np.float32)), lambda: paddle.to_tensor([1.0]).detach(),
              lambda: paddle.to_tensor([1.0]).clone()]
    seen = []
    for make in makers:
        for read_first in (False, True):
            x = make()
            x.stop_gradient = False
            if read_first:
                seen.append(x.name.rstrip("0123456789"))
            refused = attempt(lambda: x.multiply_(paddle.to_tensor([2.0])))
            seen.append(re.sub(r"_\d+\)", ")", refused["message"]))  # (counters differ)
    return seen


@program
def masked_fill_and_erfinv_in_place(paddle):
    """Tensor.masked_fill_ (MaskedFillGradNode: no gradient where filled) and erfinv_ on a
    non-leaf, the tensor itself returned; a leaf that needs gradient refused."""
    x = paddle.to_tensor([[0.5, -1.0, 0.2], [0.9, 0.25, -0.5]], stop_gradient=False)
    t = x * 1
    filled = t.masked_fill_(t > 0.4, 9.0)
    seen = [filled is t, filled.grad_fn.name(), filled, paddle.grad((filled * filled).sum(), x)]
    u = x * 0.5
    inverse = u.erfinv_()
    return seen + [inverse is u, inverse.grad_fn.name(), inverse, paddle.grad(inverse.sum(), x),
                   attempt(lambda: x.masked_fill_(x > 0, 1.0))]


@program
def triangles_lerp_and_index_writes_in_place(paddle):
    """triu_, tril_, lerp_, put_along_axis_ (assigning and adding), index_add_ and scatter_ on
    a non-leaf: the tensor itself returned, the op's node, gradients of the input and of the
    written values; a leaf that needs gradient refused."""
    def leaf(values):
        return paddle.to_tensor(values, stop_gradient=False)

    src = leaf([[1.0, 2.0, 3.0]])
    seen = []
    for write in (lambda t: t.triu_(0), lambda t: t.tril_(-1), lambda t: t.lerp_(paddle.ones([2, 3]), 0.25),
                  lambda t: t.put_along_axis_(paddle.to_tensor([[0], [2]]), 5.0, 1),
                  lambda t: t.put_along_axis_(paddle.to_tensor([[1], [1]]), src[:, :1], 1, reduce="add"),
                  lambda t: t.index_add_(paddle.to_tensor([1]), 0, src),
                  lambda t: t.scatter_(paddle.to_tensor([0]), src)):
        x = leaf([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]])
        t = x * 1
        y = write(t)
        seen += [y is t, y.grad_fn.name(), y, paddle.grad((y * y).sum(), [x, src], allow_unused=True)]
    x = leaf([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]])
    try:
        x.triu_(0)
        refused = None
    except ValueError as error:
        refused = "can't use inplace strategy" in str(error)
    return seen + [refused]


@program
def scatter_function_in_place(paddle):
    """paddle.scatter_(x, index, updates): the rows written into ``x``, which it returns."""
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    written = paddle.scatter_(x, paddle.to_tensor([1]), paddle.to_tensor([[9.0, 9.0]]))
    return [written is x, x]


@program
def refused_leaf_write_widens_what_matmul_grad_may_not_read(paddle):
    """A refused ``subtract_`` on a leaf still leaves it float64. ``matmul_grad`` reads each
    saved operand only for the other operand's gradient, so with the other constant the leaf
    gets its float32 gradient; ``multiply_grad`` reads both and refuses (a dtype error)."""
    seen = []
    for op in (paddle.matmul, paddle.multiply):
        x = paddle.to_tensor([[1.0, -2.0], [3.0, 0.25]], stop_gradient=False)
        out = op(x, paddle.to_tensor([[1.0, 2.0], [-0.5, 1.5]]))
        try:
            x.subtract_(paddle.cast(x, "float64"))
        except ValueError as error:
            seen.append("can't use inplace strategy" in str(error))
        try:
            out.sum().backward()
            seen += [str(x.dtype), x.grad]
        except ValueError as error:
            seen.append("does not match the type of data" in str(error))
    return seen


@program
def more_functions_written_in_place(paddle):
    """The in-place forms of the trigonometric, hyperbolic, log, gamma and rounding functions and
    of hypot and cumprod: the tensor itself returned, its inplace version grown by one, the
    function's node (frac_'s SubtractGradNode, as paddle composes it), gradients."""
    seen = []
    for name in ("acos", "asin", "atan", "cosh", "sinh", "tan", "acosh", "asinh", "atanh", "log10", "log2",
                 "log1p", "rsqrt", "square", "frac", "trunc", "digamma", "lgamma", "logit"):
        x = paddle.to_tensor([1.3, 2.4, 1.8] if name == "acosh" else [0.3, 0.4, 0.8], stop_gradient=False)
        y = x * 1
        version = y.inplace_version
        out = getattr(y, name + "_")()
        grad = paddle.grad((out * paddle.to_tensor([1.0, 2.0, 3.0])).sum(), x)[0]
        seen += [name, out is y, y.inplace_version - version, out.grad_fn.name(), out, grad]
    x = paddle.to_tensor([0.3, -0.4, 0.8], stop_gradient=False)
    w = paddle.to_tensor([1.5, 2.0, -0.5], stop_gradient=False)
    out = (x * 1).hypot_(w)
    product = (x * 1).cumprod_(0)
    return seen + [out.grad_fn.name(), out, paddle.grad(out.sum(), [x, w]), product.grad_fn.name(),
                   paddle.grad(product.sum(), x)]


@program
def a_widened_seed_reaches_its_node_as_it_is(paddle):
    """A root written under no_grad with a float64 operand is float64 since, and backward's seed
    is made in that dtype and reaches the root's node as it is: slice_grad (typed by its
    input) refuses to read it, multiply_grad and matmul_grad (typed by the gradient) refuse to
    read their saved float32 operands and sum_grad reads it as its own dtype."""
    ops = {"slice": lambda x, y: x[1], "mul": lambda x, y: x * y, "matmul": lambda x, y: x @ y.t(),
           "sum": lambda x, y: x.sum(0)}
    seen = []
    for name, op in ops.items():
        x = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], stop_gradient=False)
        y = paddle.to_tensor([[0.5, 1.0, 1.5], [2.0, 2.5, 3.0]], stop_gradient=False)
        out = op(x, y)
        with paddle.no_grad():
            out.multiply_(paddle.to_tensor([2.0], dtype="float64"))
        try:
            paddle.autograd.backward([out])
            seen += [name, str(x.grad.dtype), x.grad]
        except ValueError as error:
            seen += [name, str(error).split("\n")[0]]
    return seen


@program
def shape_methods_in_place(paddle):
    """unsqueeze_, squeeze_, reshape_, flatten_, t_ and transpose_: the same tensor takes the
    view's shape and strides under the view's node, its version grows (a saved copy is then
    refused); its retained gradient and hooks stay with its old node. A leaf that requires grad
    is refused after its shape changed; t_ refuses more than two dimensions."""
    x = paddle.to_tensor([[1.0, 2.0, 3.0]], stop_gradient=False)
    forms = [lambda v: v.unsqueeze_(0), lambda v: v.squeeze_(), lambda v: v.squeeze_(0),
             lambda v: v.reshape_([3]), lambda v: v.flatten_(), lambda v: v.t_(),
             lambda v: v.transpose_([1, 0])]
    made = []
    for form in forms:
        v = x * 1
        r = form(v)
        made.append([r is v, r.grad_fn.name(), r.grad_fn.next_functions[0].name(), list(r.shape),
                     r._inplace_version(), r.is_contiguous(), r.strides])
    y = x * 1
    z = y * y
    y.unsqueeze_(0)
    refused = attempt(lambda: z.sum().backward())
    w = x * 2
    w.retain_grads()
    seen = []
    w.register_hook(lambda g: seen.append(list(g.shape)))
    w.unsqueeze_(0)
    (w * paddle.to_tensor([1.0, 2.0, 3.0])).sum().backward()
    leaf = paddle.to_tensor([[1.0, 2.0]], stop_gradient=False)
    leaf_refused = attempt(lambda: leaf.unsqueeze_(0))
    return [made, refused, list(w.grad.shape), seen, x.grad, leaf_refused, list(leaf.shape),
            attempt(lambda: paddle.zeros([2, 2, 2]).t_())]


@program
def strides_and_contiguity_of_transposed_views(paddle):
    """A transpose is a view with its base's strides permuted; paddle calls it contiguous only
    where every stride, a size-1 dimension's too, is the row-major one."""
    out = []
    for shape, perm in (([1, 3], [1, 0]), ([3, 1], [1, 0]), ([1, 1], [1, 0]), ([2, 1, 3], [1, 0, 2]),
                        ([2, 3], [1, 0]), ([1, 3, 1], [2, 1, 0])):
        view = paddle.zeros(shape).transpose(perm)
        out.append([list(view.shape), view.strides, view.is_contiguous()])
    return out
