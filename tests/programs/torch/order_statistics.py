"""Order statistics: median / nanmedian, kthvalue, mode and quantile / nanquantile, their values,
positions, node names and gradients (a reduction to one element shares its gradient among the
elements equal to the result; one along a dimension hands it to the element chosen)."""

from __future__ import annotations

from tests.programs.registry import torch_program as program


def _grads(x, make):
    x.grad = None
    out = make()
    values = out[0] if isinstance(out, tuple) else out
    values.sum().backward()
    return [out, values.grad_fn.name(), x.grad]


@program
def medians_kth_values_and_modes(torch):
    x = torch.tensor([[1.0, 5.0, 2.0, 7.0], [4.0, 4.5, 0.0, 3.0], [2.0, 2.0, 9.0, 2.0]],
                     requires_grad=True)
    nan = float("nan")
    with_nan = torch.tensor([[1.0, nan, 3.0, 2.0], [6.0, 5.0, 4.0, 8.0]])
    counts = torch.tensor([[1, 2, 2, 3, 3], [0, 0, 1, 1, 1], [4, 3, 2, 1, 0]])
    return [*_grads(x, lambda: x.median()), *_grads(x, lambda: x[:2].median(1)),
            *_grads(x, lambda: x[:2].median(0, keepdim=True)),
            *_grads(x, lambda: torch.kthvalue(x[:2], 3, dim=1)),
            *_grads(x, lambda: x[:2].kthvalue(1, 0, True)),
            *_grads(x, lambda: torch.nanmedian(x)),
            torch.median(with_nan), torch.nanmedian(with_nan), torch.median(with_nan, 1),
            torch.nanmedian(with_nan, dim=1), torch.mode(counts, 1), counts.mode(0),
            torch.median(torch.tensor(3.0)), torch.median(torch.tensor(3.0), 0)]


@program
def quantiles_each_interpolation(torch):
    x = torch.tensor([[1.0, 5.0, 2.0, 7.0], [4.0, 4.5, 0.0, 3.0]], requires_grad=True)
    q = torch.tensor([0.25, 0.5, 0.9])
    out = [*_grads(x, lambda: torch.quantile(x, 0.3, dim=1)),
           *_grads(x, lambda: x.quantile(q)),
           *_grads(x, lambda: torch.quantile(x, q, dim=0, keepdim=True)),
           *_grads(x, lambda: torch.quantile(x, 0.4, keepdim=True))]
    for interpolation in ("lower", "higher", "midpoint", "nearest"):
        out.append(torch.quantile(x, 0.4, dim=1, interpolation=interpolation))
    nan = float("nan")
    with_nan = torch.tensor([[1.0, nan, 3.0], [2.0, 5.0, 4.0]])
    out += [torch.quantile(with_nan, 0.5, dim=1), torch.nanquantile(with_nan, 0.5, dim=1),
            torch.nanquantile(with_nan, q)]
    top = torch.quantile(x, 0.3, dim=1).grad_fn
    out.append([top.name(), [n.name() for n, _ in top.next_functions]])
    return out


@program
def max_and_min_of_everything_share_among_ties_as_the_cpu_kernel(torch):
    """max() / min() over every element write grad / count into zeros at the tied places: an
    infinite incoming gradient leaves the other places 0 (amax multiplies a mask, so there they
    are nan); a tie-free one goes to its one place."""
    x = torch.tensor([0.0, 0.0, 1.0], requires_grad=True)
    (torch.min(x) * torch.log(torch.zeros(3))).sum().backward()
    y = torch.tensor([1.0, 3.0, 3.0], requires_grad=True)
    (y.max() * float("inf")).backward()
    z = torch.tensor([[1.0, 3.0], [3.0, 0.5]], requires_grad=True)
    (torch.amax(z) * float("inf")).backward()
    w = torch.tensor([2.0, -1.0, 4.0], requires_grad=True)
    (w.max() * 3.0 + w.min()).backward()
    return [x.grad, y.grad, z.grad, w.grad]
