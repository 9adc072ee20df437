"""``create_graph`` and higher derivatives: which gradients record, and the second derivatives of
the ops."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import torch_program as program


@program
def cube_orders_one_to_three(torch):
    x = torch.tensor(2.0, requires_grad=True)
    y = x ** 3
    g1, = torch.autograd.grad(y, x, create_graph=True)
    g2, = torch.autograd.grad(g1, x, create_graph=True)
    g3, = torch.autograd.grad(g2, x)
    return [g1, g2, g3]


@program
def constant_derivative_does_not_require_grad(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    g, = torch.autograd.grad((x * 2).sum(), x, create_graph=True)
    return [g, attempt(lambda: torch.autograd.grad(g.sum(), x)),
            attempt(lambda: torch.autograd.grad(g.sum(), x, allow_unused=True))]


@program
def backward_create_graph(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x ** 3).sum().backward(create_graph=True)
    first = x.grad
    g2, = torch.autograd.grad(first.sum(), x)
    return [first, g2]


@program
def second_derivatives_of_ops(torch):
    x = torch.tensor([[0.3, 0.7], [1.2, 0.4]], requires_grad=True)
    w = torch.tensor([[1.5, -0.5], [0.25, 2.0]], requires_grad=True)
    y = (torch.tanh(x @ w) * x.sigmoid() + (x * w).exp().log_softmax(1) + x.sqrt() / w).sum()
    gx, gw = torch.autograd.grad(y, [x, w], create_graph=True)
    hx = torch.autograd.grad((gx * gx).sum() + gw.sum(), [x, w])
    return [gx, gw, hx]


@program
def advanced_index_setitem_and_create_graph_grad(torch):
    """Writing through advanced indices is index_put_ (IndexPutBackward0), freed like any node;
    a first .grad accumulated with create_graph is a copy (CopyBackwards), a later one a sum."""
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    y[[0, 2]] = torch.tensor([5.0, 6.0])
    total = (y * y).sum()
    total.backward()
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    (a * a).sum().backward(create_graph=True)
    first = a.grad.grad_fn.name()
    (a * a).sum().backward(create_graph=True)
    b = torch.tensor([1.0, 2.0], requires_grad=True)
    (b * 3).sum().backward(create_graph=True)
    return [y.grad_fn.name(), x.grad, attempt(lambda: total.backward()), first,
            a.grad.grad_fn.name(), a.grad, b.grad.grad_fn is None, b.grad.requires_grad]


@program
def leaky_relu_and_its_double_backward(torch):
    """leaky_relu: the slope side's gradient (0 counts as negative), the gradient's node
    (LeakyReluBackwardBackward0, linked to the input with a zero derivative)."""
    x = torch.tensor([-0.7, 0.0, 1.2], dtype=torch.float64, requires_grad=True)
    y = torch.nn.functional.leaky_relu(x, 0.1)
    g, = torch.autograd.grad(y.sum(), x, create_graph=True)
    return [y, y.grad_fn.name(), g, g.grad_fn.name(), [n.name() for n, _ in g.grad_fn.next_functions if n],
            torch.autograd.grad(g.sum(), x), torch.nn.functional.leaky_relu(x).sum()]


@program
def mixed_second_derivatives_through_activation_backward_nodes(torch):
    """d/dw of the gradient of sum(act(x) * w) with respect to x: the derivative of each
    activation's backward node with respect to the gradient it was handed (act'(x) * v)."""
    nnf = torch.nn.functional
    activations = {"relu": nnf.relu, "leaky_relu": lambda t: nnf.leaky_relu(t, 0.2),
                   "elu": lambda t: nnf.elu(t, 0.7), "gelu": nnf.gelu, "silu": nnf.silu,
                   "softplus": lambda t: nnf.softplus(t, 2.0), "sigmoid": torch.sigmoid,
                   "tanh": torch.tanh, "softmax": lambda t: torch.softmax(t, 1),
                   "log_softmax": lambda t: torch.log_softmax(t, 1)}
    seen = []
    for name, act in activations.items():
        x = torch.tensor([[0.5, -1.5, 2.0], [-0.3, 0.8, -2.2]], requires_grad=True)
        w = torch.tensor([[1.5, -0.5, 2.0], [0.25, 1.0, -1.0]], requires_grad=True)
        v = torch.tensor([[1.0, 2.0, -1.0], [0.5, -0.5, 3.0]])
        gx, = torch.autograd.grad((act(x) * w).sum(), x, create_graph=True)
        gw, = torch.autograd.grad((gx * v).sum(), w)
        seen += [name, gx.detach(), gw]
    return seen


@program
def detach_in_place_refuses_views_and_a_first_create_graph_grad_is_none(torch):
    """Found by the pairs of argument value × state: detach_() refuses any view (of a leaf, of
    a result, a piece of unbind), the refused tensor keeps its history; a first .grad that a
    create_graph pass stores is a copy, never a view of the gradient (so an optimizer's
    zero_grad can detach it in place)."""
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    viewed = (x * 1.0).reshape(3, 2)
    result = [attempt(lambda: viewed.detach_()), viewed.requires_grad, viewed.grad_fn is not None,
              attempt(lambda: torch.ones(3)[0:2].detach_()),
              attempt(lambda: torch.ones(2, 3).unbind(0)[0].detach_())]
    (viewed * 2).sum().backward()
    result.append(x.grad)
    leaf = torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    leaf.sum().backward(create_graph=True)
    result += [leaf.grad._base is None, leaf.grad.requires_grad, attempt(lambda: leaf.grad.detach_())]
    optimizer = torch.optim.SGD([leaf], lr=0.1)
    optimizer.zero_grad(set_to_none=False)
    result.append(leaf.grad)
    return result


@program
def abs_second_derivative_is_a_zero_tensor(torch):
    """abs's derivative is grad * sgn(x), and sgn's derivative is a ZeroTensor: zeros without
    memory that a leaf's .grad takes as it is, that refuse numpy() (but not numpy(force=True)),
    tolist() and in-place writes, so a second accumulation into that .grad fails; a product
    with one is one, a sum, a clone or a copy to a device (how CUDA's gradients are read) is
    not."""
    x = torch.tensor([[0.0, 1.0, -2.0]], requires_grad=True)
    g = torch.autograd.grad(torch.abs(x).sum(), x, create_graph=True)[0]
    torch.autograd.backward(g.sum(), retain_graph=True)
    z = x.grad
    return [g, g.grad_fn.next_functions[1][0].name(), z.clone(), z._is_zerotensor(),
            attempt(lambda: z.numpy()), z.numpy(force=True), attempt(lambda: z.tolist()),
            attempt(lambda: z.detach().numpy()), (z * 2)._is_zerotensor(), z.sum()._is_zerotensor(),
            z.clone()._is_zerotensor(), z.to("cpu", copy=True)._is_zerotensor(),
            z.to(torch.float64)._is_zerotensor(), attempt(lambda: z.add_(1.0)),
            attempt(lambda: torch.autograd.backward(g.sum())), x.grad._is_zerotensor()]


@program
def forward_mode_dual_tensors(torch):
    """torch.autograd.forward_ad on primals that need no gradient: make_dual (the tangent itself
    where its layout fits), unpack_dual, tangents carried through elementwise ops, products,
    reductions, softmax, views, indexing, an in-place write and a module whose weights are
    dual; detach drops the tangent, leaving the level drops them all; the refusals; a custom
    Function's jvp (with save_for_forward) and one without; gradcheck in forward mode."""
    fw = torch.autograd.forward_ad
    torch.manual_seed(0)
    x, t = torch.randn(3, 4), torch.randn(3, 4)
    seen = [attempt(lambda: fw.make_dual(x, t)), fw.unpack_dual(x)]

    class Scale(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a, k):
            ctx.save_for_forward(a)
            ctx.k = k
            return a * k

        @staticmethod
        def jvp(ctx, ta, tk):
            (a,) = ctx.saved_tensors
            return ta * ctx.k + a * 0.0

    class WrongJvp(Scale):
        @staticmethod
        def jvp(ctx, ta, tk):
            return ta * 3.0

    class NoJvp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    with fw.dual_level():
        d = fw.make_dual(x, t)
        transposed = t.T.contiguous().T
        seen += [fw.unpack_dual(d).tangent is t, fw.unpack_dual(fw.make_dual(x, transposed)).tangent is t,
                 repr(d[0])]
        outs = [d * d + d.sin(), (d @ d.T).exp(), d.sum(1), torch.nn.functional.softmax(d, 1),
                d.T.reshape(12)[2:7], d[1:, ::2].tanh(), torch.cat([d, x]).mean(0),
                (d / (d.abs() + 1)).pow(3), Scale.apply(d, 2.0)]
        w = fw.make_dual(torch.ones(3, 4), torch.full((3, 4), 0.5))
        w.mul_(d)
        linear = torch.nn.Linear(4, 2)
        for p in linear.parameters():
            p.requires_grad_(False)
        dual_weight = fw.make_dual(linear.weight, torch.ones(2, 4))
        del linear.weight
        linear.weight = dual_weight
        outs += [w, linear(x), linear(d)]
        seen += [[o, fw.unpack_dual(o).tangent] for o in outs]
        seen += [fw.unpack_dual(d.detach()).tangent, attempt(lambda: fw.make_dual(x, torch.ones(2))),
                 attempt(lambda: fw.enter_dual_level()), attempt(lambda: NoJvp.apply(d))]
        kept = d * 2
    seen += [fw.unpack_dual(kept).tangent, kept]
    a = torch.randn(2, 3, dtype=torch.float64, requires_grad=True)
    forward_only = {"check_forward_ad": True, "check_backward_ad": False, "check_undefined_grad": False}
    return seen + [torch.autograd.gradcheck(lambda v: (v * v).sum(1).exp(), (a,), check_forward_ad=True),
                   torch.autograd.gradcheck(Scale.apply, (a, 2.0), **forward_only),
                   attempt(lambda: torch.autograd.gradcheck(lambda v: WrongJvp.apply(v, 1.0), (a,),
                                                            **forward_only))]


@program
def checkpoints_transforms_over_parameters_and_random_draws_after_checks(torch):
    """torch.utils.checkpoint in its three calls (left out: reentrant, with its warning; the
    function reruns in backward with the forward's random state), checkpoint_sequential;
    torch.func: hessian and jacfwd over a dict of parameters (functional_call),
    stack_module_state feeding vmap (model ensembling); gradgradcheck draws its gradient
    outputs from the default generator; float() of a tensor requiring grad. (torch.func.linearize
    is left out: torch's tracing warns of its own internals.)"""
    checkpoint, checkpoint_sequential = (torch.utils.checkpoint.checkpoint,
                                         torch.utils.checkpoint.checkpoint_sequential)
    runs = []

    def body(a):
        runs.append(torch.rand(1))
        return torch.nn.functional.dropout(a.sin() * 2, 0.5)

    torch.manual_seed(0)
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    seen = []
    for reentrant in (None, True, False):
        y = checkpoint(body, x) if reentrant is None else checkpoint(body, x, use_reentrant=reentrant)
        y.sum().backward()
        seen += [y, y.grad_fn.name(), x.grad.clone(), torch.rand(1)]
        x.grad = None
    net = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2), torch.nn.Tanh(),
                              torch.nn.Linear(2, 1))
    out = checkpoint_sequential(net, 2, x[None], use_reentrant=False)
    out.sum().backward()
    params = {k: v.detach() for k, v in net.named_parameters()}
    inputs = torch.randn(4, 3)

    def loss(p):
        return torch.func.functional_call(net, p, (inputs,)).pow(2).sum()
    hess = torch.func.hessian(loss)(params)
    jac = torch.func.jacfwd(lambda p: torch.func.functional_call(net, p, (inputs,)))(params)
    models = [torch.nn.Linear(3, 2) for _ in range(3)]
    stacked, buffers = torch.func.stack_module_state(models)
    ensemble = torch.vmap(lambda p, b: torch.func.functional_call(models[0], (p, b), (inputs,)))(stacked,
                                                                                                   buffers)
    check = torch.autograd.gradgradcheck(lambda a: (a ** 3).sum(), (torch.randn(3, dtype=torch.float64,
                                                                             requires_grad=True),))
    return seen + [runs, out, net[0].weight.grad, hess["0.weight"]["2.bias"], hess["4.bias"]["4.bias"],
                   jac["0.bias"], sorted(stacked), stacked["weight"].shape,
                   stacked["weight"].requires_grad, buffers, ensemble, check, torch.rand(2), float(x[1] * 2),
                   attempt(lambda: float(x * 2))]


@program
def jacrev_chunks_and_batched_gradients(torch):
    """jacrev with chunk_size (the same Jacobian), jacfwd, hvp, grad with is_grads_batched, and
    materialize_grads for an input the outputs do not reach."""
    x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)

    def g(t):
        return torch.sin(t) * t

    unused = torch.ones(1, requires_grad=True)
    return [torch.func.jacrev(g, chunk_size=1)(x), torch.func.jacrev(g, has_aux=False)(x),
            torch.func.jacfwd(g)(x),
            torch.autograd.functional.hvp(lambda t: (t ** 3).sum(), x, torch.ones(3)),
            torch.autograd.grad(g(x), x, torch.eye(3), is_grads_batched=True),
            torch.autograd.grad((x * 2).sum(), [x, unused], materialize_grads=True)]


@program
def function_transforms_stay_differentiable_in_closed_over_parameters(torch):
    """A PINN's residual from ``vmap(hessian(u))``, ``vmap(grad(u))`` and ``vmap(jacrev(u))``
    over a network the function closes over: the results require grad through the network's
    parameters (not through the transform's own inputs), and a loss built from them trains it.
    Without such parameters the results are plain tensors."""
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(2, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))
    x = torch.randn(5, 2)

    def u(point):
        return net(point.unsqueeze(0)).squeeze()
    func = torch.func
    hessians = func.vmap(func.hessian(u))(x)
    laplacian = torch.diagonal(hessians, dim1=-2, dim2=-1).sum(-1)
    (laplacian ** 2).mean().backward()
    out = [hessians.requires_grad, laplacian, net[0].weight.grad]
    net.zero_grad()
    gradients = func.vmap(func.grad(u))(x)
    (gradients ** 2).sum().backward()
    out += [gradients.requires_grad, net[2].weight.grad]
    net.zero_grad()
    jacobians = func.vmap(func.jacrev(u))(x)
    jacobians.pow(2).sum().backward()
    value, tangent = func.jvp(u, (x[0],), (torch.ones(2),))
    tangent.backward()
    out += [net[0].bias.grad, value.requires_grad, tangent.requires_grad]
    plain = func.vmap(func.grad(lambda p: (p.sin() * p).sum()))(x)
    return out + [plain.requires_grad, plain.grad_fn is None, x.grad]


@program
def cdist_is_differentiable_once(torch):
    """A create_graph pass through cdist records its derivative (CdistBackwardBackward0 in
    torch), and differentiating that is refused: torch has no derivative for _cdist_backward."""
    x = torch.tensor([[0.1, 0.5], [0.7, -0.2], [0.3, 0.3]], requires_grad=True)
    y = torch.tensor([[1.0, 0.0], [0.2, 0.9]], requires_grad=True)
    out = []
    for p in (2.0, 1.0):
        distances = torch.cdist(x, y, p=p)
        (g,) = torch.autograd.grad(distances.sum(), x, create_graph=True)
        out += [distances.grad_fn.name(), g.detach(), g.requires_grad,
                attempt(lambda g=g: torch.autograd.grad(g.sum(), y)),
                attempt(lambda g=g: g.sum().backward())]
    return out


@program
def tangents_depending_on_primals_that_require_grad_are_differentiable(torch):
    """Forward-over-reverse: the tangent of ``sin`` (``cos(p) t``) and of ``exp`` depends on a
    primal that requires grad, so it has a history and ``backward`` through it reaches the
    primal (``-sin(p) t``); a tangent that does not depend on it (of ``d + c``) has none."""
    forward_ad = torch.autograd.forward_ad
    p = torch.tensor([0.3, -1.2, 2.0], requires_grad=True)
    t = torch.tensor([1.0, 0.5, -2.0])
    with forward_ad.dual_level():
        d = forward_ad.make_dual(p, t)
        of_sin = forward_ad.unpack_dual(d.sin()).tangent
        of_exp = forward_ad.unpack_dual(d.exp() * 2).tangent
        of_sum = forward_ad.unpack_dual(d + torch.ones(3)).tangent
    of_sin.sum().backward()
    first = p.grad.clone()
    p.grad = None
    of_exp.sum().backward()
    return [of_sin.detach(), of_sin.requires_grad, first, of_exp.detach(), p.grad, of_sum.requires_grad]


@program
def forward_ad_counts_a_missing_tangent_as_zero(torch):
    """torch evaluates an op's forward formula with zeros for the tangents its inputs lack: the
    tangent of ``x @ dual`` (or ``x * dual``, ``x / dual``, ``dual ** x``…) requires grad when the
    dual's primal does, through the zero term that reads that primal; ``x + dual`` and ``cat``
    read no primal, and a dual of a primal that needs no grad gives a plain tangent."""
    fwAD = torch.autograd.forward_ad

    p = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    t = torch.tensor([[0.5, 0.1], [0.2, 0.3]])
    x = torch.tensor([[1.0, -1.0], [2.0, 0.5]])
    q = torch.tensor([[1.0, 2.0], [3.0, 5.0]])
    r = torch.tensor([[2.0, 1.0], [1.0, 3.0]], requires_grad=True)
    forms = [lambda d: x @ d, lambda d: x @ d.T, lambda d: torch.nn.functional.linear(x, d),
             lambda d: x[0] * d, lambda d: d + 1, lambda d: x + d, lambda d: d.sum(),
             lambda d: x @ fwAD.make_dual(q, t), lambda d: d ** 2, lambda d: x / d, lambda d: d / x,
             lambda d: d ** x, lambda d: r * fwAD.make_dual(q, t), lambda d: torch.cat([x, d]),
             lambda d: torch.where(x > 0, x, d), lambda d: torch.maximum(x, d), lambda d: x - d]
    out = []
    with fwAD.dual_level():
        d = fwAD.make_dual(p, t)
        for form in forms:
            tangent = fwAD.unpack_dual(form(d)).tangent
            out.append([tangent.requires_grad, tangent])
    return out


@program
def per_example_gradients_keep_the_last_ops_node(torch):
    """vmap(grad(loss)) over a batch with weights that require grad (the per-sample-gradients
    tutorial): the result stays differentiable in the weights and shows the node of the op the
    gradient ended with, as torch's batched ops record it; a closure over them likewise."""
    func = torch.func

    def compute_loss(weights, example, target):
        return ((example.dot(weights).relu() - target) ** 2).mean()

    weights = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    examples = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, -2.0]])
    targets = torch.tensor([0.3, -0.2])
    per_example = func.vmap(func.grad(compute_loss), in_dims=(None, 0, 0))(weights, examples, targets)
    scaled = func.vmap(lambda e: e * weights)(examples)
    plain = func.vmap(lambda e: e * 2)(examples)
    per_example.sum().backward()
    return [per_example, per_example.grad_fn.name(), scaled.grad_fn.name(), plain.grad_fn, weights.grad]
