"""Operations: values, gradients and node names of elementwise, reduction, shape and indexing ops."""

from __future__ import annotations

import numpy as np

from tests.observe import attempt, backward_after_writing
from tests.programs.elementwise import MORE_ELEMENTWISE
from tests.programs.registry import paddle_program as program


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
def reshape_to_the_same_shape_is_the_tensor_itself(paddle):
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    with paddle.no_grad():
        same = paddle.reshape(x, [2])
        other = paddle.reshape(x, [1, 2])
    (same * 3).sum().backward()
    return [same is x, same.stop_gradient, other.stop_gradient, x.grad, same.grad]


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
def zero_base_pow_by_its_exponent(paddle):
    x = paddle.to_tensor([-1.0, 0.0, 1.0], stop_gradient=False)
    (0.0 ** x).sum().backward()
    return [x.grad]


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
def equal_all_compares_shape_and_values(paddle):
    """paddle.equal_all: a 0-D bool tensor for shape and values; mixed dtypes of one shape and
    anything but a tensor are paddle's InvalidArgument errors (shapes are compared first:
    mixed dtypes of two shapes are False). linspace computes as the kernel does."""
    a = paddle.to_tensor([1.0, 2.0])
    return [paddle.equal_all(a, a * 1), paddle.equal_all(a, paddle.to_tensor([1.0, 2.0, 3.0])),
            attempt(lambda: paddle.equal_all(a, paddle.to_tensor([1.0, 2.0], dtype="float64"))),
            paddle.equal_all(a, paddle.to_tensor(1.0, dtype="float64")),
            paddle.equal_all(paddle.to_tensor([[1.0]], dtype="float64"), a),
            attempt(lambda: paddle.equal_all(a, None)), attempt(lambda: paddle.equal_all(None, a)),
            attempt(lambda: paddle.equal_all(a, 3)),
            paddle.linspace(0.1, 0.7, 7), paddle.linspace(-2.5, 3.3, 11, dtype="float64"),
            paddle.equal_all(paddle.linspace(0.0, 1.0, 5), paddle.to_tensor([0.0, 0.25, 0.5, 0.75, 1.0]))]


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
def comparing_a_tensor_with_none(paddle):
    """``x == None`` and ``x != None`` are Python's False and True."""
    x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
    before = [x.grad == None, x == None, x != None]  # noqa: E711 - what the program tests
    (x * 2).sum().backward()
    return before + [x.grad == None, x.grad != None]  # noqa: E711


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
def a_product_by_a_number_is_the_scale_kernel(paddle):
    """paddle computes ``t * n``, ``n * t``, ``-t`` and ``paddle.scale`` with its scale kernel,
    ``t * n + 0.0``: a zero comes out +0.0 whatever the signs, where a product of two tensors or
    a division by a number keeps -0.0. An unpack hook that negates a saved zero thus hands
    sqrt's gradient +0.0: +inf."""
    x = paddle.to_tensor([0.0, 1.0, -0.0])
    signs = [np.signbit(t.numpy()).tolist() for t in (
        x * -1.0, -1.0 * x, -x, x * -2, paddle.scale(x, -1.0), x / -1.0,
        x * paddle.to_tensor(-1.0), paddle.multiply(x, paddle.to_tensor([-1.0, -1.0, -1.0])))]
    x2 = paddle.to_tensor([[0.0, 0.0, 0.0]], stop_gradient=False)
    with paddle.autograd.saved_tensors_hooks(lambda t: t, lambda t: t * -1.0):
        v16 = paddle.sqrt(x2)
    paddle.autograd.backward([v16])
    return [signs, x2.grad]


@program
def cumsum_keeps_its_input_in_paddle(paddle):
    """cumsum's derivative is the running sums from the far end; paddle's node keeps its input
    all the same, and a write to it after the op fails the backward (torch's keeps nothing)."""
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], stop_gradient=False)
    weights = paddle.to_tensor([[1.0, 2.0, 3.0], [1.0, -1.0, 2.0]])
    y = paddle.cumsum(x * 1.0, axis=1)
    (y * weights).sum().backward()
    v = x * 1.0
    written = paddle.cumsum(v, axis=1)
    v.scale_(2.0)
    return [y, x.grad, attempt(lambda: written.sum().backward())]


@program
def a_lower_rank_batched_operands_gradient_over_the_batches_it_lacks(paddle):
    """matmul_grad fails to sum the gradient of the lower-rank batched operand over the batch
    dimensions it lacks when they hold more than one matrix, and only when the pass needs that
    operand's gradient."""
    shapes = [((2, 1, 2, 3), (3, 3, 2)), ((1, 1, 2, 3), (3, 3, 2)), ((1, 1, 2, 2), (1, 2, 2)),
              ((2, 2, 2, 2), (2, 2, 2)), ((1, 3, 2, 2), (3, 2, 2)), ((1, 2, 1, 2, 2), (3, 2, 2)),
              ((1, 1, 1, 2, 2), (1, 2, 2)), ((3, 2, 2), (2, 1, 2, 3)), ((3, 2, 2), (1, 1, 2, 3))]
    seen = []
    for sa, sb in shapes:
        a = paddle.ones(sa, dtype="float64")
        a.stop_gradient = False
        b = paddle.ones(sb, dtype="float64")
        b.stop_gradient = False
        for inputs in ([a], [b], [a, b]):
            v = paddle.matmul(a, b)
            seen.append([sa, sb, len(inputs), attempt(lambda: paddle.grad([v], inputs))])
    return seen


@program
def indexing_selects_first_then_adds_dimensions(paddle):
    """paddle's basic indexing: integers and slices select first (SliceGradNode), the None
    entries then add their dimensions in one unsqueeze (UnsqueezeGradNode, whose gradient
    kernel hands on a view: a retained gradient shows what exp's kernel writes there); full
    slices and ... alone select nothing and share the tensor's data and autograd state."""
    forms = {"x[..., None]": lambda t: t[..., None], "x[None]": lambda t: t[None],
             "x[None, ..., None]": lambda t: t[None, ..., None], "x[...]": lambda t: t[...],
             "x[:]": lambda t: t[:], "x[0]": lambda t: t[0], "x[1:]": lambda t: t[1:],
             "x[0, None]": lambda t: t[0, None], "x[None, 1]": lambda t: t[None, 1]}
    seen = []
    for name, index in forms.items():
        x = paddle.to_tensor([[0.3, 0.5, 0.7], [0.1, 0.2, 0.4]], stop_gradient=False)
        v = index(paddle.exp(x))
        names = [v.grad_fn.name(), [n.name() for n in v.grad_fn.next_functions]]
        v.retain_grads()
        v.backward()
        seen.append([name, v.shape, names, v.grad, x.grad])
    x = paddle.to_tensor([[0.3, 0.5, 0.7], [0.1, 0.2, 0.4]], stop_gradient=False)
    whole = x[:]
    (whole * 2).sum().backward()
    data = paddle.to_tensor([1.0, 2.0])
    data[...].add_(paddle.to_tensor([1.0, 1.0]))
    return [seen, whole.is_leaf, whole.grad, x.grad, data]


@program
def view_is_a_reshape_with_its_own_nodes(paddle):
    """``Tensor.view`` / ``paddle.view`` / ``view_as`` share ``x``'s memory like reshape, but
    record ViewShapeGradNode (ViewShapeDoubleGradNode to second order), make a new tensor even
    for ``x``'s own shape, and give ``x`` back for its own dtype."""
    x = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], stop_gradient=False)
    v = x.view([3, -1])
    same = x.view([2, 3])
    g, = paddle.grad((v * v * v).sum(), x, create_graph=True)
    gg, = paddle.grad(g.sum(), x)
    w = x * 1
    u = paddle.view(w, [6])
    with paddle.no_grad():
        u[0] = 10.0
    return [v, v.grad_fn.name(), same is x, same.grad_fn.name(), x.view_as(v).shape,
            x.view("float32") is x, g, g.grad_fn.name(), gg, w,
            attempt(lambda: x.view([4, 2]))]


@program
def float32_tanh_is_eigens_rational_approximation(paddle):
    """paddle's float32 tanh is Eigen's fast approximation, which moves values off the correctly
    rounded tanh by up to a few units in the last place: each value's distance from numpy's
    tanh, in units of 2**-24, over a fine grid (plus its clamp at 7.905 and ``x`` below 4e-4)."""
    xs = np.concatenate([np.linspace(-9.0, 9.0, 4001), [3e-4, 4e-4, 5e-4, 7.9, 7.91]])
    xs = xs.astype(np.float32)
    got = paddle.tanh(paddle.to_tensor(xs)).numpy().astype(np.float64)
    return (got - np.tanh(xs).astype(np.float64)) * 2.0 ** 24


@program
def a_computed_result_is_row_major_so_its_reshape_is_a_view(paddle):
    """Every paddle kernel that computes writes its result in row-major order, even from a
    transposed input (torch keeps the input's layout): a reshape of it is a view, and a write
    through that reshape reaches it."""
    x = paddle.to_tensor(np.arange(12.0, dtype=np.float32).reshape(2, 3, 2))
    t = paddle.transpose(x, [1, 2, 0])
    results = [-t, paddle.exp(t), t + t, t * 2.0, paddle.tanh(t)]
    for r in results:
        flat = paddle.reshape(r, [12])
        flat.multiply_(paddle.to_tensor(0.0))
    return [t.is_contiguous()] + [[r.is_contiguous(), r] for r in results]


@program
def unbind_pieces_are_strided_views_of_their_input(paddle):
    """unbind's pieces are views of the input (not row-major along a middle axis): a write to
    one under no_grad reaches the input, and an op on one computes a row-major result."""
    x = paddle.to_tensor(np.arange(6.0, dtype=np.float32).reshape(2, 1, 3), stop_gradient=False)
    a, b, c = paddle.unbind(x, axis=2)
    y = b * 3.0
    with paddle.no_grad():
        b.multiply_(paddle.to_tensor(10.0))
    y.sum().backward()
    return [b.is_contiguous(), b.shape, x, y.is_contiguous(), x.grad]


@program
def abs_gradient_is_the_gradient_times_x_over_its_magnitude(paddle):
    """paddle's abs_grad is 0 at 0 whatever the gradient, elsewhere the gradient times
    ``x / |x|``: nan at the infinities (torch's sgn gives +-1 there)."""
    seen = []
    for dtype in ("float32", "float64"):
        x = paddle.to_tensor(np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 2.0, -3.0], dtype),
                             stop_gradient=False)
        for seed in (1.0, 0.0, np.nan):
            x.clear_grad()
            y = paddle.abs(x)
            y.backward(paddle.full_like(y, seed))
            seen.append(x.grad)
    return seen


@program
def a_gradient_reaching_a_node_takes_its_recorded_dtype(paddle):
    """A float32 cast result widened to float64 by an in-place write: the gradient reaching
    the cast's node (its hook) is float32 again, the dtype the node recorded."""
    x = paddle.to_tensor(2.0, dtype="float64", stop_gradient=False)
    v = paddle.cast(x, "float32")
    seen = []
    v.register_hook(lambda g: seen.append((g.numpy().dtype.name, g.numpy())))
    v.multiply_(x)
    paddle.autograd.backward([v])
    return [v.numpy().dtype.name, seen, x.grad]


@program
def a_piece_of_unbind_of_a_vector_is_a_zero_d_view(paddle):
    """unbind's pieces of a vector are 0-d views of it: saved by a kernel and unpacked from a
    saved-tensor hook's new memory, each is read at its own offset (here within that memory)."""
    x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
    w = paddle.where(x > 0.0, x, 0.0)
    x.register_hook(lambda g: None)
    a, b, c = paddle.unbind(w, axis=0)
    with paddle.autograd.saved_tensors_hooks(lambda t: t, lambda t: t * -1.0):
        y = x * a
    paddle.autograd.backward([y])
    return [a.shape, x.grad]


@program
def tensor_storage_place_and_conversions(paddle):
    """data (a detached alias: writes through it reach the tensor; assigning it replaces the
    values), value(), to (a dtype, a place, another tensor's dtype), cuda on a CPU build,
    device, stride (a transpose is a view), the conversion methods, apply."""
    x = paddle.to_tensor([[1.0, 2.0, 2.0], [3.0, 3.0, 4.0]], stop_gradient=False)
    alias = x.data
    alias[0] = 9.0
    seen = [alias.stop_gradient, x, x.value() is x, x.to("float64"), x.to("cpu", "float64"),
            x.to(paddle.CPUPlace()), x.to(paddle.to_tensor([1], dtype="int32")), x.to(paddle.float32) is x,
            x.to("float64", blocking=True).grad_fn.name(), attempt(lambda: x.cuda()), x.device,
            x.stride(), x.T.stride(), paddle.to_tensor(3.0).stride(), str(x.type)]
    seen += [getattr(x, name)() for name in ("float32", "float64", "int32", "int64", "bool", "float16",
                                               "float", "double", "half", "long", "int")]
    seen += [paddle.to_tensor([1.0, 2.0]).apply(lambda t: t * 3), attempt(lambda: x.apply(lambda t: t))]
    x.data = paddle.ones([2, 3])
    (x * 2).sum().backward()
    return seen + [x, x.grad, x.stop_gradient]


@program
def methods_programs_reach_for(paddle):
    """Tensor.repeat (tile), repeat_interleave (by a number or per element), softmax (torch's
    signature), sigmoid, eq, dot, unique with its extras, mode (the last position of the most
    frequent value), normal_ / uniform_ in place, paddle.shape and paddle.slice; values, nodes
    and gradients."""
    x = paddle.to_tensor([[1.0, 2.0, 2.0], [3.0, 3.0, 4.0]], stop_gradient=False)
    outs = [x.repeat(2, 1), x.repeat([1, 2]), x.repeat_interleave(2, axis=1), paddle.repeat_interleave(x, 2),
            paddle.repeat_interleave(x, paddle.to_tensor([1, 2]), axis=0), x.softmax(), x.softmax(dim=0),
            x.sigmoid(), paddle.slice(x, axes=[1], starts=[1], ends=[3])]
    seen = []
    for out in outs:
        seen += [out, out.grad_fn.name(), paddle.grad((out * out).sum(), x)]
    values, indices = x.mode()
    column_values, column_indices = paddle.mode(x, axis=0, keepdim=True)
    seen += [values, values.grad_fn.name(), indices.numpy(), paddle.grad(values.sum(), x), column_values,
             column_indices.numpy()]
    y = x * 1
    y.normal_()
    z = x * 1
    z.uniform_(-1.0, 1.0)
    seen += [y.grad_fn.name(), z.grad_fn.name(), paddle.grad((y + z).sum(), x), y.shape,
             attempt(lambda: paddle.to_tensor([1.0], stop_gradient=False).normal_())]
    whole = paddle.to_tensor([3, 1, 2, 3, 1])
    seen += [x.eq(2.0), paddle.to_tensor([1.0, 2.0]).dot(paddle.to_tensor([3.0, 4.0])),
             whole.unique(), whole.unique(return_index=True, return_inverse=True, return_counts=True),
             paddle.to_tensor([[1, 2], [1, 2], [0, 1]]).unique(axis=0), paddle.shape(x).numpy(),
             str(paddle.float16)]
    return seen


@program
def clip_fills_a_missing_bound_with_the_largest_finite_value(paddle):
    """paddle.clip without a bound clips infinities to the dtype's largest finite value, and
    neither they nor NaN get a gradient (found by fuzzing: a NaN written before a refused
    in-place division reached a clip's saved input)."""
    seen = []
    for dtype in ("float32", "float64"):
        x = paddle.to_tensor([float("inf"), float("nan"), 1.0, -float("inf")], dtype=dtype,
                             stop_gradient=False)
        for low, high in ((None, None), (None, 0.5), (-2.0, None)):
            y = paddle.clip(x, low, high)
            seen += [y, paddle.grad(y.sum(), x)]
    return seen + [paddle.clip(paddle.to_tensor([3, 1])), paddle.to_tensor([1.0, 2.0]).clip(1.5)]


@program
def softmax_multiplies_by_the_inverse_of_its_sum(paddle):
    """paddle's softmax kernel floors the shifted logits at -64 and multiplies by the inverse
    of their sum (not a division): the last bit of a value decides whether a gradient that
    cancels to noise is exactly zero, so whether log's derivative at 0 is inf or nan."""
    x = paddle.to_tensor([0.0, 1.43, 1.871], dtype="float64", stop_gradient=False)
    y = paddle.nn.functional.softmax(paddle.log(x), axis=0)
    paddle.mean(y).backward()
    return [y, x.grad]


@program
def maximum_and_minimum_give_a_nan_operand_no_gradient(paddle):
    """maximum / minimum weigh the gradient from the winner's side: 1 to the winner, half each
    at a tie, and 0 to both where an operand is NaN; to second order the masks ``x > y`` and
    ``x <= y`` (both 0 at NaN)."""
    nan, inf = float("nan"), float("inf")
    seen = []
    for f in (paddle.maximum, paddle.minimum):
        x = paddle.to_tensor([0.0, 1.0, 2.0, nan, 0.0, nan, inf], stop_gradient=False)
        y = paddle.to_tensor([0.0, 0.5, 3.0, 0.0, nan, nan, inf], stop_gradient=False)
        out = f(x, y)
        seen += [out, paddle.grad(out.sum(), [x, y])]
        gx, gy = paddle.grad((f(x, y) * x).sum(), [x, y], create_graph=True)
        seen += [gx, gy, paddle.grad((gx * gy).sum(), [x, y], allow_unused=True)]
    return seen


def _square_gradients_and_second_order(paddle, make_inputs, functions):
    """For each function of fresh inputs: its value, node name, the gradients of its square
    (backward), and what a create_graph pass over every input gives."""
    seen = []
    for f in functions:
        inputs = make_inputs()
        y = f(*inputs)
        (y * y).sum().backward()
        seen += [y, y.grad_fn.name(), *(t.grad for t in inputs),
                 attempt(lambda: paddle.grad((f(*inputs) ** 2).sum(), list(inputs), create_graph=True,
                                             allow_unused=True))]
    return seen


@program
def square_matrix_functions(paddle):
    """paddle.linalg's inv (also paddle.inverse and Tensor.inverse), det, slogdet (sign and
    log|det| stacked) and solve (a matrix, a vector and a batch of vectors on the right):
    values, node names and gradients; their kernels have no double grad (paddle 3.3.1,
    measured)."""
    def matrices():
        a = paddle.to_tensor([[2.0, 0.5, 0.1], [0.3, 1.5, -0.4], [0.2, -0.1, 1.2]], stop_gradient=False)
        b = paddle.to_tensor([[1.0, 2.0], [0.5, -1.0], [0.3, 0.7]], stop_gradient=False)
        batch = paddle.to_tensor([[[2.0, 0.5], [0.3, -1.5]], [[1.0, 0.2], [0.1, 3.0]]], stop_gradient=False)
        return a, b, batch

    seen = _square_gradients_and_second_order(paddle, matrices, (
        lambda a, b, batch: paddle.linalg.inv(a), lambda a, b, batch: paddle.inverse(batch),
        lambda a, b, batch: a.inverse(), lambda a, b, batch: paddle.linalg.det(batch),
        lambda a, b, batch: paddle.linalg.slogdet(batch), lambda a, b, batch: a.slogdet(),
        lambda a, b, batch: paddle.linalg.solve(a, b), lambda a, b, batch: a.solve(b[:, 0]),
        lambda a, b, batch: paddle.linalg.solve(batch, batch[:, 0])))
    a, b, batch = matrices()
    sign = paddle.linalg.slogdet(batch)[0]
    sign.sum().backward()
    return seen + [batch.grad]


@program
def special_and_running_functions(paddle):
    """lgamma, digamma, polygamma, erfinv, trunc, frac (paddle's x - trunc(x)), logit (with and
    without eps, at and outside its bounds), atan2, deg2rad / rad2deg (its scale kernel),
    cumprod (along a dim, and of the flattened tensor) and cross (along its first axis of size
    3 by default), as functions and methods: values, node names and gradients; none of their
    kernels has a double grad."""
    def inputs():
        return (paddle.to_tensor([[0.3, 1.7, 2.5], [4.2, 0.9, 1.3]], stop_gradient=False),
                paddle.to_tensor([[0.0, 0.05, 0.5], [0.95, 1.0, 0.3]], stop_gradient=False),
                paddle.to_tensor([[-0.7, 0.4, 1.6], [2.2, -1.3, -0.45]], stop_gradient=False))

    seen = _square_gradients_and_second_order(paddle, inputs, (
              lambda x, p, s: paddle.lgamma(x), lambda x, p, s: x.digamma(),
              lambda x, p, s: paddle.polygamma(x, 1), lambda x, p, s: x.polygamma(2),
              lambda x, p, s: paddle.erfinv(p * 0.9), lambda x, p, s: paddle.trunc(s * 2),
              lambda x, p, s: s.frac(), lambda x, p, s: paddle.logit(p), lambda x, p, s: p.logit(eps=0.1),
              lambda x, p, s: paddle.atan2(s, x), lambda x, p, s: paddle.deg2rad(s),
              lambda x, p, s: s.rad2deg(), lambda x, p, s: paddle.cumprod(s, dim=1),
              lambda x, p, s: s.cumprod(), lambda x, p, s: paddle.cross(s, x, axis=1),
              lambda x, p, s: paddle.cross(s.t(), x.t())))
    return seen + [attempt(lambda: paddle.cross(paddle.ones([2, 4]), paddle.ones([2, 4]))),
                   paddle.lgamma(paddle.to_tensor([0.0, -1.0, 0.5])),
                   paddle.digamma(paddle.to_tensor([0.0, -2.0, 1.0]))]


@program
def comparisons_predicates_and_small_compositions(paddle):
    """paddle's comparison functions (a tensor y only), isclose, moveaxis, nansum / nanmean with
    NaNs, sgn, dist, inner, trapezoid with dx, stanh and addmm (their node names and
    gradients), the dtype predicates, count_nonzero and tril / triu_indices."""
    x = paddle.to_tensor([[-1.5, float("nan"), 2.0], [0.5, -0.25, 3.0]], stop_gradient=False)
    y = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], stop_gradient=False)
    made = [paddle.nansum(x), paddle.nansum(x, axis=1), paddle.nanmean(x, 0), paddle.moveaxis(y, 0, 1),
            paddle.sgn(y - 3), paddle.dist(y, y * 2, 3), paddle.inner(y, y), paddle.trapezoid(y, dx=0.5),
            paddle.stanh(y, 0.5, 2.0), paddle.addmm(y[:, :2], y, y.T, beta=0.5, alpha=2.0),
            y.nansum(axis=0) + y.dist(y + 1) + x.nanmean()]
    seen = [[m, m.grad_fn.name(), paddle.grad(m.sum(), [x, y], allow_unused=True)] for m in made]
    three = paddle.full_like(y, 3.0)
    return seen + [paddle.greater_equal(y, three), paddle.greater_than(y, three), paddle.less_equal(y, three),
                   paddle.less_than(y, three), paddle.not_equal(y, three), paddle.isclose(y, y + 1e-9),
                   attempt(lambda: paddle.greater_than(y, 3.0)), paddle.is_complex(y), paddle.is_integer(y),
                   paddle.is_empty(y), paddle.count_nonzero(y - 2), paddle.count_nonzero(y - 2, axis=1),
                   paddle.tril_indices(3, 3, 0), paddle.triu_indices(3, 4, 1)]


@program
def remainders_and_floor_division(paddle):
    """remainder / mod / floor_mod (``%``: the divisor's sign, a zero keeps the dividend's) and
    floor_divide (``//``, its result stops gradient), of tensors and numbers on either side,
    integers, zeros and infinities: values, dtypes, node names, the divisor's gradient (-g times
    the floored quotient), no double grad, in-place forms and the errors."""
    def leaf(values, dtype="float32"):
        return paddle.to_tensor(values, dtype=dtype, stop_gradient=False)

    a = leaf([5.5, -5.5, 3.0, -3.0, 0.0, -0.0, 7.25, 1e-8, -0.0])
    b = leaf([2.0, 2.0, -2.0, -1.5, 3.0, -3.0, 0.0, -1.0, 2.5])
    seen = []
    for y in (paddle.remainder(a, b), paddle.mod(a, b), paddle.floor_mod(a, b), a % b, a.remainder(b),
              a.mod(b)):
        seen += [y, y.grad_fn.name(), paddle.grad((y * y).sum(), [a, b], retain_graph=True),
                 attempt(lambda: paddle.grad(y.sum(), [a, b], create_graph=True))]
    for y in (a % 2.5, paddle.remainder(a, -2.5), 2.5 % a, a % 2):
        seen += [y, y.grad_fn.name(), paddle.grad(y.sum(), a)]
    for y in (a // b, a // 2.0, 3.0 // a, paddle.floor_divide(a, b), a.floor_divide(b)):
        seen += [y, y.stop_gradient]
    weights = paddle.to_tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0])
    paddle.remainder(a, b).backward(weights)
    seen += [a.grad, b.grad]
    x64, column = leaf([5.5, -5.5], "float64"), leaf([[2.0], [-1.5]])
    mixed = x64 % column
    mixed.sum().backward()
    seen += [mixed, x64.grad, column.grad]
    i = paddle.to_tensor([7, -7, 8, 0])
    seen += [i % 3, i % -3, i // 3, i // -3, i % 2.5, 7 // i[:3], 7 % i[:3], attempt(lambda: i % 0),
             attempt(lambda: i // 0), attempt(lambda: paddle.remainder(i, paddle.to_tensor([1, 0, 1, 1]))),
             attempt(lambda: i % leaf([2.0, 2.0, 2.0, 2.0]))]
    specials = paddle.to_tensor([5.0, -5.0, float("inf"), 3.0, float("nan")])
    divisors = paddle.to_tensor([float("inf"), float("inf"), 2.0, float("-inf"), 1.0])
    seen += [paddle.remainder(specials, divisors), specials // divisors, specials.astype("float64") % 0.7]
    c = a * 1
    c.remainder_(paddle.to_tensor(2.0))
    seen.append(c.grad_fn.name())
    c.mod_(b)
    c.sum().backward()
    plain = paddle.to_tensor([5.5, -5.5])
    plain.floor_divide_(paddle.to_tensor([2.0, -2.0]))
    plain.floor_mod_(paddle.to_tensor([2.0, 2.0]))
    return seen + [c, a.grad, b.grad, plain, attempt(lambda: (a * 1).remainder_(2.0)),
                   attempt(lambda: a.remainder_(b))]


@program
def reads_and_writes_at_indices(paddle):
    """gather_nd (coordinates, and a prefix of axes), scatter overwriting (a repeated index: the
    last row wins, every update row keeps its gradient) and accumulating, index_add,
    Tensor.unfold's windows (overlapping ones: the last window's gradient stands) and
    bincount: values, node names, gradients of the input and of the written values, and which
    of them have a double grad."""
    def leaf(values):
        return paddle.to_tensor(values, stop_gradient=False)

    x = leaf([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5], [3.0, 1.0, -2.0]])
    u = leaf([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    weights = paddle.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]])
    rows = paddle.to_tensor([[0, 1], [2, 2], [0, 1]])
    seen = []
    for y in (paddle.gather_nd(x, rows), paddle.gather_nd(x, paddle.to_tensor([[2], [0]])),
              x.gather_nd(paddle.to_tensor([[[1, 2]], [[0, 0]]])),
              paddle.index_add(x, paddle.to_tensor([0, 2]), 0, u),
              paddle.index_add(x, paddle.to_tensor([1, 1]), 1, paddle.ones([3, 2])),
              x.index_add(paddle.to_tensor([2, 0]), 0, u)):
        g = paddle.grad((y * y).sum(), [x], create_graph=True)[0]
        seen += [y, y.grad_fn.name(), g, paddle.grad(g.sum(), [x], allow_unused=True)]
    for index, overwrite in (([2, 0], True), ([1, 1], True), ([1, 1], False), ([0, 2], False)):
        y = paddle.scatter(x, paddle.to_tensor(index), u, overwrite=overwrite)
        seen += [y, y.grad_fn.name(), paddle.grad((y * weights).sum(), [x, u], retain_graph=True),
                 attempt(lambda: paddle.grad(y.sum(), [x], create_graph=True))]
    for y in (x.unfold(1, 2, 1), x.unfold(0, 2, 1), x.unfold(-1, 1, 2), x.unfold(0, 3, 3)):
        seen += [y, y.grad_fn.name(), paddle.grad((y * y).sum(), [x], retain_graph=True),
                 attempt(lambda: paddle.grad(y.sum(), [x], create_graph=True))]
    # where windows overlap, the last window's gradient stands (paddle sums nothing)
    row = leaf([[0.5, -1.0, 2.0, 4.0]])
    window_weights = paddle.to_tensor([[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]])
    seen.append(paddle.grad((row.unfold(1, 2, 1) * window_weights).sum(), row))
    counts = paddle.to_tensor([1, 1, 3])
    return seen + [paddle.bincount(counts), paddle.bincount(counts, minlength=6),
                   paddle.bincount(counts, weights=paddle.to_tensor([0.5, 1.0, 2.0])), counts.bincount()]


@program
def running_extremes_and_blocks(paddle):
    """cummax / cummin (a later equal entry or a NaN takes over; the index dtype), logcumsumexp,
    kron, heaviside (the second operand's gradient where the first is 0), atleast_1d/2d/3d and
    put_along_axis assigning and adding:
    values, node names, gradients, and which have a double grad. put_along_axis's assignment
    refuses a second derivative, and that failure leaves recording off in paddle 3.3.1: every
    later op records nothing until it is turned back on."""
    def leaf(values):
        return paddle.to_tensor(values, stop_gradient=False)

    x = leaf([[1.0, 3.0, 3.0, 2.0, float("nan"), 5.0], [2.0, 2.0, 1.0, 1.0, 0.5, 0.5]])
    seen = []
    for values, indices in (paddle.cummax(x, axis=1), paddle.cummin(x, axis=1), x.cummax(axis=0),
                            paddle.cummax(x)):
        seen += [values, indices, values.grad_fn.name(),
                 paddle.grad((values * values).sum(), x, retain_graph=True)]
    seen.append(paddle.cummax(x, axis=1, dtype="int32")[1])
    y = leaf([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]])
    for out in (paddle.logcumsumexp(y, axis=1), paddle.logcumsumexp(y), paddle.kron(y, y[:1, :2]),
                y.kron(y[0]), paddle.heaviside(y, paddle.to_tensor([0.5, 0.5, 0.5])),
                paddle.heaviside(leaf([[0.0, 0.6, -0.5], [1.7, 0.0, 1.1]]), y),
                paddle.put_along_axis(y, paddle.to_tensor([[1, 1]]), leaf([[7.0]]), 1, reduce="add")):
        seen += [out, out.grad_fn.name(), paddle.grad((out * out).sum(), y, retain_graph=True),
                 attempt(lambda: paddle.grad(out.sum(), y, create_graph=True))]
    seen.append(paddle.cummin(x, axis=1)[0].grad_fn.name())  # (recording still on)
    seen += [paddle.atleast_1d(paddle.to_tensor(3.0)).shape,
             paddle.atleast_2d(paddle.to_tensor([1.0, 2.0])).shape,
             paddle.atleast_3d(paddle.to_tensor([1.0, 2.0])).shape,
             paddle.atleast_3d(paddle.ones([2, 3])).shape]
    indices = paddle.to_tensor([[0], [2]])
    assigned = paddle.put_along_axis(y, indices, leaf([[7.0], [8.0]]), 1)
    g = paddle.grad((assigned * assigned).sum(), y, create_graph=True)[0]
    seen += [assigned, assigned.grad_fn.name(), g, attempt(lambda: paddle.grad(g.sum(), y))]
    after = y * 2
    seen += [paddle.is_grad_enabled(), after.stop_gradient, after.grad_fn is None]
    paddle.set_grad_enabled(True)
    return seen + [(y * 2).grad_fn is None]
