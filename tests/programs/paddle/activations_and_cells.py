"""The clipping, gating and self-normalising activations, the per-channel layers (PReLU,
Dropout2D, InstanceNorm) and the recurrent cells: values at and around each kernel's branch
points, gradients, the refusal of a double grad, node names, parameters and printouts."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import paddle_program as program


@program
def clipping_and_gating_activations_at_their_branch_points(paddle):
    """Each is one kernel (glu paddle's composition); hardswish's slope is 0 at -3 and 1 at 3,
    hardsigmoid's slope 0.1666667; log_sigmoid rounds to -0 for large inputs; a create_graph
    pass through any but glu is refused ("... doesn't have any grad op")."""
    F = paddle.nn.functional
    x = paddle.to_tensor([[-4.0, -3.0, -1.5, 0.0, -0.5], [1.0, 3.0, 4.5, 6.0, 25.0]], stop_gradient=False)
    seen = []
    for f in (F.relu6, F.hardtanh, lambda t: F.hardtanh(t, -2.0, 2.5), F.hardswish, F.hardsigmoid,
              lambda t: F.hardsigmoid(t, 0.25, 0.4), F.mish, F.log_sigmoid, F.softsign, F.selu,
              lambda t: F.glu(t[:, :4], axis=1), lambda t: F.glu(t, axis=0),
              lambda t: F.prelu(t, paddle.to_tensor([0.25]))):
        y = f(x)
        g, = paddle.grad(y.sum(), x)
        seen += [y, y.grad_fn.name(), g,
                 attempt(lambda: paddle.grad(f(x).sum(), x, create_graph=True)[0].grad_fn.name())]
    return seen


@program
def activation_layers_print_as_paddle(paddle):
    nn = paddle.nn
    layers = [nn.ReLU6(), nn.Hardtanh(), nn.Hardtanh(-2.0, 2.0), nn.Hardswish(), nn.Hardsigmoid(), nn.Mish(),
              nn.LogSigmoid(), nn.Softsign(), nn.SELU(), nn.GLU(), nn.GLU(0), nn.PReLU(), nn.PReLU(3, 0.1),
              nn.Dropout2D(), nn.Dropout2D(0.2), nn.InstanceNorm1D(4), nn.InstanceNorm2D(3)]
    x = paddle.to_tensor([[-2.0, 0.5, 3.0, 4.0]], stop_gradient=False)
    return [[repr(layer) for layer in layers], nn.GLU()(x), nn.PReLU()(x), nn.ReLU6()(x * 2.0)]


@program
def prelu_learns_one_slope_per_channel(paddle):
    paddle.seed(0)
    layer = paddle.nn.PReLU(3)
    x = paddle.randn([2, 3, 2, 2])
    x.stop_gradient = False
    y = layer(x)
    (y * y).sum().backward()
    return [y.grad_fn.name(), layer._weight, layer._weight.grad, x.grad, list(layer.state_dict())]


@program
def channel_dropout_draws_one_mask_per_channel(paddle):
    """Dropout2D is dropout along axes 0 and 1: the input scaled by 1/(1-p), times a float32
    uniform mask per channel (MultiplyGradNode); p = 0 and evaluation give the input itself,
    p = 1 the input scaled by 0."""
    paddle.seed(3)
    x = paddle.randn([2, 4, 3, 3])
    x.stop_gradient = False
    layer = paddle.nn.Dropout2D(0.5)
    y = layer(x)
    y.sum().backward()
    layer.eval()
    F = paddle.nn.functional
    return [y, y.grad_fn.name(), x.grad, layer(x) is x, F.dropout2d(x, 0.0) is x,
            F.dropout2d(x, 1.0).grad_fn.name(), F.dropout(x, 0.0, training=False) is x,
            F.dropout(x, 0.0, mode="downscale_in_infer") is x, F.dropout(x, 0.4, axis=1).grad_fn.name(),
            attempt(lambda: F.dropout(x, 1.5))]


@program
def instance_norm_normalises_each_sample_s_channels(paddle):
    paddle.seed(1)
    seen = []
    for layer, shape in ((paddle.nn.InstanceNorm2D(3), [2, 3, 4, 4]),
                         (paddle.nn.InstanceNorm1D(4), [3, 4, 5]),
                         (paddle.nn.InstanceNorm2D(2, weight_attr=False, bias_attr=False), [1, 2, 3, 2])):
        x = paddle.randn(shape)
        x.stop_gradient = False
        y = layer(x)
        (y * paddle.linspace(-1.0, 1.0, y.size).reshape(y.shape)).sum().backward()
        seen += [y, y.grad_fn.name(), x.grad, [(k, v) for k, v in layer.state_dict().items()]]
    return seen + [attempt(lambda: paddle.nn.InstanceNorm2D(3)(paddle.ones([2, 3, 4])))]


@program
def recurrent_cells_step_by_step(paddle):
    """LSTMCell / GRUCell / SimpleRNNCell: paddle's parameters and draws, a step from zeros
    and one from the states it returned, and gradients into the weights."""
    paddle.seed(0)
    seen = []
    for cell in (paddle.nn.LSTMCell(3, 4), paddle.nn.GRUCell(3, 4),
                 paddle.nn.SimpleRNNCell(3, 2, activation="relu")):
        out, state = cell(paddle.randn([2, 3]))
        out, state = cell(paddle.randn([2, 3]), state)
        (out * out).sum().backward()
        seen += [repr(cell), out, state, cell.weight_ih.grad, cell.bias_hh.grad,
                 [(n, p.shape) for n, p in cell.named_parameters()]]
    return seen


@program
def float_attributes_round_to_float32_for_float64_inputs(paddle):
    """Kernel attributes declared as float (elu's alpha, hardtanh's bounds, hardsigmoid's slope
    and offset, selu's constants) are float32 numbers also for a float64 input; softplus's
    beta and leaky_relu's slope are doubles."""
    F = paddle.nn.functional
    x = paddle.to_tensor([[-2.0, 0.5, -1.3, 3.0, 0.0]], dtype="float64", stop_gradient=False)
    seen = []
    for f in (lambda t: F.elu(t, 0.3), lambda t: F.hardtanh(t, -1.2, 2.5), F.hardsigmoid,
              lambda t: F.hardsigmoid(t, 0.3, 0.1), F.selu, lambda t: F.softplus(t, 0.3, 20.0),
              lambda t: F.leaky_relu(t, 0.1)):
        y = f(x)
        seen += [y, paddle.grad(y.sum(), x)[0]]
    return seen


@program
def adaptive_max_pooling(paddle):
    """adaptive_max_pool2d / AdaptiveMaxPool2D: paddle's max_pool2d_with_index kernel (its
    gradient to each cell's first largest element, no double grad)."""
    rows = [[1.0, 3.0, 3.0, 0.5, 2.0], [0.0, -1.0, 3.0, 4.0, 1.0], [2.0, 2.0, 1.0, 0.0, 4.0]]
    x = paddle.to_tensor([[rows]], stop_gradient=False)
    seen = []
    for size in ((2, 2), (1, 1), (3, 5), (2, 3), 2):
        y = paddle.nn.functional.adaptive_max_pool2d(x, size)
        seen += [y, y.grad_fn.name(), paddle.grad(y.sum(), x)]
    y = paddle.nn.AdaptiveMaxPool2D(2)(x)
    return seen + [repr(paddle.nn.AdaptiveMaxPool2D(2)),
                   attempt(lambda: paddle.grad(y.sum(), x, create_graph=True))]


@program
def shrinks_and_thresholded_relu(paddle):
    """softshrink, hardshrink, tanhshrink and thresholded_relu, as functions and layers: values at
    the band's edges (hardshrink keeps ±t, a float32 threshold also in float64; thresholded_relu's
    value is a float32 attribute), gradients (-0 where thresholded_relu masks a negative one),
    node names, the refused double grad and the printouts."""
    F = paddle.nn.functional
    seen = []
    for dtype in ("float32", "float64"):
        x = paddle.to_tensor([-1.5, -0.3, 0.0, 0.5, 2.0, -0.4, 0.4, 0.2, 0.2000000001], dtype=dtype,
                             stop_gradient=False)
        for f in (lambda t: F.softshrink(t, 0.4), lambda t: F.hardshrink(t, 0.4),
                  lambda t: F.hardshrink(t, 0.2), F.tanhshrink, lambda t: F.thresholded_relu(t, 0.2),
                  lambda t: F.thresholded_relu(t, 0.4, 0.3), paddle.nn.Softshrink(), paddle.nn.Hardshrink(),
                  paddle.nn.ThresholdedReLU(0.1, -2.0)):
            y = f(x)
            seen += [y, y.grad_fn.name(), paddle.grad((y * y - 2.0 * y).sum(), x)[0],
                     attempt(lambda: paddle.grad(f(x).sum(), x, create_graph=True))]
    layers = [paddle.nn.Softshrink(0.4), paddle.nn.Hardshrink(), paddle.nn.Tanhshrink(),
              paddle.nn.ThresholdedReLU(0.2, 0.5)]
    return seen + [[repr(layer) for layer in layers]]
