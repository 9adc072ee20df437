"""What everyday training programs reached that the facade got wrong or lacked: the transposed
convolutions' default weights (and Conv1DTranspose), a grouped convolution's spread, the
optimizers' state_dict order, cosine_embedding_loss, clip_grad_value_ outside no_grad, numpy
scalars in to_tensor, LayerDict's ordered views, and ``//`` / ``%`` / ``&`` at the edges of
paddle's type rules."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import paddle_program as program


@program
def transposed_convolutions_draw_xavier_uniform(paddle):
    """A transposed convolution's weight is drawn by paddle's default for a weight
    (XavierUniform over its (in, out / groups, *kernel) shape); a plain one's normal spread
    counts every input channel, a grouped one's too."""
    paddle.seed(7)
    two_d = paddle.nn.Conv2DTranspose(8, 4, 3, stride=2, padding=1, output_padding=1)
    grouped = paddle.nn.Conv2D(4, 8, 3, groups=4)
    one_d = paddle.nn.Conv1DTranspose(2, 3, 3, stride=2, padding=1, output_padding=1)
    three_d = paddle.nn.Conv3DTranspose(2, 2, 2, groups=2)
    x = paddle.rand([2, 2, 5])
    x.stop_gradient = False
    y = one_d(x)
    y.sum().backward()
    bare = paddle.nn.functional.conv1d_transpose(x, one_d.weight, stride=1, padding=[1], dilation=2)
    return [two_d.weight, grouped.weight, one_d.weight, three_d.weight, str(one_d), y,
            y.grad_fn.name(), x.grad, one_d.weight.grad, one_d.bias.grad, bare]


@program
def optimizer_state_dict_lists_accumulators_kind_by_kind(paddle):
    model = paddle.nn.Sequential(paddle.nn.Linear(2, 2), paddle.nn.Linear(2, 1))
    parameters = [p.name for p in model.parameters()]

    def described(key):  # (which parameter, which accumulator): unique-name counters left out
        owner = next(i for i, name in enumerate(parameters) if key.startswith(name + "_"))
        return owner, key[len(parameters[owner]) + 1:].rsplit("_", 1)[0]

    orders = []
    for make in (paddle.optimizer.Adam, paddle.optimizer.RMSProp, paddle.optimizer.Momentum):
        optimizer = make(parameters=model.parameters(), learning_rate=0.1)
        model(paddle.ones([1, 2])).sum().backward()
        optimizer.step()
        optimizer.clear_grad()
        orders.append([described(key) for key in optimizer.state_dict()])
    return orders


@program
def cosine_embedding_loss_as_paddle_composes_it(paddle):
    a = paddle.to_tensor([[1.0, 2.0, 0.5], [0.1, -1.0, 2.0], [3.0, 0.0, 1.0]], stop_gradient=False)
    b = paddle.to_tensor([[0.5, 1.0, 1.5], [1.0, 1.0, -2.0], [0.0, 0.0, 0.0]], stop_gradient=False)
    F = paddle.nn.functional
    losses = [F.cosine_embedding_loss(a, b, paddle.to_tensor(label), margin=0.2, reduction=reduction)
              for reduction in ("mean", "sum", "none") for label in ([1, -1, 1], [-1, -1, 1])]
    layer = paddle.nn.CosineEmbeddingLoss(margin=-0.5)(a, b, paddle.to_tensor([-1, -1, 1]))
    layer.backward()
    return [losses, [loss.grad_fn.name() for loss in losses], layer, a.grad, b.grad,
            attempt(lambda: F.cosine_embedding_loss(a, b, paddle.to_tensor([[1], [1], [1]])))]


@program
def clip_grad_value_writes_gradients_under_no_grad(paddle):
    """A gradient is a leaf that does not stop gradient: an in-place op on it refuses where
    grad is enabled, but paddle's clipping functions run under no_grad."""
    layer = paddle.nn.Linear(2, 2)
    layer(paddle.ones([1, 2])).sum().backward()
    norm = paddle.nn.utils.clip_grad_norm_(layer.parameters(), max_norm=0.1)
    paddle.nn.utils.clip_grad_value_(layer.parameters(), 0.01)
    return [norm, layer.weight.grad, layer.bias.grad, attempt(lambda: layer.weight.grad.clip_(-1.0, 1.0))]


@program
def numpy_scalars_keep_their_dtype_in_to_tensor(paddle):
    import numpy as np

    values = [np.float64(1.5), np.float32(1.5), np.int32(3), np.float16(1.0), np.bool_(True),
              [np.float64(1.0), np.float64(2.0)], [np.int32(1), np.int32(2)], [1.0, np.float64(2.0)]]
    return [str(paddle.to_tensor(v).dtype) for v in values]


@program
def layer_dict_views_are_ordered_dict_views(paddle):
    heads = paddle.nn.LayerDict({"b": paddle.nn.Linear(1, 1), "a": paddle.nn.Linear(1, 2)})
    linear = paddle.nn.Linear(1, 1)
    return [repr(heads.keys()), type(heads.values()).__name__, type(heads.items()).__name__,
            type(linear._parameters).__name__, type(linear._sub_layers).__name__,
            type(linear._buffers).__name__]


@program
def floor_division_and_bitwise_operands(paddle):
    """``//`` makes a number a tensor of shape [1] (a 0-d tensor's result has shape [1]) and,
    with one operand 0-d, promotes two dtypes as tensors (the wider float, or the float of a
    float and an integer); ``%`` promotes as the arithmetic operators; ``&``, ``|`` and ``^``
    take only a tensor on the right."""
    seven, seven_f = paddle.to_tensor(7), paddle.to_tensor(7.0)
    floats, ints = paddle.to_tensor([7.0, 3.0]), paddle.to_tensor([2, 2])
    wide = paddle.to_tensor(7.0, dtype="float64")
    mask = paddle.to_tensor([1.0, -1.0]) > 0
    return [seven // 2, 9 // seven, seven_f // 2.0, seven % 2, seven_f // ints, ints // seven_f,
            wide // floats, paddle.floor_divide(seven_f, paddle.to_tensor(2)), seven_f % ints,
            wide % floats, attempt(lambda: floats // ints), attempt(lambda: mask & True),
            attempt(lambda: mask | False), attempt(lambda: mask ^ True), True & mask]


@program
def losses_paddle_composes_in_python(paddle):
    """margin_ranking_loss, soft_margin_loss, hinge_embedding_loss and square_error_cost, as
    paddle composes them (their nodes, and the mean_all kernel's missing double grad)."""
    F = paddle.nn.functional
    x = paddle.to_tensor([[0.5, -1.0, 2.0], [1.5, 0.2, -0.3]], stop_gradient=False)
    other = paddle.to_tensor([[1.0, 0.0, 1.0], [-1.0, 0.5, 0.5]], stop_gradient=False)
    label = paddle.to_tensor([[1.0, -1.0, 1.0], [-1.0, 1.0, 0.0]])
    outs = []
    for reduction in ("mean", "sum", "none"):
        outs += [F.margin_ranking_loss(x, other, label, margin=0.1, reduction=reduction),
                 F.margin_ranking_loss(x, other, label, reduction=reduction),
                 F.soft_margin_loss(x, label, reduction=reduction),
                 F.hinge_embedding_loss(x, label, margin=0.5, reduction=reduction)]
    outs += [F.square_error_cost(x, other), paddle.nn.MarginRankingLoss(0.2)(x, other, label),
             paddle.nn.SoftMarginLoss()(x, label), paddle.nn.HingeEmbeddingLoss()(x, label)]
    total = paddle.add_n([o.sum() for o in outs])
    grads = paddle.grad(total, [x, other], retain_graph=True)

    def second_derivative():
        first = paddle.grad(total, [x, other], create_graph=True)
        return paddle.grad(first[0].sum(), x)

    return [outs, [o.grad_fn.name() for o in outs], grads, attempt(second_derivative),
            attempt(lambda: F.margin_ranking_loss(x, other, label, reduction="bad")),
            attempt(lambda: F.soft_margin_loss(x, label, reduction="bad")),
            attempt(lambda: F.hinge_embedding_loss(x, label, reduction="bad"))]


@program
def unfold_and_its_layer(paddle):
    """Sliding blocks as columns: kernel, stride, padding (one number, two, or four with equal
    opposite sides) and dilation; UnfoldGradNode, whose kernel has no double grad."""
    paddle.seed(0)
    x = paddle.rand([1, 2, 4, 4])
    x.stop_gradient = False
    y = paddle.nn.functional.unfold(x, 2, strides=2)
    z = paddle.nn.Unfold(kernel_sizes=[2, 2], paddings=1)(x)
    w = paddle.nn.functional.unfold(x, [2, 3], strides=[1, 2], paddings=[1, 0, 1, 0], dilations=[1, 1])
    (y.sum() + (z * z).sum() + w.sum()).backward()
    return [y, y.grad_fn.name(), z, w, x.grad, str(paddle.nn.Unfold(2)),
            str(paddle.nn.Unfold([2, 3], strides=2, paddings=[1, 0], dilations=2)),
            attempt(lambda: paddle.grad((y * y).sum(), x, create_graph=True))]


@program
def focal_poisson_gaussian_and_multi_label_losses(paddle):
    """sigmoid_focal_loss (with a normalizer), poisson_nll_loss (log input or not, full),
    gaussian_nll_loss (a variance per row, full) and multi_label_soft_margin_loss (weighted), as
    paddle composes them, and their layers."""
    F = paddle.nn.functional
    paddle.seed(5)
    x = paddle.randn([4, 3])
    x.stop_gradient = False
    target = paddle.randn([4, 3])
    label = (target > 0).astype("float32")
    outs = []
    for reduction in ("mean", "sum", "none"):
        outs += [F.sigmoid_focal_loss(x, label, reduction=reduction),
                 F.sigmoid_focal_loss(x, label, normalizer=paddle.to_tensor([2.0]), alpha=0.5, gamma=1.5,
                                      reduction=reduction),
                 F.poisson_nll_loss(x, target.abs(), reduction=reduction),
                 F.poisson_nll_loss(x.abs() + 0.1, target.abs() * 3, log_input=False, full=True,
                                    reduction=reduction),
                 F.gaussian_nll_loss(x, target, paddle.ones([4, 3]) * 0.5, reduction=reduction),
                 F.gaussian_nll_loss(x, target, paddle.ones([4]) * 2, full=True, reduction=reduction),
                 F.multi_label_soft_margin_loss(x, label, weight=paddle.to_tensor([1.0, 2.0, 0.5]),
                                                reduction=reduction)]
    layers = [paddle.nn.PoissonNLLLoss()(x, target.abs()),
              paddle.nn.GaussianNLLLoss(full=True)(x, target, paddle.ones([4, 3])),
              paddle.nn.MultiLabelSoftMarginLoss()(x, label)]
    paddle.add_n([o.sum() for o in outs + layers]).backward()
    return [outs, [o.grad_fn.name() for o in outs], layers, x.grad,
            attempt(lambda: F.gaussian_nll_loss(x, target, -paddle.ones([4, 3]))),
            attempt(lambda: F.poisson_nll_loss(x, target, epsilon=0.0))]


@program
def summary_tables_and_input_specs(paddle):
    """paddle.summary's table of a network (printed) and its totals, Model.summary from the
    input specs, and InputSpec itself; the summary's forward draws its inputs from paddle's
    generator, so what is drawn after it shows that too."""
    import contextlib
    import io

    nn = paddle.nn
    paddle.seed(10)
    model = nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1D(4), nn.ReLU(), nn.Linear(4, 1))
    for parameter in model[0].parameters():
        parameter.stop_gradient = True
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        totals = paddle.summary(model, (2, 4))
        spec = paddle.static.InputSpec([None, 4], "float32", "x")
        hapi = paddle.Model(model, inputs=[spec])
        from_specs = hapi.summary()
    lines = [line.split() for line in printed.getvalue().splitlines()]  # (names carry layer counters)
    return [[cells[1:] if cells and "-" in cells[0] and cells[0][0].isupper() else cells for cells in lines],
            {k: int(v) for k, v in totals.items()}, {k: int(v) for k, v in from_specs.items()}, repr(spec),
            spec.shape, str(spec.dtype), paddle.rand([2]), model.training]
