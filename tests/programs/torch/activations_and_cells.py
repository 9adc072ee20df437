"""The clipping, gating and self-normalising activations, the per-channel layers (PReLU,
Dropout2d, InstanceNorm), resampling and the recurrent cells: values at and around each
kernel's branch points, first and second derivatives, node names, parameters and printouts."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import torch_program as program


@program
def clipping_and_gating_activations_at_their_branch_points(torch):
    """hardtanh / relu6 pass the gradient strictly inside; hardswish's slope is 0 at -3 and 1
    at 3 (its outer branches); each is one node (relu6 hardtanh's, selu elu's), and
    second derivatives run through them, but for hardsigmoid's (not implemented in torch)."""
    F = torch.nn.functional
    x = torch.tensor([[-4.0, -3.0, -1.5, 0.0, 0.5], [1.0, 3.0, 4.5, 6.0, 25.0]], dtype=torch.float64,
                     requires_grad=True)
    seen = []
    for f in (F.relu6, F.hardtanh, lambda t: F.hardtanh(t, -2.0, 2.5), F.hardswish, F.hardsigmoid, F.mish,
              F.logsigmoid, F.softsign, F.selu, lambda t: F.glu(t, 0), lambda t: F.glu(t[:, :4]),
              lambda t: F.prelu(t, torch.tensor([0.25], dtype=torch.float64))):
        y = f(x)
        g, = torch.autograd.grad(y.sum(), x, create_graph=True)
        seen += [y, y.grad_fn.name(), g,
                 attempt(lambda: torch.autograd.grad((g * g).sum(), x, allow_unused=True))]
    return seen


@program
def activation_modules_print_and_refuse_as_torch(torch):
    nn = torch.nn
    modules = [nn.ReLU6(), nn.ReLU6(inplace=True), nn.Hardtanh(), nn.Hardtanh(-2, 2), nn.Hardswish(),
               nn.Hardsigmoid(), nn.Mish(), nn.LogSigmoid(), nn.Softsign(), nn.SELU(), nn.GLU(), nn.GLU(0),
               nn.PReLU(), nn.PReLU(3, init=0.1)]
    x = torch.tensor([[-2.0, 0.5, 3.0, 4.0]], requires_grad=True)
    return [[repr(m) for m in modules], nn.GLU()(x), nn.PReLU()(x),
            attempt(lambda: torch.nn.functional.glu(torch.ones(2, 3))),
            attempt(lambda: torch.nn.functional.prelu(torch.ones(2, 3), torch.ones(2)))]


@program
def prelu_learns_one_slope_per_channel(torch):
    torch.manual_seed(0)
    layer = torch.nn.PReLU(3)
    x = torch.randn(2, 3, 2, 2, requires_grad=True)
    y = layer(x)
    (y * y).sum().backward()
    seen = [y.grad_fn.name(), layer.weight, layer.weight.grad, x.grad, list(layer.state_dict())]
    for shape in ((2, 3, 2, 2), (4, 3), (5,)):
        values = torch.tensor([0.0, -1.5, 2.0, -0.5, 0.0, 1.0] * 10, dtype=torch.float64)
        x = values[:int(torch.tensor(shape).prod())].reshape(shape).requires_grad_()
        slopes = [0.25, -0.5, 2.0][:3 if len(shape) > 1 else 1]
        w = torch.tensor(slopes, dtype=torch.float64, requires_grad=True)
        y = torch.nn.functional.prelu(x, w)
        gx, gw = torch.autograd.grad((y * y).sum(), (x, w), create_graph=True)
        seen += [y, gx, gw, gx.grad_fn.name(), torch.autograd.grad((gx * gx).sum() + gw.sum(), (x, w))]
    return seen


@program
def channel_dropout_draws_one_mask_per_channel(torch):
    """Dropout2d keeps or zeros whole channels, by torch's generator; out of training, or at
    p = 0, the input itself."""
    torch.manual_seed(3)
    x = torch.randn(2, 4, 3, 3, requires_grad=True)
    layer = torch.nn.Dropout2d(0.5)
    y = layer(x)
    y.sum().backward()
    layer.eval()
    return [y, y.grad_fn.name(), x.grad, layer(x) is x, torch.nn.functional.dropout2d(x, 0.0) is x,
            torch.nn.functional.dropout2d(x, 0.3, training=False) is x, repr(layer),
            attempt(lambda: torch.nn.Dropout2d(1.5))]


@program
def channel_dropout_of_one_and_three_spatial_dimensions(torch):
    """Dropout1d / Dropout3d and their functions, batched and unbatched (the draw on a batch of
    one, then squeezed: SqueezeBackward1), dropout2d of a 3-D input (torch's warning, read as
    (N, C, L)), p = 1, the wrong ranks and a wrong p refused."""
    F = torch.nn.functional
    torch.manual_seed(0)
    x = torch.ones(2, 3, 4, requires_grad=True)
    y = F.dropout1d(x, 0.5)
    y.sum().backward()
    unbatched = F.dropout1d(torch.ones(3, 4, requires_grad=True), 0.5)
    cube = F.dropout3d(torch.ones(1, 3, 2, 2, 2, requires_grad=True), 0.5)
    loose = F.dropout3d(torch.ones(3, 2, 2, 2, requires_grad=True), 0.5)
    flat = F.dropout2d(torch.ones(3, 2, 2, requires_grad=True), 0.5)
    layer = torch.nn.Dropout1d(0.4)
    kept = layer(torch.ones(2, 5, 3))
    layer.eval()
    return [y, y.grad_fn.name(), x.grad, unbatched, unbatched.grad_fn.name(), cube, cube.grad_fn.name(),
            loose, loose.grad_fn.name(), flat, kept, layer(x) is x, F.dropout1d(x, 1.0),
            repr(torch.nn.Dropout3d()), attempt(lambda: F.dropout1d(torch.ones(4), 0.5)),
            attempt(lambda: F.dropout1d(torch.ones(2, 3, 4, 5), 0.5)), attempt(lambda: F.dropout1d(x, 1.5))]


@program
def instance_norm_normalises_each_sample_s_channels(torch):
    """InstanceNorm is torch's batch norm of the batch viewed as one sample: a view over
    NativeBatchNormBackward0; affine weights get gradients; running statistics (when tracked)
    move by the mean over the samples, and serve out of training."""
    torch.manual_seed(1)
    seen = []
    for make, shape in ((lambda: torch.nn.InstanceNorm2d(3), (2, 3, 4, 4)),
                        (lambda: torch.nn.InstanceNorm2d(3, affine=True, track_running_stats=True),
                         (2, 3, 3, 2)),
                        (lambda: torch.nn.InstanceNorm1d(4, affine=True), (3, 4, 5)),
                        (lambda: torch.nn.InstanceNorm1d(4, momentum=None, track_running_stats=True),
                         (4, 6))):
        layer = make()
        x = torch.randn(*shape, requires_grad=True)
        y = layer(x)
        (y * torch.linspace(-1.0, 1.0, y.numel()).reshape(y.shape)).sum().backward()
        seen += [repr(layer), y, y.grad_fn.name(), x.grad, [(k, v) for k, v in layer.state_dict().items()]]
        layer.eval()
        seen.append(layer(x))
    seen += [attempt(lambda: torch.nn.InstanceNorm2d(3)(torch.ones(2, 3))),
             attempt(lambda: torch.nn.InstanceNorm2d(5, affine=True)(torch.ones(2, 3, 2, 2))),
             attempt(lambda: torch.nn.functional.instance_norm(torch.ones(2, 3, 1)))]
    return seen


@program
def upsampling_nearest_and_bilinear(torch):
    """interpolate / Upsample: nearest reads floor(i / scale) (the given scale, not in/out),
    bilinear weighs half-pixel or corner-aligned neighbours; each one node, with gradients."""
    x = torch.arange(24.0, dtype=torch.float64).reshape(1, 2, 3, 4).requires_grad_()
    F = torch.nn.functional
    seen = []
    for kwargs in ({"scale_factor": 2}, {"size": (5, 3)}, {"scale_factor": 1.5}, {"scale_factor": (2, 0.5)},
                   {"size": (4, 7), "mode": "bilinear"}, {"size": (2, 2), "mode": "bilinear"},
                   {"scale_factor": 2, "mode": "bilinear", "align_corners": True},
                   {"scale_factor": 1.7, "mode": "bilinear", "recompute_scale_factor": True}):
        y = F.interpolate(x, **kwargs)
        g, = torch.autograd.grad((y * y).sum(), x)
        seen += [y, y.grad_fn.name(), g]
    line = torch.arange(5.0).reshape(1, 1, 5).requires_grad_()
    for mode in ("nearest", "linear"):
        y = F.interpolate(line, scale_factor=1.6, mode=mode)
        seen += [y, y.grad_fn.name()]
    return seen + [repr(torch.nn.Upsample(scale_factor=2)),
                   repr(torch.nn.Upsample(size=(3, 3), mode="bilinear")),
                   torch.nn.Upsample(scale_factor=2, mode="nearest")(x).shape]


@program
def recurrent_cells_step_by_step(torch):
    """LSTMCell / GRUCell / RNNCell: torch's parameters and draws, one step with and without a
    given state, batched and unbatched, and gradients into the weights."""
    torch.manual_seed(0)
    seen = []
    for cell in (torch.nn.LSTMCell(3, 4), torch.nn.GRUCell(3, 4), torch.nn.RNNCell(3, 4, nonlinearity="relu"),
                 torch.nn.RNNCell(3, 2, bias=False)):
        x = torch.randn(2, 3)
        state = cell(x)
        state = cell(torch.randn(2, 3), state)
        h = state[0] if isinstance(state, tuple) else state
        h.pow(2).sum().backward()
        single = cell(torch.randn(3))
        seen += [repr(cell), state, cell.weight_ih.grad, cell.weight_hh.grad,
                 [(n, tuple(p.shape)) for n, p in cell.named_parameters()],
                 [t.shape for t in single] if isinstance(single, tuple) else single.shape]
    return seen


@program
def adaptive_max_pooling(torch):
    """adaptive_max_pool2d / AdaptiveMaxPool2d: each adaptive cell's maximum, its gradient to
    the cell's first largest element; unbatched input; None keeps an axis."""
    x = torch.tensor([[[[1.0, 3.0, 3.0, 0.5, 2.0], [0.0, -1.0, 3.0, 4.0, 1.0], [2.0, 2.0, 1.0, 0.0, 4.0]]]],
                     requires_grad=True)
    seen = []
    for size in ((2, 2), (1, 1), (3, 5), (2, 3), 2, (2, None)):
        y = torch.nn.functional.adaptive_max_pool2d(x, size)
        seen += [y, y.grad_fn.name(), torch.autograd.grad(y.sum(), x)]
    return seen + [repr(torch.nn.AdaptiveMaxPool2d((2, None))), torch.nn.AdaptiveMaxPool2d(2)(x[0]).shape]


@program
def shrinks_and_threshold(torch):
    """softshrink, hardshrink, tanhshrink and threshold, as functions and modules: values (a
    zero of the input's sign inside softshrink's band), node names, first and second
    derivatives (the backward kernels select 0 inside the band) and the modules' printouts."""
    F = torch.nn.functional
    x = torch.tensor([-1.5, -0.3, 0.0, 0.5, 2.0, -0.4, 0.4], requires_grad=True)
    seen = []
    for y in (F.softshrink(x, 0.4), F.hardshrink(x, 0.4), F.threshold(x, 0.2, -1.0), torch.nn.Softshrink()(x),
              torch.nn.Hardshrink(0.3)(x), torch.nn.Threshold(0.1, 5.0)(x)):
        first, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
        seen += [y, y.grad_fn.name(), first, first.grad_fn.name(), torch.autograd.grad(first.sum(), x)]
    modules = [torch.nn.Softshrink(0.4), torch.nn.Hardshrink(), torch.nn.Tanhshrink(),
               torch.nn.Threshold(0.2, -1.0)]
    return seen + [F.tanhshrink(x).grad_fn.name(), [repr(m) for m in modules]]
