"""Grad modes: no-grad, enable-grad, inference mode, detach and anomaly detection."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import torch_program as program


@program
def grad_modes(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.no_grad():
        a = x * 2
        with torch.enable_grad():
            b = x * 2
    torch.set_grad_enabled(False)
    c = x * 2
    torch.set_grad_enabled(True)
    with torch.set_grad_enabled(False):
        d = x * 2

    @torch.no_grad()
    def f(v):
        return v * 2

    e = f(x)
    return [a.requires_grad, b.requires_grad, c.requires_grad, d.requires_grad, e.requires_grad,
            torch.is_grad_enabled(), x.grad]


@program
def backward_under_no_grad(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    recorded = (x * x).sum()
    with torch.no_grad():
        unrecorded = (x * x).sum()
        recorded.backward()
        failed = attempt(lambda: unrecorded.backward())
    return [x.grad, failed, torch.is_grad_enabled()]


@program
def detach(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    d = y.detach()
    d2 = (x * 3).detach_()
    z = (y * d).sum()
    z.backward()
    return [d, d.is_leaf, d.requires_grad, d2, x.grad]


@program
def recording_follows_create_graph_and_grad_mode(torch):
    x = torch.tensor([0.5, 1.5], requires_grad=True)
    y = (x.exp() * x).sum()
    g, = torch.autograd.grad(y, x, retain_graph=True)
    h, = torch.autograd.grad(y, x, create_graph=True)
    with torch.no_grad():
        z = x * x
    return [g, h, z, z.grad_fn is None]


@program
def set_grad_enabled_as_function_context_and_decorator(torch):
    seen = [torch.is_grad_enabled()]
    torch.set_grad_enabled(False)
    seen.append(torch.is_grad_enabled())
    torch.set_grad_enabled(True)
    with torch.set_grad_enabled(False):
        seen.append(torch.is_grad_enabled())
    seen.append(torch.is_grad_enabled())

    @torch.set_grad_enabled(False)
    def inside() -> bool:
        return torch.is_grad_enabled()

    return seen + [inside(), torch.is_grad_enabled()]


@program
def views_made_under_no_grad(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.no_grad():
        v = x[0:1]
        e = x.expand(2)
        r = x.reshape(2)
    y = v * 3
    seen = [v.requires_grad, v.is_leaf, v.grad_fn is None, y.requires_grad, y.grad_fn is None]
    y.sum().backward()
    seen += [v.grad, x.grad, attempt(lambda: v.mul_(2))]
    with torch.no_grad():
        e.mul_(1)
    return seen + [x, attempt(lambda: torch.autograd.grad((r * 2).sum(), x))]


@program
def inference_mode_and_inference_tensors(torch):
    """Tensors made in inference_mode: no grad, is_inference(); saving one for backward is
    refused, using it where nothing is saved is not; an in-place write outside the mode writes,
    then is refused; the decorator and inference_mode(False)."""
    with torch.inference_mode():
        q = torch.ones(2) * 2
        r = torch.ones(2, requires_grad=True) * 2
    w = torch.ones(2, requires_grad=True)
    saved = attempt(lambda: (q * w).sum().backward())
    (q + w).sum().backward()
    written = attempt(lambda: q.add_(1))
    p = torch.ones(2, requires_grad=True)

    @torch.inference_mode()
    def double(t):
        return t * 2

    with torch.inference_mode(False):
        off = [torch.is_inference_mode_enabled(), (p * 2).requires_grad]
    with torch.inference_mode():
        on = [torch.is_inference_mode_enabled(), q.add_(1)]
    return [q.requires_grad, q.is_inference(), r.requires_grad, r.is_inference(), saved, w.grad,
            written, p.is_inference(), double(p).requires_grad, double(p).is_inference(), off, on]


@program
def anomaly_detection_names_the_function_that_returned_nan(torch):
    """detect_anomaly / set_detect_anomaly: a backward function returning nan fails, naming
    itself; the warnings' first lines (torch follows the second with a forward traceback)."""
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        x = torch.tensor([0.0, 1.0], requires_grad=True)
        with torch.autograd.detect_anomaly():
            inside = attempt(lambda: (torch.sqrt(x) * 0).sum().backward())
        after = torch.is_anomaly_enabled()
        torch.autograd.set_detect_anomaly(True)
        switched = attempt(lambda: (x.log() * 0).sum().backward())
        torch.autograd.set_detect_anomaly(False)
        (x.log() * 0).sum().backward()
    return [inside, after, switched, x.grad,
            [str(w.message).split("\n")[0] for w in caught if "Anomaly" not in str(w.message)]]


@program
def inference_tensors_outside_inference_mode(torch):
    """An op whose tensor inputs are all inference tensors records nothing, outside
    inference_mode too (a Python number alongside is a normal tensor: that op records); one that
    saves an inference tensor next to a normal one is torch's error."""
    with torch.inference_mode():
        c = torch.tensor([1.0, 2.0], requires_grad=True)
        d = torch.tensor([1.0, 2.0])
    x = torch.tensor([3.0, 4.0], requires_grad=True)
    made = [lambda: c * c, lambda: c + c, lambda: torch.exp(c), lambda: c + x, lambda: c * x,
            lambda: d * x, lambda: d + x, lambda: c * 2.0]
    out = []
    for make in made:
        y = attempt(make)
        out.append(y)
    product = c * c
    return out + [product.is_inference(), attempt(lambda: product.sum().backward())]


@program
def a_cast_of_an_expanded_tensor_is_contiguous_so_a_no_grad_reshape_views_it(torch):
    """torch's dtype copy of an expanded tensor comes out row-major (preserve_format keeps only
    non-overlapping dense strides), so reshape under no_grad is a view of it and requires grad;
    a transposed source keeps its strides, and reshaping that copies."""
    x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    wide = x.expand(3, 3).to(torch.float64)
    turned = (x.unsqueeze(1) * torch.ones(3, 2)).t().to(torch.float64)
    with torch.no_grad():
        flat, flat_turned = wide.reshape(9, 1), turned.reshape(6)
    return [wide.stride(), turned.stride(), flat.requires_grad, flat._base is wide,
            flat_turned.requires_grad, torch.autograd.grad([wide.sum()], [x])]


@program
def a_clone_of_an_expanded_tensor_is_contiguous_so_a_reshape_views_it(torch):
    """clone keeps a source's strides only where its elements are non-overlapping and dense, as
    the dtype copy does: a clone of an expanded tensor is row-major, a reshape of it is a view
    sharing its version counter, and a clone of a transposed tensor keeps the transpose."""
    x = torch.tensor([[0.5], [-1.0], [2.0]])
    copied = x.expand(2, 3, 3).clone()
    turned = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]).t().clone()
    flat = copied.reshape(18)
    copied.fill_(0.25)
    return [copied.stride(), turned.stride(), flat._version, flat._base is copied]


@program
def a_python_float_under_no_grad_does_not_warn(torch):
    """float() of a tensor that requires grad warns (once a process) only while grad mode is
    on: not under no_grad, where a view of a parameter still requires grad, nor under
    inference_mode."""
    import warnings

    w = torch.nn.Parameter(torch.ones(2))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with torch.no_grad():
            view = w[0]
            values = [float(view), view.requires_grad, float(w[1:].sum())]
        with torch.inference_mode():
            values.append(float(w[0]))
    return [values, [str(c.message) for c in caught]]
