"""The functional APIs: jacobians, hessians, vector products, batched gradients and gradcheck."""

from __future__ import annotations

from tests.custom_functions import custom
from tests.observe import attempt
from tests.programs.registry import torch_program as program


@program
def functional_jacobians_hessians_and_products(torch):
    from importlib import import_module

    functional = import_module(torch.__name__ + ".autograd.functional")

    def f(x):
        return x ** 2 * 3

    def pair(a, b):
        return (a * b, a + b)

    def cubic(x):
        return (x ** 3).sum()

    x = torch.tensor([1.0, 2.0])
    m = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    v = torch.tensor([1.0, -1.0])
    return [functional.jacobian(f, x), functional.jacobian(pair, (x, v)),
            functional.jacobian(lambda a: torch.ones(2), x), functional.jacobian(f, x).requires_grad,
            functional.jacobian(f, x, create_graph=True).requires_grad,
            functional.jacobian(lambda a: a.sum(1), m).shape, functional.hessian(cubic, x),
            functional.hessian(lambda a, b: (a * b).sum(), (x, v)), functional.vjp(f, x, v),
            functional.jvp(f, x, v), functional.hvp(cubic, x, v), functional.vhp(cubic, x, v)]


@program
def functional_apis_in_strict_mode(torch):
    """strict: an output computed without the inputs is an error in every functional API;
    jacobian also refuses an output independent of one of the inputs. torch.autograd exposes
    functional as an attribute."""
    functional = torch.autograd.functional
    x = torch.tensor([0.5, -0.25], dtype=torch.float64)
    w = torch.tensor([1.0, 2.0], dtype=torch.float64)
    return [attempt(lambda: functional.jacobian(lambda a: w * 2.0, x, strict=True)),
            attempt(lambda: functional.jacobian(lambda a, b: a * 3.0, (x, w), strict=True)),
            attempt(lambda: functional.vjp(lambda a: w * 2.0, x, w, strict=True)),
            attempt(lambda: functional.hessian(lambda a: (w * 2.0).sum(), x, strict=True)),
            attempt(lambda: functional.jacobian(lambda a: a * 0.0 + w, x, strict=True)),
            attempt(lambda: functional.jacobian(lambda a: w * 2.0, x))]


@program
def gradcheck_and_gradgradcheck(torch):
    """gradcheck / gradgradcheck: True for correct derivatives (ops, a custom function), the
    Jacobian mismatch error with both Jacobians (or False without raising) for a wrong backward,
    the float32 warning, and the error when no input requires grad; inputs keep their version."""
    x = torch.tensor([0.3, 0.6], dtype=torch.float64, requires_grad=True)
    y = torch.tensor([1.5, -0.5], dtype=torch.float64, requires_grad=True)
    m = torch.tensor([[0.3, 0.6, 0.1], [1.2, -0.4, 0.8]], dtype=torch.float64, requires_grad=True)
    n = (m * 2).detach().requires_grad_()
    def saving(ctx, a, result):
        ctx.save_for_backward(a)
        return result
    # a wrong backward (half the derivative of a * a) and a right one (of exp)
    square = custom(torch.autograd.Function, "HalfSquare", lambda ctx, a: saving(ctx, a, a * a),
                    lambda ctx, g: g * ctx.saved_tensors[0])
    exp = custom(torch.autograd.Function, "Exp", lambda ctx, a: saving(ctx, a, a.exp()),
                 lambda ctx, g: g * ctx.saved_tensors[0].exp())
    check, twice = torch.autograd.gradcheck, torch.autograd.gradgradcheck
    return [check(lambda a, b: (a * b).sin(), (x, y)), twice(lambda a, b: (a * b).sin(), (x, y)),
            check(lambda a, b: torch.matmul(a, b.t()).exp().sum(1), (m, n)),
            attempt(lambda: check(lambda a, b: torch.matmul(a, b.t()).exp().sum(1), (m, m * 2))),
            twice(lambda a: (a * a).prod(1), (m,)), check(exp.apply, (x,)), twice(exp.apply, (x,)),
            attempt(lambda: check(square.apply, (x,))), check(square.apply, (x,), raise_exception=False),
            attempt(lambda: check(lambda t: t * 2, torch.tensor([0.3, 0.6], requires_grad=True))),
            attempt(lambda: check(lambda t: t * 2, (torch.ones(2, dtype=torch.float64),))),
            check(lambda t: (t * 2, t.detach()), x), x._version]


@program
def jvp_with_create_graph(torch):
    """jvp with create_graph: the product J·v keeps its graph (MulBackward0; a scalar
    output's is SumBackward0, torch's sum_to of a 0-d gradient), so it differentiates again;
    at inputs that require no grad it needs none."""
    seen = []
    for fn in (lambda t: (t * t).sin(), lambda t: t.exp().sum(), lambda t: t * 3.0,
               lambda t: (t.sin(), t * t)):
        x = torch.tensor([0.5, 1.5], dtype=torch.float64, requires_grad=True)
        v = torch.tensor([1.0, -1.0], dtype=torch.float64)
        _, jv = torch.autograd.functional.jvp(fn, x, v, create_graph=True)
        products = jv if isinstance(jv, tuple) else (jv,)
        seen += [[(p, p.grad_fn.name() if p.grad_fn else None) for p in products],
                 attempt(lambda: torch.autograd.grad(sum(p.sum() for p in products), x))]
        _, jv = torch.autograd.functional.jvp(fn, torch.tensor([0.5, 1.5], dtype=torch.float64), v,
                                              create_graph=True)
        products = jv if isinstance(jv, tuple) else (jv,)
        seen.append([p.grad_fn.name() if p.grad_fn else None for p in products])
    return seen


@program
def grads_batched(torch):
    """``autograd.grad(..., is_grads_batched=True)``: a batch of seeds gives a batch of
    gradients (a Jacobian from the identity's rows), with create_graph and retain_graph."""
    x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    y = x.sin() * x
    (jac,) = torch.autograd.grad(y, x, torch.eye(3), retain_graph=True, is_grads_batched=True)
    (twice,) = torch.autograd.grad(y, x, torch.eye(3) * 2, create_graph=True, is_grads_batched=True)
    (second,) = torch.autograd.grad(twice.sum(), x)
    return [jac, twice, second,
            attempt(lambda: torch.autograd.grad(y, x, torch.eye(3), is_grads_batched=True))]


@program
def strict_mode_refuses_what_does_not_depend_on_the_inputs(torch):
    """strict=True: every output must require grad, every gradient must exist, and with
    create_graph=True every product must itself depend on the inputs: a linear function's
    Hessian products, a quadratic's with create_graph, a constant output each fail, with a
    message naming the stage (vjp, jvp's double backward trick, vhp, hvp, jacobian, hessian).
    v may be None only against a single-element tensor; vhp, hvp and hessian take a function of
    one single-element tensor."""
    from importlib import import_module
    functional = import_module(torch.__name__ + ".autograd.functional")
    x = torch.tensor([[1.0], [2.0]])
    v = torch.tensor([[0.5], [-1.0]])
    one = torch.tensor([3.0])
    functions = {"linear": lambda a: (a * 2.0).sum(), "quadratic": lambda a: (a * a).sum(),
                 "cubic": lambda a: (a * a * a).sum(), "constant": lambda a: torch.ones(()),
                 "unused": lambda a: (a * 0.0).sum() + torch.ones(()).requires_grad_()}
    seen = []
    for name, f in functions.items():
        for create_graph in (False, True):
            for api in ("vjp", "jvp", "vhp", "hvp"):
                vector = torch.ones(()) if api == "vjp" else v
                seen.append([name, create_graph, api, attempt(lambda: getattr(functional, api)(
                    f, x, vector, create_graph=create_graph, strict=True))])
            seen.append([name, create_graph, "jacobian", attempt(lambda: functional.jacobian(
                lambda a: f(a).reshape(1), x, create_graph=create_graph, strict=True))])
            seen.append([name, create_graph, "hessian", attempt(lambda: functional.hessian(
                f, x, create_graph=create_graph, strict=True))])
    seen += [attempt(lambda: functional.vhp(lambda a: a * a, x, v)),
             attempt(lambda: functional.hvp(lambda a: (a * a, a), x, v)),
             attempt(lambda: functional.hessian(lambda a: a * a, x)),
             attempt(lambda: functional.vhp(functions["cubic"], x)),
             attempt(lambda: functional.vjp(lambda a: a * a, x)),
             attempt(lambda: functional.jvp(lambda a: a * a, x)),
             functional.vhp(functions["cubic"], one), functional.jvp(lambda a: a * a, one),
             functional.vjp(functions["cubic"], one)]
    return seen


@program
def softmax_without_a_dim_chooses_one_and_warns(torch):
    """F.softmax / log_softmax / softmin and nn.Softmax without dim: torch's deprecated implicit
    choice (the first dimension of a 0-, 1- or 3-d input, else the second) and its warning;
    dtype casts first (softmin: after the negation)."""
    import warnings

    torch.manual_seed(0)
    seen = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for shape in [(), (3,), (2, 3), (2, 3, 2), (2, 3, 2, 2)]:
            x = torch.randn(shape)
            seen.append([torch.nn.functional.softmax(x), torch.nn.functional.log_softmax(x),
                         torch.nn.functional.softmin(x), torch.nn.Softmax()(x)])
    x = torch.tensor([[1.0, 2.0]], requires_grad=True)
    cast = torch.nn.functional.softmin(x, 1, dtype=torch.float64)
    return [seen, [str(w.message) for w in caught], cast, cast.grad_fn.name(),
            cast.grad_fn.next_functions[0][0].name(),
            str(torch.nn.functional.log_softmax(x, 1, dtype=torch.float64).dtype)]


@program
def spatial_transformer_grid_and_sampling(torch):
    """affine_grid (a node that saves nothing: a second backward through it runs) and
    grid_sample, bilinear and nearest, zero and border padding, corners aligned or not; the
    gradient reaches theta through the grid and the image (nearest: the grid's is zero)."""
    F = torch.nn.functional
    seen = []
    for aligned in (False, True):
        theta = torch.tensor([[[1.0, 0.1, 0.0], [0.0, 0.9, 0.1]], [[0.8, -0.2, 0.3], [0.1, 1.1, -0.2]]],
                             dtype=torch.float64, requires_grad=True)
        grid = F.affine_grid(theta, (2, 2, 4, 5), align_corners=aligned)
        image = torch.arange(40.0, dtype=torch.float64).reshape(2, 2, 2, 5).repeat(1, 1, 2, 1)
        image.requires_grad_(True)
        for mode, padding in (("bilinear", "zeros"), ("bilinear", "border"), ("nearest", "zeros"),
                              ("nearest", "border")):
            out = F.grid_sample(image, grid * 1.3, mode=mode, padding_mode=padding, align_corners=aligned)
            seen += [out, out.grad_fn.name(), torch.autograd.grad((out * out).sum(), [theta, image])]
        seen += [grid, grid.grad_fn.name()]
    return seen
