"""Small training programs as users write them: modules, optimizers, schedulers and loops."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import torch_program as program


@program
def what_real_programs_need_on_the_way(torch):
    """Constructors, parameters, devices and tensor functions tutorials use before autograd."""
    data = torch.Tensor([[1, 2], [3, 4]])
    sized = torch.Tensor(2, 3)
    weight = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
    variable = torch.autograd.Variable(torch.ones(2), requires_grad=True)
    dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True).to(dev)
    b = a.mm(a)
    c = a * 1
    c.exp_()
    (b.sum() + c.sum() + (weight * weight).sum() + variable.sum()).backward()
    steps = torch.linspace(0, 1, steps=5, requires_grad=True)
    result = [data, sized.shape, repr(weight), type(weight * 2).__name__, variable.requires_grad,
            repr(dev), str(a.device), b.grad_fn.name(), c.grad_fn.name(), a.grad, weight.grad,
            variable.grad, steps, torch.equal(a, a), a.equal(b), torch.cuda.device_count(),
            attempt(lambda: torch.Tensor(1.5)), attempt(lambda: torch.Tensor(True)),
            a.eq(b), a.ne(b), a.lt(b), a.ge(2.0), a.eq(b).all(), (a > 1.5).any(dim=1),
            (a > 0).all(dim=0, keepdim=True), a.floor(), torch.ceil(a), (a * 0.5).round(),
            torch.round(a).grad_fn.name(), a.argmin(), torch.argmin(a, dim=1, keepdim=True),
            a.to(torch.int64).requires_grad, a.to(torch.int64).grad_fn is None,
            a.type_as(a) is a, a.type_as(torch.tensor([1])), a.where(a > 2.0, torch.tensor(0.0)),
            a.where(a > 2.0, torch.tensor(0.0)).grad_fn.name()]
    clamped = a * 1
    clamped.clamp_(min=1.5, max=3.5)
    clamped.sum().backward()
    result += [clamped, clamped.grad_fn.name(), clamped._version, a.grad,
               attempt(lambda: a.clamp_(0.0))]
    zero = torch.zeros(2, requires_grad=True)
    zero.norm().backward()  # the norm's gradient is 0 where the norm is 0
    rows = torch.tensor([[1.0, 2.0], [3.0, 0.0]], requires_grad=True)
    rows.norm(dim=1).sum().backward()
    return result + [zero.grad, rows.grad, rows.norm().grad_fn.name()]


@program
def a_training_loop_with_modules_and_sgd(torch):
    """Module / Linear / MSELoss / SGD with momentum: gradients accumulate per step and are
    cleared by zero_grad; the weights are set to equal values first."""
    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = torch.nn.Linear(3, 2)
            self.fc2 = torch.nn.Linear(2, 1)

        def forward(self, x):
            return self.fc2(torch.tanh(self.fc1(x)))

    net = Net()
    with torch.no_grad():
        for p in net.parameters():
            p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape))
    opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    x = torch.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]])
    target = torch.tensor([[1.0], [0.0]])
    seen = [[name for name, _ in net.named_parameters()], repr(net.fc1)]
    for _ in range(3):
        opt.zero_grad()
        loss = torch.nn.MSELoss()(net(x), target)
        loss.backward()
        opt.step()
        seen += [loss.detach(), net.fc1.weight.grad.clone()]
    net.zero_grad(set_to_none=False)
    return seen + [net.fc2.weight, net.fc1.bias.grad,
                   torch.nn.functional.mse_loss(net(x), target, reduction="sum").detach()]


@program
def sequential_models_and_random_shapes(torch):
    """nn.Sequential with activation modules (weights set to equal values), and what random
    tensors share with torch's: shapes, dtypes and flags (not values)."""
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1),
                              torch.nn.Tanh())
    with torch.no_grad():
        for p in net.parameters():
            p.copy_(torch.linspace(-0.7, 0.9, p.numel()).reshape(p.shape))
    x = torch.tensor([[1.0, -2.0, 0.5], [0.3, 0.8, -1.1]])
    net(x).sum().backward()
    noise = torch.randn(2, 3, requires_grad=True)
    return [[name for name, _ in net.named_parameters()], len(net), repr(net[1]),
            net[0].weight.grad, net[2].bias.grad, noise.shape, str(noise.dtype), noise.requires_grad,
            torch.rand(4).shape, str(torch.randn((2, 2)).dtype)]


@program
def classification_with_adam_and_tensor_helpers(torch):
    """F.linear, F.cross_entropy / nll_loss, optim.Adam over a few steps, and the tensor helpers
    programs use around them (norm, flatten, square, argmax, dot, allclose, eye, from_numpy)."""
    import numpy as np

    functional = torch.nn.functional
    w = torch.tensor([[0.2, -0.4, 0.1], [0.5, 0.3, -0.2]], requires_grad=True)
    b = torch.tensor([0.1, -0.1], requires_grad=True)
    opt = torch.optim.Adam([w, b], lr=0.05)
    x = torch.tensor([[1.0, 2.0, 0.5], [0.3, -1.0, 2.0], [1.5, 0.2, -0.7]])
    target = torch.tensor([1, 0, 1])
    seen = []
    for _ in range(4):
        opt.zero_grad()
        loss = functional.cross_entropy(functional.linear(x, w, b), target)
        loss.backward()
        opt.step()
        seen += [loss.detach(), w.grad.clone()]
    logits = functional.linear(x, w, b)
    v = torch.tensor([[3.0, 4.0], [1.0, 2.0]], requires_grad=True)
    n = v.norm()
    n.backward()
    return seen + [w.detach(), b.detach(),
                   functional.nll_loss(functional.log_softmax(logits, 1), target,
                                       reduction="sum").detach(),
                   n.detach(), v.grad, torch.norm(v, dim=1).detach(), v.flatten().shape,
                   torch.dot(torch.ones(2), torch.ones(2)), v.square().detach(), v.argmax(),
                   torch.argmax(v, dim=1), torch.allclose(v, v), torch.eye(2),
                   str(torch.from_numpy(np.ones(2)).dtype)]


@program
def the_autograd_tutorial(torch):
    """PyTorch's "Automatic Differentiation with torch.autograd" tutorial, with its random
    weights replaced by fixed ones."""
    x = torch.ones(5)
    y = torch.zeros(3)
    w = torch.tensor([[0.1 * (i - j) for j in range(3)] for i in range(5)], requires_grad=True)
    b = torch.tensor([0.3, -0.2, 0.1], requires_grad=True)
    z = torch.matmul(x, w) + b
    loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
    loss.backward()
    seen = [w.grad, b.grad, loss.detach(), z.requires_grad]
    with torch.no_grad():
        z = torch.matmul(x, w) + b
    seen += [z.requires_grad, z.detach().requires_grad]
    inp = torch.eye(4, 5, requires_grad=True)
    out = (inp + 1).pow(2).t()
    out.backward(torch.ones_like(out), retain_graph=True)
    seen.append(inp.grad.clone())
    out.backward(torch.ones_like(out), retain_graph=True)
    seen.append(inp.grad.clone())
    inp.grad.zero_()
    out.backward(torch.ones_like(out), retain_graph=True)
    p = torch.tensor([0.2, 0.9, 0.5], requires_grad=True)
    bce = torch.nn.functional.binary_cross_entropy(p, torch.tensor([0.0, 1.0, 1.0]))
    bce.backward()
    return seen + [inp.grad, bce.detach(), p.grad]


@program
def a_manual_training_loop_with_in_place_operators(torch):
    """``w -= lr * w.grad`` under no_grad updates the leaf in place (torch's in-place operators);
    outside no_grad it is refused."""
    w = torch.tensor([1.0, -2.0], requires_grad=True)
    b = torch.tensor(0.5, requires_grad=True)
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    y = torch.tensor([1.0, 0.0])
    seen = []
    for _ in range(3):
        loss = ((x @ w + b - y) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            w -= 0.01 * w.grad
            b -= 0.01 * b.grad
            w *= 1.0
            w /= 1.0
            b += 0.0
            w.grad.zero_()
            b.grad.zero_()
        seen += [loss.item(), w.detach().clone(), b.detach().clone()]

    def refused():
        v = torch.tensor([1.0], requires_grad=True)
        v += 1
    return seen + [attempt(refused), w.is_leaf, w.requires_grad, w._version, b._version,
                   w.grad._version]


@program
def clipping_gradients_in_place(torch):
    """nn.utils.clip_grad_norm_ scales every gradient in place (by a factor clamped to 1, so
    each call grows its version) and returns the total norm before clipping, of order 2, 1 or
    inf; a non-finite norm is an error on request. clip_grad_value_ clamps them."""
    w = torch.tensor([[3.0, 4.0]], requires_grad=True)
    b = torch.tensor([12.0], requires_grad=True)
    (w.sum() * 1 + b.sum()).backward()
    with torch.no_grad():
        w.grad.mul_(torch.tensor([[3.0, 4.0]]))
    start = w.grad._version
    clip = torch.nn.utils.clip_grad_norm_
    seen = [clip([w, b], 1.0), w.grad, b.grad, w.grad._version - start, clip([w, b], 100.0),
            w.grad._version - start, clip(w, 1.0, norm_type=1.0), w.grad,
            clip([w, b], 0.5, norm_type=float("inf")), b.grad,
            clip([torch.zeros(2, requires_grad=True)], 1.0), clip([], 1.0)]
    x = torch.tensor([1.0], requires_grad=True)
    x.grad = torch.tensor([float("inf")])
    seen.append(attempt(lambda: clip([x], 1.0, error_if_nonfinite=True)))
    torch.nn.utils.clip_grad_value_([w, b], 0.25)
    return seen + [w.grad, b.grad]


@program
def sgd_steps_and_scaled_adds_round_once(torch):
    """torch's add / sub with alpha round once (a fused multiply-add), and SGD's steps are
    made of them: five steps of plain, momentum, dampened and Nesterov SGD with weight decay
    give the framework's float32 values bit for bit."""
    seen = []
    for settings in ({"lr": 0.1}, {"lr": 0.05, "momentum": 0.9},
                     {"lr": 0.03, "momentum": 0.8, "dampening": 0.1, "weight_decay": 0.01},
                     {"lr": 0.07, "momentum": 0.9, "nesterov": True, "weight_decay": 0.003}):
        w = torch.tensor([0.5, -1.25, 2.0, 0.3], requires_grad=True)
        optimizer = torch.optim.SGD([w], **settings)
        for _ in range(5):
            optimizer.zero_grad()
            ((w * w * 1.7 - 0.3) ** 2).sum().backward()
            optimizer.step()
        seen.append(w.detach().numpy().tobytes().hex())
    x = torch.tensor([1.5, -2.5, 0.1])
    y = torch.tensor([0.3, 0.7, -1.1])
    return seen + [torch.add(x, y, alpha=0.1).numpy().tobytes().hex(),
                   torch.sub(x, y, alpha=-0.37).numpy().tobytes().hex()]


@program
def adam_variants_over_several_steps(torch):
    """Adam, with weight decay, amsgrad (the largest second moment so far) and maximize, over
    six steps (values within float32 tolerance: torch's kernels round some steps once)."""
    seen = []
    for settings in ({"lr": 0.1}, {"lr": 0.01, "betas": (0.8, 0.99), "weight_decay": 0.01},
                     {"lr": 0.05, "eps": 1e-6, "amsgrad": True},
                     {"lr": 0.05, "amsgrad": True, "weight_decay": 0.1},
                     {"lr": 0.02, "maximize": True}, {"lr": 0.02, "foreach": False}):
        w = torch.tensor([0.5, -1.25, 2.0, 0.3], requires_grad=True)
        optimizer = torch.optim.Adam([w], **settings)
        for _ in range(6):
            optimizer.zero_grad()
            ((w * w * 1.7 - 0.3) ** 2 - w * 3.0).sum().backward()
            optimizer.step()
        seen.append(w.detach())
    return seen


@program
def adamw_rmsprop_adagrad_and_adadelta_over_several_steps(torch):
    """The other optimizers of the inventory, each with its options, over six steps; and their
    refusals of a negative hyperparameter."""
    seen = []
    for make in (lambda p: torch.optim.AdamW(p, lr=0.1),
                 lambda p: torch.optim.AdamW(p, lr=0.05, weight_decay=0.3),
                 lambda p: torch.optim.AdamW(p, lr=0.05, amsgrad=True), lambda p: torch.optim.RMSprop(p),
                 lambda p: torch.optim.RMSprop(p, lr=0.05, momentum=0.9, weight_decay=0.1),
                 lambda p: torch.optim.RMSprop(p, lr=0.02, centered=True, alpha=0.9),
                 lambda p: torch.optim.Adagrad(p, lr=0.1), lambda p: torch.optim.Adagrad(
                     p, lr=0.1, lr_decay=0.05, weight_decay=0.1, initial_accumulator_value=0.5),
                 lambda p: torch.optim.Adadelta(p),
                 lambda p: torch.optim.Adadelta(p, lr=0.5, rho=0.8, weight_decay=0.1),
                 lambda p: torch.optim.AdamW(p, lr=0.02, maximize=True)):
        w = torch.tensor([0.5, -1.25, 2.0, 0.3], requires_grad=True)
        optimizer = make([w])
        for _ in range(6):
            optimizer.zero_grad()
            ((w * w * 1.7 - 0.3) ** 2 - w * 3.0).sum().backward()
            optimizer.step()
        seen.append(w.detach())
    w = torch.tensor([1.0], requires_grad=True)
    return seen + [attempt(lambda: torch.optim.RMSprop([w], lr=-1.0)),
                   attempt(lambda: torch.optim.Adagrad([w], lr_decay=-1.0)),
                   attempt(lambda: torch.optim.Adadelta([w], rho=1.5)),
                   attempt(lambda: torch.optim.AdamW([w], weight_decay=-0.1))]
