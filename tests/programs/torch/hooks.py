"""Tensor, node, module and saved-tensor hooks: when each runs, in which order, and what it may
change."""

from __future__ import annotations

from tests.custom_functions import custom, raising
from tests.observe import attempt
from tests.programs.registry import torch_program as program
from tests.programs.torch.common import two_output_function_and_inputs


@program
def hooks(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    seen = []
    handle = x.register_hook(lambda g: g * 10)
    g, = torch.autograd.grad((x * x).sum(), x)
    (x * x).sum().backward()
    handle.remove()
    (x * 1).sum().backward()
    y = x * 2
    y.register_hook(lambda g: seen.append(g.clone()))
    y.retain_grad()
    y.register_hook(lambda g: g * 100)
    y.sum().backward()
    return [g, x.grad, seen, y.grad, attempt(lambda: torch.tensor([1.0]).register_hook(print))]


@program
def removed_hook_no_longer_runs(torch):
    x = torch.tensor([1.0], requires_grad=True)
    handle = x.register_hook(lambda g: g * 0)
    handle.remove()
    (x * 2).sum().backward()
    return [x.grad]


@program
def hooks_on_nodes_and_after_accumulation(torch):
    """grad_fn.register_prehook / register_hook (replacing what flows), a leaf's
    post-accumulate-grad hook, next_functions and node names."""
    seen = []
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    z = y.exp()
    pre = z.grad_fn.register_prehook(lambda g_out: seen.append(("pre", g_out[0].tolist())))
    z.grad_fn.register_hook(lambda g_in, g_out: seen.append(
        ("post", g_in[0].tolist(), g_out[0].tolist())))
    y.grad_fn.register_prehook(lambda g_out: (g_out[0] * 2,))
    y.grad_fn.register_hook(lambda g_in, g_out: (g_in[0] + 1, None))
    x.register_post_accumulate_grad_hook(lambda p: seen.append(("accumulated", p.grad.tolist())))
    z.sum().backward(retain_graph=True)
    pre.remove()
    z.sum().backward()
    leaf_node = y.grad_fn.next_functions[0][0]
    return [seen, x.grad, z.grad_fn.name(), [f.name() for f, _ in z.grad_fn.next_functions],
            leaf_node.name(), leaf_node.variable is x,
            attempt(lambda: y.register_post_accumulate_grad_hook(lambda p: None))]


@program
def saved_tensors_hooks_pack_and_unpack(torch):
    """Each tensor a node saves is packed (not a Python number an op was given); backward
    unpacks what was kept, with no version check."""
    seen = []

    def pack(t):
        seen.append(("pack", tuple(t.shape)))
        return t.clone() * 1

    def unpack(t):
        seen.append(("unpack", tuple(t.shape)))
        return t

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = x.exp()
        z = y * x * 3
    z.sum().backward()
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        b = a * a
    with torch.no_grad():
        a.mul_(2)
    b.sum().backward()
    c = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t.detach() * 0 + 5, lambda t: t):
        d = c * c
    d.sum().backward()
    return [seen, x.grad, a.grad, c.grad]


@program
def the_hooks_of_a_split_run_in_registration_order(torch):
    """The tensor hooks on the pieces of a split (and the outputs of a custom function with two)
    run together as the node runs, in the order they were registered, each handed its piece's
    gradient or None."""
    seen = []
    x = torch.tensor([[1.0, -2.0, 0.5]], requires_grad=True)
    a, b, c = torch.split(x * 1, 1, dim=1)
    c.register_hook(lambda g: seen.append(("c", g)))
    a.register_hook(lambda g: seen.append(("a", g)))
    b.register_hook(lambda g: seen.append(("b", g)))
    (b * 2.0 + c).sum().backward()
    Two, _, _, x, y = two_output_function_and_inputs(torch)  # noqa: N806
    p, q = Two.apply(x, y)
    q.register_hook(lambda g: seen.append(("q", g)))
    p.register_hook(lambda g: seen.append(("p", g)))
    (p * 3.0).sum().backward()
    # one piece an input of backward: its node runs, and the other pieces' hooks see None
    u, v = torch.split(torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True).sqrt(), 2, dim=1)
    v.register_hook(lambda g: seen.append(("v", g)))
    (u * 2.0).sum().backward(inputs=[u])
    return seen + [u.grad, v.grad]


@program
def module_backward_hooks(torch):
    """Full backward hooks and backward pre-hooks on modules: what they are handed (grad_input
    None where an argument needs no gradient), replacing grad_output and grad_input, the order
    they run in, a module none of whose arguments require grad, and removal."""
    nn = torch.nn
    seen = []
    lin = nn.Linear(2, 2)
    with torch.no_grad():
        lin.weight.copy_(torch.tensor([[1.0, -1.0], [0.5, 2.0]]))
        lin.bias.zero_()
    pre = lin.register_full_backward_pre_hook(
        lambda m, go: (seen.append(("pre", go[0])), (go[0] * 2,))[1])
    post = lin.register_full_backward_hook(lambda m, gi, go: seen.append(("post", gi, go)))
    x = torch.tensor([[1.0, 2.0]], requires_grad=True)
    lin(x).sum().backward()
    seen += [x.grad, lin.weight.grad]
    const = torch.tensor([[3.0, -1.0]])
    lin.zero_grad()
    lin(const).sum().backward()
    seen.append(lin.weight.grad)
    pre.remove()
    post.remove()
    replacing = lin.register_full_backward_hook(lambda m, gi, go: (gi[0] * 0 + 1,))
    x2 = torch.tensor([[1.0, 2.0]], requires_grad=True)
    lin(x2).sum().backward()
    seen.append(x2.grad)
    replacing.remove()
    seen.append(attempt(lambda: lin.register_full_backward_hook(lambda m, gi, go: (gi[0], gi[0]))
                        and lin(x2).sum().backward()))
    return seen


@program
def an_error_raised_by_a_programs_backward_code_comes_out_unchanged(torch):
    """What a tensor hook, a custom Function's backward or an unpack hook raises during backward
    comes out of torch's backward as the error raised (paddle wraps it: see its program), and
    recording is on again after; pack hooks run with recording off."""
    Failing = custom(torch.autograd.Function, "Failing", lambda ctx, x: x * 2, raising(KeyError("k")))

    class Bare(torch.nn.Module):
        pass

    x = torch.ones(2, requires_grad=True)
    y = x * 2
    y.register_hook(raising(ValueError("boom")))
    packing = []

    def pack(t):
        packing.append(torch.is_grad_enabled())
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, raising(ValueError("unpack"))):
        squared = x * x
    return [attempt(lambda: y.sum().backward()), attempt(lambda: Failing.apply(x).sum().backward()),
            attempt(lambda: torch.autograd.grad(Failing.apply(x).sum(), x)), packing,
            attempt(lambda: squared.sum().backward()), torch.is_grad_enabled(), attempt(lambda: Bare()(x))]


@program
def a_hook_may_not_change_the_type_or_size_of_the_gradient(torch):
    """torch checks what a tensor hook returns against what it was handed: its type (the dtype,
    and the device, as ``torch.FloatTensor``) and its size, naming the hook."""
    def to_double(g):
        return g.double()

    def run(hook):
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        y.register_hook(hook)
        return attempt(lambda: y.sum().backward())

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.register_hook(lambda g: g[:1])
    return [run(to_double), run(lambda g: g[:1]), run(lambda g: g * 2),
            attempt(lambda: (x * 3).sum().backward())]


@program
def a_root_the_inputs_do_not_need(torch):
    """With ``inputs`` (grad, or backward's inputs=), one root is where the pass starts: its
    hooks and retained gradient run even when the inputs do not need it; several roots hang
    off a start node of torch's own, which hands nothing to a root the inputs do not need."""
    def run(kind, several):
        x1 = torch.tensor([1.0], requires_grad=True)
        x4 = torch.tensor([2.0], requires_grad=True)
        v5 = x4 * 3
        v5.retain_grad()
        seen = []
        v5.register_hook(lambda g: seen.append(g.clone()))
        roots = [v5, x1 * 2] if several else [v5]
        if kind == "grad":
            outcome = attempt(lambda: torch.autograd.grad(roots, [x1], allow_unused=True))
        else:
            outcome = attempt(lambda: torch.autograd.backward(roots, inputs=[x1]))
        return [outcome, v5.grad, seen, x1.grad]
    return [run(kind, several) for kind in ("grad", "backward") for several in (False, True)]


@program
def a_single_root_the_inputs_do_not_need_runs_every_outputs_hooks(torch):
    """One root is where the pass starts and runs even when ``inputs`` do not need it: a piece
    of split as the root runs the hooks of every piece of its node, None for the pieces no
    gradient reached."""
    x2 = torch.tensor(0.0, requires_grad=True)
    x4 = torch.tensor([[1.0], [2.0]], requires_grad=True)
    v11, v12 = torch.split(x4, [1, 1], dim=0)
    seen = []
    v11.register_hook(lambda g: seen.append(("v11", g)))
    v12.register_hook(lambda g: seen.append(("v12", g)))
    torch.autograd.backward([v12], [torch.ones(1, 1)], inputs=[x2])
    return [seen, x4.grad, x2.grad]


@program
def inputs_capture_an_output_of_a_node_of_several(torch):
    """backward(inputs=[v]) with v one output of unbind or split: torch captures it at that node,
    once the gradients of its outputs arrived, running every output's hooks in output order
    (None for an output nothing reached, the captured one's too) though the node's own
    derivative never runs."""
    seen = []
    for cut, reaches_it in ((lambda t: torch.unbind(t, dim=0), False),
                            (lambda t: torch.unbind(t, dim=0), True),
                            (lambda t: torch.split(t, 1), True)):
        x = torch.tensor([[0.5, -1.5, 0.25], [1.5, 1.25, -0.75]], requires_grad=True)
        a, b, c = cut(x[-1] * 1.0)
        a.retain_grad()
        out = c * 2.0 + (b * 3.0 if reaches_it else 0.0)
        for name, piece in (("a", a), ("b", b), ("c", c)):
            piece.register_hook(lambda g, name=name: seen.append((name, g)))
        torch.autograd.backward([out], inputs=[b])
        seen += [x.grad, b.grad, a.grad]
    return seen


@program
def a_leaf_moved_into_the_graph_keeps_its_hooks_nowhere(torch):
    """A leaf's hook lives on the tensor and its accumulation node reads it from there: once a
    recorded write moves the leaf into the graph (after requires_grad_(False)), neither that
    node nor the leaf's new grad_fn runs it."""
    x = torch.tensor([[1.0, 2.0]], requires_grad=True)
    v = x / 2.0
    seen = []
    x.register_hook(lambda g: seen.append(g.clone()))
    x.requires_grad_(False)
    x.add_(v)
    return [x.grad_fn is not None, attempt(lambda: v.sum().backward(retain_graph=True)),
            attempt(lambda: (x * 3).sum().backward()), len(seen)]


@program
def a_leaf_written_through_a_view_keeps_its_hooks_on_its_old_accumulation(torch):
    """A write that gives the leaf itself a node (add_, index_put_ by advanced indices) drops
    the leaf's hooks; a write through a view (x[0] = v, x[:, 0].copy_(v), x.t().add_) gives the
    base CopySlices and keeps them: its old accumulation node runs them before it refuses the
    leaf moved into the graph."""
    out = []
    for name, write in (("add_", lambda x, y, v: x.add_(v)),
                        ("setitem", lambda x, y, v: x.__setitem__(0, v[0])),
                        ("setitem column", lambda x, y, v: x.__setitem__((slice(None), 0), y)),
                        ("index_put", lambda x, y, v: x.__setitem__([0], y)),
                        ("mask", lambda x, y, v: x.__setitem__(torch.tensor([True, False]), y)),
                        ("view add_", lambda x, y, v: x[0].add_(y)),
                        ("transposed add_", lambda x, y, v: x.t().add_(v.t()))):
        x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
        v = x / 2.0
        seen = []
        x.register_hook(lambda g, seen=seen: seen.append(g.clone()))
        x.requires_grad_(False)
        y = torch.tensor(5.0, requires_grad=True)
        write(x, y, v)
        out.append([name, x.grad_fn.name(), attempt(lambda: v.sum().backward(retain_graph=True)),
                    attempt(lambda: (x * 3).sum().backward()), seen])
    return out


@program
def a_captured_nodes_hooks_under_backward_inputs_and_grad(torch):
    """backward(inputs=[v]) of a non-leaf ``v`` runs v's node (needed for the capture): its
    pre hooks, then its post hooks with None for every input nothing else needs (a custom
    function's backward runs, and its post hooks see what it returned). autograd.grad needs
    the node for nothing but the capture: only its tensor hooks run."""
    seen = []

    def hooked(t, name):
        t.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.append((name, "post", grad_inputs)))
        t.grad_fn.register_prehook(lambda grad_outputs: seen.append((name, "pre", grad_outputs)))
        t.register_hook(lambda g: seen.append((name, "tensor", g)))

    class Exp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            out = torch.exp(a)
            ctx.save_for_backward(out)
            return out

        @staticmethod
        def backward(ctx, g):
            seen.append(("custom backward", ctx.needs_input_grad))
            return g * ctx.saved_tensors[0]

    for how in ("backward-root", "backward-inner", "backward-inner-and-leaf", "grad-root",
                "grad-inner", "grad-inner-and-leaf", "custom-backward", "custom-grad"):
        x = torch.tensor([1.0], requires_grad=True)
        v = Exp.apply(x) if how.startswith("custom") else x * 2
        y = v * 3
        hooked(v, "v")
        out = v if how.endswith("root") or how.startswith("custom") else y
        inputs = [v, x] if how.endswith("and-leaf") else [v]
        seen.append(how)
        if how.startswith(("backward", "custom-backward")):
            torch.autograd.backward([out], torch.ones(1), inputs=inputs)
            seen.append((v.grad, x.grad))
        else:
            seen.append(torch.autograd.grad([out], inputs, torch.ones(1)))
    return seen


@program
def leaves_accumulate_in_the_order_torchs_heap_pops_them(torch):
    """Every leaf's accumulation node has the same priority in torch's ready queue (the
    largest sequence number), so the order leaves' hooks run in is what std::priority_queue
    makes of the order they became ready in: a stack of six runs 0, 2, 5, 4, 1, 3. The last
    of two leaves one gradient reaches steals it (a view of the caller's seed), the first
    copies it."""
    leaves = [torch.tensor([float(i)], requires_grad=True) for i in range(6)]
    order = []
    for i, t in enumerate(leaves):
        t.register_hook(lambda g, i=i: order.append(i))
    a, b, c, d, e, f = leaves
    (a + b + c * d + e * f).sum().backward()
    torch.stack(leaves).sum().backward()
    torch.cat([a * b, c, d + e, f]).sum().backward()
    x, y = torch.tensor([1.0, 2.0], requires_grad=True), torch.tensor([1.0, 2.0], requires_grad=True)
    seed = torch.tensor([[1.0, 2.0]])
    (x + y).unsqueeze(0).backward(seed)
    x.grad.add_(10.0)
    first = [seed.tolist(), y.grad.tolist()]
    y.grad.add_(100.0)
    return [order, first, seed.tolist(), seed._version, x.grad.tolist()]


@program
def an_unpacked_parameter_stands_in_for_it_in_the_graph(torch):
    """A saved parameter's unpack hook result (``t * 2``) is a tensor of its values with the
    parameter's own accumulation node: a second derivative through it reaches the parameter
    once, not through the hook's product (as for a plain leaf)."""
    seen = []
    for make in (lambda: torch.nn.Parameter(torch.tensor([[0.0], [1.0]])),
                 lambda: torch.tensor([[0.0], [1.0]], requires_grad=True)):
        x = make()
        with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t * 2.0):
            y = torch.sin(x)
        g, = torch.autograd.grad([y.sum()], [x], create_graph=True)
        seen += [g, torch.autograd.grad([g.sum()], [x])[0]]
    return seen


@program
def matmul_leaves_accumulate_in_the_order_of_torchs_reshapes(torch):
    """torch.matmul is a dot, mv, mm or bmm with reshapes around it: when both operands are
    leaves, the one reaching the kernel without a reshape of its own accumulates first (its
    hook runs first), and an error at the other's accumulation leaves it with a gradient."""
    seen = []
    for a_shape, b_shape in (((3,), (3,)), ((3,), (3, 2)), ((2, 3), (3, 2)), ((2, 3), (2, 3, 2)),
                             ((2, 2, 3), (3,)), ((2, 2, 3), (3, 2)), ((2, 2, 3), (1, 3, 2)),
                             ((1, 2, 3), (2, 3, 2)), ((2, 1, 2, 3), (2, 3, 2))):
        a = torch.ones(a_shape, requires_grad=True)
        b = torch.ones(b_shape, requires_grad=True)
        order = []
        a.register_hook(lambda g: order.append("a"))
        b.register_hook(lambda g: order.append("b"))
        torch.matmul(a, b).sum().backward()
        seen.append(order)
    a = torch.zeros(2, 1, 2, 3, requires_grad=True)
    b = torch.zeros(2, 3, 2, requires_grad=True)
    product = torch.matmul(a, b)
    a.requires_grad_(False)
    a[0] = torch.zeros(1, 2, 3, requires_grad=True)
    seen += [attempt(lambda: product.sum().backward()), b.grad]
    return seen


@program
def a_list_op_s_post_hook_sees_every_entry_s_gradient(torch):
    """cat and stack compute every entry's gradient once one is needed (torch's codegen checks
    the list's range): a node post hook sees them all, a constant's included; what it returns
    for an entry the pass does not need goes nowhere."""
    seen = []
    a, b, c = torch.ones(2, requires_grad=True), torch.ones(2, requires_grad=True), torch.ones(2)
    v = torch.cat([a * 2, b, c])
    v.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.append(grad_inputs))
    seen.append(torch.autograd.grad(v.sum(), [a]))
    w = torch.stack([a, c])
    w.grad_fn.register_hook(lambda grad_inputs, grad_outputs: (grad_inputs[0] * 10, grad_inputs[1] * 100))
    w.sum().backward()
    y = torch.mul(a, c)
    y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.append(grad_inputs))
    y.sum().backward()
    return seen + [a.grad, b.grad]


@program
def graph_utilities_higher_order_code_uses(torch):
    """save_on_cpu (on the CPU the saved tensor is the tensor itself: a later write reaches the
    backward unchecked), disable_saved_tensors_hooks (opening a hook then raises its message),
    increment_version, isinstance of a node against autograd.graph.Node, autograd.inference_mode,
    the deprecated nn.utils.stateless.functional_call, and data_ptr comparisons of views."""
    graph = torch.autograd.graph
    a = torch.ones(2, requires_grad=True)
    b = a * 2
    with graph.save_on_cpu():
        d = b * b
    b.add_(1)
    d.sum().backward()
    seen = [a.grad, isinstance(d.grad_fn, graph.Node), torch.autograd.inference_mode is torch.inference_mode]
    with graph.disable_saved_tensors_hooks("no hooks here"):
        seen.append(attempt(lambda: graph.save_on_cpu().__enter__()))
    t = torch.ones(2)
    graph.increment_version(t)
    graph.increment_version([t, t])
    linear = torch.nn.Linear(2, 1)
    replaced = {"weight": torch.ones(1, 2), "bias": torch.zeros(1)}
    out = torch.nn.utils.stateless.functional_call(linear, replaced, (torch.ones(3, 2),))
    x = torch.ones(4)
    return seen + [t._version, out, x.data_ptr() == x[0:].data_ptr(), x[1:].data_ptr() - x.data_ptr(),
                   x.view(2, 2).data_ptr() == x.data_ptr(), x.clone().data_ptr() == x.data_ptr()]


@program
def forward_hook_options(torch):
    """register_forward_hook / register_forward_pre_hook's options: prepend (first in line),
    with_kwargs (the keyword arguments too; a pre-hook returns both), always_call (also when
    forward raises, with no output), and a pre-hook returning something else refused."""
    linear = torch.nn.Linear(2, 1)
    with torch.no_grad():
        linear.weight.fill_(1.0)
        linear.bias.fill_(0.5)
    calls = []
    linear.register_forward_hook(lambda m, a, o: calls.append("plain") or o * 2)
    linear.register_forward_hook(lambda m, a, k, o: calls.append(("kwargs", sorted(k))) or None,
                                 with_kwargs=True)
    linear.register_forward_hook(lambda m, a, o: calls.append("first") or None, prepend=True)
    linear.register_forward_pre_hook(lambda m, a, k: calls.append("pre") or ((a[0] * 3,), k),
                                     with_kwargs=True)
    out = linear(torch.ones(1, 2))

    class Failing(torch.nn.Module):
        def forward(self, x):
            raise ValueError("no")

    failing, seen = Failing(), []
    failing.register_forward_hook(lambda m, a, o: seen.append(("always", o)), always_call=True)
    failing.register_forward_hook(lambda m, a, o: seen.append("never"))
    refused = torch.nn.Linear(1, 1)
    refused.register_forward_pre_hook(lambda m, a, k: 5, with_kwargs=True)
    return [out, calls, attempt(lambda: failing(torch.ones(1))), seen,
            attempt(lambda: refused(torch.ones(1)))]


@program
def multi_grad_hooks_fire_once_per_pass(torch):
    """register_multi_grad_hook: ``all`` calls back once the pass has computed every gradient
    it will compute among the tensors (None for the rest), ``any`` with the first only; within
    autograd.grad a leaf among them is refused; ``remove()`` takes the hooks off."""
    graph = torch.autograd.graph
    a, b, c = (torch.tensor(v, requires_grad=True) for v in (1.0, 2.0, 3.0))
    seen = []

    def record(grads):
        seen.append([None if g is None else g.tolist() for g in grads])

    handle = graph.register_multi_grad_hook((a, b, c), record)
    (a * b).backward()
    (a * b * c).backward()
    refused = attempt(lambda: torch.autograd.grad(a * b * c, [a]))
    handle.remove()
    (a * b).backward()
    u, v = a * 2, b * 3
    graph.register_multi_grad_hook((u, v), record)
    through_grad = torch.autograd.grad(u * v, [a])
    (u * v).backward(inputs=[b])
    firsts = []
    graph.register_multi_grad_hook((a, b, c), lambda g: firsts.append(g.item()), mode="any")
    (a * 2 + b * 5 + c).backward()
    (b * 7).backward()
    return [seen, refused, through_grad, firsts, a.grad, b.grad,
            attempt(lambda: graph.register_multi_grad_hook((a,), record, mode="some"))]
