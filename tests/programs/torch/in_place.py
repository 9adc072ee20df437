"""In-place writes, versions and views, and which tensors a node saves and checks at backward."""

from __future__ import annotations

import math

from tests.observe import attempt
from tests.programs.registry import torch_program as program


@program
def in_place_errors(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a.exp()
    b.add_(1)
    c = a * 1
    d = c * c
    c.mul_(2)
    const = torch.tensor([[1.0, 2.0]], dtype=torch.float64)
    e = a * const
    const.add_(1)
    return [attempt(lambda: x.add_(1)), attempt(lambda: b.sum().backward()),
            attempt(lambda: d.sum().backward()), attempt(lambda: e.sum().backward())]


@program
def in_place_on_non_leaf(torch):
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = torch.tensor([2.0, 2.0, 2.0], requires_grad=True)
    h = a * 1
    h.mul_(w)
    h.add_(a)
    h.sub_(1)
    h[0] = 5.0
    k = a * 2
    k.zero_()
    m = a * 3
    m.fill_(2.0)
    (h.sum() + (k * a).sum() + m.sum()).backward()
    with torch.no_grad():
        a.add_(1)
    return [h, a.grad, w.grad, a]


@program
def saved_tensor_detached_in_place(torch):
    """A saved input detach_()ed before backward is refused; a saved output (exp's result) and
    a saved leaf are not: torch reads a saved input's node from the tensor, and detach_ cleared
    it."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a = x * 1
    product = a * a  # saves a as an input
    a.detach_()
    refused = attempt(lambda: product.sum().backward())
    x2 = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x2.exp()  # saves its result
    total = (y * 2).sum()
    y.detach_()
    total.backward()
    x3 = torch.tensor([0.5, 1.5], requires_grad=True)
    s = x3.sin()  # saves the leaf x3
    s.detach_()
    x3_grad = attempt(lambda: (x3.sin() * 1).sum().backward())
    return [refused, x.grad, x2.grad, x3_grad, x3.grad]


@program
def node_names_in_version_errors_and_views_of_no_grad_views(torch):
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    with torch.no_grad():
        v = x[0:2]
    w = v[0:1]
    seen = [w.requires_grad, w.grad_fn is None, attempt(lambda: w.mul_(2))]
    a, b, d = x * 1, x * 1, x * 1
    a.fill_(2.0)
    b.zero_()
    d[0] = 5.0
    seen += [t.grad_fn.name() for t in (a, b, d, x ** 2, x ** torch.tensor(2.0), 2.0 ** x)]
    y = x * 1
    z = y ** torch.tensor([2.0, 2.0, 2.0])
    y.mul_(2)
    seen.append(attempt(lambda: z.sum().backward()))
    e = x.expand(2, 3)
    seen.append(attempt(lambda: e.detach().mul_(2)))
    t = torch.tensor([True, False])
    return seen + [attempt(lambda: t - 1.0), attempt(lambda: t - t), attempt(lambda: -t)]


@program
def writes_into_expanded_tensors(torch):
    seen = []
    for write in (lambda t: t.zero_(), lambda t: t.fill_(1.0), lambda t: t.__setitem__(0, 1.0),
                  lambda t: t.add_(1.0), lambda t: t[1].__setitem__(0, 5.0)):
        e = torch.tensor([[1.0], [2.0]]).expand(2, 3)
        seen.append(attempt(lambda: write(e)))
    row = torch.tensor([[1.0, 2.0, 3.0]]).expand(3, 3)[2]
    row[0] = 7.0
    return seen + [row]


@program
def scalar_base_pow_saves_its_exponent_and_zero_base_gradients(torch):
    x = torch.tensor([-1.0, 0.0, 1.0], requires_grad=True)
    torch.pow(0.0, x).sum().backward()
    t = torch.tanh(torch.tensor([[0.5, 1.0]], requires_grad=True))
    y = torch.pow(2.0, t)
    t[0] = 0.7
    return [x.grad, attempt(lambda: y.sum().backward())]


@program
def a_leaf_written_after_the_graph_was_built_refuses_its_gradient(torch):
    x = torch.ones(3, requires_grad=True)
    y = torch.ones(3, requires_grad=True)
    z = (x * 2).sum()
    x.requires_grad_(False)
    x[0] = y[0] * 3
    return [attempt(lambda: z.backward()), x.grad_fn.name(), y.grad]


@program
def writes_into_no_grad_views_by_operand_and_index(torch):
    seen = []
    a = torch.ones(2, requires_grad=True)
    for base_requires_grad in (False, True):
        for other in (a * 1, torch.ones(2), 2.0):
            b = torch.ones(2, 2, requires_grad=base_requires_grad) * 1
            with torch.no_grad():
                v = b[:]
            seen.append(attempt(lambda: v.mul_(other if isinstance(other, float) else other[0])))
    for index in (0, (slice(0, 1),), (0, slice(None)), (slice(None), slice(None, None, 2)),
                  [0], ..., (..., 0), None, (0, [0]), (slice(None), slice(None))):
        b = torch.ones(2, 2, requires_grad=True) * 1
        with torch.no_grad():
            v = b[:]
        seen.append(attempt(lambda: v.__setitem__(index, 3.0)))
    return seen


@program
def matmul_saves_its_operands_as_it_reshaped_them(torch):
    """torch folds, transposes, squeezes or expands matmul's operands and saves the results:
    views (named AsStrided, with the view's shape, once the operand is written) or copies
    (which a later write does not reach). Every pair of ranks 1-4, with size-1 batch dims."""
    matrices = {1: (3,), 2: (2, 3), 3: (2, 2, 3), 4: (2, 2, 2, 3)}
    seen = []
    for rank_a in matrices:
        for rank_b in matrices:
            shape_b = tuple(reversed(matrices[rank_b][-2:])) if rank_b > 1 else (3,)
            shape_b = matrices[rank_b][:-2] + shape_b
            for one_a, one_b in ((False, False), (True, False), (False, True)):
                sa = ((1,) + matrices[rank_a][1:]) if one_a and rank_a >= 3 else matrices[rank_a]
                sb = ((1,) + shape_b[1:]) if one_b and rank_b >= 3 else shape_b
                for written in range(2):
                    a = torch.ones(*sa, requires_grad=True)
                    b = torch.ones(*sb, requires_grad=True)
                    out = torch.matmul(a, b)
                    with torch.no_grad():
                        (a, b)[written].add_(1.0)
                    seen.append([sa, sb, out.grad_fn.name(), attempt(lambda: out.sum().backward())])
    return seen


@program
def saved_tensors_are_checked_in_torchs_order(torch):
    """Both operands views of one written tensor: the version error names the one torch
    unpacks first (its own names for them, alphabetically; for matmul, after its fold)."""
    ranks = {1: (3,), 2: (2, 3), 3: (2, 2, 3), 4: (2, 2, 2, 3)}
    pairs = [(sa, sb[:-2] + sb[:-3:-1] if len(sb) > 1 else sb) for sa in ranks.values()
             for sb in ranks.values()]
    pairs += [((1, 2, 3), (2, 3, 2)), ((2, 2, 3), (1, 3, 2))]
    programs = [("matmul", sa, sb, torch.matmul) for sa, sb in pairs]
    programs += [(name, (2, 3), (1, 3), f) for name, f in (
        ("mul", lambda a, b: a * b), ("div", lambda a, b: a / b), ("maximum", torch.maximum),
        ("pow", torch.pow), ("clamp", lambda a, b: torch.clamp(a, min=b, max=b + 1)))]
    seen = []
    for name, sa, sb, f in programs:
        base = torch.ones(64, requires_grad=True) * 1
        a = base[:math.prod(sa)].view(sa)
        b = base[-math.prod(sb):].view(sb)
        out = f(a, b)
        with torch.no_grad():
            base.add_(1.0)
        seen.append([name, sa, sb, attempt(lambda: out.sum().backward())])
    return seen


@program
def a_no_grad_view_requires_grad_while_its_base_does(torch):
    x = torch.ones(3, requires_grad=True)
    with torch.no_grad():
        v = x[:2]
    seen = [v.requires_grad, attempt(lambda: v.mul_(2.0))]
    x.requires_grad_(False)
    seen += [v.requires_grad, attempt(lambda: v.add_(1.0)), attempt(lambda: v.__setitem__(0, 1.0)),
             v.requires_grad, v.grad_fn, attempt(lambda: v.mul_(torch.ones(2, requires_grad=True)))]
    w = v * torch.ones(2, requires_grad=True)
    return seen + [w.requires_grad, w.grad_fn.name()]


@program
def in_place_operands_that_partly_share_the_written_memory(torch):
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    writes = (lambda: x.div_(x.t()), lambda: x.add_(x), lambda: x.add_(x[0]),
              lambda: x[0].add_(x[1]), lambda: x[:, 0].mul_(x[0]), lambda: x.__setitem__(0, x[1]),
              lambda: x.__setitem__(slice(None), x.t()), lambda: x.__setitem__([0, 1], x[0]),
              lambda: x.__setitem__(0, x[:, 0]))
    seen = [[attempt(write), x.tolist()] for write in writes]
    leaf = torch.ones(2, 2, requires_grad=True)
    return seen + [attempt(lambda: leaf.add_(leaf.t()))]


@program
def saved_inputs_are_checked_before_saved_outputs(torch):
    seen = []
    for f in (torch.pow, lambda a, b: torch.amax(a, dim=0, keepdim=True),
              lambda a, b: torch.pow(2.0, a), lambda a, b: torch.max(a, dim=0)[0]):
        base = torch.ones(8, requires_grad=True) * 1
        a, b = base[:4].view(2, 2), base[4:6].view(1, 2)
        y = f(a, b)
        with torch.no_grad():
            base.add_(1.0)
            y.add_(1.0)
        seen.append(attempt(lambda: y.sum().backward()))
    return seen


@program
def a_saved_no_grad_view_written_later_is_refused_as_a_view(torch):
    seen = []
    for write_base in (False, True):
        x = torch.ones(3, requires_grad=True)
        with torch.no_grad():
            v = x[:2]
        y = (torch.ones(2, requires_grad=True) * v).sum()
        with torch.no_grad():
            (x if write_base else v).mul_(2.0)
        seen.append(attempt(lambda: y.backward()))
    return seen


@program
def setitem_value_with_leading_ones(torch):
    """A value with extra leading size-1 dimensions is written (they are dropped); its gradient
    keeps the value's shape, and the result prints its node by class name."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    v = torch.tensor([3.0], requires_grad=True)
    y = x * 2
    y[0] = v
    printed = repr(y)
    y.sum().backward()
    return [printed, x.grad, v.grad]


@program
def matmul_saves_a_recorded_view_of_a_vector(torch):
    """matmul(vector, matrix) saves vector.unsqueeze(0), recorded while the vector required
    grad: a create_graph gradient computed from it still requires grad after
    requires_grad_(False). A matrix saved as itself does not."""
    v = torch.tensor([1.059, 1.721, 1.745], dtype=torch.float64, requires_grad=True)
    w = torch.tensor([[-1.598, -0.326], [0.463, -1.098], [1.63, -1.172]], dtype=torch.float64,
                     requires_grad=True)
    out = torch.matmul(v, w)
    v.requires_grad_(False)
    (g,) = torch.autograd.grad(out.sum(), [w], create_graph=True)
    g.sum().backward()
    m = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    c = torch.tensor([[1.0], [2.0]], requires_grad=True)
    p = torch.matmul(m, c)
    m.requires_grad_(False)
    (h,) = torch.autograd.grad(p.sum(), [c], create_graph=True)
    return [g.requires_grad, g.grad_fn is not None, v.grad, w.grad, h.requires_grad]


@program
def an_unpacked_saved_tensor_stands_where_the_saved_one_was(torch):
    """What a saved_tensors_hooks unpack returns is put in the saved tensor's place in the graph:
    with create_graph, derivatives through it reach the leaf as the saved tensor did."""
    x = torch.tensor([1.5, 2.0], dtype=torch.float64, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t * -1.0):
        y = torch.log(x)
        z = torch.exp(x * 1.0)
    (first,) = torch.autograd.grad(y.sum(), [x], create_graph=True)
    (second,) = torch.autograd.grad(first.sum(), [x], create_graph=True)
    (through_result,) = torch.autograd.grad(z.sum(), [x], create_graph=True)
    (again,) = torch.autograd.grad(through_result.sum(), [x])
    return [first, second, through_result, again]


@program
def a_write_to_a_selected_element_reaches_its_base(torch):
    """x[i] (and w[i, j]) is a 0-d view: a write to it under no_grad changes the base."""
    x = torch.tensor([0.962, 1.172, -1.58], requires_grad=True)
    v = x[-1]
    with torch.no_grad():
        v.add_(0.927)
    w = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    u = w[1, 0]
    u.mul_(10.0)
    return [x, v, w, u, v._version, x._version]


@program
def a_constant_written_to_an_expanded_tensor_reaches_its_source(torch):
    """zero_, fill_ and item writes on an expanded tensor write its source (through a slice
    too); other in-place ops on it are torch's overlap error."""
    x = torch.tensor([[1.372], [-1.343]], dtype=torch.float64, requires_grad=True)
    v = x.expand(2, 3)
    with torch.no_grad():
        v.zero_()
    y = torch.tensor([[1.0, 2.0, 3.0]])
    w = y[:, 1:].expand(2, 2)
    w.fill_(7.0)
    z = torch.tensor([1.0, 2.0])
    e = z.expand(3, 2)
    seen = [x, x._version, y, w, attempt(lambda: e.mul_(2.0)), z]
    # an item written through an expanded view reaches the source element all its aliases
    # share, and the view shows it at every alias
    for index, value in ((0, 0.375), ((1, 0), 5.0), ((0, slice(None), 1), [7.0, 8.0]),
                         (2, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), ((slice(None), 0), 1.0)):
        a = torch.tensor([[0.9, 1.2, 1.0], [-1.5, 1.2, 1.0]], requires_grad=True)
        view = a.unsqueeze(0).expand(3, 2, 3)
        with torch.no_grad():
            seen.append(attempt(lambda: view.__setitem__(index, torch.tensor(value))))
        seen += [a, view, a._version]
    return seen


@program
def exp_in_place_saves_what_it_wrote(torch):
    """exp_ saves its result, the tensor itself at the version the write gave it: a later
    write to it (another exp_, add_) fails the backward; writes before it do not."""
    seen = []
    for ops in (("exp",), ("exp", "exp"), ("exp", "add"), ("add", "exp")):
        x = torch.tensor([0.5, -1.0], requires_grad=True)
        h = x * 2
        for op in ops:
            h.exp_() if op == "exp" else h.add_(1.5)
        seen += [h._version, attempt(lambda: h.sum().backward()), x.grad]
    return seen


@program
def an_expanded_tensor_shows_later_writes_to_its_source(torch):
    """expand is a view: a write to its source after it was made (under no_grad, or through a
    row of the expanded tensor, whose elements are distinct) shows in it, and a product computed
    from it afterwards uses the new values."""
    x = torch.tensor([[1.5], [-2.0], [0.5]], dtype=torch.float64, requires_grad=True)
    v = x.transpose(0, 1).expand(3, 3)
    with torch.no_grad():
        x.mul_(2.0)
    w = torch.tensor([[0.5, 1.0, -1.0], [2.0, 0.5, 1.0], [1.0, -1.0, 0.25]], dtype=torch.float64,
                     requires_grad=True)
    torch.mm(v, w).sum().backward()
    seen = [v, w.grad, x.grad]
    y = torch.tensor([1.0, 2.0, 3.0])
    e = y.expand(2, 3)
    with torch.no_grad():
        e[1].mul_(3.0)
    return seen + [y, e, attempt(lambda: e[:, 0].mul_(2.0))]


@program
def more_in_place_methods(torch):
    """abs_, neg_, log_, sqrt_, sin_, cos_, tanh_, sigmoid_, relu_, pow_ and masked_fill_: node,
    version and gradient, and whether writing into the result afterwards fails the backward
    (the functions that save their result); clamp_min / clamp_max, view_as, reshape_as,
    maximum / minimum as methods. PowBackward1 saves its result when only the base needs a
    gradient too."""
    seen = []
    for name in ("abs_", "neg_", "log_", "sqrt_", "sin_", "cos_", "tanh_", "sigmoid_", "relu_"):
        x = torch.tensor([0.5, -1.5, 2.0], requires_grad=True)
        y = x.abs() + 0.5
        r = getattr(y, name)()
        seen += [r is y, y.grad_fn.name(), y._version, y.detach()]
        y.sum().backward()
        seen.append(x.grad)
        x2 = torch.tensor([0.5, -1.5, 2.0], requires_grad=True)
        z = getattr(x2.abs() + 0.5, name)()
        w = z * 2
        z.add_(1)
        seen.append(attempt(lambda: (w.sum().backward(), x2.grad)[1]))
    x = torch.tensor([0.5, -1.5, 2.0], requires_grad=True)
    y = x * 1.0
    y.pow_(2)
    seen += [y.grad_fn.name(), y._version]
    y.pow_(torch.tensor(2.0))
    seen.append(y.grad_fn.name())
    y.masked_fill_(x > 0, 0.5)
    seen += [y.grad_fn.name(), y._version, attempt(lambda: y.sum().backward())]
    base = torch.tensor([0.5, 1.5, 2.0], requires_grad=True)
    powered = base.pow(torch.tensor([2.0, 1.0, 3.0]))
    powered.add_(1)
    seen.append(attempt(lambda: powered.sum().backward()))
    for r in (x.clamp_min(0.0), x.clamp_max(1.0), x.view_as(torch.ones(3, 1)),
              x.reshape_as(torch.ones(1, 3)), x.maximum(x * 2), x.minimum(x * 2)):
        seen += [r.grad_fn.name(), r.detach()]
    return seen


@program
def split_pieces_after_their_base_is_written(torch):
    """split / chunk / unbind pieces are views sharing their input's version counter: once the
    input (or a piece) is written in place, even without recording, using a piece or reading
    its grad_fn fails, as torch cannot rebuild the history of one of several views."""
    seen = []
    for make in (lambda t: t.split(2), lambda t: t.chunk(2), lambda t: t.reshape(2, 2).unbind(),
                 lambda t: t.split([1, 3])):
        x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
        y = x * 1.0
        first, second = make(y)
        seen += [first._version, first.grad_fn.name()]
        with torch.no_grad():
            y.add_(1.0)
        seen += [first._version, first.detach(), attempt(lambda: first.grad_fn),
                 attempt(lambda: first * second)]
        with torch.no_grad():
            seen.append(first * second)  # without recording nothing is rebuilt
    x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    first, second = (x * 1.0).split(2)
    with torch.no_grad():
        first.mul_(3.0)
    seen.append(attempt(lambda: (second * 2.0).sum()))
    kept = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    y = kept * 1.0
    first, second = y.split(2)
    product = first * second
    with torch.no_grad():
        y.add_(1.0)
    seen.append(attempt(lambda: product.sum().backward()))
    # where keeps a Python number a double; hooks run with recording as the pass does
    cond = torch.tensor([True, False])
    seen.append(torch.where(cond, 16777217.0, torch.tensor([0.5, 0.25], dtype=torch.float64)))
    modes = []
    z = x * 2
    z.register_hook(lambda g: modes.append(torch.is_grad_enabled()))
    z.sum().backward()
    w = x * 3
    w.register_hook(lambda g: modes.append(torch.is_grad_enabled()))
    torch.autograd.grad(w.sum(), x, create_graph=True)
    # an identity rule (clone) hands on the very gradient it was handed
    handed = []
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a.clone()
    b.register_hook(lambda g: handed.append(g))
    a.register_hook(lambda g: handed.append(g))
    (b * 1.0).sum().backward()
    return seen + [modes, handed[0] is handed[1]]


@program
def versions_a_program_can_read(torch):
    """Found by observing every tensor's version: a new module's parameters and buffers are at
    version 1 (reset_parameters fills them in place; 2 for an Embedding's padded weight), a
    vector @ matrix product at 1 (squeeze_), a reshape that must copy is a new tensor (a clone,
    then UnsafeViewBackward0), inference tensors refuse to say, and mark_dirty counts the
    write before refusing a leaf."""
    result = []
    for module in (torch.nn.Linear(3, 2), torch.nn.LayerNorm(3), torch.nn.BatchNorm1d(3),
                   torch.nn.Embedding(4, 3), torch.nn.Embedding(4, 3, padding_idx=0)):
        result.append([t._version for t in [*module.parameters(), *module.buffers()]])
    v = torch.tensor([1.0, 2.0], requires_grad=True)
    m = torch.tensor([[1.0, 0.5], [2.0, -1.0]])
    result += [torch.matmul(v, m)._version, torch.matmul(m, v)._version,
               torch.matmul(m, m)._version]
    x = torch.tensor([[[1.0, 2.0, 3.0]], [[4.0, 5.0, 6.0]]], requires_grad=True) * 1
    copied, viewed = x.transpose(-1, 0).reshape(6), x.reshape(6)
    with torch.no_grad():
        x.mul_(2)
    result += [copied._version, viewed._version, copied, copied.grad_fn.name(),
               copied.grad_fn.next_functions[0][0].name()]
    with torch.inference_mode():
        made = torch.ones(2)
    result.append(attempt(lambda: made._version))
    leaf = torch.tensor([0.5, -1.5], requires_grad=True)

    class Triple(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            a.mul_(3.0)
            ctx.mark_dirty(a)
            return a

        @staticmethod
        def backward(ctx, g):
            return g * 3

    result += [attempt(lambda: Triple.apply(leaf)), leaf._version]
    return result


@program
def views_made_without_recording_whose_base_changed(torch):
    """A view made under no_grad refuses to show is_leaf or grad_fn once its base was written
    to with recording, as it refuses to be used; one of a tensor that needed no grad then
    requires grad and refuses alike."""
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = x * 2
    with torch.no_grad():
        v = b[:2]
    b.mul_(2)
    y = torch.tensor([1.0, 2.0, 3.0]) * 1
    with torch.no_grad():
        u = y[:2]
    y.mul_(x)
    return [v.requires_grad, attempt(lambda: v.is_leaf), attempt(lambda: v.grad_fn), v._version,
            attempt(lambda: v * 2), u.requires_grad, attempt(lambda: u.is_leaf),
            attempt(lambda: u.grad_fn), attempt(lambda: u * 2)]


@program
def views_of_split_pieces_refuse_use_once_the_base_changed(torch):
    """A view of a piece of split is refused like the piece once the base was written to,
    named by its own node ("Output 0 of Squeeze")."""
    x = torch.tensor([[[0.8, 0.7, 1.2], [0.8, 1.8, 1.2]]], requires_grad=True)
    a, b = (x[0:] * 1).split([1, 2], dim=2)
    view = a.squeeze()
    with torch.no_grad():
        x.mul_(2)
    base = x * 1
    a2, _ = base.split([1, 2], dim=2)
    view2 = a2.squeeze()
    base.mul_(2)
    return [view, attempt(lambda: view2.is_leaf), attempt(lambda: view2 * 2),
            attempt(lambda: view2.grad_fn)]


@program
def an_operand_with_the_same_elements_as_the_written_tensor(torch):
    """torch's overlap check compares the memory and the strides of the written tensor and an
    operand, size-one dimensions' strides included: ``x[..., None]`` and ``x.unsqueeze(2)``
    are the same elements strided alike (allowed), ``y.t()`` and ``y.reshape(1, 3)`` of a
    (3, 1) tensor the same elements strided otherwise (refused)."""
    x = torch.tensor([[2.0]])
    x[..., None].mul_(torch.unsqueeze(x, dim=2))
    z = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    z[:, None].add_(z.unsqueeze(1))
    z[None, None].mul_(z.unsqueeze(0).unsqueeze(0))
    y = torch.zeros(3, 1)
    return [x, z, attempt(lambda: y.t().mul_(y.reshape(1, 3)))]


@program
def backward_to_a_non_leaf_input_past_a_written_tensor_or_a_written_view(torch):
    """``backward(inputs=[t])`` runs t's own node and no further: a vector times a matrix is an
    mm viewed back, so the squeeze that makes t saves nothing and the matrix written since is
    not checked until a pass goes through the mm. A view written without recording gets a new
    node from its base (AsStridedBackward0), outside the graph recorded before: a backward
    over that graph reaches nothing for it; what is computed from the view afterwards reaches
    the base."""
    x9 = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x10 = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    v11 = torch.matmul(x9, x10)
    x10.zero_()
    v15 = v11.mean()
    v15.backward(inputs=[v11], retain_graph=True)
    first = [v11.grad, x9.grad, attempt(lambda: v15.backward(inputs=[x9]))]
    x1 = torch.tensor([[0.5, 1.5]], requires_grad=True)
    v2 = x1.permute(1, 0)
    v5 = torch.log_softmax(v2, dim=0)
    with torch.no_grad():
        v2.mul_(2.0)
    torch.autograd.backward([v5.sum()], inputs=[v2])
    second = [v2.grad, v2.grad_fn.name(), v2.is_leaf, x1.grad]
    (v2 * 3.0).sum().backward()
    y = x1.permute(1, 0)
    w = y.exp()
    with torch.no_grad():
        y.mul_(2.0)
    return [first, second, x1.grad, y.grad_fn.name(), attempt(lambda: w.sum().backward())]


@program
def a_reshape_of_a_softmax_or_cat_of_a_transposed_tensor_is_a_view(torch):
    """softmax, log_softmax, cat and stack write their result row-contiguous whatever the
    layout of their input, so reshaping it makes a view that shares its version counter."""
    x = torch.tensor([[[1.0, 2.0, 3.0]], [[4.0, 5.0, 6.0]]])
    t = x.transpose(2, 0)
    made = [torch.softmax(t, dim=2), torch.log_softmax(t, dim=0), torch.cat([t, t], 1),
            torch.stack([t, t], 1)]
    for m in made:
        m.reshape(-1).mul_(2.0)
    return [[m._version for m in made], made]


@program
def a_view_whose_version_moved_on_through_an_alias_gets_a_new_node(torch):
    """A write without recording through a detached alias moves the view's version on: torch
    makes its node anew (AsStridedBackward0), its retained gradient moving with it; a graph
    recorded before holds the old node, one recorded after the new one."""
    x4 = torch.tensor([1.0], requires_grad=True)
    v10 = torch.unsqueeze(x4, dim=0)
    v11 = v10.expand(3, 3)
    v10.detach().zero_()
    torch.sum(v11).backward(inputs=[v10])
    first = [v10.grad, v10.grad_fn.name(), x4.grad]
    (v10 * 2).sum().backward(inputs=[v10])
    return [first, v10.grad, x4.grad]


@program
def a_write_through_a_view_gives_its_base_a_copy_slices_node(torch):
    """A recorded write through a view: the base's node is CopySlices (over its old node and
    the write's other operands), the view's and every other view's a node read anew from it.
    The base's gradient is the incoming one with the view's part run through the write; the
    view's old history is passed by. A base that needed no grad needs it after a write of a
    value that does."""
    def names(t):
        fn = t.grad_fn
        return None if fn is None else [fn.name(), [None if f[0] is None else f[0].name()
                                                    for f in fn.next_functions]]
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    w = torch.tensor([0.5, -1.5], requires_grad=True)
    base = x * 1.0
    column = base.t()[1]
    row = base[1:]
    row.retain_grad()
    seen = []
    column.register_hook(lambda g: seen.append(g.tolist()))
    column.mul_(w)
    column.sigmoid_()
    first = [names(base), names(column), names(row), seen]
    (base * torch.tensor([[1.0, 10.0, 100.0], [2.0, 20.0, 200.0]])).sum().backward(retain_graph=True)
    first += [x.grad.clone(), w.grad.clone(), row.grad]
    (row * row).sum().backward()
    first += [x.grad, w.grad, row.grad, attempt(lambda: base.sum().backward())]
    quiet = torch.zeros(2, 3)
    part = quiet[:, 1:]
    part.add_(w[:, None] * 2.0)
    second = [quiet.requires_grad, names(quiet), names(part)]
    second.append(torch.autograd.grad(quiet.sum(), [w], create_graph=True))
    part[0, 0] = w[1] * w[1]
    grads = torch.autograd.grad((quiet * quiet).sum(), [w], create_graph=True)
    second += [names(quiet), grads, torch.autograd.grad(grads[0].sum(), [w])]
    return [first, second]


@program
def a_view_of_a_view_made_anew_leads_straight_to_the_base(torch):
    """A view of a view written without recording: torch makes its node anew from the base, one
    AsStridedBackward0 over both views leading straight to the base's node. The view between
    is passed by: its retained gradient stays None and its hooks do not run."""
    x3 = torch.tensor([[[1.0, 2.0, 3.0]], [[4.0, 5.0, 6.0]]], requires_grad=True)
    base = x3 * 1.0
    v4 = torch.squeeze(base, 1)
    v6 = torch.unsqueeze(v4, 2)
    v4.retain_grad()
    seen = []
    v4.register_hook(lambda g: seen.append(g.shape))
    with torch.no_grad():
        v6.mul_(2.0)
    names = [v6.grad_fn.name(), [f[0].name() for f in v6.grad_fn.next_functions]]
    seed = torch.tensor([[[1.0], [2.0], [3.0]], [[4.0], [5.0], [6.0]]])
    grads = torch.autograd.grad([v6 * v6], [x3], [seed], retain_graph=True)
    leaf = x3.transpose(0, 2)[1:]
    with torch.no_grad():
        x3.add_(1.0)
    return [names, grads, v4.grad, seen, attempt(lambda: leaf.sum().backward()), leaf.grad_fn.name()]


@program
def writing_a_number_through_an_index_of_a_no_grad_view_whose_base_moved_on(torch):
    """``v9[0] = n`` with grad mode on, v9 a view made under no_grad whose base was written
    since: making the view ``v9[0]`` is refused first (its base was modified); a write of v9 as
    a whole is refused as a write into a no_grad view."""
    def run(write):
        x5 = torch.tensor([0.5], requires_grad=True)
        with torch.no_grad():
            v8 = torch.unsqueeze(x5, dim=0)
            v9 = v8.expand(2, 3, 1)
            v8.mul_(2.0)
        return attempt(lambda: write(v9))
    return [run(lambda v: v.__setitem__(0, -0.301)), run(lambda v: v.mul_(2.0))]


@program
def a_written_matmul_operand_that_needs_no_grad_is_named_without_a_node(torch):
    """matmul of two batched matrices saves a view of each operand for bmm; the version error
    for a written operand that needs no grad names no node (a view of it has none), for one
    that required grad when saved the view's regenerated node (AsStrided), even if it stopped
    requiring grad since."""
    def run(requires_grad):
        a = torch.tensor([[[1.0, 2.0], [3.0, 4.0]]], dtype=torch.float64, requires_grad=True)
        b = torch.tensor([[[1.0, 0.0], [0.0, 1.0]]], dtype=torch.float64, requires_grad=requires_grad)
        out = torch.matmul(a, b).mean()
        with torch.no_grad():
            b.zero_()
        return attempt(lambda: torch.autograd.grad([out], [a]))
    x8 = torch.tensor([1.0, 2.0], requires_grad=True)
    x9 = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    v11 = torch.matmul(x8, x9).mean()
    x8.requires_grad_(False)  # after the product saved a view of it, with a node
    x8.zero_()
    return [run(False), run(True), attempt(lambda: torch.autograd.backward([v11]))]


@program
def a_written_matmul_operand_that_needed_no_grad_gets_a_node_from_a_recorded_write(torch):
    """matmul of two batched matrices saves a view of each operand for bmm, even of the same
    shape; an operand that needed no grad when saved and was then written by a recorded op
    (taking a node) is named by the view's regenerated node (AsStrided); written by an
    unrecorded one it is named by none. Two matrices save the operand itself: the write's node."""
    def run(shapes, write):
        a = torch.ones(*shapes[0], requires_grad=True)
        b = torch.ones(*shapes[1])
        out = torch.matmul(a, b).sum()
        write(a, b)
        return attempt(lambda: out.backward())

    def recorded(a, b):
        b.sub_(a.sum())

    def unrecorded(a, b):
        b.sub_(1.0)
    batched, plain = ((2, 2, 2), (2, 2, 2)), ((2, 3), (3, 2))
    return [run(batched, recorded), run(batched, unrecorded), run(plain, recorded)]


@program
def a_write_that_broadcasts_the_tensor_larger_is_refused(torch):
    """x.add_(y) where y broadcasts x to a larger shape: the kernel refuses (after autograd's
    own checks: a leaf that requires grad is refused as such first)."""
    seen = []
    for target, other in (((), (2,)), ((1,), (2,)), ((2, 1), (2, 3))):
        for name in ("add_", "mul_", "sub_", "div_"):
            t = torch.zeros(target)
            seen.append(attempt(lambda: getattr(t, name)(torch.ones(other))))
    leaf = torch.zeros(1, requires_grad=True)
    seen.append(attempt(lambda: leaf.add_(torch.ones(2))))
    return seen


@program
def a_view_remade_over_a_base_that_requires_grad_no_more(torch):
    """A view of a leaf that then stopped requiring grad and was written: torch makes the view's
    node anew from the base, which has no node now (AsStridedBackward0 over None): a backward
    through the view reaches nothing, and the leaf's hook does not run."""
    seen = []
    result = []
    for write in (False, True):
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        view = x.reshape(1, 3)
        x.register_hook(lambda g: seen.append(g.tolist()))
        x.requires_grad_(False)
        if write:
            x.add_(x)
        fn = view.grad_fn
        result.append([fn.name(), [None if f[0] is None else f[0].name() for f in fn.next_functions]])
        torch.autograd.backward([view], [torch.ones(1, 3)])
        result.append(x.grad)
    return [result, seen]


@program
def a_written_operand_view_made_without_recording_is_refused_before_the_kernel(torch):
    """x.sub_(v) where v is a view of x made under no_grad and written since: autograd reads
    v's node before the kernel runs, so the no_grad view's error comes before the kernel's
    overlap check. max and min over a reduced dimension of size one still divide by the
    count of entries equal to the extremum: none after a write the hooks let through (NaN)."""
    x = torch.tensor([[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]], requires_grad=True)
    top = torch.max(x, -1, keepdim=True).values
    with torch.no_grad():
        view = torch.transpose(top, dim0=-3, dim1=1)
        view.mul_(2.0)
    refused = attempt(lambda: top.sub_(view))
    grads = []
    for op in (torch.amin, torch.amax):
        for shape in ((1, 1, 3), (1, 2, 3)):
            with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
                leaf = torch.zeros(shape, requires_grad=True)
                extreme = op(leaf, dim=-2, keepdim=False)
            extreme.exp_()
            extreme.sum().backward()
            grads.append(leaf.grad)
    return [refused, grads]


@program
def a_saved_operand_that_requires_grad_since_is_named_as_made_anew(torch):
    """matmul saves its 3-D operands as views; one that was a constant when saved, requires
    grad since and is written under no_grad is reported as ``AsStrided`` (torch makes the view
    anew), while a written constant that never required grad is named by its own node."""
    seen = []
    for requires_grad_since in (False, True):
        a = torch.ones(2, 2, 2, requires_grad=True)
        b = torch.ones(2, 2, 2)
        out = torch.matmul(a, b)
        if requires_grad_since:
            b.requires_grad_(True)
        with torch.no_grad():
            b.div_(2.0)
        seen.append(attempt(lambda: out.mean().backward()))
    return seen


@program
def the_overlap_check_compares_the_strides_of_dimensions_of_size_one(torch):
    """torch refuses an in-place write whose operand is the same memory in another order; two
    views of the same elements whose strides differ only in a dimension of size 1 count as
    such. So the strides torch gives those dimensions show: unsqueeze's new dimension (the
    next one's size times its stride), a view's (computeStride), an elementwise result's
    (TensorIterator: contiguous when every operand has the result's shape and is contiguous,
    else the operands' order of dimensions, a Python number being an operand of its own), a
    tensor made like another (its strides, where it is dense)."""
    column = torch.zeros(3, 1).t()
    middle = torch.zeros(2, 1, 3).transpose(0, 1)
    strides = [
        column.stride(), torch.where(column < 0.0, column, 0.0).stride(),
        column.reshape(1, 3).stride(), column.view(1, 1, 3).stride(), column.view(3).stride(),
        column.unsqueeze(0).stride(), column.unsqueeze(1).stride(), column.unsqueeze(2).stride(),
        column[..., None].stride(), column[:, None].stride(), torch.zeros(1, 3).t().view(1, 3, 1).stride(),
        middle.view(1, 2, 3).stride(), (column + 2.0).stride(), (column * column).stride(),
        torch.exp(column).stride(), (column < 0).stride(), column.clone().stride(),
        torch.zeros_like(column).stride(), torch.full_like(middle, 2.0).stride(),
        (column + torch.zeros(3)).stride(), column.to(torch.float64).stride(),
        (middle + 1.0).stride(), (middle * middle).stride(), middle.clone().stride(),
        (middle + torch.zeros(3)).stride(), torch.relu(middle).stride(),
        (2.0 ** torch.zeros(2, 3).t()).stride(), (2.0 - torch.zeros(2, 3).t()).stride()]
    x = torch.tensor([[0.0], [0.0]])
    v = torch.permute(x, dims=(1, 0))
    same = v[..., None]
    refused = []
    for write in (lambda: same.mul_(torch.unsqueeze(v, dim=2)),
                  lambda: v.reshape(1, 2).sub_(v), lambda: v.view(1, 2).add_(v.view(1, 2)),
                  lambda: (lambda w: w.reshape(1, 3).sub_(w))(torch.where(column < 0.0, column, 0.0)),
                  lambda: (lambda w: w.reshape(1, 3).sub_(w))(column * column)):
        refused.append(attempt(write))
    return [strides, refused]


@program
def a_regenerated_view_node_hands_on_a_gradient_of_its_own(torch):
    """A view's node (ViewBackward0) hands the seed on, so the leaf's first .grad shares the
    seed's memory and a later accumulation writes into the seed; after a write without
    recording the view's node is AsStridedBackward0, which copies the gradient into a buffer
    of its own (at version 1), so the seed stays as it was."""
    seen = []
    for written in (False, True):
        x = torch.zeros(2, 3, requires_grad=True)
        view = x.reshape(6) if not written else x[0]
        if written:
            with torch.no_grad():
                x[1, 0] = 1.0
        seed = torch.zeros(view.shape)
        torch.autograd.backward([view], [seed])
        first = x.grad._version
        torch.autograd.backward([x.sum()])
        seen += [view.grad_fn.name(), seed, seed._version, first, x.grad._version, x.grad]
    return seen


@program
def functional_activations_in_place(torch):
    """relu_, leaky_relu_, elu_, hardtanh_ (and hardtanh / relu6 / hardswish / threshold with
    inplace=True), threshold_ (ThresholdBackward1): the tensor itself returned, written, with
    torch's node, first and second derivatives."""
    F = torch.nn.functional
    seen = []
    for write in (F.relu_, lambda t: F.leaky_relu_(t, 0.2), lambda t: F.elu_(t, 0.5),
                  lambda t: F.hardtanh_(t, -0.5, 0.5), lambda t: F.hardtanh(t, inplace=True),
                  lambda t: F.relu6(t, inplace=True), lambda t: F.threshold_(t, 0.1, -2.0),
                  lambda t: F.threshold(t, 0.1, -2.0, inplace=True), lambda t: F.hardswish(t, inplace=True),
                  lambda t: F.silu(t, inplace=True)):
        x = torch.tensor([-1.5, -0.25, 0.0, 0.3, 2.0, 7.0], requires_grad=True)
        t = x * 1
        y = write(t)
        g, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
        seen += [y is t, y.grad_fn.name(), y, g, torch.autograd.grad(g.sum(), x, allow_unused=True)]
    return seen


@program
def index_writes_in_place(torch):
    """scatter_ (a tensor source or a number), scatter_add_ and index_add_ (with alpha) written
    into a non-leaf: the tensor itself returned, its version grown, the index op's node, and the
    gradients of the input and the source; a leaf that requires grad refused."""
    src = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    seen = []
    for write in (lambda t: t.scatter_(1, torch.tensor([[0, 2], [1, 0]]), src[:, :2]),
                  lambda t: t.scatter_(0, torch.tensor([[1, 0, 1]]), 9.0),
                  lambda t: t.scatter_add_(1, torch.tensor([[0, 0], [2, 2]]), src[:, :2]),
                  lambda t: t.index_add_(0, torch.tensor([1, 1]), src),
                  lambda t: t.index_add_(1, torch.tensor([2, 0, 2]), src, alpha=0.5)):
        x = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]], requires_grad=True)
        t = x * 1
        before = t._version
        y = write(t)
        seen += [y is t, t._version - before, y.grad_fn.name(), y,
                 torch.autograd.grad((y * y).sum(), [x, src], allow_unused=True)]
    leaf = torch.tensor([1.0, 2.0], requires_grad=True)
    zeros = torch.zeros(3)
    zeros.scatter_(0, torch.tensor([2]), torch.tensor([5.0]))
    return seen + [attempt(lambda: leaf.index_add_(0, torch.tensor([0]), torch.ones(1))), zeros]


@program
def a_parameter_written_with_plain_tensors_is_checked_as_any_tensor(torch):
    """A Parameter that requires no grad written in place with a plain tensor: the partial
    overlap with its own transpose and a broadcast to a larger shape are refused as for any
    tensor (fuzz seed 72723460248141)."""
    weight = torch.nn.Parameter(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), requires_grad=False)
    small = torch.nn.Parameter(torch.zeros(3), requires_grad=False)
    return [attempt(lambda: weight.div_(torch.transpose(weight, 1, 0))), weight._version, weight,
            attempt(lambda: small.add_(torch.ones(2, 3))), small._version]


@program
def fill_diagonal_writes_through_a_strided_view(torch):
    """Tensor.fill_diagonal_: the main diagonal written in place through a strided view
    (CopySlices over the tensor's node, the diagonal's gradient 0), ``wrap`` repeating it down a
    tall matrix, the refusals of a vector and of unequal dimensions; a one-element integer
    tensor is a list index and a slice bound, a float one is refused."""
    x = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5], [0.1, 0.2, 0.3]], requires_grad=True)
    s = x * 2
    same = s.fill_diagonal_(float("-inf")) is s
    s.exp().sum().backward()
    filled = [torch.zeros(5, 3).fill_diagonal_(4.0, wrap=True),
              torch.zeros(7, 2).fill_diagonal_(4.0, wrap=True), torch.zeros(3, 5).fill_diagonal_(4.0),
              torch.zeros(2, 2, 2).fill_diagonal_(1.0)]
    items = [0, 1, 2, 3, 4]
    return [same, s.grad_fn.name(), s.grad_fn.next_functions[0][0].name(), x.grad, filled,
            attempt(lambda: torch.zeros(2, 3, 4).fill_diagonal_(1.0)),
            attempt(lambda: torch.zeros(3).fill_diagonal_(1.0)),
            items[torch.tensor(3)], items[1:torch.tensor(3)], attempt(lambda: items[torch.tensor(1.0)]),
            attempt(lambda: items[torch.tensor([1, 0])])]


@program
def more_elementwise_functions_written_in_place(torch):
    """The in-place forms of the trigonometric, hyperbolic, error and log functions and of the
    aliases (arccos_, absolute_, negative_, multiply_, divide_, subtract_, true_divide_,
    arctan2_): the tensor itself returned, its version grown, the function's node, gradients
    through the written values and the other operand."""
    seen = []
    for name in ("acos", "asin", "atan", "arccos", "arcsin", "arctan", "cosh", "sinh", "tan", "erfc",
                 "erfinv", "log10", "log2", "rad2deg", "absolute", "negative"):
        x = torch.tensor([0.3, -0.4, 0.8], requires_grad=True)
        y = x * 1
        version = y._version
        out = getattr(y, name + "_")()
        grad = torch.autograd.grad((out * torch.tensor([1.0, 2.0, 3.0])).sum(), x)[0]
        seen += [name, out is y, y._version - version, out.grad_fn.name(), out, grad]
    for name in ("multiply", "divide", "subtract", "true_divide", "arctan2"):
        x = torch.tensor([0.3, -0.4, 0.8], requires_grad=True)
        w = torch.tensor([1.5, 2.0, -0.5], requires_grad=True)
        out = getattr(x * 1, name + "_")(w)
        seen += [name, out.grad_fn.name(), out, torch.autograd.grad(out.sum(), [x, w])]
    return seen + [attempt(lambda: torch.tensor([1.0], requires_grad=True).acos_())]


@program
def operand_views_made_without_recording_follow_their_base(torch):
    """Views made without recording (one of another) of a leaf that stops requiring grad since
    follow it: neither requires grad, so writing one with the other is allowed; while the
    leaf requires grad the same write is refused."""
    seen = []
    for stop in (True, False):
        x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
        with torch.set_grad_enabled(False):
            inner = torch.unsqueeze(x, dim=1)
            outer = torch.squeeze(inner, dim=0)
        if stop:
            x.requires_grad_(False)
        seen += [inner.requires_grad, outer.requires_grad, attempt(lambda: outer.add_(inner)), x]
    return seen


@program
def shape_methods_in_place(torch):
    """unsqueeze_, squeeze_, t_, transpose_, swapdims_ and swapaxes_: the same tensor takes the
    view's shape and strides, its version grows, its node is the in-place form's (a saved copy
    is then refused); its retained gradient and hooks stay with its old node."""
    x = torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    forms = [lambda v: v.unsqueeze_(0), lambda v: v.squeeze_(), lambda v: v.squeeze_(0),
             lambda v: v.squeeze_((0,)), lambda v: v.t_(), lambda v: v.transpose_(0, 1),
             lambda v: v.swapdims_(0, 1), lambda v: v.swapaxes_(0, 1)]
    made = []
    for form in forms:
        v = x * 1
        r = form(v)
        made.append([r is v, r.grad_fn.name(), r.grad_fn.next_functions[0][0].name(), list(r.shape),
                     r._version, r.stride()])
    plain = torch.tensor([[1.0, 2.0]])
    plain.t_()
    y = x * 1
    z = y * y
    y.unsqueeze_(0)
    refused = attempt(lambda: z.sum().backward())
    w = x * 2
    w.retain_grad()
    seen = []
    w.register_hook(lambda g: seen.append(list(g.shape)))
    w.unsqueeze_(0)
    (w * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    with torch.no_grad():
        q = x * 1
        q.unsqueeze_(0)
    return [made, plain, plain.stride(), plain._version, refused, list(w.grad.shape), seen, x.grad,
            q.grad_fn, attempt(lambda: x.unsqueeze_(0)), attempt(lambda: torch.zeros(2, 2, 2).t_()),
            attempt(lambda: torch.zeros(2, 2).transpose_(0, 3))]


@program
def a_write_through_data_keeps_the_version(torch):
    """``x.data`` has a version counter of its own: a write through it leaves ``x``'s version, so
    the backward that saved ``x`` reads the new values, where a write through ``detach()`` (which
    shares the counter) is refused; ``x.data = y`` keeps ``x``'s version too."""
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * x
    data = x.data
    data.add_(1.0)
    versions = [x._version, data._version, x.data._version]
    y.sum().backward()
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    z = (w ** 2).sum()
    w.detach().mul_(2)
    refused = attempt(lambda: z.backward())
    v = torch.tensor([1.0, 2.0], requires_grad=True)
    e = v.exp()
    v.data = torch.tensor([5.0, 6.0])
    e.sum().backward()
    return [versions, x.grad, x, w._version, refused, v._version, v.grad, v]
