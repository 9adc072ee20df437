"""Custom autograd functions: forward / backward, their context flags, and the gradients they hand
on."""

from __future__ import annotations

from tests.custom_functions import context_flag_functions, custom, tripled_in_place
from tests.observe import attempt
from tests.programs.registry import torch_program as program
from tests.programs.torch.common import two_output_function_and_inputs


def _exp_function(torch):
    class Exp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, i):
            result = i.exp()
            ctx.save_for_backward(result)
            return result

        @staticmethod
        def backward(ctx, grad_output):
            (result,) = ctx.saved_tensors
            return grad_output * result
    return Exp


@program
def custom_function_forward_backward_and_freeing(torch):
    """The docs' Exp: its node, its gradient, double backward through a differentiable
    backward, the freed error on a second backward, and the version check of a saved output."""
    exp = _exp_function(torch)
    x = torch.tensor([0.5, 1.0], requires_grad=True)
    y = exp.apply(x)
    printed = [repr(y), y.grad_fn.name()]
    y.sum().backward()
    first = x.grad.clone()
    second = attempt(lambda: y.sum().backward())
    q = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(exp.apply(q).sum(), q, create_graph=True)
    (gg,) = torch.autograd.grad(g.sum(), q)
    w = torch.ones(2, requires_grad=True) * 1
    z = exp.apply(w)
    total = z.sum()
    with torch.no_grad():
        z.mul_(2)
    return printed + [first, second, g, gg, attempt(lambda: total.backward()),
                      exp.apply(torch.ones(2)).requires_grad]


@program
def custom_function_arguments_and_errors(torch):
    """needs_input_grad, non-tensor arguments, setup_context, and torch's errors for a wrong
    number or shape of returned gradients."""
    seen = []

    class Scale(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a, b, k):
            ctx.k = k
            return a * b * k

        @staticmethod
        def backward(ctx, g):
            seen.append(ctx.needs_input_grad)
            return g * ctx.k, None, None

    class Setup(torch.autograd.Function):
        @staticmethod
        def forward(a, k):
            return a * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            a, k = inputs
            ctx.k = k
            ctx.save_for_backward(a)

        @staticmethod
        def backward(ctx, g):
            (a,) = ctx.saved_tensors
            return g * ctx.k * a, None

    class TooFew(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            return a * b

        @staticmethod
        def backward(ctx, g):
            return g

    wrong_shape = custom(torch.autograd.Function, "WrongShape", lambda ctx, a: a * 2,
                         lambda ctx, g: torch.ones(3))

    a = torch.ones(2, requires_grad=True)
    Scale.apply(a, torch.ones(2), 3.0).sum().backward()
    q = torch.tensor([1.0, 2.0], requires_grad=True)
    Setup.apply(q, 3.0).sum().backward()
    return [seen, a.grad, q.grad,
            attempt(lambda: TooFew.apply(torch.ones(2, requires_grad=True), torch.ones(2))
                    .sum().backward()),
            attempt(lambda: wrong_shape.apply(torch.ones(2, requires_grad=True)).sum().backward())]


@program
def custom_function_context_flags(torch):
    """mark_non_differentiable, set_materialize_grads and once_differentiable (imported the
    way programs import it: torch.autograd.function.once_differentiable)."""
    NonDifferentiable, Unmaterialized = context_flag_functions(torch.autograd.Function)  # noqa: N806

    class Once(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 2

        @staticmethod
        @torch.autograd.function.once_differentiable
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * 2 * x

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = NonDifferentiable.apply(x)
    Unmaterialized.apply(x).sum().backward()
    q = torch.tensor([1.0, 2.0], requires_grad=True)
    (g,) = torch.autograd.grad(Once.apply(q).sum(), q, create_graph=True)
    # handed a gradient that requires grad, once_differentiable returns the output of an Error
    # node: differentiating the first derivative again fails with torch's message
    y2 = Once.apply(q)
    (h,) = torch.autograd.grad((y2 * y2).sum(), q, create_graph=True)
    return [y.requires_grad, y.grad_fn is None, x.grad, g, g.requires_grad,
            attempt(lambda: g.sum().backward()), h, h.requires_grad, h.grad_fn.name(), h.is_leaf,
            attempt(lambda: h.sum().backward()), q.grad]


@program
def a_custom_function_none_is_an_undefined_gradient_below(torch):
    """The nodes below still run: tensor hooks are handed None, a retained gradient stays None,
    saved tensors are freed (a later pass fails), a custom backward gets zeros unless it turned
    materialized gradients off."""
    seen = []
    drop = custom(torch.autograd.Function, "Drop", lambda ctx, a: a * 1.0, lambda ctx, g: None)

    def keep_backward(ctx, g):
        seen.append(["Keep", g])
        return g * 2.0

    keep = custom(torch.autograd.Function, "Keep", lambda ctx, a: a * 2.0, keep_backward)

    def unmaterialized_forward(ctx, a):
        ctx.set_materialize_grads(False)
        return a * 3.0

    def unmaterialized_backward(ctx, g):
        seen.append(["Unmaterialized", g])
        return None if g is None else g * 3.0

    unmaterialized = custom(torch.autograd.Function, "Unmaterialized", unmaterialized_forward,
                            unmaterialized_backward)
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    v = torch.exp(x)
    v.retain_grad()
    v.register_hook(lambda g: seen.append(["hook", g]))
    drop.apply(v).sum().backward()
    again = attempt(lambda: drop.apply(v).sum().backward())
    y = torch.tensor([1.0, 2.0], requires_grad=True)
    drop.apply(keep.apply(y)).sum().backward()
    z = torch.tensor([1.0, 2.0], requires_grad=True)
    drop.apply(unmaterialized.apply(z)).sum().backward()
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    unused = attempt(lambda: torch.autograd.grad(drop.apply(torch.exp(w)).sum(), [w]))
    allowed = torch.autograd.grad(drop.apply(torch.exp(w)).sum(), [w], allow_unused=True)
    mixed_leaf = torch.tensor([3.0, 4.0], requires_grad=True)
    (drop.apply(x * mixed_leaf) + mixed_leaf).sum().backward()
    return [seen, x.grad, v.grad, again, y.grad, z.grad, unused, allowed, mixed_leaf.grad]


@program
def a_custom_function_marks_its_input_dirty(torch):
    """ctx.mark_dirty: the input written in place is returned as the output, with the custom
    node as its history and its version bumped once more; a leaf that requires grad is refused,
    and so is a dirty input that is not returned. A graph that saved the input before fails.
    Marked non-differentiable too, the output is a detached alias and the input keeps its
    history."""
    def saved(ctx, x):
        ctx.save_for_backward(x)
        return x

    def non_differentiable(ctx, x):
        ctx.mark_non_differentiable(x)
        return x

    Triple = tripled_in_place(torch.autograd.Function, "Triple", saved)  # noqa: N806
    NotReturned = tripled_in_place(torch.autograd.Function, "NotReturned",  # noqa: N806
                                   lambda ctx, x: x.clone())
    Frozen = tripled_in_place(torch.autograd.Function, "Frozen", non_differentiable)  # noqa: N806

    def add_into(ctx, x, y):
        x.add_(y)
        ctx.mark_dirty(x)
        return x

    AddInto = custom(torch.autograd.Function, "AddInto", add_into,  # noqa: N806
                     lambda ctx, g: (g, g * 2))

    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a * 2
    before = b._version
    c = Triple.apply(b)
    seen = [c is b, before, b._version, b.grad_fn.name(), b.grad_fn.next_functions[0][0].name(),
            b.requires_grad, b.is_leaf]
    (c * c).sum().backward()
    seen.append(a.grad)
    seen.append(attempt(lambda: Triple.apply(torch.tensor([1.0], requires_grad=True))))
    seen.append(attempt(lambda: NotReturned.apply(a * 1)))
    plain = torch.tensor([1.0, 2.0])
    y = torch.tensor([3.0, 4.0], requires_grad=True)
    z = AddInto.apply(plain, y)
    seen += [z is plain, plain._version, z.requires_grad, z.is_leaf]
    z.sum().backward()
    seen.append(y.grad)
    with torch.no_grad():
        q = a * 1
        r = Triple.apply(q)
    seen += [r is q, r.grad_fn is None, q._version]
    kept = a * 1
    product = kept * kept
    Triple.apply(kept)
    seen.append(attempt(lambda: product.sum().backward()))
    h = a * 2
    frozen = Frozen.apply(h)
    seen += [frozen is h, frozen.requires_grad, h.grad_fn.name(), frozen._version, h._version]
    leaf = torch.tensor([1.0, 2.0], requires_grad=True)
    alias = Frozen.apply(leaf)
    seen += [alias is leaf, alias.requires_grad, leaf._version, leaf]
    return seen


@program
def a_custom_function_with_two_outputs(torch):
    """A forward returning two tensors: both share the function's node (next_functions name
    its outputs 0 and 1), its backward is handed one gradient per output (zeros for an unused
    one, None without materialized gradients), a tensor hook and retain_grad act per output,
    double backward goes through a differentiable backward, a non-differentiable output
    requires no grad, and a second backward finds the graph freed."""
    Two, Split, handed, x, y = two_output_function_and_inputs(torch)  # noqa: N806
    a, b = Two.apply(x, y)
    seen = []
    a.grad_fn.register_prehook(lambda gs: seen.append(list(gs)))
    p = a * b
    links = [(n.name(), i) for n, i in p.grad_fn.next_functions]
    gx, gy = torch.autograd.grad(p.sum(), (x, y), create_graph=True)
    (gx.sum() + gy.sum()).backward()
    result = [a.grad_fn is b.grad_fn, a.grad_fn.name(), links, gx, gy, seen, x.grad, y.grad,
              attempt(lambda: p.sum().backward())]
    s, positive = Split.apply(x)
    s.sum().backward()
    result += [positive.requires_grad, positive.grad_fn is None, handed, x.grad]
    a, b = Two.apply(x, y)
    a.register_hook(lambda g: g * 100)
    b.retain_grad()
    (a.sum() * 2 + b.sum()).backward()
    result += [x.grad, y.grad, b.grad]
    a, b = Two.apply(x, y)
    result.append(torch.autograd.grad(b.sum(), x))
    return result


@program
def an_unused_output_of_a_custom_function_hands_its_hooks_none(torch):
    """A custom function's output no gradient reached: its tensor hooks are handed None as the
    function's node runs, and its retained gradient stays None."""
    Two, _, _, x, y = two_output_function_and_inputs(torch)  # noqa: N806
    a, b = Two.apply(x, y)
    seen = []
    b.register_hook(lambda g: seen.append(g))
    b.retain_grad()
    a.sum().backward()
    return [seen, b.grad, x.grad, y.grad]


@program
def an_undefined_gradient_runs_the_hooks_of_every_node_below(torch):
    """Below a custom backward's None torch still runs each node: its pre and post hooks are
    handed None for the undefined gradient (a node of several outputs: None for that output
    only), a custom function's backward gets zeros and its node hooks show them, and a leaf's
    post-accumulate hooks run with its .grad unchanged, None or not."""
    seen = []
    drop = custom(torch.autograd.Function, "Drop", lambda ctx, a, b: a * 2.0 + b,
                  lambda ctx, g: (None, g))
    triple = custom(torch.autograd.Function, "Triple", lambda ctx, a: a * 3.0,
                    lambda ctx, g: (seen.append(["Triple", g]), g * 3.0)[1])
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = torch.tensor([3.0, 4.0], requires_grad=True)
    b = torch.tensor([1.0, 2.0], requires_grad=True)
    y.register_post_accumulate_grad_hook(lambda p: seen.append(["post y", p.grad]))
    x.register_post_accumulate_grad_hook(lambda p: seen.append(["post x", p.grad]))
    v = x * 3
    v.grad_fn.register_prehook(lambda go: seen.append(["pre Mul", list(go)]))
    v.grad_fn.register_hook(lambda gi, go: seen.append(["post Mul", list(gi), list(go)]))
    drop.apply(v, b).sum().backward()
    e = torch.exp(x) * y
    e.grad_fn.register_hook(lambda gi, go: seen.append(["post Mul2", list(gi), list(go)]))
    t = triple.apply(e)
    t.grad_fn.register_prehook(lambda go: seen.append(["pre Triple", list(go)]))
    t.grad_fn.register_hook(lambda gi, go: seen.append(["post Triple", list(gi), list(go)]))
    drop.apply(t, b).sum().backward()
    u1, u2 = torch.unbind(torch.stack([x, y]) * 1.0)
    u1.grad_fn.register_prehook(lambda go: seen.append(["pre Unbind", list(go)]))
    u1.grad_fn.register_hook(lambda gi, go: seen.append(["post Unbind", list(gi), list(go)]))
    (drop.apply(u1, b).sum() + u2.sum()).backward()
    return [seen, x.grad, y.grad, b.grad]


@program
def an_undefined_gradient_still_reaches_a_leaf_moved_into_the_graph(torch):
    """A custom function's backward returning None sends an undefined gradient on; a node that
    passes it to the accumulation of a leaf written by a recorded op after the graph was built
    (moved into the graph) fails there as a defined one does: after the leaf's hooks, handed
    None, where the write went through a view (x[0] = t) and kept them; a write that gave the
    leaf itself a node (div_) dropped them."""

    class NoGradient(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 1

        @staticmethod
        def backward(ctx, g):
            return None

    seen = []
    for name, make in (("where", lambda x: torch.where(x > 0.0, x, 0.0)), ("exp", torch.exp),
                       ("itself", None)):
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        x.register_hook(lambda g: seen.append(("x hook", g)))
        v = make(x) if make is not None else x
        x.requires_grad_(False)
        x.div_(v if make is not None else torch.tensor([1.0, 1.0], requires_grad=True))
        out = NoGradient.apply(v)
        seen.append((name, attempt(lambda: out.sum().backward())))
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.register_hook(lambda g: seen.append(("x hook after a write through a view", g)))
    v = torch.exp(x)
    x.requires_grad_(False)
    x[0] = torch.tensor(3.0, requires_grad=True)
    out = NoGradient.apply(v)
    seen.append(("setitem", attempt(lambda: out.sum().backward())))
    return seen


@program
def gradcheck_runs_the_functions_as_torch_does(torch):
    """How often gradcheck and gradgradcheck run a custom function's forward and backward (the
    Jacobians twice, the zero-gradient check, then a fresh run with undefined gradients), with
    and without check_undefined_grad; a backward that ignores its gradient fails the
    zero-gradient check."""
    calls = {"forward": 0, "backward": 0}

    class Cube(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            calls["forward"] += 1
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, g):
            calls["backward"] += 1
            x, = ctx.saved_tensors
            return g * 3 * x ** 2

    class Ignoring(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return torch.ones_like(g) * 2

    seen = []
    for n in (1, 3):
        x = torch.linspace(0.5, 1.5, n, dtype=torch.float64).requires_grad_()
        for check in (lambda: torch.autograd.gradcheck(Cube.apply, (x,)),
                      lambda: torch.autograd.gradcheck(Cube.apply, (x,), check_undefined_grad=False),
                      lambda: torch.autograd.gradgradcheck(Cube.apply, (x,))):
            calls.update(forward=0, backward=0)
            seen.append([check(), dict(calls)])
    x = torch.ones(2, dtype=torch.float64, requires_grad=True)
    seen.append(attempt(lambda: torch.autograd.gradcheck(Ignoring.apply, (x,), check_undefined_grad=False)))
    return seen


@program
def node_classes_as_programs_print_them(torch):
    """``print(y.grad_fn)`` and ``type(y.grad_fn)``: torch's own nodes by their class name, a
    custom function's node by its module's path too (its address masked)."""
    import re

    def masked(node):
        return re.sub(r"0x[0-9a-f]+", "0x…", repr(node))
    exp = _exp_function(torch)
    x = torch.tensor([0.5, 1.0], requires_grad=True)
    y, z = exp.apply(x), x * 2
    return [masked(y.grad_fn), masked(z.grad_fn), type(y.grad_fn).__name__,
            type(z.grad_fn).__name__, type(z.grad_fn).__module__, str(type(z.grad_fn)),
            masked((y * z).grad_fn.next_functions), type(y.grad_fn) is type(exp.apply(x).grad_fn),
            [torch.pi, torch.e, torch.inf, repr(torch.nan), torch.newaxis]]
