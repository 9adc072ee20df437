"""What programs from the field reached that the facade lacked or got wrong: unstack,
broadcast_tensors and the bitwise functions, 0-d type promotion, smooth_l1_loss, in-place forms,
paddle.autograd's grad modes, weight_norm, and maximum's gradient of an infinite seed."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import paddle_program as program


@program
def unstack_broadcast_tensors_and_bits(paddle):
    x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    pieces = paddle.unstack(x, axis=1)
    (pieces[0] * 2 + pieces[1]).sum().backward()
    a, b = paddle.broadcast_tensors([x, paddle.to_tensor([1.0, 2.0], stop_gradient=False)])
    y = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]])
    copies = paddle.unstack(y)
    copies[0].add_(paddle.to_tensor(10.0))
    i = paddle.to_tensor([5, 3])
    return [pieces, pieces[0].grad_fn.name(), x.grad, a.grad_fn.name(), b, y, y.inplace_version,
            attempt(lambda: paddle.unstack(x, axis=3)), paddle.bitwise_and(i, paddle.to_tensor([1, 1])),
            i.bitwise_not(), paddle.bitwise_xor(i, i), i.bitwise_or(paddle.to_tensor([2, 2])),
            attempt(lambda: paddle.bitwise_and(x, x))]


@program
def zero_d_tensors_promote_as_numbers(paddle):
    """A 0-d tensor joins a tensor of another dtype as a Python number would, for the
    arithmetic and comparison operators; maximum and where refuse the mix."""
    half, two = paddle.to_tensor(0.5), paddle.to_tensor(2)
    ints, floats = paddle.to_tensor([3, 4]), paddle.to_tensor([1.5, 2.5])
    wide = paddle.to_tensor(0.5, dtype="float64")
    return [half * ints, ints - half, two + floats, floats / two, wide * floats, ints ** two,
            ints > half, paddle.to_tensor(True) + ints, half + paddle.to_tensor(3),
            attempt(lambda: paddle.maximum(half, ints)), attempt(lambda: paddle.to_tensor([0.5]) * ints),
            str(paddle.maximum(wide, floats).dtype)]


@program
def smooth_l1_loss_in_place_forms_and_grad_mode_aliases(paddle):
    """smooth_l1_loss (paddle's huber_loss kernel, without double grad) and SmoothL1Loss; the
    in-place forms whose node is the function's; the grad modes under paddle.autograd."""
    x = paddle.to_tensor([0.2, -1.5, 3.0, 0.9], stop_gradient=False)
    y = paddle.to_tensor([0.0, 0.0, 1.0, 1.0])
    out = []
    for reduction in ("mean", "sum", "none"):
        for delta in (1.0, 0.5):
            loss = paddle.nn.functional.smooth_l1_loss(x, y, reduction=reduction, delta=delta)
            out += [loss, loss.grad_fn.name(), paddle.grad(loss.sum(), x)[0]]
    out += [paddle.nn.SmoothL1Loss()(x, y), paddle.nn.SmoothL1Loss(reduction="sum", delta=2.0)(x, y),
            attempt(lambda: paddle.nn.functional.smooth_l1_loss(x, y, reduction="x")),
            attempt(lambda: paddle.grad(paddle.nn.functional.smooth_l1_loss(x, y, reduction="none").sum(),
                                        x, create_graph=True))]
    for name, args in (("pow_", (2.0,)), ("floor_", ()), ("ceil_", ()), ("round_", ()), ("log_", ()),
                       ("abs_", ()), ("sin_", ()), ("cos_", ()), ("sigmoid_", ()), ("neg_", ()),
                       ("cumsum_", (0,))):
        z = paddle.to_tensor([0.25, 0.6, 0.9], stop_gradient=False)
        w = z * 1.5
        written = getattr(w, name)(*args)
        w.sum().backward()
        out += [name, written is w, w.inplace_version, w.grad_fn.name(), w, z.grad]
    with paddle.autograd.no_grad():
        plain = x * 2
    paddle.autograd.set_grad_enabled(False)
    off = paddle.autograd.is_grad_enabled()
    paddle.autograd.set_grad_enabled(True)
    return out + [plain.stop_gradient, off, paddle.autograd.is_grad_enabled(), paddle.get_device()]


@program
def maximum_gradient_of_an_infinite_seed(paddle):
    """paddle's maximum and minimum gradients add two products, one by 0: where the incoming
    gradient is infinite or NaN both operands get NaN (fuzz seed 27777890035288)."""
    x = paddle.to_tensor([0.0, 1.0, -1.0, 2.0], stop_gradient=False)
    y = paddle.to_tensor([0.0, 0.0, 0.0, float("nan")], stop_gradient=False)
    out = []
    for seed in ([float("-inf"), 1.0, 2.0, 3.0], [1.0, float("nan"), float("inf"), 1.0],
                 [2.0, 3.0, 4.0, float("inf")]):
        for f in (paddle.maximum, paddle.minimum):
            x.clear_grad()
            y.clear_grad()
            f(x, y).backward(paddle.to_tensor(seed))
            out += [x.grad, y.grad]
    return out


@program
def weight_norm_splits_a_parameter_as_paddle_does(paddle):
    """paddle.nn.utils.weight_norm: ``weight_v`` then ``weight_g`` made by create_parameter (its
    draws come first), the norm squeezed, the weight ``normalize(v) * g`` (MultiplyGradNode)
    recomposed before every forward; ``dim`` 1 and None; remove_weight_norm and its errors."""
    paddle.seed(0)
    m = paddle.nn.Linear(3, 2)
    before = m.weight.detach().clone()
    same = paddle.nn.utils.weight_norm(m) is m
    x = paddle.ones([1, 3])
    m(x).sum().backward()
    out = [same, [n for n, _ in m.named_parameters()], m.weight_g, m.weight.grad_fn.name(),
           m.weight_g.grad, m.weight_v.grad, paddle.allclose(m.weight, before).item(), paddle.randn([2])]
    whole = paddle.nn.utils.weight_norm(paddle.nn.Conv1D(2, 3, 2), dim=None)
    by_channel = paddle.nn.utils.weight_norm(paddle.nn.Conv1D(2, 3, 2), name="weight", dim=1)
    by_channel(paddle.ones([1, 2, 4])).sum().backward()
    out += [whole.weight_g, by_channel.weight_g.shape, by_channel.weight_g.grad, by_channel.weight_v.grad]
    paddle.nn.utils.remove_weight_norm(m)
    out += [[n for n, _ in m.named_parameters()], m.weight.stop_gradient, m.weight,
            attempt(lambda: paddle.nn.utils.remove_weight_norm(m)),
            attempt(lambda: paddle.nn.utils.weight_norm(paddle.nn.Linear(2, 2), dim=5))]
    paddle.nn.utils.weight_norm(m)
    return out + [attempt(lambda: paddle.nn.utils.weight_norm(m)), list(m.state_dict())]


@program
def one_element_tensors_are_list_indices(paddle):
    """A one-element tensor of any dtype indexes a list and bounds a slice (paddle's
    ``int(np.array(x))``: a float one too); a longer one is refused."""
    items = [0, 1, 2, 3]
    return [items[paddle.to_tensor(2)], items[1:paddle.to_tensor(3)], items[paddle.to_tensor(1.7)],
            items[paddle.to_tensor(True)], attempt(lambda: items[paddle.to_tensor([1, 2])])]


@program
def stack_names_the_first_dimension_that_differs(paddle):
    """stack's refusal of tensors of different shapes names the first dimension that differs,
    or the shapes when the ranks differ."""
    return [attempt(lambda: paddle.stack([paddle.ones(a), paddle.ones(b)]))
            for a, b in (([6], [5]), ([2, 3], [2, 4]), ([2, 3], [3, 3]), ([2], [2, 1]))]


@program
def a_reshaped_strided_gradient_is_rewritten_in_place(paddle):
    """The gradient of an unsqueeze below a transpose that kept the order in memory is a
    row-major view of the transpose's gradient, which the unsqueeze output retains: exp's
    gradient kernel writes its result there in place, so the retained gradient shows it."""
    seen = []
    for perm in ([1, 2, 0], [2, 1, 0]):
        x = paddle.to_tensor([[0.5, -1.0, 1.0]], stop_gradient=False)
        y = paddle.unsqueeze(paddle.exp(x), axis=1)
        y.retain_grads()
        paddle.autograd.backward([paddle.transpose(y, perm).sum() * 2.0])
        seen += [y.grad, x.grad]
    return seen


@program
def rot90_unflatten_and_the_unrecorded_searches(paddle):
    """rot90 as paddle composes it (k of every quarter, negative k, swapped axes, a gradient),
    unflatten (a reshape), where of a condition alone (nonzero's tuple) and of one operand
    (refused), searchsorted / bucketize (right, int32, rows), histogram (the data's range, a
    given one, weights, density, one value) and isin (invert)."""
    x = paddle.to_tensor([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]], stop_gradient=False)
    seen = [paddle.where(x > 1), attempt(lambda: paddle.where(x > 1, x))]
    unflat = paddle.unflatten(x, -1, [3, 1])
    seen += [unflat.grad_fn.name(), unflat.shape, x.unflatten(0, [2, 1]).shape]
    for k in range(-1, 5):
        turned = paddle.rot90(x, k=k)
        seen += [turned, turned.grad_fn.name()]
    weights = paddle.arange(6, dtype="float32").reshape([3, 2])
    (paddle.rot90(x, k=1, axes=[1, 0]) * weights).sum().backward()
    edges = paddle.to_tensor([0.0, 2.0, 4.0])
    values = paddle.to_tensor([1.0, 5.0, 2.0, 2.0])
    seen += [x.grad, paddle.bucketize(x, edges), paddle.bucketize(x, edges, right=True, out_int32=True),
             paddle.searchsorted(paddle.to_tensor([[1.0, 3.0], [2.0, 4.0]]),
                                 paddle.to_tensor([[2.0], [3.0]])),
             paddle.histogram(values, bins=3), paddle.histogram(values, bins=4, min=0, max=4),
             paddle.histogram(values, bins=3, weight=paddle.to_tensor([1.0, 2.0, 3.0, 4.0])),
             paddle.histogram(values, bins=3, density=True), values.histogram(bins=2),
             paddle.histogram(paddle.to_tensor([2.0, 2.0]), bins=2),
             paddle.isin(x, paddle.to_tensor([3.0, 5.0])), x.isin(paddle.to_tensor([3.0]), invert=True)]
    return seen


@program
def python_numbers_from_one_element_tensors(paddle):
    """float() / int() of a tensor are paddle's ``float(np.array(x))``: a 0-d tensor converts,
    a one-element tensor of more dimensions is refused by numpy 2 (TypeError), several elements
    by paddle's assertion; bool() of one element of any shape converts."""
    seen = []
    for t in (paddle.to_tensor(2.5), paddle.to_tensor([1.5]), paddle.to_tensor([[2]]),
              paddle.to_tensor([1.0, 2.0]), paddle.to_tensor(3, dtype="int64")):
        seen += [attempt(lambda: float(t)), attempt(lambda: int(t)), attempt(lambda: bool(t))]
    return seen


@program
def copysign_ldexp_and_diag_embed(paddle):
    """copysign (CopysignGradNode: the gradient through the sign, none to ``y``; a number ``y``;
    integers), ldexp as paddle composes it (a product with a power of 2, float64 if either
    operand is) and diag_embed (offsets, dims, out of the graph)."""
    x = paddle.to_tensor([1.0, -2.0, 3.0, 4.0], stop_gradient=False)
    y = paddle.to_tensor([-1.0, 1.0, 0.0, -0.0], stop_gradient=False)
    signed = paddle.copysign(x, y)
    grads = paddle.grad([signed], [x, y], [paddle.to_tensor([1.0, 2.0, 5.0, 6.0])], allow_unused=True)
    scaled = paddle.ldexp(x, paddle.to_tensor([1, 2, 3, -1]))
    (scaled_grad,) = paddle.grad([scaled.sum()], [x])
    square = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
    integers = paddle.copysign(paddle.to_tensor([1, -2]), paddle.to_tensor([-1, 1]))
    seen = [signed, signed.grad_fn.name(), grads, integers, paddle.copysign(x, 2.0), x.copysign(y), scaled,
            scaled.grad_fn.name(), scaled_grad,
            paddle.ldexp(paddle.to_tensor([1.0, 2.0], dtype="float64"), paddle.to_tensor([1, 2])),
            paddle.ldexp(paddle.to_tensor([1, 2]), paddle.to_tensor([1, 2]))]
    for args in ((), (1,), (-1,), (0, 0, 2), (1, -1, 0)):
        embedded = paddle.diag_embed(square, *args)
        seen += [embedded, embedded.stop_gradient]
    return seen + [square.diag_embed().shape]
