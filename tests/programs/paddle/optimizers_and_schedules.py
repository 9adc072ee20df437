"""Adagrad, Adadelta and Adamax over a few steps of a small regression (weight decay, an
initial accumulator, a rate set mid-way), and the polynomial, exponential, inverse-time, Noam,
multiplicative, linear and warm-restart schedules."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import paddle_program as program


@program
def adaptive_optimizers_train_a_linear_layer(paddle):
    paddle.seed(0)
    seen = []
    for make in (lambda ps: paddle.optimizer.Adagrad(0.1, parameters=ps),
                 lambda ps: paddle.optimizer.Adagrad(0.1, parameters=ps, initial_accumulator_value=0.5,
                                                     weight_decay=0.01),
                 lambda ps: paddle.optimizer.Adadelta(1.0, parameters=ps),
                 lambda ps: paddle.optimizer.Adadelta(0.5, rho=0.9, parameters=ps),
                 lambda ps: paddle.optimizer.Adamax(0.05, parameters=ps),
                 lambda ps: paddle.optimizer.Adamax(0.05, parameters=ps, weight_decay=0.1)):
        model = paddle.nn.Linear(3, 2)
        optimizer = make(model.parameters())
        x = paddle.randn([4, 3])
        losses = []
        for step in range(8):
            optimizer.clear_grad()
            loss = ((model(x) - 1) ** 2).mean()
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
            if step == 3:
                optimizer.set_lr(optimizer.get_lr() * 0.5)
        seen += [type(optimizer).__name__, losses, model.weight, model.bias]
    return seen


@program
def more_learning_rate_schedules(paddle):
    lr = paddle.optimizer.lr
    seen = []
    for make in (lambda: lr.PolynomialDecay(0.1, 4, power=2.0),
                 lambda: lr.PolynomialDecay(0.1, 3, cycle=True),
                 lambda: lr.NaturalExpDecay(0.1, 0.3), lambda: lr.InverseTimeDecay(0.1, 0.5),
                 lambda: lr.NoamDecay(64, 3), lambda: lr.MultiplicativeDecay(0.1, lambda epoch: 0.9),
                 lambda: lr.LinearLR(0.1, 4), lambda: lr.CosineAnnealingWarmRestarts(0.1, 3),
                 lambda: lr.CosineAnnealingWarmRestarts(0.1, 2, 2, 0.01)):
        schedule = make()
        rates = [schedule()]
        for _ in range(9):
            schedule.step()
            rates.append(schedule())
        seen.append(rates)
    restarts = lr.CosineAnnealingWarmRestarts(0.1, 2, 2)
    restarts.step(5.5)
    model = paddle.nn.Linear(2, 2)
    optimizer = paddle.optimizer.SGD(lr.PolynomialDecay(0.1, 4), parameters=model.parameters())
    refused = attempt(lambda: optimizer.set_lr(0.5))
    optimizer.set_lr_scheduler(lr.NaturalExpDecay(0.2, 0.1))
    return seen + [restarts(), refused, optimizer.get_lr(),
                   attempt(lambda: paddle.optimizer.SGD(0.1, parameters=model.parameters()).set_lr("0.1")),
                   attempt(lambda: optimizer.set_lr_scheduler(3)),
                   attempt(lambda: lr.CosineAnnealingWarmRestarts(0.1, 0))]


@program
def one_cycle_schedule_and_two_d_pads(paddle):
    """OneCycleLR (two and three phases, cosine and linear; stepping past the end refused) and
    Pad2D / ZeroPad2D."""
    lr = paddle.optimizer.lr
    seen = []
    for make in (lambda: lr.OneCycleLR(0.1, 10),
                 lambda: lr.OneCycleLR(0.1, 8, three_phase=True, anneal_strategy="linear"),
                 lambda: lr.OneCycleLR(1.0, 5, divide_factor=10, end_learning_rate=0.01, phase_pct=0.4)):
        schedule = make()
        rates = [schedule()]
        for _ in range(min(schedule.total_steps, 9)):
            schedule.step()
            rates.append(schedule())
        seen.append(rates)
    short = lr.OneCycleLR(0.1, 2)
    short.step()
    short.step()
    seen.append(attempt(short.step))
    x = paddle.arange(12.0).reshape([1, 1, 3, 4])
    x.stop_gradient = False
    for layer in (paddle.nn.Pad2D([1, 0, 2, 1], value=3.0), paddle.nn.ZeroPad2D(1), paddle.nn.Pad2D(1)):
        y = layer(x)
        seen += [repr(layer), y.grad_fn.name(), y, paddle.grad(y.sum(), x)]
    return seen


@program
def lbfgs_fits_a_small_network_and_the_rosenbrock_valley(paddle):
    """paddle's LBFGS with and without the strong-Wolfe line search (float64, which the method
    needs to stay comparable over iterations): each step's loss, the evaluations and
    iterations its state counts, the weights reached, and its refusal of another search."""
    paddle.set_default_dtype("float64")
    try:
        seen = []
        x = paddle.linspace(-1, 1, 16).reshape([8, 2])
        y = paddle.sin(3 * x[:, :1]) * x[:, 1:]
        for search in (None, "strong_wolfe"):
            paddle.seed(0)
            net = paddle.nn.Sequential(paddle.nn.Linear(2, 8), paddle.nn.Tanh(), paddle.nn.Linear(8, 1))
            optimizer = paddle.optimizer.LBFGS(learning_rate=0.5, max_iter=6, history_size=5,
                                               line_search_fn=search, parameters=net.parameters())

            def closure():
                optimizer.clear_grad()
                loss = ((net(x) - y) ** 2).mean()
                loss.backward()
                return loss
            for _ in range(3):
                seen += [optimizer.step(closure), optimizer.state["func_evals"], optimizer.state["n_iter"]]
            seen += [net[0].weight, net[2].bias]
        p = paddle.to_tensor([-1.5, 2.0], stop_gradient=False)
        optimizer = paddle.optimizer.LBFGS(max_iter=12, line_search_fn="strong_wolfe", parameters=[p])

        def rosenbrock():
            optimizer.clear_grad()
            loss = (1 - p[0]) ** 2 + 100 * (p[1] - p[0] ** 2) ** 2
            loss.backward()
            return loss
        seen += [optimizer.step(rosenbrock), p, sorted(optimizer.state)]
        q = paddle.to_tensor([1.0, 2.0], stop_gradient=False)

        def square():
            loss = (q * q).sum()
            loss.backward()
            return loss
        armijo = paddle.optimizer.LBFGS(line_search_fn="armijo", parameters=[q])
        return seen + [attempt(lambda: armijo.step(square))]
    finally:
        paddle.set_default_dtype("float32")


@program
def optimizer_state_dicts_name_each_accumulator(paddle):
    """Optimizer.state_dict: each accumulator under ``{parameter}_{kind}_{n}`` (n counting that
    name in the process: a second optimizer over the same parameters gets the next), a power of
    a beta as a [1] tensor, the scheduler's state under LR_Scheduler; set_state_dict loads the
    values (a later update continues from them), refuses a dict without an existing
    accumulator, and one whose names do not match the accumulators it makes later."""
    paddle.seed(2)
    net = paddle.nn.Linear(2, 1)
    x = paddle.to_tensor([[1.0, -2.0]])
    seen = []
    makers = (lambda p: paddle.optimizer.Adam(learning_rate=0.1, parameters=p),
              lambda p: paddle.optimizer.AdamW(learning_rate=paddle.optimizer.lr.StepDecay(0.1, 2),
                                               parameters=p),
              lambda p: paddle.optimizer.Momentum(learning_rate=0.1, parameters=p),
              lambda p: paddle.optimizer.RMSProp(0.1, parameters=p, centered=True, momentum=0.5),
              lambda p: paddle.optimizer.Adagrad(learning_rate=0.1, parameters=p),
              lambda p: paddle.optimizer.Adadelta(learning_rate=0.1, parameters=p),
              lambda p: paddle.optimizer.Adamax(learning_rate=0.1, parameters=p),
              lambda p: paddle.optimizer.SGD(learning_rate=0.1, parameters=p))
    def named(key):  # the layer's number counts every Linear the process made before
        return key.replace(net.weight.name, "weight").replace(net.bias.name, "bias")

    for make in makers:
        opt = make(net.parameters())
        before = sorted(named(k) for k in opt.state_dict())
        for _ in range(2):
            net(x).sum().backward()
            opt.step()
            opt.clear_grad()
        state = opt.state_dict()
        seen += [before, [[named(k), v] for k, v in sorted(state.items())]]
        opt.set_state_dict(state)
        net(x).sum().backward()
        opt.step()
        opt.clear_grad()
        seen += [net.weight, net.bias]
    adam = paddle.optimizer.Adam(learning_rate=0.1, parameters=net.parameters())
    net(x).sum().backward()
    adam.step()
    fresh = paddle.optimizer.Adam(learning_rate=0.1, parameters=net.parameters())
    fresh.set_state_dict(adam.state_dict())
    refusals = [attempt(lambda: adam.set_state_dict({})), attempt(fresh.step)]
    for refused in refusals:
        if isinstance(refused, dict) and "message" in refused:
            refused["message"] = named(refused["message"])
    return seen + refusals


@program
def optimizer_kernels_round_as_paddles(paddle):
    """float64 parameters: the kernels' float attributes (Momentum's mu, RMSProp's rho, epsilon
    and momentum, Adagrad's, Adadelta's and Adamax's) are float32 numbers, AdamW's decay too,
    while Adam's betas keep double precision; Adamax's beta1 power starts from beta1 as given.
    sgd_ rounds its update once (a fused multiply-add) except for a float32 parameter whose size
    is a multiple of 8."""
    import numpy as np

    rs = np.random.RandomState(3)
    makers = [lambda p: paddle.optimizer.SGD(0.1, parameters=p),
              lambda p: paddle.optimizer.Momentum(0.1, momentum=0.9, parameters=p),
              lambda p: paddle.optimizer.Momentum(0.1, momentum=0.9, parameters=p, use_nesterov=True),
              lambda p: paddle.optimizer.RMSProp(0.01, parameters=p),
              lambda p: paddle.optimizer.RMSProp(0.01, momentum=0.5, centered=True, parameters=p),
              lambda p: paddle.optimizer.Adagrad(0.01, parameters=p),
              lambda p: paddle.optimizer.Adadelta(0.01, parameters=p),
              lambda p: paddle.optimizer.Adamax(0.01, parameters=p),
              lambda p: paddle.optimizer.Adam(0.01, parameters=p),
              lambda p: paddle.optimizer.AdamW(0.01, parameters=p)]
    out = []
    runs = (("float64", 5, makers), ("float32", 11, makers[:1]), ("float32", 16, makers[:1]))
    for dtype, size, chosen in runs:
        start, slope = rs.randn(size).astype(dtype), rs.randn(size).astype(dtype)
        for make in chosen:
            w = paddle.create_parameter([size], dtype,
                                        default_initializer=paddle.nn.initializer.Assign(start))
            opt = make([w])
            for _ in range(3):
                (w * paddle.to_tensor(slope)).sum().backward()
                opt.step()
                opt.clear_grad()
            out.append(w)
    return out
