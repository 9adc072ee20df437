"""Arguments each framework refuses, with its exception type and words."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import torch_program as program


@program
def argument_errors(torch):
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    return [attempt(lambda: x + torch.tensor([1.0, 2.0])),
            attempt(lambda: x @ torch.tensor([[1.0, 2.0, 3.0]])),
            attempt(lambda: torch.tensor([1.0, 2.0]) @ torch.tensor([1.0, 2.0, 3.0])),
            attempt(lambda: x @ torch.tensor([1.0, 2.0])),
            attempt(lambda: torch.ones(2, 3, 4) @ torch.ones(2, 5, 4)),
            attempt(lambda: torch.ones(2, 3, 4) @ torch.ones(3)),
            attempt(lambda: torch.matmul(x, 2)),
            attempt(lambda: torch.matmul(torch.tensor(1.0), torch.tensor(2.0))),
            attempt(lambda: x.reshape(4)), attempt(lambda: x.sum(2)),
            attempt(lambda: x.transpose(0, 3)), attempt(lambda: x.expand(3, 2)),
            attempt(lambda: torch.cat([x, torch.tensor([1.0])])),
            attempt(lambda: torch.cat([x, torch.ones(2, 2)], 0)),
            attempt(lambda: torch.stack([x, torch.ones(3)])),
            attempt(lambda: x.numpy()), attempt(lambda: x[5]), attempt(lambda: x.item()),
            attempt(lambda: torch.ones(2, 3, 4).t()), attempt(lambda: x.expand(3)),
            attempt(lambda: torch.tensor([[1.0, 2.0], [3.0]]))]


@program
def wrong_argument_types(torch):
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    return [attempt(lambda: x + "a"), attempt(lambda: torch.mul(x, "a")),
            attempt(lambda: x.reshape(2.5)), attempt(lambda: x[1.5]), attempt(lambda: x.transpose(0, "a")),
            attempt(lambda: torch.cat(x)), attempt(lambda: x.clamp()), attempt(lambda: x.permute(0, 0)),
            attempt(lambda: x.softmax(3)), attempt(lambda: x.unsqueeze(5)), attempt(lambda: x.max(4))]


@program
def bad_construction_raises_the_frameworks_errors(torch):
    return [attempt(lambda: torch.tensor(bad)) for bad in ("a", [1, "x"])]


@program
def optimizer_scheduler_and_scaler_arguments_are_refused_as_torch_does(torch):
    """The argument errors of SGD / Adam, their parameter groups and state dicts, the
    schedulers and GradScaler, with torch's types and texts (unscale_, step and update before
    any scale() are refused; a scheduler resumed without initial_lr explains why)."""
    def leaf():
        return torch.tensor([1.0], requires_grad=True)

    def sgd(**settings):
        return torch.optim.SGD([leaf()], **{"lr": 0.1, **settings})

    def shared():
        p = leaf()
        return torch.optim.SGD([{"params": [p]}, {"params": [p]}], lr=0.1)

    def scaler_call(name):
        scaler, optimizer = torch.amp.GradScaler("cpu"), sgd()
        return getattr(scaler, name)(optimizer) if name != "update" else scaler.update()

    scaled = torch.amp.GradScaler("cpu")
    scaled.scale(leaf() * 2.0)
    return [attempt(f) for f in (
        lambda: torch.optim.SGD(leaf()), lambda: torch.optim.SGD([]), lambda: torch.optim.SGD([1.0]),
        lambda: torch.optim.SGD([{"params": {leaf()}}], lr=0.1),
        lambda: torch.optim.SGD([leaf() * 2], lr=0.1), lambda: sgd(lr=-1.0),
        lambda: sgd(momentum=-0.5), lambda: sgd(weight_decay=-2.0), lambda: sgd(nesterov=True),
        lambda: torch.optim.Adam([leaf()], eps=-1.0), lambda: torch.optim.Adam([leaf()], betas=(0.9, 1.5)),
        lambda: torch.optim.Adam([leaf()], lr=-0.5), lambda: torch.optim.Adam([leaf()], weight_decay=-1.0),
        shared, lambda: sgd().add_param_group([1]),
        lambda: sgd().load_state_dict({"state": {}, "param_groups": []}),
        lambda: sgd().load_state_dict({"state": {}, "param_groups": [{"params": [0, 1]}]}),
        lambda: torch.optim.lr_scheduler.StepLR(sgd(), 1, last_epoch=3),
        lambda: torch.optim.lr_scheduler.LambdaLR(sgd(), [lambda e: 1, lambda e: 2]),
        lambda: torch.amp.GradScaler("cpu", growth_factor=0.5),
        lambda: torch.amp.GradScaler("cpu", backoff_factor=1.5),
        lambda: scaler_call("unscale_"), lambda: scaler_call("step"), lambda: scaler_call("update"),
        lambda: scaled.step(sgd(), closure=lambda: None), scaled.update,
        lambda: torch.amp.GradScaler("cpu").load_state_dict({}))]


@program
def module_and_layer_arguments_are_refused_as_torch_does(torch):
    """nn.Module's and nn.functional's argument errors with torch's types and texts: a
    layer_norm shape shows the input's size as a list, batch_norm in evaluation names the
    missing statistic (running_mean first), Variable of a non-tensor is a TypeError."""
    F = torch.nn.functional

    def linear():
        return torch.nn.Linear(2, 2)

    return [attempt(f) for f in (
        lambda: linear().register_parameter("w2", 3),
        lambda: torch.nn.Sequential(linear()).get_submodule("0.foo"), lambda: linear().train(3),
        lambda: linear().load_state_dict({"weight": torch.zeros(2, 2)}),
        lambda: linear().load_state_dict({"weight": torch.zeros(2, 2), "bias": torch.zeros(2),
                                          "extra": torch.zeros(1)}),
        lambda: F.nll_loss(torch.zeros(2, 3), torch.tensor([0, 1]), reduction="avg"),
        lambda: F.mse_loss(torch.zeros(2), torch.zeros(2), reduction="avg"),
        lambda: F.layer_norm(torch.zeros(2, 3), (4,)),
        lambda: F.batch_norm(torch.zeros(2, 3), None, None, training=False),
        lambda: F.batch_norm(torch.zeros(2, 3), torch.zeros(3), None, training=False),
        lambda: torch.autograd.Variable(3), lambda: setattr(torch.zeros(2), "data", 3))]


@program
def cat_and_stack_of_no_tensors_are_refused(torch):
    """An empty list: cat's ValueError and stack's RuntimeError, in torch's words."""
    return [attempt(lambda: torch.cat([])), attempt(lambda: torch.concat([])),
            attempt(lambda: torch.stack([])), torch.cat([torch.ones(1)], 0)]


@program
def register_buffer_refusals(torch):
    """register_buffer's checks, in torch's order and words: a dotted name, an empty one, a
    name an attribute holds, a value that is no tensor; None is a buffer that state_dict skips."""
    m = torch.nn.Module()
    m.weight_like = 3
    m.register_buffer("empty", None)
    return [attempt(lambda: m.register_buffer("a.b", torch.ones(1))),
            attempt(lambda: m.register_buffer("", torch.ones(1))),
            attempt(lambda: m.register_buffer("weight_like", torch.ones(1))),
            attempt(lambda: m.register_buffer("b", [1.0])),
            list(m.state_dict().keys()), [n for n, _ in m.named_buffers()]]


@program
def hook_init_loss_and_transform_arguments_are_refused_as_torch_does(torch):
    """Module backward hooks returning the wrong number of gradients, nn.init on too few
    dimensions or an unknown nonlinearity, a loss with an unknown reduction, a layer's groups,
    vector_to_parameters of a non-tensor, torch.func.grad of a non-scalar, vmap over unequal
    sizes, mm of a non-matrix, strict functional APIs and gradcheck without inputs: each in
    torch's type and words."""
    F = torch.nn.functional  # noqa: N806
    x = torch.ones(2, 3, requires_grad=True)

    def hooked(hook_kind, returned):
        layer = torch.nn.Linear(3, 2)
        getattr(layer, hook_kind)(lambda *args: returned)
        return attempt(lambda: layer(x).sum().backward())

    refused = [
        hooked("register_full_backward_hook", (None, None)),
        hooked("register_full_backward_pre_hook", (None, None)),
        attempt(lambda: torch.nn.init.eye_(torch.ones(2, 2, 2))),
        attempt(lambda: torch.nn.init.calculate_gain("swish")),
        attempt(lambda: torch.nn.init.xavier_uniform_(torch.ones(3))),
        attempt(lambda: F.mse_loss(x, x, reduction="bad")),
        attempt(lambda: F.l1_loss(x, x, reduction="bad")),
        attempt(lambda: F.cross_entropy(x, torch.tensor([0, 1]), reduction="bad")),
        attempt(lambda: torch.nn.Conv1d(3, 4, 1, groups=2)),
        attempt(lambda: torch.nn.Conv1d(4, 3, 1, groups=2)),
        attempt(lambda: torch.nn.Dropout(p=1.5)),
        attempt(lambda: F.dropout(x, p=-0.5)),
        attempt(lambda: torch.nn.BatchNorm1d(3)(torch.ones(2, 3, 4, 5))),
        attempt(lambda: torch.nn.utils.vector_to_parameters([1.0], [x])),
        attempt(lambda: torch.func.grad(lambda t: t * 2)(torch.ones(3))),
        attempt(lambda: torch.func.vmap(lambda a, b: a + b)(torch.ones(2), torch.ones(3))),
        attempt(lambda: torch.mm(torch.ones(3), torch.ones(3, 2))),
        attempt(lambda: torch.mm(torch.ones(2, 3), torch.ones(3))),
        attempt(lambda: torch.autograd.functional.jacobian(lambda t: torch.ones(2), x, strict=True)),
        attempt(lambda: torch.autograd.functional.vjp(lambda t: t.detach(), x, torch.ones(2, 3),
                                                      strict=True)),
        attempt(lambda: torch.autograd.gradcheck(lambda t: t * 2, (torch.ones(2, dtype=torch.float64),))),
        attempt(lambda: torch.einsum("ij,jk", x)),
        attempt(lambda: torch.einsum("ij", x, x)),
        attempt(lambda: len(torch.tensor(2.0))),
    ]
    return refused


@program
def arithmetic_functions_take_numbers_and_the_others_refuse_them(torch):
    """torch.add / sub / mul / div of two numbers make a 0-d tensor (int64 for ints, true
    division a float); pow of two numbers and a comparison with a number first match none of
    their signatures; maximum, minimum and matmul want tensors; an operator hands an operand
    that is no number back to Python."""
    t = torch.ones(2)
    made = [torch.add(1, 2), torch.add(2.0, 3), torch.div(1, 2), torch.mul(2, 3.5), torch.sub(5, 1),
            torch.subtract(1, 2.5), torch.multiply(2, 3), torch.divide(3, 2), torch.pow(2.0, t),
            torch.lt(t, 2)]
    refused = [lambda: torch.pow(2, 3), lambda: torch.pow(2.0, 3), lambda: torch.maximum(1, 2),
               lambda: torch.minimum(2.0, t), lambda: torch.maximum(t, 2), lambda: torch.matmul(1, 2),
               lambda: torch.matmul(t, 2), lambda: torch.eq(1, 2), lambda: torch.gt(2.0, t),
               lambda: torch.le(None, t), lambda: torch.exp(None), lambda: torch.add(t, "a"),
               lambda: torch.add("a", t), lambda: t + "a", lambda: t * None, lambda: None - t]
    return [(m, str(m.dtype)) for m in made] + [attempt(f) for f in refused]
