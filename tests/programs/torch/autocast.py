"""Reduced precision and CPU autocast: which ops cast, to what, and how regions nest."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import torch_program as program


@program
def reduced_precision_tensors_compute_in_float32_and_round(torch):
    x = torch.tensor([1.1, 2.3, -0.7], requires_grad=True)
    b, h = x.bfloat16(), x.half()
    y = (b * b + b.exp()).sum() + (h.tanh() * 3.0).sum()
    y.backward()
    w = torch.tensor([[0.3, -1.2], [2.2, 0.5], [1.0, 1.0]], dtype=torch.bfloat16, requires_grad=True)
    m = b.detach()[None] @ w
    m.float().sum().backward()
    return [b, h, y, x.grad, m, w.grad, b + torch.ones(3), b + h, b * 2, b + 1.5, h + torch.tensor(1.0),
            b.double(), repr(b), b.tolist(), (b.sum() * 1.0).item(), str(torch.bfloat16), str(torch.half),
            attempt(lambda: x @ torch.ones(3, dtype=torch.bfloat16)),
            attempt(lambda: torch.mm(x[None], torch.ones(3, 1, dtype=torch.float16)))]


def _linear_module(torch, w):
    layer = torch.nn.Linear(3, 2)
    with torch.no_grad():
        layer.weight.copy_(w.t())
        layer.bias.fill_(0.5)
    return layer


def _autocast_operands(torch):
    x = torch.tensor([[0.3, -1.2, 0.7], [2.2, 0.5, -0.1]], requires_grad=True)
    w = torch.tensor([[0.5, -0.25], [1.5, 0.75], [-1.0, 2.0]], requires_grad=True)
    return x, w


@program
def autocast_lower_precision_ops_cast_float32_inputs(torch):
    F = torch.nn.functional
    out: list = []
    for dtype in (torch.bfloat16, torch.float16):
        ops = {
            "mm": lambda x, w: torch.mm(x, w), "matmul": lambda x, w: torch.matmul(x, w),
            "operator": lambda x, w: x @ w, "method": lambda x, w: x.matmul(w),
            "mm method": lambda x, w: x.mm(w), "bmm": lambda x, w: torch.bmm(x[None], w[None]),
            "einsum": lambda x, w: torch.einsum("ij,jk->ik", x, w),
            "linear": lambda x, w: F.linear(x, w.t()),
            "conv1d": lambda x, w: F.conv1d(x[None], w.t()[:, :2, None]),
            "unbatched conv1d": lambda x, w: F.conv1d(x, w.t()[:, :2, None]),
            "conv2d": lambda x, w: F.conv2d(x[None, None], w[None, None, :2]),
            "Linear module": lambda x, w: _linear_module(torch, w)(x),
        }
        for name, op in ops.items():
            x, w = _autocast_operands(torch)
            with torch.autocast("cpu", dtype=dtype):
                y = op(x, w)
            y.float().sum().backward()
            out += [name, y, y.grad_fn is not None and y.grad_fn.name(), x.grad, w.grad]
    return out


@program
def autocast_float32_ops_cast_reduced_inputs(torch):
    F = torch.nn.functional
    target = torch.tensor([0, 2])
    ops = {
        "prod": lambda a: a.prod(), "torch.prod": lambda a: torch.prod(a),
        "mse_loss": lambda a: F.mse_loss(a, torch.zeros(2, 3)),
        "l1_loss": lambda a: F.l1_loss(a, torch.ones(2, 3, dtype=torch.bfloat16)),
        "nll_loss": lambda a: F.nll_loss(a, target), "cross_entropy": lambda a: F.cross_entropy(a, target),
        "binary_cross_entropy": lambda a: F.binary_cross_entropy(a.sigmoid(), torch.full((2, 3), 0.25)),
        "with_logits": lambda a: F.binary_cross_entropy_with_logits(a, torch.full((2, 3), 0.25)),
        "MSELoss module": lambda a: torch.nn.MSELoss()(a, torch.zeros(2, 3)),
        "CrossEntropyLoss module": lambda a: torch.nn.CrossEntropyLoss()(a, target),
    }
    out: list = []
    for name, op in ops.items():
        x = torch.tensor([[0.3, -1.2, 0.7], [2.2, 0.5, -0.1]], dtype=torch.bfloat16, requires_grad=True)
        with torch.autocast("cpu"):
            y = op(x)
        y.backward()
        out += [name, y, x.grad]
    return out


@program
def autocast_leaves_other_ops_and_float64_alone(torch):
    x, w = _autocast_operands(torch)
    with torch.autocast("cpu"):
        h = x @ w
        out = [torch.dot(x[0], w[:, 0]), torch.mv(w.t(), x[0]), h.relu(), h.sum(), h.softmax(1),
               h + torch.ones(2, 2), torch.cat([h, torch.ones(1, 2)]), x.double() @ w.double(),
               attempt(lambda: torch.mm(x.double(), w))]
    h.float().pow(2).sum().backward()
    return [*out, x.grad, w.grad]


@program
def autocast_regions_nest_cache_and_refuse(torch):
    x, w = _autocast_operands(torch)
    out: list = [torch.is_autocast_enabled("cpu"), str(torch.get_autocast_dtype("cpu"))]
    with torch.autocast("cpu", dtype=torch.float16):
        out += [torch.is_autocast_enabled("cpu"), torch.is_autocast_enabled(),
                str(torch.get_autocast_dtype("cpu"))]
        a, b = x @ w, torch.mm(x, w)
        out.append(a.grad_fn.next_functions[0][0] is b.grad_fn.next_functions[0][0])  # x cast once
        with torch.autocast("cpu", enabled=False):
            out += [x @ w, torch.is_autocast_enabled("cpu")]
        out.append(x @ w)
    with torch.autocast("cpu", cache_enabled=False):
        a, b = x @ w, x @ w
        out.append(a.grad_fn.next_functions[0][0] is b.grad_fn.next_functions[0][0])
    out += [torch.is_autocast_enabled("cpu"), str(torch.get_autocast_dtype("cpu"))]

    @torch.autocast("cpu")
    def decorated(a, b):
        return a @ b

    out.append(decorated(x, w))
    with torch.autocast("cpu", dtype=torch.float32):  # warns: CPU autocast takes bf16 and f16 only
        out.append(x @ w)
    with torch.autocast("cuda"):  # warns: no CUDA
        out.append(x @ w)
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        y = (x @ w).float().pow(2).sum()
        g, = torch.autograd.grad(y, x, create_graph=True)
    g.sum().backward()
    out += [g, w.grad, attempt(lambda: torch.autocast(3)), attempt(lambda: torch.autocast("xpu2")),
            attempt(lambda: torch.autocast("metal"))]
    with torch.autocast("cpu:0", dtype=torch.float16):  # a device index: the same CPU region
        out += [x @ w, str(torch.get_autocast_dtype("cpu"))]
    with torch.autocast("cuda:0"):  # disabled, measured without the no-CUDA warning
        out.append(x @ w)
    return out
