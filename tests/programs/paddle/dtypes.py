"""Dtypes: what stays float32 or float64, promotion, numpy operands, integer tensors refused."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import paddle_program as program


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
def integer_gradients(paddle):
    xi = paddle.to_tensor([1, 2], stop_gradient=False)
    g = paddle.grad(xi * 2, xi)
    h = paddle.grad((xi.astype("float32") * 2).sum(), xi)
    s, s2 = (xi * 2).sum(), (xi * 3).sum()
    return [xi.stop_gradient, g, h, attempt(lambda: paddle.autograd.backward([s, s2]))]


@program
def promotion(paddle):
    f = paddle.to_tensor([1.0, 2.0])
    return [str((paddle.to_tensor([1, 2]) * 1.5).dtype), str((paddle.to_tensor([1, 2]) / 2).dtype),
            str((f + paddle.to_tensor(2.0, dtype="float64")).dtype),
            attempt(lambda: paddle.to_tensor([1, 2]) + f)]


@program
def where_makes_a_float32_tensor_of_a_number(paddle):
    """paddle.where(c, 0.893, t) with t float64 rounds 0.893 to float32 first (then promotes);
    multiplying or adding a number does not."""
    x = paddle.to_tensor([1.0, 2.0], dtype="float64")
    c = paddle.to_tensor([True, False])
    return [paddle.where(c, 0.893, x), paddle.where(c, x, 0.893), x * 0.893, x + 0.893]


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


@program
def dtype_arguments_as_paddle_reads_them(paddle):
    """Creation functions read a dtype argument with numpy (a Python or numpy type, a name),
    with numpy's errors; to_tensor reads it with paddle's own list (Python's float refused);
    set_default_dtype takes float dtypes by name or object, or numpy float types, and words its
    refusal of a type differently."""
    import numpy as np

    x = paddle.ones([2])
    made = [paddle.ones([2], dtype=int), paddle.ones([2], dtype=float), paddle.ones([2], dtype=bool),
            paddle.ones([2], dtype=np.float64), paddle.to_tensor([1.0], dtype=np.float64),
            paddle.to_tensor([1.0], dtype=bool), paddle.to_tensor([1.0], dtype=np.dtype("float64")),
            paddle.cast(x, float), x.astype(int), paddle.full_like(x, 1, dtype=float),
            paddle.arange(3, dtype=float)]
    refused = [lambda: paddle.ones([2], dtype=3), lambda: paddle.ones([2], dtype="x"),
               lambda: paddle.to_tensor([1.0], dtype=3), lambda: paddle.to_tensor([1.0], dtype="x"),
               lambda: paddle.to_tensor([1.0], dtype=float), lambda: paddle.cast(x, "x"),
               lambda: x.astype(3)]
    defaults = []
    try:
        for d in [3, "x", "int64", float, np.int64, paddle.int64, np.float64, "float64", paddle.float32]:
            defaults += [attempt(lambda d=d: paddle.set_default_dtype(d)), paddle.get_default_dtype()]
    finally:
        paddle.set_default_dtype("float32")
    return [(t, str(t.dtype)) for t in made] + [attempt(f) for f in refused] + defaults


@program
def a_cast_to_its_own_dtype_is_a_new_tensor_astype_is_not(paddle):
    """paddle.cast (and Tensor.cast) to the tensor's own dtype runs the kernel: a new tensor
    with a CastGradNode; astype returns the tensor itself."""
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    y = x * 1.0
    cast, method, astype = paddle.cast(y, "float32"), y.cast("float32"), y.astype("float32")
    y.retain_grads()
    (cast * 2.0 + method * 3.0 + astype).sum().backward()
    return [cast is y, method is y, astype is y, cast.grad_fn.name(), astype.grad_fn.name(),
            y.grad, paddle.cast(paddle.to_tensor([1.0]), "float32").stop_gradient]


@program
def a_leaf_multiply_widened_keeps_its_old_dtype_for_the_engine(paddle):
    """A leaf that a promoting ``multiply_`` widened (refused on a leaf that requires grad, yet
    widening it; or under no_grad) is still its old dtype to paddle's engine: a seed is cast to
    that, a gradient of it (or of the new dtype) reaches .grad as it is. subtract_, add_ and
    divide_ widen it for the engine too: seeds and gradients are cast to the new dtype, a second
    gradient too before it is added. A leaf made from data keeps what reaches it either way.
    (A gradient of another dtype than the .grad it is added to is undefined: not done here.)"""
    wide = paddle.to_tensor([1.0], dtype="float64")
    seen = []
    for make in (lambda: paddle.ones([1]), lambda: paddle.to_tensor([1.0])):
        for write in ("multiply_", "subtract_", "add_", "divide_"):
            x = make()
            x.stop_gradient = False
            first, second = paddle.cast(x, "float64"), x * 3.0
            seen.append(attempt(lambda: getattr(x, write)(wide)))
            paddle.autograd.backward([first])
            seen.append([x.numpy().dtype.name, x.grad.numpy().dtype.name, x.grad.stop_gradient])
            second.backward()
            seen.append([x.grad.numpy(), x.grad.stop_gradient])
            y = make()
            y.stop_gradient = False
            with paddle.no_grad():
                getattr(y, write)(wide)
            paddle.autograd.backward([y], [paddle.to_tensor([2.0], dtype="float16")])
            seen.append([y.grad.numpy().dtype.name, y.grad.stop_gradient])
    return seen


@program
def a_gradient_of_another_dtype_reaches_a_leaf_made_from_data_as_it_is(paddle):
    """A leaf ``to_tensor`` made from Python or numpy data takes a float64 seed (or, once an
    in-place write widened it, a float32 gradient) into its .grad as it is; a leaf any other
    way made (zeros, full, linspace, arange, rand, assign, to_tensor of a tensor, detach) has
    its accumulation cast the gradient to its own dtype: a .grad that stops gradient when the
    gradient came from a node. ``assign`` takes data in numpy's dtype, a number as shape [1]."""
    import numpy as np
    makers = [lambda: paddle.to_tensor([1.0]), lambda: paddle.to_tensor(np.ones(1, np.float32)),
              lambda: paddle.to_tensor(paddle.ones([1])), lambda: paddle.zeros([1]),
              lambda: paddle.full([1], 2.0), lambda: paddle.linspace(1.0, 1.0, 1),
              lambda: paddle.arange(1.0, 2.0, 1.0), lambda: paddle.to_tensor([1.0]).detach(),
              lambda: paddle.assign(np.ones(1, np.float32))]
    seen = [paddle.assign([0.5]), paddle.assign(2.0), paddle.assign([1, 2])]
    for make in makers:
        x = make()
        x.stop_gradient = False
        paddle.autograd.backward([x], [paddle.to_tensor([2.0], dtype="float64")])
        seen.append([x.grad.numpy().dtype.name, x.grad.stop_gradient])
        x = make()
        x.stop_gradient = False
        y = paddle.add(paddle.to_tensor([[0.5]]), x)
        attempt(lambda: x.subtract_(paddle.cast(x, "float64")))  # refused, yet widens x
        y.backward()
        seen.append([x.numpy().dtype.name, x.grad.numpy(), x.grad.stop_gradient])
    return seen


@program
def a_parameter_casts_a_seed_of_another_dtype_to_its_own(paddle):
    """A parameter (create_parameter, a layer's weight) is not a tensor made from data: a
    float64 seed handed to backward on it is cast to its float32 .grad."""
    import numpy as np
    linear = paddle.nn.Linear(2, 1, weight_attr=paddle.nn.initializer.Constant(0.5),
                              bias_attr=paddle.nn.initializer.Constant(0.0))
    made = paddle.create_parameter([2], "float32", default_initializer=paddle.nn.initializer.Assign(
        np.ones(2, np.float32)))
    paddle.autograd.backward([linear.weight], [paddle.to_tensor([[1.5], [2.5]], dtype="float64")])
    paddle.autograd.backward([made], [paddle.to_tensor([1.5, 2.5], dtype="float64")])
    return [[p.grad, p.grad.numpy().dtype.name, p.grad.stop_gradient] for p in (linear.weight, made)]


@program
def a_leafs_hooks_see_the_gradient_its_accumulation_cast(paddle):
    """A leaf an in-place add_ or subtract_ widened (refused on a leaf that requires grad, but
    the cast comes first) is the wider dtype to paddle's engine: its accumulation node casts a
    narrower gradient before the leaf's hooks see it, and the .grad made from it stops
    gradient, what a hook returned for it too. multiply_ leaves the engine the old dtype, and a
    tensor made from data takes gradients as they are: their hooks see the gradient uncast."""
    out = []
    for kind in ("zeros", "data"):
        for op in ("add_", "subtract_", "multiply_"):
            for replace in (False, True):
                x = paddle.zeros([1, 3], "float32") if kind == "zeros" else \
                    paddle.to_tensor([[0.0, 0.0, 0.0]])
                x.stop_gradient = False
                v = paddle.cast(x, "float64")
                seen = []
                x.register_hook(lambda g, seen=seen, replace=replace: (
                    seen.append([str(g.dtype), g.stop_gradient]), g * 2 if replace else None)[1])
                attempt(lambda: getattr(x, op)(v))
                paddle.autograd.backward([v])
                out.append([kind, op, replace, str(x.dtype), seen, x.grad, x.grad.stop_gradient])
    return out


@program
def a_widened_non_leafs_hooks_see_the_engines_cast(paddle):
    """A non-leaf a promoting in-place write widened (float32 times float64) keeps its hooks
    and retained gradient at its old node, in its old dtype: the engine casts the gradient
    passed down to it outside any node, unrecorded even with create_graph, so what they see
    stops gradient and nothing differentiates through the cast (the second-order gradient
    with respect to the float64 operand is None). A seed's cast at its root is recorded as
    usual."""
    out = []
    for op in ("multiply_", "add_", "subtract_"):
        for graph in (False, True):
            x = paddle.to_tensor([[0.5, 1.0, 2.0]], stop_gradient=False)
            y = paddle.to_tensor([3.0], dtype="float64", stop_gradient=False)
            v = x * x
            seen = []
            v.register_hook(lambda g, seen=seen: seen.append([str(g.dtype), g.stop_gradient]))
            v.retain_grads()
            getattr(v, op)(y)
            r = paddle.grad([v.sum()], [x], create_graph=graph)[0]
            second = attempt(lambda r=r, y=y: paddle.grad([r.sum()], [y], allow_unused=True)) \
                if graph else None
            out.append([op, graph, str(v.dtype), seen, v.grad, r, r.stop_gradient, second])
    x = paddle.to_tensor([[0.5, 1.0]], stop_gradient=False)
    v = x * 2.0
    seen = []
    v.register_hook(lambda g: seen.append([str(g.dtype), g.stop_gradient]))
    paddle.autograd.backward([v], [paddle.ones([1, 2], dtype="float64")])
    return [out, seen, x.grad]


@program
def a_number_beyond_an_integer_dtype_becomes_its_minimum(paddle):
    """A Python int beyond an integer tensor's range in an operation: paddle converts it through
    a double, which gives the dtype's minimum."""
    a = paddle.to_tensor([1, 2], dtype="int32")
    return [a + 2 ** 40, a * 3000000000, a + 2 ** 70, paddle.to_tensor([1, 2]) + 2 ** 70]


@program
def a_widened_root_s_seed_as_each_kernel_takes_it(paddle):
    """A root written under no_grad with a float64 operand: backward fills its seed in float64,
    which the root's hooks and retained gradient see; scale, reshape and concat hand it on wider
    (a leaf from data collects float64), sum casts it back, multiply and slice refuse it, split refuses
    pieces of two dtypes, and a leaf meeting it with a float32 gradient is refused as undefined
    by the reference (paddle reads one's memory as the other's type: left out here)."""
    def widened(op):
        x = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], stop_gradient=False)
        root = op(x)
        seen = []
        root.register_hook(lambda g: seen.append(str(g.dtype)))
        root.retain_grads()
        with paddle.no_grad():  # (a transposed view's write is refused)
            wrote = attempt(lambda: root.multiply_(paddle.to_tensor(2.0, dtype="float64")))
        done = attempt(lambda: paddle.autograd.backward([root]))
        return [wrote, done, seen, root.grad, x.grad]

    ops = [lambda x: x * 2, lambda x: x.reshape([3, 2]), lambda x: paddle.concat([x, x]),
           lambda x: x.sum(0), lambda x: x * x, lambda x: x[1], lambda x: x.t(),
           lambda x: paddle.split(x, 3, axis=1)[1], lambda x: paddle.unbind(x)[1],
           lambda x: paddle.where(x > 2.0, x, paddle.zeros_like(x)), lambda x: paddle.nn.functional.relu6(x)]
    x = paddle.to_tensor([[1.0, 2.0]], stop_gradient=False)
    root = x * 2
    with paddle.no_grad():
        root.multiply_(paddle.to_tensor(2.0, dtype="float64"))
    through_grad = paddle.grad([root], [x])
    return [[widened(op) for op in ops], through_grad]


@program
def the_matmul_operator_casts_its_other_operand(paddle):
    """``a @ b`` with operands of two dtypes casts ``b`` to ``a``'s dtype (a CastGradNode);
    ``paddle.matmul`` and ``Tensor.matmul`` refuse them; ``where`` promotes with a recorded
    cast of the narrower operand, as the arithmetic operators do."""
    out = []
    for da, db in (("float32", "float64"), ("float64", "float32")):
        a = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], dtype=da, stop_gradient=False)
        b = paddle.to_tensor([[0.5, 1.5], [2.5, 3.5]], dtype=db, stop_gradient=False)
        product = a @ b
        product.sum().backward()
        out.append([product, [n and n.name() for n in product.grad_fn.next_functions], a.grad, b.grad,
                    attempt(lambda a=a, b=b: paddle.matmul(a, b)), attempt(lambda a=a, b=b: a.matmul(b))])
        chosen = paddle.where(paddle.to_tensor([True, False]), a, b)
        out.append([chosen, [n and n.name() for n in chosen.grad_fn.next_functions]])
    return out


@program
def bfloat16_by_name_and_as_printed(paddle):
    """astype('bfloat16') by name; paddle prints a bfloat16 tensor through its float32 values
    (eight decimals), and casts back exactly."""
    x = paddle.to_tensor([0.1, 0.2, 1.5]).astype("bfloat16")
    return [str(x), str(x.dtype), x.astype("float32"), str(paddle.to_tensor([2.25]).astype(paddle.bfloat16))]
