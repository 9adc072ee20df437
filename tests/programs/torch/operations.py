"""Operations: values, gradients and node names of elementwise, reduction, shape and indexing ops."""

from __future__ import annotations

from tests.custom_functions import custom
from tests.observe import attempt, backward_after_writing
from tests.programs.elementwise import MORE_ELEMENTWISE
from tests.programs.registry import torch_program as program


@program
def broadcasting_is_undone(torch):
    a = torch.tensor([[1.0], [2.0], [3.0]], requires_grad=True)
    b = torch.tensor([0.5, -1.0, 2.0, 4.0], requires_grad=True)
    s = torch.tensor(2.0, requires_grad=True)
    y = ((a + b) * (a - b) / (b * b + 1) + a * s).sum()
    y.backward()
    return [y, a.grad, b.grad, s.grad]


@program
def matmul_shapes(torch):
    def run(shape_a, shape_b):
        a = torch.ones(*shape_a) * 0.5
        a.requires_grad_()
        b = torch.ones(*shape_b) * 1.5
        b.requires_grad_()
        (torch.matmul(a, b) ** 2).sum().backward()
        return [a.grad, b.grad]
    return [run(sa, sb) for sa, sb in [((3,), (3,)), ((2, 3), (3, 4)), ((3,), (3, 4)),
                                       ((2, 3), (3,)), ((5, 2, 3), (3, 4)), ((2, 1, 2, 3), (4, 3, 2)),
                                       ((3,), (2, 3, 4)), ((2, 2, 3), (3,))]]


@program
def reductions_and_ties(torch):
    x = torch.tensor([[1.0, 3.0, 3.0], [2.0, 2.0, 0.5]], requires_grad=True)
    outs = [x.max(), x.min(), x.amax(1), x.amin(0), x.max(1).values, x.min(0, keepdim=True).values,
            x.sum((0, 1)), x.mean(1, keepdim=True), x.sum(-1), torch.amax(x, (0, 1))]
    grads = [torch.autograd.grad(o.sum(), x)[0] for o in outs]
    return [outs, grads, x.max(1).indices]


@program
def shape_ops(torch):
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    w = torch.tensor([[0.5, 1.0, 1.5], [2.0, 2.5, 3.0]])
    outs = [x.reshape(3, 2), x.view(-1), x.t(), x.transpose(0, 1), x.permute(1, 0),
            x.unsqueeze(1), x.unsqueeze(0).squeeze(), x.reshape(1, 2, 1, 3).squeeze(2),
            x[:, None, 1:].expand(2, 4, 2), x[1], x[..., 0], x[-1, ::2], x[[0, 1, 1]],
            torch.cat([x, x * 2], 1), torch.stack([x, w], 2), x.clone()]
    grads = [torch.autograd.grad((o * o).sum(), x)[0] for o in outs]
    return [outs, grads]


@program
def elementwise_ops(torch):
    x = torch.tensor([[0.3, -0.7], [1.2, 2.5]], requires_grad=True)
    p = torch.tensor([[0.3, 0.7], [1.2, 2.5]], requires_grad=True)
    e = torch.tensor([[2.0, 0.5], [1.5, 3.0]], requires_grad=True)
    outs = [x.exp(), p.log(), p.sqrt(), x.abs(), x.sin(), x.cos(), x.tanh(), x.sigmoid(),
            x.relu(), x.clamp(-0.5, 1.0), x.clamp(min=0.0), torch.maximum(x, p * 0.5),
            torch.minimum(x, p * 0.5), torch.where(x > 0, x, p), x.softmax(1), x.log_softmax(0),
            torch.nn.functional.relu(x), torch.nn.functional.softmax(x, dim=0), p ** e, 2 ** x,
            x ** 3, x ** 0, -x, 1 / p, 3 - x, x / e]
    grads = [torch.autograd.grad((o * o).sum(), [x, p, e], allow_unused=True) for o in outs]
    return [outs, grads]


@program
def printing(torch):
    x = torch.tensor([[0.3386, 0.4305, 0.9076], [0.0469, -0.2624, 100.0]], requires_grad=True)
    y = (x * 2).sum()
    values = [x, y, x * 2, torch.tensor([1.5e-5, 2.0]), torch.tensor([1e9, 1.0]),
              torch.tensor([1, 2]), torch.tensor([True]), torch.tensor([1.0], dtype=torch.float64),
              torch.arange(30.0).reshape(2, 15) / 7, torch.arange(2000.0), torch.zeros(0),
              torch.zeros(2, 0), torch.tensor(float("nan")), torch.tensor([-1.0, 2.5])]
    return [repr(v) for v in values] + [repr(x.shape), repr(x.dtype), x.grad_fn is None,
                                        type(y.grad_fn).__name__ if False else y.grad_fn.name()]


@program
def clamp_with_tensor_bounds(torch):
    x = torch.tensor([1.0, 2.0, 3.0, 2.0], requires_grad=True)
    low = torch.tensor([1.5, 2.0, 1.0, 2.0], requires_grad=True)
    high = torch.tensor([2.5, 2.0, 2.0, 3.0], requires_grad=True)
    both = torch.clamp(x, min=low, max=high)
    below = torch.clamp(x, min=low)
    above = torch.clamp(x, max=high)
    (both.sum() + below.sum() * 2 + above.sum() * 3).backward()
    return [both, below, above, x.grad, low.grad, high.grad, both.grad_fn.name()]


@program
def more_tensor_methods_around_autograd(torch):
    """var / std, masked_fill, gather, index_select, repeat and cumsum (composed from the core's
    operations), with their gradients; new_* constructors and integer casts."""
    x = torch.tensor([[1.0, 2.0, 4.0], [3.0, 5.0, 9.0]], requires_grad=True)
    index = torch.tensor([[0, 2], [1, 0]])
    weights = torch.arange(12.0).reshape(4, 3)
    total = (x.var() + x.std(dim=1).sum() + x.masked_fill(x > 3, 0.0).sum()
             + x.gather(1, index).sum() + x.index_select(1, torch.tensor([2, 0])).sum()
             + (x.repeat(2, 1) * weights).sum() + (x.cumsum(1) * x).sum())
    total.backward()
    return [x.var().detach(), x.std(dim=1).detach(), x.var(dim=0, unbiased=False).detach(),
            x.masked_fill(x > 3, 0.0).detach(), x.gather(1, index).detach(),
            x.index_select(1, torch.tensor([2, 0])).detach(), x.new_zeros(2), x.new_ones((1, 2)),
            x.new_tensor([1, 2]), x.new_full((2,), 7.0), x.long(), str(x.int().dtype),
            x.repeat(2, 1, 2).shape, torch.cumsum(x, 0).detach(), x.grad]


@program
def node_inputs_of_reflected_operators_and_where(torch):
    """A Python float on the left: n + t and n * t are t + n and t * n (the node lists t first),
    n - t is rsub (one input), n / t is t.reciprocal() * n; where lists (self, other), not its
    condition. Seen by node hooks and next_functions."""
    x = torch.tensor([0.5, 1.5], requires_grad=True)
    w = torch.tensor([2.0, 3.0], requires_grad=True)
    made = [1.11 + x, 1.11 - x, 2.0 * x, 2.0 / x, 2.0 ** x, x - 1.11, x / 2.0,
            torch.where(x > 1.0, x, 0.0), torch.where(x > 1.0, x, w), torch.where(x > 1.0, 1.0, w)]
    out = []
    for y in made:
        seen = []
        y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.append(list(grad_inputs)))
        y.sum().backward()
        out.append([y.grad_fn.name(), len(y.grad_fn.next_functions), seen, y])
    return out + [x.grad, w.grad]


@program
def split_chunk_and_unbind_make_views_of_one_node(torch):
    """split (by size or by sizes), chunk and unbind: every piece is an output of one node
    (SplitBackward0, SplitWithSizesBackward0, UnbindBackward0), a view that may not be written
    in place; a piece no gradient reached gets zeros in the input's gradient, and its tensor
    hooks are handed None (a hook may not replace it)."""
    x = torch.arange(6.0, requires_grad=True)
    a, b = torch.split(x, 4)
    result = [a.grad_fn.name(), a.grad_fn is b.grad_fn, [(n.name(), i) for n, i in b.grad_fn.next_functions]]
    (a * b.sum()).sum().backward()
    result.append(x.grad)
    m = torch.arange(6.0, requires_grad=True).reshape(2, 3)
    result += [[t.shape for t in m.chunk(2, 1)], [t.shape for t in torch.chunk(m, 3, 0)],
               m.split([1, 2], 1)[0].grad_fn.name(), m.unbind(1)[2].grad_fn.name()]
    result.append(torch.autograd.grad(torch.unbind(m, 1)[2].sum() * 3, m))
    for bad in (lambda: m.split([2, 3], 1), lambda: m.split(0, 1), lambda: m.split(-1),
                lambda: m.split([4, -1], 1), lambda: m.chunk(0), lambda: m.unbind(2)):
        result.append(attempt(bad))
    s = torch.arange(6.0, requires_grad=True) * 1
    p1, p2 = s.split(3)
    result += [attempt(lambda: p2.mul_(2)), attempt(lambda: s.unbind()[1].add_(1)),
               attempt(lambda: s.split([1, 5])[1].add_(1))]
    seen = []
    p1.retain_grad()
    p2.retain_grad()
    p2.register_hook(lambda g: seen.append(g))
    (p1 * 2).sum().backward(retain_graph=True)
    result += [p1.grad, p2.grad, list(seen)]
    p2.register_hook(lambda g: torch.ones(3) if g is None else g)
    result.append(attempt(lambda: p1.sum().backward()))
    return result


@program
def prod_gradients_are_exact_at_zeros(torch):
    """prod's gradient is the product of the other elements, exact where an element is zero;
    without zeros it is ``g * (result / x)``; the second derivative at a zero is exact too."""
    result = []
    for values in ([2.0, 3.0, 4.0], [2.0, 0.0, 4.0], [0.0, 0.0, 4.0]):
        x = torch.tensor(values, requires_grad=True)
        y = x.prod()
        y.backward()
        result += [y.grad_fn.name(), x.grad]
    m = torch.tensor([[2.0, 0.0], [3.0, 4.0]], requires_grad=True)
    for f in (lambda t: t.prod(1), lambda t: torch.prod(t, 0, keepdim=True), lambda t: t.prod()):
        r = f(m)
        result += [r.grad_fn.name(), torch.autograd.grad(r.sum(), m)]
    for values in ([2.0, 3.0, 4.0], [2.0, 0.0, 4.0], [0.0, 0.0, 4.0, -1.5]):
        z = torch.tensor(values, dtype=torch.float64, requires_grad=True)
        g, = torch.autograd.grad(z.prod(), z, create_graph=True)
        h, = torch.autograd.grad((g * g).sum(), z, create_graph=True)
        result += [g.grad_fn.name(), h, torch.autograd.grad(h.sum(), z)]
    m = torch.tensor([[0.0, 2.0, -1.0], [1.5, 0.0, 0.0]], dtype=torch.float64, requires_grad=True)
    g, = torch.autograd.grad(m.prod(1).sum(), m, create_graph=True)
    h, = torch.autograd.grad((g * m).sum(), m, create_graph=True)
    return result + [g, h, torch.autograd.grad(h.sum(), m)]


@program
def equal_compares_shape_and_values(torch):
    """Tensor.equal / torch.equal: one bool for shape and values (dtypes may differ); anything
    but a tensor is a TypeError naming the argument."""
    a, b = torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0], dtype=torch.float64)
    return [a.equal(b), torch.equal(a, torch.tensor([1.0, 2.0, 3.0])), a.equal(a * 1),
            torch.equal(a, torch.tensor([1, 2])), attempt(lambda: a.equal(None)),
            attempt(lambda: a.equal(3)), attempt(lambda: torch.equal(a, None)),
            attempt(lambda: torch.equal(None, a)),
            torch.linspace(0.0, 1.0, 5).equal(torch.tensor([0.0, 0.25, 0.5, 0.75, 1.0])),
            torch.linspace(-1.0, 2.0, 4, dtype=torch.float64, requires_grad=True)]


@program
def more_elementwise_functions(torch):
    """tan, sinh, cosh, atan, asin, acos, log1p, expm1, log2, log10, reciprocal, rsqrt and erf:
    values, gradients, second derivatives and their node, and which tensor each saves (an
    in-place write to its input or to its output afterwards fails the backward or not)."""
    seen = []
    for name in MORE_ELEMENTWISE:
        x = torch.tensor([0.3, 0.6], dtype=torch.float64, requires_grad=True)
        y = getattr(torch, name)(x)
        g, = torch.autograd.grad(y.sum(), x, create_graph=True)
        seen += [name, y, y.grad_fn.name(), g, g.grad_fn.name(), torch.autograd.grad(g.sum(), x)]
        seen += backward_after_writing(x, lambda t: getattr(t, name)(), torch.no_grad,
                                       lambda t: t.mul_(1.0))
    return seen


@program
def add_and_sub_with_alpha(torch):
    """add / sub with alpha are one node (AddBackward0, SubBackward0) whose second operand's
    gradient is scaled; in place too, as a hand-written SGD step writes it; a float alpha on
    integer tensors is refused."""
    x = torch.tensor([1.0, -2.0], requires_grad=True)
    y = torch.tensor([0.5, 3.0], requires_grad=True)
    z = torch.add(x, y * y, alpha=3) + x.sub(y, alpha=0.5) + torch.sub(x, 2.0, alpha=2)
    gx, gy = torch.autograd.grad(z.sum(), (x, y), create_graph=True)
    seen = [z, z.grad_fn.name(), [n.name() for n, _ in z.grad_fn.next_functions], gx, gy,
            torch.autograd.grad(gy.sum(), y)]
    h = x * 1
    h.add_(y, alpha=-0.1)
    h.sub_(y, alpha=2)
    h.sum().backward()
    seen += [h, h.grad_fn.name(), x.grad, y.grad]
    with torch.no_grad():
        x.add_(x.grad, alpha=-0.1)
    x.data.add_(y.data, alpha=0.5)
    seen += [x, attempt(lambda: torch.add(torch.tensor([1, 2]), torch.tensor([3, 4]), alpha=0.5)),
             torch.add(torch.tensor([1, 2]), torch.tensor([3, 4]), alpha=2)]
    return seen


@program
def softplus_elu_gelu_and_silu(torch):
    """softplus (beta, threshold), elu (alpha), gelu (exact, tanh) and silu: values, gradients,
    the gradient's node when recorded (one fused node each, silu's composed) and second
    derivatives; each saves its input."""
    functional = torch.nn.functional
    seen = []
    for name, fn in (("softplus", lambda t: functional.softplus(t, beta=2.0, threshold=1.0)),
                     ("elu", lambda t: functional.elu(t, 0.5)), ("gelu", functional.gelu),
                     ("gelu_tanh", lambda t: functional.gelu(t, approximate="tanh")),
                     ("silu", functional.silu)):
        x = torch.tensor([0.5, -1.2, 0.0, 0.8], dtype=torch.float64, requires_grad=True)
        y = fn(x)
        g, = torch.autograd.grad(y.sum(), x, create_graph=True)
        seen += [name, y, y.grad_fn.name(), g, g.grad_fn.name(), torch.autograd.grad(g.sum(), x)]
        seen += backward_after_writing(x, fn, torch.no_grad, lambda t: t.mul_(1.0))
    return seen


@program
def a_nan_gradient_through_relu_abs_and_maximum(torch):
    """torch's relu (threshold_backward) and maximum select the gradient, so a nan gradient
    becomes 0 where they pass none; abs's gradient is ``grad * sgn(x)``: nan at 0 too."""
    x = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)
    nan = float("nan")
    return [torch.autograd.grad((fn(x) * nan).sum(), x) for fn in (
        torch.relu, torch.abs, lambda t: torch.maximum(t, torch.zeros(3)),
        lambda t: torch.minimum(t, torch.zeros(3)), lambda t: torch.clamp(t, -0.5, 1.0))]


@program
def prod_along_one_element_at_a_zero(torch):
    """prod along a dimension of one element, with a zero: the gradient's factor is the empty
    product, ones no input reaches, so a first create_graph gradient requires no grad."""
    x = torch.tensor([[0.0, 1.5], [-2.0, 0.0]], requires_grad=True)
    g, = torch.autograd.grad(x.unsqueeze(2).prod(2, keepdim=True).sum(), x, create_graph=True)
    return [g, torch.tensor([0.0], requires_grad=True).prod()]


@program
def an_undefined_gradient_reaching_a_split(torch):
    """Only an undefined gradient (a custom function's None) reaches the pieces of a split: the
    split passes it on undefined, and every piece's hooks, the unreached one's too, see None."""
    nothing = custom(torch.autograd.Function, "Nothing", lambda ctx, a: a * 3.0, lambda ctx, g: None)
    x = torch.tensor([[1.0, -2.0, 0.5]], requires_grad=True)
    seen = []
    h = x * 1
    h.register_hook(lambda g: seen.append(("h", g)))
    a, b = torch.split(h, [2, 1], dim=1)
    a.register_hook(lambda g: seen.append(("a", g)))
    b.register_hook(lambda g: seen.append(("b", g)))
    nothing.apply(b * 2.0).sum().backward()
    return [seen, x.grad]


@program
def norms_of_other_orders(torch):
    """norm with p = 1, 3, inf, 0.5, -inf, 1.5 (whole and along a dim): LinalgVectorNormBackward0,
    its gradient (0 at zeros for p < 1, shared among ties for inf) and second derivative node."""
    seen = []
    for p in (1, 3, float("inf"), 0.5, float("-inf"), 1.5):
        x = torch.tensor([[3.0, -4.0, 0.0], [1.0, 2.0, -2.0]], requires_grad=True)
        y = x.norm(p=p)
        g, = torch.autograd.grad(y, x, create_graph=True)
        seen += [y, y.grad_fn.name(), g, g.grad_fn.name(),
                 torch.autograd.grad(torch.norm(x, p, dim=1, keepdim=True).sum(), x)]
    return seen


@program
def the_nodes_of_gradients_a_recording_pass_computes(torch):
    """The node each first-order gradient comes from when the pass records: tanh's, sigmoid's,
    softmax's and log_softmax's fused backward nodes, mean's division by the count
    (DivBackward1), a quotient's divisor gradient (MulBackward0), squeeze's unsqueeze and
    unsqueeze's squeeze; and their second derivatives."""
    forms = (lambda t: t.tanh(), lambda t: t.sigmoid(), lambda t: t.mean(), lambda t: t.mean(0),
             lambda t: t.unsqueeze(1), lambda t: t.unsqueeze(0).squeeze(0),
             lambda t: t.unsqueeze(2).squeeze(), lambda t: t / (t + 2.0), lambda t: t.softmax(1),
             lambda t: t.log_softmax(0))
    seen = []
    for fn in forms:
        x = torch.tensor([[0.5, 1.2, 0.8], [1.5, 0.3, 0.9]], dtype=torch.float64, requires_grad=True)
        out = fn(x)
        seed = torch.ones_like(out).requires_grad_(True)
        g, = torch.autograd.grad(out, x, seed, create_graph=True)
        seen += [g.grad_fn.name(), [n.name() if n else None for n, _ in g.grad_fn.next_functions],
                 torch.autograd.grad(g.sum(), (x, seed), allow_unused=True)]
    return seen


@program
def masked_fill_is_one_node(torch):
    """masked_fill with a number records MaskedFillBackward0 (the tensor its only input); its
    gradient is masked_fill again; with a tensor value MaskedFillBackward1."""
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.masked_fill(x > 1.5, 0.5)
    g, = torch.autograd.grad(y, x, torch.ones(3, requires_grad=True), create_graph=True)
    return [y, y.grad_fn.name(), [n.name() if n else None for n, _ in y.grad_fn.next_functions],
            g, g.grad_fn.name(), torch.masked_fill(x, x < 1.5, -1.0)]


@program
def var_and_std_are_one_node(torch):
    """var and std record one node (VarBackward0, StdBackward0) over every dim or some, with a
    correction; std's gradient is 0 where the std is 0; second derivatives."""
    seen = []
    for fn in (lambda t: t.var(), lambda t: t.std(), lambda t: t.var(1, keepdim=True),
               lambda t: torch.std(t, 0, correction=0), lambda t: t.var(unbiased=False)):
        x = torch.tensor([[0.5, 1.2, 0.8], [1.5, 0.3, 0.9]], dtype=torch.float64, requires_grad=True)
        out = fn(x)
        g, = torch.autograd.grad(out.sum(), x, create_graph=True)
        seen += [out, out.grad_fn.name(), g, torch.autograd.grad(g.sum(), x)]
    flat = torch.tensor([2.0, 2.0], requires_grad=True)
    return seen + [torch.autograd.grad(flat.std(), flat)]


@program
def contiguous_copies_a_tensor_out_of_order(torch):
    """contiguous() returns the tensor itself when its memory is in order, otherwise a copy
    (CloneBackward0): a transpose, an expansion, a column."""
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    y = x * 1
    copies = [y.t().contiguous(), y[0:1].expand(2, 3).contiguous(), y[:, 1].contiguous(), y[0].contiguous()]
    return [y.contiguous() is y, [c.grad_fn.name() for c in copies],
            [t.is_contiguous() for t in (y, y.t(), copies[0], y[:, 1], y[0])]]


@program
def a_basic_index_names_its_last_step(torch):
    """Basic indexing applies one step per component (None an unsqueeze, an integer a select, a
    slice a slice; ``...`` and, in a tuple, ``:`` are skipped): the last step names the node,
    an alias when none applies; a write through such a view names it in the version error."""
    x = torch.tensor([[0.5, 1.2, 0.8], [1.5, 0.3, 0.9]], requires_grad=True)
    h = x * 1
    views = [h[None], h[:, None], h[..., 1], h[...], h[:], h[:, 1], h[1, :2], h[:2, 1], h[1:, None],
             h[None, 1], h[:, :], h[..., None], h[::2]]
    seen = [v.grad_fn.name() for v in views]
    e = h.exp()
    w = e[:, None]
    with torch.no_grad():
        w.mul_(2.0)
    return seen + [attempt(lambda: e.sum().backward())]


@program
def gather_and_its_gradient(torch):
    """gather records GatherBackward0; its gradient adds into zeros at the gathered places
    (repeats add up; ScatterAddBackward0 when recording), whose own gradient gathers again."""
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    index = torch.tensor([[0, 2], [1, 1]])
    y = torch.gather(x, 1, index)
    seed = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    g, = torch.autograd.grad(y, x, seed, create_graph=True)
    return [y, y.grad_fn.name(), [n.name() if n else None for n, _ in y.grad_fn.next_functions], g,
            g.grad_fn.name(), torch.autograd.grad(g.sum(), seed), x.gather(0, torch.tensor([[1, 0, 1]]))]


@program
def functions_composed_from_the_core(torch):
    """flip, roll, tril/triu, diag both ways, diagonal, trace, outer, logsumexp, narrow, select,
    lerp, hypot, logaddexp, broadcast_to, topk, sort, l1_loss and normalize: values, node names
    and the gradients of a weighted sum of all of them; isnan / any / all."""
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, -6.0]], requires_grad=True)
    v = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    w = torch.tensor(0.25, requires_grad=True)
    nnf = torch.nn.functional
    outs = [x.flip(0), torch.flip(x, [0, 1]), x.flip(1, 0), torch.roll(x, 1),
            torch.roll(x, [1, -1], [0, 1]), torch.tril(x), x.triu(1), torch.tril(x, -1),
            torch.diag(v), torch.diag(v, 1), torch.diag(v, -2), torch.diag(x), torch.diag(x, 1),
            torch.diagonal(x), x.diagonal(-1), torch.trace(x), torch.outer(v, v),
            torch.logsumexp(x, 1), torch.logsumexp(x, (0, 1), keepdim=True), x.narrow(1, 1, 2),
            x.narrow(0, -1, 1), x.select(1, -1), torch.lerp(x, x * 2, 0.3),
            torch.lerp(x, x.exp(), w), torch.hypot(x, x * 3), torch.logaddexp(x, x * 0.5),
            torch.broadcast_to(v, (2, 3)), torch.topk(x, 2).values,
            torch.topk(x, 2, dim=0, largest=False).values, torch.sort(x, descending=True).values,
            x.sort(dim=0).values, nnf.l1_loss(x, x * 2), nnf.l1_loss(x, v, reduction="sum"),
            nnf.normalize(x), nnf.normalize(x, p=1.0, dim=0)]
    sum(((o * (i + 1)).sum() for i, o in enumerate(outs)), torch.tensor(0.0)).backward()
    return ([o.detach() for o in outs] + [o.grad_fn.name() for o in outs]
            + [x.grad, v.grad, w.grad, torch.topk(x, 2).indices, torch.sort(x, 0, True).indices,
               torch.isnan(x), torch.isinf(x / 0), torch.isfinite(x), torch.any(x > 4),
               x.all(), attempt(lambda: x.narrow(1, 2, 2)), attempt(lambda: torch.topk(x, 4)),
               attempt(lambda: torch.roll(x, [1, 2], [0])),
               attempt(lambda: torch.diag(torch.ones(2, 2, 2)))])


@program
def composed_functions_show_the_framework_node(torch):
    """index_select, cumsum, repeat and bmm are composed from the core's operations; the node a
    program sees has torch's name. flatten over one dimension returns the tensor itself."""
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    b = torch.tensor([[[1.0, 2.0], [3.0, 4.0]]], requires_grad=True)
    v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    made = [x.index_select(1, torch.tensor([2, 0])), x.cumsum(1), v.cumsum(0), x.repeat(2, 1),
            v.repeat(1), torch.bmm(b, b), x.flatten(), x.flatten(1, 1), v.flatten()]
    return [[t.grad_fn.name() if t.grad_fn is not None else None, t.detach()] for t in made] + [
        x.flatten(1, -1) is x, v.flatten() is v, attempt(lambda: x.flatten(5, 5))]


@program
def comparing_a_tensor_with_none(torch):
    """``x == None`` and ``x != None`` are Python's False and True, as beginners write them
    about ``.grad``."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    before = [x.grad == None, x == None, x != None]  # noqa: E711 - what the program tests
    (x * 2).sum().backward()
    return before + [x.grad == None, x.grad != None]  # noqa: E711


@program
def missing_names_and_helpers(torch):
    """Helpers real programs reach for: nan_to_num (no gradient to the replaced entries),
    masked_select, meshgrid in both indexings, tile, argsort, nonzero, logical ops, the *_like
    draws' shapes and dtypes, mT, bool(), nelement(); and a name neither engine has is an
    AttributeError that hasattr answers."""
    x = torch.tensor([[1.0, float("nan")], [float("inf"), -2.0]], requires_grad=True)
    y = torch.nan_to_num(x, nan=0.5, posinf=9.0)
    picked = torch.masked_select(x * 2, torch.tensor([[True, False], [False, True]]))
    (y.sum() + picked.sum()).backward()
    a, b = torch.meshgrid(torch.tensor([1.0, 2.0], requires_grad=True), torch.tensor([3.0, 4.0, 5.0]),
                          indexing="xy")
    c, d = torch.meshgrid(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0, 5.0]), indexing="ij")
    v = torch.tensor([3.0, 1.0, 2.0, 0.0])
    drawn = [torch.randn_like(x), torch.rand_like(x, dtype=torch.float64), torch.empty_like(v),
             torch.randint(0, 5, (2, 3)), torch.randperm(4)]
    return [y, x.grad, picked, a, b, c, d, torch.tile(v, (2, 1)), v.tile((2,)),
            torch.argsort(v), v.argsort(descending=True), torch.nonzero(v),
            torch.nonzero(v, as_tuple=True), torch.logical_and(v > 0, v < 3), (v > 1).logical_not(),
            [(tuple(t.shape), str(t.dtype), t.requires_grad) for t in drawn], x.detach().mT, v.bool(),
            v.nelement(),
            hasattr(torch, "definitely_not_an_api")]


@program
def einsum_equations(torch):
    """einsum for matrix products, matrix-vector, dot, transpose, full sum, batched products,
    outer products, diagonals and traces, with an implicit output: values, the result's node
    name and the gradients of every operand."""
    a = torch.tensor([[1.0, 2.0, 0.5], [-1.0, 0.0, 3.0]], requires_grad=True)
    b = torch.tensor([[0.5, 1.0], [2.0, -1.0], [1.0, 1.0]], requires_grad=True)
    v = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
    m = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], requires_grad=True)
    batch_a, batch_b = a.unsqueeze(0) * torch.tensor([[[1.0]], [[2.0]]]), b.unsqueeze(0).expand(2, 3, 2)
    seen = []
    for equation, operands in (("ij,jk->ik", (a, b)), ("ij,j->i", (a, v)), ("i,i->", (v, v)),
                               ("ij->ji", (a,)), ("ij->", (a,)), ("bij,bjk->bik", (batch_a, batch_b)),
                               ("i,j->ij", (v, v)), ("ii->i", (m,)), ("ii", (m,)), ("ij,jk", (a, b)),
                               ("ik,jk->ij", (a, m))):
        out = torch.einsum(equation, *operands)
        grads = torch.autograd.grad(out.sum(), [a, b, v, m], allow_unused=True)
        seen += [equation, out, out.grad_fn.name(), grads]
    seen.append(torch.einsum("ij,jk->ik", [a, b]))
    return seen


@program
def cumsum_keeps_nothing_of_its_input_in_torch(torch):
    """cumsum's derivative is the running sums from the far end, read from nothing the forward
    saved: a write to its input after it does not fail the backward; to second order too."""
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    v = x * 1.0
    y = torch.cumsum(v, 1)
    v.mul_(2.0)
    weights = torch.tensor([[1.0, 2.0, 3.0], [1.0, -1.0, 2.0]])
    g, = torch.autograd.grad([(y * weights).sum()], [x], create_graph=True)
    return [y, g, attempt(lambda: torch.autograd.grad([(g * g).sum()], [x], allow_unused=True))]


@program
def linalg_norms(torch):
    """torch.linalg's vector and Frobenius norms (one LinalgVectorNormBackward0 each) and their
    gradients."""
    x = torch.tensor([[1.0, -2.0], [3.0, 0.5]], requires_grad=True)
    seen = []
    for f in (lambda: torch.linalg.norm(x), lambda: torch.linalg.norm(x, dim=1),
              lambda: torch.linalg.vector_norm(x, ord=1, dim=0), lambda: torch.linalg.norm(x, ord="fro"),
              lambda: torch.linalg.matrix_norm(x, keepdim=True),
              lambda: torch.linalg.vector_norm(x, ord=float("inf")),
              lambda: torch.linalg.norm(x[0], ord=3), lambda: torch.linalg.vector_norm(x, 0.5, (0, 1))):
        y = f()
        seen += [y, y.grad_fn.name(), torch.autograd.grad(y.sum(), x)]
    return seen


@program
def scatter_scatter_add_and_index_add(torch):
    """Writes at indices along a dim: scatter (a tensor: ScatterBackward0, a number:
    ScatterBackward1; the input's gradient 0 where written), scatter_add (repeated places add
    up) and index_add (with alpha), as functions and methods; an index out of range refused."""
    x = torch.zeros(2, 3, requires_grad=True)
    src = torch.arange(6.0).reshape(2, 3).requires_grad_()
    idx = torch.tensor([[0, 1, 2], [2, 0, 1]])
    seen = []
    for f in (lambda: x.scatter(1, idx, src), lambda: torch.scatter(x, 1, idx, 5.0),
              lambda: x.scatter_add(1, idx, src),
              lambda: torch.index_add(x, 1, torch.tensor([2, 0]), src[:, :2]),
              lambda: x.index_add(0, torch.tensor([1]), src[:1], alpha=2.0),
              lambda: torch.scatter_add(x, 0, torch.tensor([[1, 0, 1]]), src[:1]),
              lambda: x.scatter_add(1, torch.tensor([[0, 0, 0]]), src[:1])):
        y = f()
        seen += [y, y.grad_fn.name(), torch.autograd.grad((y * y).sum(), [x, src], allow_unused=True)]
    return seen + [attempt(lambda: x.scatter(1, torch.tensor([[5]]), src[:1, :1])),
                   attempt(lambda: x.index_add(1, torch.tensor([3]), src[:, :1]))]


@program
def small_aliases_and_compositions(torch):
    """movedim / moveaxis / swapaxes, unflatten, hstack / vstack / concatenate, addcmul /
    addcdiv (one node each), the named arithmetic methods, group_norm / GroupNorm, the constant
    pads, the upsampling modules, Softmax2d and the storage facts."""
    x = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
    seen = []
    for f in (lambda: torch.movedim(x, 0, 2), lambda: torch.moveaxis(x, (0, 1), (2, 0)),
              lambda: x.swapaxes(0, 1), lambda: x.unflatten(2, (2, 2)), lambda: torch.hstack([x, x]),
              lambda: torch.vstack([x[0], x[1]]),
              lambda: torch.vstack([x[0, 0], x[1, 1]]), lambda: torch.concatenate([x, x], 1),
              lambda: torch.addcmul(x, x, x, value=0.5), lambda: x.addcdiv(x, x + 1, value=2),
              lambda: x.multiply(2.0), lambda: x.subtract(x, alpha=2), lambda: x.divide(3.0),
              lambda: torch.true_divide(x, 2), lambda: torch.nn.functional.group_norm(x, 3),
              lambda: torch.nn.GroupNorm(1, 3)(x), lambda: torch.nn.ZeroPad2d((1, 0, 2, 1))(x),
              lambda: torch.nn.ConstantPad1d(2, 3.5)(x), lambda: torch.nn.ConstantPad2d((1, 1, 0, 0), 1.0)(x),
              lambda: torch.nn.UpsamplingNearest2d(scale_factor=2)(x.unsqueeze(0)),
              lambda: torch.nn.UpsamplingBilinear2d(size=(4, 5))(x.unsqueeze(0)),
              lambda: torch.nn.Softmax2d()(x)):
        y = f()
        seen += [y, y.grad_fn.name(), torch.autograd.grad((y * y).sum(), x)]
    modules = (torch.nn.GroupNorm(3, 3, eps=1e-3), torch.nn.ZeroPad2d(1), torch.nn.ConstantPad1d(2, 3.5),
               torch.nn.ConstantPad2d((1, 1, 0, 0), 1.0), torch.nn.UpsamplingNearest2d(scale_factor=2),
               torch.nn.UpsamplingBilinear2d(size=(4, 4)), torch.nn.Softmax2d())
    return seen + [[repr(m) for m in modules], x.element_size(), x.nbytes, x.itemsize]


@program
def forward_differences(torch):
    """diff (the n-th difference along a dim, after prepend / append: a subtraction each time)
    as a function and a method, and nonzero / argwhere / sgn as methods."""
    x = torch.tensor([[1.0, 4.0, 9.0], [2.0, 2.0, 5.0]], requires_grad=True)
    seen = []
    for y in (torch.diff(x), x.diff(dim=0), torch.diff(x, n=2), torch.diff(x, prepend=torch.zeros(2, 1)),
              x.diff(n=1, dim=1, append=torch.ones(2, 2))):
        seen += [y, y.grad_fn.name(), torch.autograd.grad((y * y).sum(), x)]
    return seen + [x.diff(n=0, prepend=torch.ones(2, 1)), x.sgn(), x.sgn().grad_fn.name(), x.nonzero(),
                   x.argwhere(), (x - 2.0).nonzero(as_tuple=True)]


@program
def square_matrix_functions(torch):
    """torch.linalg's inv, det, slogdet and solve (and their older names, as functions and
    methods): values, node names, first and second derivatives, slogdet's named result and the
    sign's lack of a gradient, and logdet's NaN for a negative determinant."""
    a = torch.tensor([[2.0, 0.5, 0.1], [0.3, 1.5, -0.4], [0.2, -0.1, 1.2]], requires_grad=True)
    b = torch.tensor([[1.0, 2.0], [0.5, -1.0], [0.3, 0.7]], requires_grad=True)
    batch = torch.tensor([[[2.0, 0.5], [0.3, -1.5]], [[1.0, 0.2], [0.1, 3.0]]], requires_grad=True)
    seen = []
    for y in (torch.linalg.inv(a), a.inverse(), torch.linalg.det(batch), torch.det(a), a.logdet(),
              torch.logdet(batch), torch.linalg.slogdet(batch).logabsdet, torch.linalg.solve(a, b),
              torch.linalg.solve(a, b[:, 0]), torch.linalg.solve(batch, batch[:, 0])):
        inputs = [a, b, batch]
        firsts = torch.autograd.grad((y * y).sum(), inputs, create_graph=True, allow_unused=True)
        used = [g for g in firsts if g is not None]
        seconds = torch.autograd.grad(sum(g.sum() for g in used), inputs, allow_unused=True)
        seen += [y, y.grad_fn.name(), firsts, [g.grad_fn.name() for g in used], seconds]
    sign, logabsdet = torch.linalg.slogdet(batch)
    sign.sum().backward()
    return seen + [torch.slogdet(a), torch.linalg.slogdet(batch), batch.grad, a.slogdet().sign.grad_fn.name(),
                   repr(torch.max(a, 1)), str(torch.sort(a[0]))]


@program
def special_and_running_functions(torch):
    """lgamma, digamma, polygamma, erfinv, trunc, frac, logit (with and without eps, at and
    outside its bounds), atan2, deg2rad / rad2deg, cumprod and cross (torch.cross's first dim of
    size 3, and its refusal without one), torch.special's names for them, as functions and
    methods: values, node names, first and second derivatives."""
    x = torch.tensor([[0.3, 1.7, 2.5], [4.2, 0.9, 1.3]], requires_grad=True)
    p = torch.tensor([[0.0, 0.05, 0.5], [0.95, 1.0, 0.3]], requires_grad=True)
    s = torch.tensor([[-0.7, 0.4, 1.6], [2.2, -1.3, -0.45]], requires_grad=True)
    seen = []
    for y in (torch.lgamma(x), x.digamma(), torch.polygamma(1, x), x.polygamma(2), torch.erfinv(p * 0.9),
              torch.trunc(s * 2), s.frac(), torch.frac(s * 3), torch.logit(p), p.logit(eps=0.1),
              torch.atan2(s, x), s.arctan2(x), torch.deg2rad(s), s.rad2deg(), torch.cumprod(s, 1),
              s.cumprod(0), torch.linalg.cross(s, x), torch.cross(s.t(), x.t()), s.cross(x, dim=1),
              torch.special.expit(s), torch.special.gammaln(x), torch.special.psi(x),
              torch.special.logit(p, 0.2), torch.special.erfinv(p * 0.5)):
        inputs = [t for t in (x, p, s)]
        firsts = torch.autograd.grad((y * y).sum(), inputs, create_graph=True, allow_unused=True)
        used = [g for g in firsts if g is not None and g.requires_grad]
        seconds = torch.autograd.grad(sum(g.sum() for g in used), inputs, allow_unused=True) if used else None
        seen += [y, y.grad_fn.name(), firsts, [g.grad_fn.name() for g in used], seconds]
    return seen + [attempt(lambda: torch.cross(torch.ones(2, 4), torch.ones(2, 4))),
                   attempt(lambda: torch.linalg.cross(torch.ones(2, 4), torch.ones(2, 4))),
                   torch.lgamma(torch.tensor([0.0, -1.0, 0.5])),
                   torch.digamma(torch.tensor([0.0, -2.0, 1.0]))]


@program
def aliases_predicates_and_small_compositions(torch):
    """The aliases (absolute, negative, not_equal, swapdims, positive, real / conj of a real
    tensor), the predicates (is_floating_point, is_complex, is_nonzero, signbit, isposinf,
    isneginf, isreal), tril / triu_indices, and the compositions torch's OpInfo samples do not
    all reach: nansum / nanmean with NaNs, trapezoid with dx, atleast_*d of several tensors,
    column_stack, dstack, dist with p; their refusals."""
    x = torch.tensor([[-1.5, float("nan"), 2.0], [0.0, -0.0, float("inf")]], requires_grad=True)
    y = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    made = [torch.absolute(y - 3), torch.negative(y), y.swapdims(0, 1), torch.nansum(x), x.nansum(1),
            torch.nanmean(x, 0), torch.trapezoid(y, dx=0.5), torch.trapz(y, dim=0), torch.dist(y, y * 2, 3),
            torch.column_stack([y[0], y[1], y[0]]), torch.dstack([y, y]), torch.atleast_3d(y[0])]
    seen = [[m, m.grad_fn.name(), torch.autograd.grad(m.sum(), [x, y], allow_unused=True)] for m in made]
    return seen + [torch.not_equal(y, 2.0), torch.positive(y) is y, torch.real(y) is y, y.conj() is y,
                   torch.is_floating_point(y), torch.is_complex(y), torch.is_nonzero(torch.tensor([0.5])),
                   attempt(lambda: torch.is_nonzero(y)), attempt(lambda: torch.is_nonzero(torch.ones(0))),
                   torch.signbit(x), torch.isposinf(x), torch.isneginf(-x), torch.isreal(y),
                   torch.tril_indices(3, 4, 1), torch.triu_indices(3, 3),
                   torch.atleast_1d(torch.tensor(2.0), y),
                   attempt(lambda: torch.positive(torch.tensor([True]))), attempt(lambda: torch.fliplr(y[0])),
                   attempt(lambda: torch.vdot(y, y))]


@program
def remainders_fmod_and_rounded_division(torch):
    """remainder (``%``: the divisor's sign, a zero keeps the dividend's), fmod (the dividend's),
    floor_divide (``//``) and div with rounding_mode, of tensors and numbers on either side,
    integers, zeros and infinities: values, dtypes, node names, the divisor's gradient
    (-g times the rounded quotient) to second order (zeros through DivBackward2), the nodes
    without derivative, in-place forms and the errors."""
    a = torch.tensor([5.5, -5.5, 3.0, -3.0, 0.0, -0.0, 7.25, 1e-8, -0.0], requires_grad=True)
    b = torch.tensor([2.0, 2.0, -2.0, -1.5, 3.0, -3.0, 0.0, -1.0, 2.5], requires_grad=True)
    seen = []
    for y in (torch.remainder(a, b), a % b, torch.fmod(a, b), a.remainder(b), a.fmod(b)):
        ga, gb = torch.autograd.grad((y * y).sum(), [a, b], create_graph=True)
        seen += [y, y.grad_fn.name(), ga, gb, gb.grad_fn.name(),
                 [n.name() if n else None for n, _ in gb.grad_fn.next_functions],
                 torch.autograd.grad(gb.sum(), [a, b], allow_unused=True, retain_graph=True)]
    for y in (a % 2.5, torch.remainder(a, -2.5), torch.fmod(a, 2.5), a % 2, a.fmod(-1.5)):
        seen += [y, y.grad_fn.name(), torch.autograd.grad(y.sum(), a)]
    for y in (2.5 % a, torch.remainder(2.5, a), a // b, a // 2.0, 3.0 // a, torch.floor_divide(a, b),
              torch.div(a, b, rounding_mode="floor"), torch.div(a, 2.0, rounding_mode="trunc"),
              a.div(b, rounding_mode="trunc")):
        seen += [y, y.grad_fn.name(),
                 attempt(lambda: torch.autograd.grad(y.sum(), [a, b], allow_unused=True))]
    g = torch.ones(9, requires_grad=True)
    seen.append(torch.autograd.grad(torch.div(a, b, rounding_mode="floor"), [a, b], g, create_graph=True))
    i = torch.tensor([7, -7, 8, 0])
    seen += [i % 3, i % -3, torch.fmod(i, 3), torch.fmod(i, -3), i // 3, i // -3, i % 2.5,
             7 % torch.tensor([2, -3]),
             torch.div(i, 2, rounding_mode="floor"), torch.div(i, -2, rounding_mode="trunc"), torch.div(i, 2),
             attempt(lambda: i % 0), attempt(lambda: torch.fmod(i, torch.tensor([1, 0, 1, 1]))),
             attempt(lambda: i // 0), attempt(lambda: torch.div(i, 0, rounding_mode="trunc")),
             attempt(lambda: torch.div(a, b, rounding_mode="round"))]
    specials = torch.tensor([5.0, -5.0, float("inf"), 3.0, float("nan")])
    divisors = torch.tensor([float("inf"), float("inf"), 2.0, float("-inf"), 1.0])
    seen += [torch.remainder(specials, divisors), torch.fmod(specials, divisors), specials // divisors,
             torch.div(specials, divisors, rounding_mode="trunc"), torch.remainder(specials.double(), 0.7)]
    c = a * 1
    c.remainder_(2.0)
    seen.append(c.grad_fn.name())
    c.fmod_(b)
    seen.append(c.grad_fn.name())
    c %= 1.5
    seen.append(c.grad_fn.name())
    c.div_(b, rounding_mode="floor")
    seen.append(c.grad_fn.name())
    c.floor_divide_(b)
    seen.append(c.grad_fn.name())
    c //= 2
    seen += [c, c.grad_fn.name(), attempt(lambda: c.sum().backward())]
    d = a * 1
    d %= b
    d.sum().backward()
    return seen + [d, a.grad, b.grad]


@program
def cholesky_matrix_powers_chains_and_vecdot(torch):
    """linalg.cholesky (lower and upper, a batch, to second order; a matrix that is not
    positive-definite: torch's LinAlgError naming the leading minor), matrix_power (0, 1, -1,
    2, 3 and 6: torch's multiplication order), multi_dot of a chain with vectors at its ends,
    and vecdot (two vectors: one node): values, node names and gradients."""
    linalg = torch.linalg
    a = torch.tensor([[[2.0, 0.5, 0.1], [0.3, 1.5, -0.2], [0.0, 0.4, 1.8]],
                      [[1.2, -0.3, 0.2], [0.1, 2.2, 0.5], [-0.4, 0.0, 1.1]]], requires_grad=True)
    spd = a @ a.transpose(-2, -1)
    lower = linalg.cholesky(spd)
    g, = torch.autograd.grad((lower * lower * lower).sum(), a, create_graph=True)
    seen = [lower, lower.grad_fn.name(), g, torch.autograd.grad(g.sum(), a),
            linalg.cholesky(spd[0], upper=True),
            attempt(lambda: linalg.cholesky(torch.tensor([[1.0, 2.0], [2.0, 1.0]]))),
            issubclass(linalg.LinAlgError, RuntimeError)]
    for n in (0, 1, -1, 2, 3, 6):
        power = linalg.matrix_power(a[0], n)
        seen += [power, power.grad_fn.name(), torch.autograd.grad(power.sum(), a)]
    vector = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    chain = linalg.multi_dot([vector, a[0], a[1], vector])
    dots = linalg.vecdot(a[0], a[1], dim=0)
    return seen + [chain, chain.grad_fn.name(), torch.autograd.grad(chain, [vector, a]),
                   linalg.multi_dot([a[0], a[1][:, :2], torch.ones(2, 4)]), dots, dots.grad_fn.name(),
                   linalg.vecdot(vector, vector).grad_fn.name(),
                   attempt(lambda: linalg.multi_dot([vector]))]


@program
def basic_index_gradients_component_by_component(torch):
    """A basic index's backward runs its components last first: new axes only (the gradient a
    squeezed view of the seed, which the leaf's .grad then shares: zeroing it in place bumps
    the seed's version), nothing applied (the gradient passes as it is), else written into
    zeros under the first component's backward node; values, node names, second derivatives."""
    seen = []
    for index in ((Ellipsis, None), (None,), (slice(None), None), slice(None), 1, slice(1, None),
                  (None, slice(1, None)), (slice(1, None), None), (0, None), (None, 0), slice(None, None, 2),
                  (None, Ellipsis, None), (Ellipsis, 0), (slice(-1, None), slice(None))):
        x = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
        y = x[index]
        g = torch.full(y.shape, 2.0, requires_grad=True)
        gx, = torch.autograd.grad(y, x, g, create_graph=True)
        seed = torch.ones(y.shape)
        leaf = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
        torch.autograd.backward([leaf[index]], [seed])
        leaf.grad.zero_()
        seen += [y.grad_fn.name(), None if gx.grad_fn is None else gx.grad_fn.name(), gx,
                 torch.autograd.grad((gx * gx).sum(), g), seed._version, seed]
    return seen


@program
def lookups_counts_and_joined_products(torch):
    """searchsorted (left, right, int32, per-row boundaries, a number), bucketize, isin, histc
    (a range given or the data's), std_mean / var_mean (one node, both outputs), block_diag,
    cartesian_prod and tensordot: values, dtypes, node names and gradients."""
    boundaries = torch.tensor([1.0, 3.0, 5.0])
    values = torch.tensor([[0.0, 3.0, 6.0], [5.0, 1.0, 2.0]])
    seen = [torch.searchsorted(boundaries, values), torch.searchsorted(boundaries, values, right=True),
            torch.searchsorted(boundaries, values, side="right", out_int32=True),
            torch.searchsorted(boundaries, 3.0),
            torch.searchsorted(torch.tensor([[1.0, 2.0], [0.0, 9.0]]), torch.tensor([[1.5], [10.0]])),
            torch.bucketize(values, boundaries), torch.bucketize(values, boundaries, right=True),
            torch.isin(torch.tensor([1, 2, 3]), torch.tensor([2, 5])),
            torch.isin(torch.tensor([1, 2, 3]), torch.tensor([2, 5]), invert=True),
            torch.histc(torch.tensor([1.0, 2.0, 1.0]), bins=4, min=0, max=3),
            torch.histc(torch.tensor([1.0, 2.0, 1.0, 7.0]), bins=3), torch.tensor([0.5, 9.0]).histc(2, 0, 1)]
    x = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]], requires_grad=True)
    spread, mean = torch.std_mean(x, 1)
    variance, overall = torch.var_mean(x, unbiased=False)
    seen += [spread, mean, variance, overall, torch.std_mean(x, dim=0, keepdim=True, correction=0),
             spread.grad_fn.name(),
             torch.autograd.grad((spread * mean).sum() + variance, x)]
    blocks = torch.block_diag(x, torch.tensor([7.0]), torch.tensor(3.0))
    pairs = torch.cartesian_prod(x[0], x[1, :2])
    dotted = torch.tensordot(x, x.T, dims=1)
    return seen + [blocks, blocks.grad_fn.name(), pairs, pairs.grad_fn.name(), dotted, dotted.grad_fn.name(),
                   torch.tensordot(x, x, dims=([0, 1], [0, 1])),
                   torch.autograd.grad(blocks.sum() + pairs.sum() + dotted.sum(), x)]


@program
def bincount_counts_and_sums_weights(torch):
    """torch.bincount: counts as int64 (minlength pads), weights summed (float32 stays, others
    give float64) under a node without derivative; the inputs it refuses. An empty tensor
    prints its dtype unless it is the default float."""
    x = torch.tensor([0, 1, 1, 3])
    weights = torch.tensor([0.5, 1.0, 2.0, 3.0], requires_grad=True)
    summed = torch.bincount(x, weights=weights)
    return [torch.bincount(x), x.bincount(minlength=6), summed, summed.grad_fn.name(),
            attempt(lambda: summed.sum().backward()),
            torch.bincount(x, weights=torch.tensor([1, 2, 3, 4])),
            repr(torch.bincount(torch.tensor([], dtype=torch.long))),
            attempt(lambda: torch.bincount(torch.tensor([-1, 2]))),
            attempt(lambda: torch.bincount(torch.tensor([[1, 2]]))),
            attempt(lambda: torch.bincount(torch.tensor([1.0, 2.0]))),
            attempt(lambda: torch.bincount(x, weights=torch.tensor([1.0, 2.0]))),
            attempt(lambda: torch.bincount(x, minlength=-1)),
            repr(torch.zeros(0, 3, dtype=torch.bool)), repr(torch.zeros(0, dtype=torch.int32))]


@program
def in_place_forms_record_the_functions_node(torch):
    """``y.lerp_(end, w)`` and the other in-place forms: the tensor itself, its version grown,
    the function's own node, and the function's gradient."""
    extra = {"lerp": (torch.tensor([1.0, -2.0, 3.0]), 0.3),
             "addcmul": (torch.tensor([1.0, 2.0, 3.0]), torch.tensor([0.5, 0.5, 2.0])),
             "addcdiv": (torch.tensor([1.0, 2.0, 3.0]), torch.tensor([0.5, 4.0, 2.0])),
             "atan2": (torch.tensor([1.0, 2.0, -3.0]),), "hypot": (torch.tensor([1.0, 2.0, -3.0]),),
             "copysign": (torch.tensor([-1.0, 2.0, -3.0]),), "xlogy": (torch.tensor([1.5, 2.0, 3.0]),),
             "cumsum": (0,), "cumprod": (0,), "clip": (-0.5, 0.5)}
    out = []
    for name in ("lerp", "addcmul", "addcdiv", "floor", "round", "sign", "reciprocal", "nan_to_num", "clip",
                 "trunc", "frac", "ceil", "log1p", "expm1", "square", "rsqrt", "erf", "atan2", "hypot",
                 "logit", "copysign", "xlogy", "digamma", "lgamma", "sinc", "deg2rad", "cumsum", "cumprod",
                 "tril", "triu"):
        values = [[0.25, 0.6], [0.9, 0.1]] if name in ("tril", "triu") else [0.25, 0.6, 0.9]
        x = torch.tensor(values, requires_grad=True)
        y = x * 1.5
        written = getattr(y, name + "_")(*extra.get(name, ()))
        y.sum().backward()
        out += [name, written is y, y._version, y.grad_fn.name(), y, x.grad]
    return out


@program
def triangular_and_cholesky_solves(torch):
    """linalg.solve_triangular (upper and lower, left and right, unitriangular: only the
    triangle read, the gradient in it), cholesky_solve and cholesky_inverse (functions and
    methods) from a Cholesky factor: values, node names, first derivatives of both operands."""
    a = torch.tensor([[2.0, 0.5, 0.1], [0.3, 1.5, -0.4], [0.2, -0.1, 1.2]], requires_grad=True)
    b = torch.tensor([[1.0, 2.0], [0.5, -1.0], [0.3, 0.7]], requires_grad=True)
    spd = torch.tensor([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])
    low = torch.linalg.cholesky(spd).requires_grad_()
    seen = []
    solve = torch.linalg.solve_triangular
    for y in (solve(a, b, upper=True), solve(a, b, upper=False), solve(a, b.t(), upper=True, left=False),
              solve(a, b, upper=False, unitriangular=True), torch.cholesky_solve(b, low),
              b.cholesky_solve(low), torch.cholesky_solve(b, low.t(), upper=True),
              torch.cholesky_inverse(low), low.cholesky_inverse()):
        grads = torch.autograd.grad((y * y).sum(), [a, b, low], allow_unused=True)
        seen += [y, y.grad_fn.name(), grads]
    return seen


@program
def addmm_scales_and_checks_as_torch(torch):
    """torch.addmm(input, mat1, mat2, beta=, alpha=): one AddmmBackward0 whose input broadcasts
    to the product's shape (its gradient summed back), beta 0 ignoring the input's nan; the
    method and its in-place form; matrices and shapes refused in torch's words."""
    c = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    a = torch.tensor([[1.0, 2.0, 0.5, -1.0], [0.0, 1.5, -2.0, 1.0]], requires_grad=True)
    b = torch.tensor([[1.0, 0.0, 2.0], [0.5, -1.0, 1.0], [2.0, 1.0, 0.0], [-1.0, 0.5, 1.5]],
                     requires_grad=True)
    out = torch.addmm(c, a, b, beta=0.5, alpha=2.0)
    (out * torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]])).sum().backward()
    plain = torch.addmm(c, a, b)
    ignored = torch.addmm(torch.tensor([float("nan"), 1.0, 2.0]), a, b, beta=0)
    written = torch.zeros(2, 3) + c
    written.addmm_(a, b, alpha=0.5)
    return [out, out.grad_fn.name(), c.grad, a.grad, b.grad, plain, ignored, c.addmm(a, b),
            written, written.grad_fn.name(),
            attempt(lambda: torch.addmm(torch.ones(5), a, b)),
            attempt(lambda: torch.addmm(c, torch.ones(4), b)),
            attempt(lambda: torch.addmm(c, a, torch.ones(5, 3)))]


@program
def covariance_and_correlation_as_torch_composes_them(torch):
    """cov centres the rows, multiplies by the transpose and divides by n - correction
    (SqueezeBackward0; no degrees of freedom warn and give nan); corrcoef divides by the
    deviations and clamps (ClampBackward1); an integer input is taken as float32."""
    x = torch.tensor([[1.0, 2.0, 4.0, 7.0], [0.5, -1.0, 2.0, 1.0], [3.0, 1.0, 0.0, 2.0]], requires_grad=True)
    c, r = torch.cov(x, correction=0), torch.corrcoef(x)
    (c.sum() + (r * torch.arange(9.0).reshape(3, 3)).sum()).backward()
    return [c, c.grad_fn.name(), r, r.grad_fn.name(), x.grad, x.cov(), torch.cov(torch.tensor([1, 2, 4])),
            torch.cov(torch.ones(1, 1)), torch.corrcoef(torch.tensor([2.0, 3.0])),
            attempt(lambda: torch.cov(torch.ones(2, 2, 2)))]


@program
def a_range_indexes_as_its_list(torch):
    """``x[range(n), target]`` (the negative log-likelihood of the nn tutorial) and an empty
    list or range: an index of integers, as a list is."""
    x = torch.arange(12.0).reshape(3, 4).requires_grad_()
    picked = x[range(3), [0, 2, 1]]
    (-picked.mean()).backward()
    y = torch.zeros(3, 4)
    y[range(1, 3)] = 1.0
    return [picked, x.grad, y, x[range(0)].shape, x[[]].shape]


@program
def reductions_and_scans_of_a_permuted_tensor_are_contiguous(torch):
    """torch allocates a reduction's or a scan's output contiguous, whatever the input's layout:
    its stride, whether a reshape of it is a view, and so whether that view requires grad."""
    seen = []
    for shape in ((2, 1, 3), (2, 2, 3)):
        x = torch.zeros(shape, requires_grad=True)
        permuted = x.permute(2, 1, 0)
        for out in (permuted.mean(dim=1), permuted.sum(dim=1), permuted.prod(dim=1), permuted.amax(dim=1),
                    torch.var(permuted, dim=1, unbiased=False), torch.norm(permuted, dim=1),
                    torch.linalg.vector_norm(permuted, 3, dim=1), torch.max(permuted, dim=1).values,
                    torch.cumsum(permuted, dim=1), torch.cumprod(permuted, dim=1),
                    permuted.sum(dim=1, keepdim=True), permuted.mean(dim=0)):
            with torch.no_grad():
                flat = out.reshape(-1)
            seen.append([out.stride(), out.is_contiguous(), flat.requires_grad, flat._base is out])
    return seen
