"""Adam's variants (Adamax, NAdam, RAdam) over a few steps of a small regression, with weight
decay in both forms, and the polynomial and warm-restart schedules, stepped by epoch and by a
fraction of one."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import torch_program as program


@program
def adam_variants_train_a_linear_layer(torch):
    torch.manual_seed(0)
    seen = []
    for make in (lambda ps: torch.optim.Adamax(ps, lr=0.05),
                 lambda ps: torch.optim.Adamax(ps, weight_decay=0.1),
                 lambda ps: torch.optim.NAdam(ps, lr=0.05),
                 lambda ps: torch.optim.NAdam(ps, lr=0.05, weight_decay=0.1, decoupled_weight_decay=True),
                 lambda ps: torch.optim.RAdam(ps, lr=0.05),
                 lambda ps: torch.optim.RAdam(ps, lr=0.05, weight_decay=0.1),
                 lambda ps: torch.optim.RAdam(ps, lr=0.05, betas=(0.9, 0.5))):
        model = torch.nn.Linear(3, 2)
        optimizer = make(model.parameters())
        x = torch.randn(4, 3)
        losses = []
        for _ in range(8):
            optimizer.zero_grad()
            loss = ((model(x) - 1) ** 2).mean()
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        seen += [type(optimizer).__name__, losses, model.weight, model.bias]
    leaf = torch.ones(1, requires_grad=True)
    return seen + [attempt(lambda: torch.optim.NAdam([leaf], momentum_decay=-1.0)),
                   attempt(lambda: torch.optim.Adamax([leaf], betas=(1.0, 0.9)))]


@program
def polynomial_and_warm_restart_schedules(torch):
    seen = []
    for make in (lambda o: torch.optim.lr_scheduler.PolynomialLR(o, total_iters=4, power=2.0),
                 lambda o: torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=3),
                 lambda o: torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=2,
                                                                                eta_min=0.01)):
        p = torch.nn.Parameter(torch.ones(2))
        optimizer = torch.optim.SGD([p], lr=0.1)
        schedule = make(optimizer)
        rates = []
        for _ in range(9):
            optimizer.step()
            schedule.step()
            rates.append(schedule.get_last_lr()[0])
        if isinstance(schedule, torch.optim.lr_scheduler.CosineAnnealingWarmRestarts):
            schedule.step(5.5)
            rates.append(optimizer.param_groups[0]["lr"])
        seen.append(rates)
    p = torch.nn.Parameter(torch.ones(2))
    return seen + [attempt(lambda: torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(
        torch.optim.SGD([p], lr=0.1), T_0=0))]


@program
def multiplicative_schedule_and_concatenated_datasets(torch):
    p = torch.nn.Parameter(torch.ones(2))
    optimizer = torch.optim.SGD([p], lr=0.1)
    schedule = torch.optim.lr_scheduler.MultiplicativeLR(optimizer, lambda epoch: 0.9 if epoch % 2 else 0.5)
    rates = []
    for _ in range(5):
        optimizer.step()
        schedule.step()
        rates.append(schedule.get_last_lr()[0])
    data = torch.utils.data
    parts = [data.TensorDataset(torch.arange(3.0)), data.TensorDataset(torch.arange(10.0, 12.0))]
    both = data.ConcatDataset(parts)
    return [rates, len(both), both[0], both[3], both[-1], both.cumulative_sizes,
            [batch[0] for batch in data.DataLoader(both, batch_size=2)]]


@program
def lbfgs_fits_a_small_network_and_the_rosenbrock_valley(torch):
    """LBFGS with and without the strong-Wolfe line search (float64: the method amplifies float32
    rounding noise within a few iterations): the losses each step returns, the evaluations and
    iterations its state counts, the weights reached, its repr and its refusals."""
    torch.manual_seed(0)
    seen = []
    x = torch.linspace(-1, 1, 16, dtype=torch.float64).reshape(8, 2)
    y = torch.sin(3 * x[:, :1]) * x[:, 1:]
    for search in (None, "strong_wolfe"):
        torch.manual_seed(0)
        net = torch.nn.Sequential(torch.nn.Linear(2, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1)).double()
        optimizer = torch.optim.LBFGS(net.parameters(), lr=0.5, max_iter=6, history_size=5,
                                      line_search_fn=search)

        def closure():
            optimizer.zero_grad()
            loss = ((net(x) - y) ** 2).mean()
            loss.backward()
            return loss
        for _ in range(3):
            state = optimizer.state[net[0].weight]
            seen += [optimizer.step(closure), state["func_evals"], state["n_iter"]]
        seen += [net[0].weight, net[2].bias]
    p = torch.tensor([-1.5, 2.0], dtype=torch.float64, requires_grad=True)
    optimizer = torch.optim.LBFGS([p], max_iter=12, line_search_fn="strong_wolfe")

    def rosenbrock():
        optimizer.zero_grad()
        loss = (1 - p[0]) ** 2 + 100 * (p[1] - p[0] ** 2) ** 2
        loss.backward()
        return loss
    seen += [optimizer.step(rosenbrock), p, repr(optimizer)]
    q, r = torch.nn.Parameter(torch.ones(2)), torch.nn.Parameter(torch.ones(1))

    def square():
        loss = (q * q).sum()
        loss.backward()
        return loss
    return seen + [attempt(lambda: torch.optim.LBFGS([q], lr=-1.0)),
                   attempt(lambda: torch.optim.LBFGS([{"params": [q]}, {"params": [r]}])),
                   attempt(lambda: torch.optim.LBFGS([q], line_search_fn="armijo").step(square)),
                   attempt(lambda: torch.optim.LBFGS([r]).step(lambda: (r * 0).sum()))]


@program
def optimizer_step_hooks_and_printouts(torch):
    """Step pre- and post-hooks (the optimizer's own and torch.optim.optimizer's global ones,
    handed the step's arguments, the optimizer first; a pre-hook's bad return refused) and each
    optimizer's printout and group keys with torch's defaults (0, not 0.0)."""
    import importlib

    hooks = importlib.import_module(torch.__name__ + ".optim.optimizer")
    w = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
    optimizer = torch.optim.SGD([w], lr=0.1)
    calls = []
    optimizer.register_step_pre_hook(lambda o, a, k: calls.append(("pre", a[0] is o, len(a), sorted(k))))
    post = optimizer.register_step_post_hook(
        lambda o, a, k: calls.append(("post", o.param_groups[0]["params"][0][0].item())))
    global_pre = hooks.register_optimizer_step_pre_hook(
        lambda o, a, k: calls.append(("global", type(o).__name__)))
    (w * w).sum().backward()
    optimizer.step()
    post.remove()
    global_pre.remove()
    (w * w).sum().backward()
    optimizer.step()
    refused = torch.optim.SGD([w], lr=0.1)
    refused.register_step_pre_hook(lambda o, a, k: 3)
    try:
        refused.step()
        error = None
    except RuntimeError as e:
        error = str(e).endswith("must return None or a tuple of (new_args, new_kwargs), but got 3.")
    shown = []
    for name in ("SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "Adamax", "NAdam", "RAdam"):
        made = getattr(torch.optim, name)([w], lr=0.1)
        shown += [repr(made), [(key, value) for key, value in made.param_groups[0].items()
                               if key != "params"]]
    return [calls, w, error] + shown


@program
def cyclic_learning_rates_and_momentum(torch):
    """lr_scheduler.CyclicLR: triangular, triangular2 (halved each cycle), exp_range (gamma to
    the step) and a scale_fn of its own over iterations; the momentum (SGD) or Adam's first beta
    cycling the other way; unequal steps up and down; a base_lr list of the wrong length."""
    weight = torch.nn.Parameter(torch.ones(2))
    seen = []
    for mode, options in (("triangular", {}), ("triangular2", {"step_size_down": 3}),
                          ("exp_range", {"gamma": 0.9}),
                          ("triangular", {"scale_fn": lambda x: 0.5 ** x, "scale_mode": "iterations"})):
        sgd = torch.optim.SGD([weight], lr=1.0, momentum=0.9)
        schedule = torch.optim.lr_scheduler.CyclicLR(sgd, 0.1, 1.0, step_size_up=2, mode=mode, **options)
        rates = []
        for _ in range(7):
            sgd.step()
            schedule.step()
            rates.append([schedule.get_last_lr()[0], sgd.param_groups[0]["momentum"]])
        seen.append(rates)
    adam = torch.optim.Adam([weight], lr=0.01)
    schedule = torch.optim.lr_scheduler.CyclicLR(adam, [0.001], 0.01, step_size_up=1)
    adam.step()
    schedule.step()
    seen += [adam.param_groups[0]["betas"], adam.param_groups[0]["lr"],
             attempt(lambda: torch.optim.lr_scheduler.CyclicLR(adam, [0.1, 0.2], 1.0)),
             attempt(lambda: torch.optim.lr_scheduler.CyclicLR(adam, 0.1, 1.0, mode="sawtooth"))]
    return seen


@program
def stochastic_weight_averaging(torch):
    """optim.swa_utils: AveragedModel's running mean (and an EMA by avg_fn) of a model's
    parameters with its buffers copied, SWALR's cosine and linear annealing to swa_lr,
    update_bn's cumulative batch-norm statistics; a scheduler stepped before its optimizer
    ever was warns once."""
    import warnings

    swa_utils = torch.optim.swa_utils
    SWALR, AveragedModel = swa_utils.SWALR, swa_utils.AveragedModel  # noqa: N806
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4), torch.nn.ReLU(),
                                torch.nn.Linear(4, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
    swa, ema = AveragedModel(model), AveragedModel(model, avg_fn=swa_utils.get_ema_avg_fn(0.9))
    cosine = SWALR(optimizer, swa_lr=0.05, anneal_epochs=3)
    idle = torch.optim.SGD(model.parameters(), lr=1.0)
    linear = SWALR(idle, swa_lr=0.1, anneal_epochs=2, anneal_strategy="linear")
    data = [torch.randn(8, 3) for _ in range(3)]
    rates = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(4):
            for x in data:
                optimizer.zero_grad()
                model(x).pow(2).mean().backward()
                optimizer.step()
            swa.update_parameters(model)
            ema.update_parameters(model)
            cosine.step()
            linear.step()
            rates.append([cosine.get_last_lr(), linear.get_last_lr(), int(swa.n_averaged)])
    swa_utils.update_bn(data, swa)
    norm = swa.module[1]
    return [rates, [str(w.message)[:60] for w in caught], swa.module[0].weight, ema.module[0].weight,
            norm.running_mean, norm.running_var, norm.num_batches_tracked, norm.momentum,
            swa(data[0]), [name for name, _ in swa.named_buffers()]]
