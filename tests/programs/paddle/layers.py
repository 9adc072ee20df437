"""Layers and losses: normalisation, dropout, convolution, embedding, activations and their
gradients."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import paddle_program as program


@program
def activation_loss_and_container_layers(paddle):
    """nn's activation layers with their settings, its loss layers, Identity, Flatten and
    LayerList: values, node names, gradients, parameter names."""
    nn = paddle.nn
    x = paddle.to_tensor([[0.5, -1.5, 2.0], [-0.25, 1.0, -3.0]], stop_gradient=False)
    target = paddle.to_tensor([[0.2, 0.8, 0.0], [1.0, 0.0, 0.5]])
    layers = [nn.ReLU(), nn.LeakyReLU(0.2), nn.ELU(alpha=0.5), nn.GELU(), nn.Silu(), nn.SiLU(),
              nn.Softplus(beta=2.0), nn.Softmax(axis=1), nn.LogSoftmax(axis=0), nn.Tanh(),
              nn.Sigmoid(), nn.Identity()]
    outs = [m(x) for m in layers]
    losses = [nn.MSELoss()(x, target), nn.L1Loss(reduction="sum")(x, target),
              nn.CrossEntropyLoss(reduction="none")(x, paddle.to_tensor([1, 2]))]
    sum((o * (i + 1)).sum() for i, o in enumerate(outs + losses)).backward()
    stack = nn.LayerList([nn.Linear(3, 2), nn.ReLU()])
    stack.append(nn.Linear(2, 1))
    cube = paddle.ones([2, 3, 4])
    return ([o.detach() for o in outs + losses] + [o.grad_fn.name() for o in outs[:-1] + losses]
            + [x.grad, nn.Identity()(x) is x, len(stack), [n for n, _ in stack.named_parameters()],
               nn.Flatten()(cube).shape, nn.Flatten(0, 1)(cube).shape])


@program
def layer_norm_and_batch_norm(paddle):
    """LayerNorm and BatchNorm1D/2D in training and in eval: values, first derivatives (the
    input's scaled by LayerNorm's weight only where the pass computes the weight's gradient
    too), LayerNorm's missing double grad, the running statistics (``_mean``, ``_variance``) a
    training step moves with paddle's momentum, and the state_dict keys."""
    nn = paddle.nn
    x = paddle.to_tensor([[[0.5, -1.0, 2.0, 0.0], [1.5, 0.25, -0.5, 1.0], [0.0, 3.0, -2.0, 0.5]],
                          [[1.0, 1.0, -1.0, 0.5], [0.0, -0.5, 2.5, 1.5], [2.0, 0.0, 1.0, -1.0]]],
                         stop_gradient=False)
    ln = nn.LayerNorm(4)
    ln.weight.set_value(paddle.to_tensor([1.0, 0.5, -1.0, 2.0]))
    ln.bias.set_value(paddle.to_tensor([0.0, 0.1, 0.2, 0.3]))
    y = ln(x)
    # paddle 3.3.1 scales x's gradient by the weight only when the pass computes the weight's
    seen = [y, paddle.grad((y * y * y).sum(), x, retain_graph=True)[0],
            paddle.grad((y * y * y).sum(), [x, ln.weight], retain_graph=True)[0],
            paddle.grad(y.sum(), [ln.weight, ln.bias], retain_graph=True),
            attempt(lambda: paddle.grad((y * y * y).sum(), x, create_graph=True)),
            nn.functional.layer_norm(x, [3, 4], epsilon=1e-3)]
    bn = nn.BatchNorm1D(3)
    bn.weight.set_value(paddle.to_tensor([1.0, 2.0, 0.5]))
    out = bn(x)
    (gb,) = paddle.grad((out * out * paddle.to_tensor([1.0, -1.0, 2.0, 0.5])).sum(), x)
    seen += [out, gb, bn._mean, bn._variance, list(bn.state_dict().keys())]
    bn.eval()
    seen += [bn(x), bn.training]
    two = nn.BatchNorm2D(2, momentum=0.5, weight_attr=False, bias_attr=False)
    image = x.reshape([2, 2, 3, 2])
    for _ in range(2):
        two(image * 2)
    seen += [two._mean, two._variance, attempt(lambda: two(x))]
    seen.append([t.grad_fn.name() for t in (y, out, nn.functional.layer_norm(x, [4]))])
    return seen


@program
def convolution_embedding_dropout(paddle):
    """Conv1D (padding, dilation, stride) and Conv2D (groups) values and gradients of input,
    weight and bias; Embedding with padding_idx (no gradient to its row); dropout's identities
    (eval, p=0, p=1) and downscale_in_infer's scaling."""
    nn = paddle.nn
    x = paddle.to_tensor([[[0.5, -1.0, 2.0, 0.0, 1.0], [1.5, 0.25, -0.5, 1.0, -2.0]]],
                         stop_gradient=False)
    conv = nn.Conv1D(2, 3, 2, stride=2, padding=1, dilation=2)
    conv.weight.set_value(paddle.to_tensor([[[0.1, 0.2], [0.3, -0.4]], [[-0.5, 0.6], [0.7, 0.8]],
                                            [[0.9, -1.0], [0.0, 0.5]]]))
    conv.bias.set_value(paddle.to_tensor([0.1, -0.1, 0.0]))
    y = conv(x)
    seen = [y, paddle.grad((y * y).sum(), x, retain_graph=True)[0],
            paddle.grad(y.sum(), [conv.weight, conv.bias])]
    image = paddle.to_tensor([[[[1.0, 2.0, 0.0], [0.5, -1.0, 1.5], [2.0, 0.0, -0.5]],
                               [[0.0, 1.0, 1.0], [-1.0, 0.5, 0.0], [1.0, 1.0, 2.0]]]],
                             stop_gradient=False)
    conv2 = nn.Conv2D(2, 2, 2, groups=2, bias_attr=False)
    conv2.weight.set_value(paddle.to_tensor([[[[1.0, -1.0], [0.5, 0.0]]], [[[0.0, 2.0], [1.0, -0.5]]]]))
    z = conv2(image)
    z.sum().backward()
    seen += [z, image.grad, conv2.weight.grad,
             nn.functional.conv2d(image, conv2.weight, None, 1, 1, 1, 2)]
    (gy,) = paddle.grad((conv(x) ** 2).sum(), x, create_graph=True)
    seen.append(paddle.grad(gy.sum(), conv.weight)[0])
    emb = nn.Embedding(4, 2, padding_idx=1)
    emb.weight.set_value(paddle.to_tensor([[0.1, 0.2], [0.0, 0.0], [0.5, -0.5], [1.0, 2.0]]))
    e = emb(paddle.to_tensor([[0, 1, 3], [1, 1, 2]]))
    (e * paddle.to_tensor([1.0, 2.0])).sum().backward()
    seen += [e, emb.weight.grad,
             attempt(lambda: paddle.grad((emb(paddle.to_tensor([0, 2])) ** 2).sum(), emb.weight,
                                         create_graph=True))]
    drop = nn.Dropout(0.5)
    drop.eval()
    h = x * 2
    seen += [drop(h), nn.functional.dropout(h, 0.0), nn.functional.dropout(h, 1.0),
             nn.functional.dropout(h, 0.25, training=False, mode="downscale_in_infer"),
             attempt(lambda: paddle.grad(drop(h).sum(), x, create_graph=True))]
    seen.append([t.grad_fn.name() for t in (y, z, e, drop(h), nn.functional.dropout(h, 0.0),
                                             nn.functional.dropout(h, 0.25, training=False,
                                                                   mode="downscale_in_infer"))])
    return seen


@program
def weighted_nll_loss(paddle):
    """nll_loss with a class weight, ignore_index and each reduction (the mean divides by the
    counted rows' weights): values, first and second derivatives."""
    F = paddle.nn.functional
    logits = paddle.to_tensor([[0.5, 1.0, -1.0], [2.0, 0.0, 0.5], [-0.5, 0.5, 1.5], [1.0, 1.0, 0.0]],
                              stop_gradient=False)
    target = paddle.to_tensor([1, 0, 2, 1])
    weight = paddle.to_tensor([1.0, 2.0, 0.5])
    log_p = F.log_softmax(logits, 1)
    seen = []
    for reduction in ("mean", "sum", "none"):
        loss = F.nll_loss(log_p, target, weight=weight, ignore_index=2, reduction=reduction)
        seen += [loss, paddle.grad(loss.sum(), logits, retain_graph=True)[0]]
    seen += [F.nll_loss(log_p, target),
             attempt(lambda: paddle.grad(F.nll_loss(log_p, target), logits, create_graph=True)),
             [F.nll_loss(log_p, target).grad_fn.name(),
              F.binary_cross_entropy_with_logits(logits, logits.detach() * 0,
                                                 reduction="none").grad_fn.name(),
              F.binary_cross_entropy_with_logits(logits, logits.detach() * 0).grad_fn.name()]]
    return seen


@program
def pooling_max_average_and_adaptive(paddle):
    """max_pool / avg_pool / adaptive_avg_pool in 1-d and 2-d, padded (average: exclusive or
    not), strided, in ceil mode and as layers: values, node names, first and second derivatives
    (a max pool's double grad refuses to run: "only supports avgpool")."""
    F = paddle.nn.functional
    x = paddle.to_tensor([[[[0.5, -1.0, 2.0, 0.0, 1.5], [3.0, 3.0, -2.0, 1.0, 0.25],
                            [-0.5, 4.0, 1.0, 1.0, 2.0], [0.0, 2.5, -1.5, 3.5, 0.75],
                            [1.25, -0.75, 0.5, 2.0, -3.0]]]], stop_gradient=False)
    seen = []
    for out in (F.max_pool2d(x, 2), F.max_pool2d(x, 2, stride=1), F.max_pool2d(x, 3, stride=2, padding=1),
                F.max_pool2d(x, 2, ceil_mode=True), F.avg_pool2d(x, 2),
                F.avg_pool2d(x, 3, stride=2, padding=1),
                F.avg_pool2d(x, 3, stride=2, padding=1, exclusive=False), F.avg_pool2d(x, 2, ceil_mode=True),
                F.adaptive_avg_pool2d(x, 1), F.adaptive_avg_pool2d(x, 2), F.adaptive_avg_pool2d(x, [3, 5]),
                F.max_pool1d(x[0], 2), F.avg_pool1d(x[0], 3, stride=1, padding=1),
                F.avg_pool1d(x[0], 3, stride=1, padding=1, exclusive=False), F.adaptive_avg_pool1d(x[0], 2),
                paddle.nn.MaxPool2D(2, stride=1)(x), paddle.nn.AvgPool2D(2)(x),
                paddle.nn.AdaptiveAvgPool2D(2)(x)):
        g, = paddle.grad((out * out).sum(), x, create_graph=True)
        second = attempt(lambda: paddle.grad(g.sum(), x, allow_unused=True))  # noqa: B023 - run at once
        seen += [out, out.grad_fn.name(), g, second]
    return seen


@program
def recurrent_layers_step_by_step(paddle):
    """nn.SimpleRNN (tanh, relu), nn.LSTM and nn.GRU with paddle's parameter names and shapes,
    the weights set to fixed values: outputs and final states (batch first, time major,
    bidirectional, two layers, given initial states), the nodes, and the gradients of the
    input and of every parameter."""
    x = paddle.to_tensor([[[0.5, -1.0, 0.25], [1.5, 0.75, -0.5], [-0.25, 0.5, 1.0]]], stop_gradient=False)
    seen = []
    for make in (lambda: paddle.nn.SimpleRNN(3, 2),
                 lambda: paddle.nn.SimpleRNN(3, 2, num_layers=2, activation="relu"),
                 lambda: paddle.nn.LSTM(3, 2),
                 lambda: paddle.nn.LSTM(3, 2, num_layers=2, direction="bidirect"),
                 lambda: paddle.nn.GRU(3, 2), lambda: paddle.nn.GRU(3, 2, time_major=True),
                 lambda: paddle.nn.GRU(3, 2, direction="bidirectional")):
        layer = make()
        names = [name for name, _ in layer.named_parameters()]
        for i, p in enumerate(layer.parameters()):
            p.set_value(paddle.linspace(-0.5, 0.6, p.size).reshape(p.shape) * (1 + 0.1 * i))
        out, state = layer(x)
        states = list(state) if isinstance(state, tuple) else [state]
        total = (out * out).sum() + sum((s * s).sum() for s in states)
        grads = paddle.grad(total, [x, *layer.parameters()])
        seen += [names, [p.shape for p in layer.parameters()], out, out.grad_fn.name(), states,
                 states[0].grad_fn.name(), grads]
    lstm = paddle.nn.LSTM(3, 2)
    for p in lstm.parameters():
        p.set_value(paddle.full(p.shape, 0.1))
    given, (h, c) = lstm(x, (paddle.full([1, 1, 2], 0.5), paddle.full([1, 1, 2], -0.25)))
    return seen + [given, h, c]


@program
def group_norm_padding_and_interpolation(paddle):
    """nn.GroupNorm / F.group_norm (its parameters, values, gradients of input, weight and
    bias); F.pad with a pad per axis (PadGradNode) and a pad of the trailing axes
    (SqueezeGradNode), with a value; F.interpolate and nn.Upsample, nearest and bilinear (half
    pixel or corners aligned); the legacy nn.BatchNorm with an activation."""
    x = paddle.to_tensor([[[[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]], [[1.0, 3.0, -2.0], [0.75, 0.5, 1.25]],
                           [[-0.25, 0.5, 1.0], [2.0, -1.5, 0.0]], [[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]]]],
                         stop_gradient=False)
    norm = paddle.nn.GroupNorm(2, 4)
    weight_values = paddle.to_tensor([1.0, 2.0, 0.5, -1.0])
    norm.weight.set_value(weight_values)
    outs = [norm(x), paddle.nn.functional.pad(x, [1, 0, 2, 1]),
            paddle.nn.functional.pad(x, [1, 2], value=2.5), paddle.nn.functional.pad(x[0], [2, 1]),
            paddle.nn.functional.pad(x[0, 0], [1, 0, 0, 1]),
            paddle.nn.functional.interpolate(x, scale_factor=2, mode="nearest"),
            paddle.nn.functional.interpolate(x, size=[3, 4], mode="bilinear"),
            paddle.nn.functional.interpolate(x, size=[3, 5], mode="bilinear", align_corners=True),
            paddle.nn.Upsample(scale_factor=2, mode="bilinear")(x)]
    seen = [[n for n, _ in norm.named_parameters()]]
    for out in outs:
        seen += [out, out.grad_fn.name(), paddle.grad((out * out).sum(), x)]
    seen.append(paddle.grad((outs[0] * outs[0]).sum(), [norm.weight, norm.bias]))
    legacy = paddle.nn.BatchNorm(4, act="relu")
    out = legacy(x)
    seen += [out, paddle.grad(out.sum(), x), legacy._mean, legacy._variance]
    return seen


@program
def transposed_convolutions(paddle):
    """F.conv2d_transpose and nn.Conv2DTranspose (stride, padding, output_padding, groups,
    dilation, a bias): values, node names, the gradients of input, weight and bias (in float64:
    the composition sums in another order than paddle's kernel)."""
    F = paddle.nn.functional
    x = paddle.to_tensor((paddle.arange(36, dtype="float64").reshape([2, 2, 3, 3]) / 10).numpy(),
                         stop_gradient=False)
    w = paddle.to_tensor((paddle.arange(32, dtype="float64").reshape([2, 4, 2, 2]) / 7 - 2).numpy(),
                         stop_gradient=False)
    b = paddle.to_tensor([0.1, -0.2, 0.3, 0.4], dtype="float64", stop_gradient=False)
    seen = []
    for out in (F.conv2d_transpose(x, w), F.conv2d_transpose(x, w, b, stride=2),
                F.conv2d_transpose(x, w, b, stride=2, padding=1, output_padding=1),
                F.conv2d_transpose(x, w[:, :2], b, groups=2),
                F.conv2d_transpose(x, w, dilation=2, padding=1)):
        seen += [out, out.grad_fn.name(), paddle.grad((out * out).sum(), [x, w, b], allow_unused=True)]
    layer = paddle.nn.Conv2DTranspose(2, 3, 3, stride=2, padding=1, output_padding=1)
    layer.weight.set_value(paddle.linspace(-1.0, 1.0, 54).reshape([2, 3, 3, 3]))
    layer.bias.set_value(paddle.full([3], 0.5))
    return seen + [layer(x.astype("float32")), str(layer), [p.shape for p in layer.parameters()]]


@program
def reflection_and_replication_padding(paddle):
    """F.pad with mode reflect and replicate on the spatial axes (the pad3d kernel between an
    unsqueeze and a squeeze), Pad1D and Pad2D with those modes and their reprs, gradients that
    sum over the places an element was read, and second order."""
    x = paddle.arange(12, dtype="float32").reshape([1, 1, 3, 4])
    x.stop_gradient = False
    seen = []
    for mode in ("reflect", "replicate"):
        y = paddle.nn.functional.pad(x, [1, 2, 2, 1], mode=mode)
        first, = paddle.grad((y * y * y).sum(), x, create_graph=True)
        seen += [y, y.grad_fn.name(), first, paddle.grad(first.sum(), x)]
    line = paddle.arange(6, dtype="float32").reshape([1, 2, 3])
    line.stop_gradient = False
    modules = [paddle.nn.Pad2D([1, 1, 1, 1], mode="reflect"), paddle.nn.Pad1D(2, mode="replicate")]
    return seen + [paddle.nn.functional.pad(line, [2, 1], mode="reflect", data_format="NCL"),
                   [repr(m) for m in modules], modules[0](x), modules[1](line)]


@program
def pixel_shuffles(paddle):
    """pixel_shuffle / pixel_unshuffle and their layers: the permutation and its gradient; the
    kernels have no double grad."""
    x = paddle.arange(32, dtype="float32").reshape([2, 4, 2, 2])
    x.stop_gradient = False
    y = paddle.nn.functional.pixel_shuffle(x, 2)
    (y * y).sum().backward()
    back = paddle.nn.PixelUnshuffle(2)(y)
    return [y, y.grad_fn.name(), x.grad, repr(paddle.nn.PixelShuffle(2)), back.grad_fn.name(),
            paddle.equal_all(back, x),
            attempt(lambda: paddle.grad((paddle.nn.functional.pixel_shuffle(x, 2) ** 2).sum(), x,
                                        create_graph=True))]


@program
def volumes_convolved_pooled_and_normalised(paddle):
    """The 3-d family on a (N, C, D, H, W) volume: conv3d (its node, then the bias added in
    a node of its own, as conv1d and conv2d add theirs), conv3d_transpose, max / avg /
    adaptive pools (pool3d's and max_pool3d_with_index's kernels without double grad),
    BatchNorm3D in training and eval, the layers' printouts and the errors: values, node
    names, first derivatives and second where paddle has them."""
    import numpy as np

    F, nn = paddle.nn.functional, paddle.nn
    values = (np.arange(2 * 2 * 3 * 4 * 4).reshape(2, 2, 3, 4, 4) * 0.37 % 2.3 - 1.1).astype("float32")
    x = paddle.to_tensor(values, stop_gradient=False)
    w = paddle.to_tensor((np.arange(64).reshape(4, 2, 2, 2, 2) * 0.21 % 1.3 - 0.6).astype("float32"),
                         stop_gradient=False)
    bias = paddle.to_tensor([0.1, -0.2, 0.3, 0.0], stop_gradient=False)
    seen = []
    for y in (F.conv3d(x, w), F.conv3d(x, w, bias, stride=(1, 2, 2), padding=1),
              F.conv3d(x, w[:, :1], groups=2), F.conv3d(x, w, dilation=(1, 2, 1))):
        g, = paddle.grad((y * y).sum(), x, create_graph=True)
        seen += [y, y.grad_fn.name(), g, paddle.grad(g.sum(), [x, w], allow_unused=True)]
    seen.append([n.name() for n in F.conv3d(x, w, bias).grad_fn.next_functions])
    for y in (F.conv3d_transpose(x, w[:2], stride=2),
              F.conv3d_transpose(x, w[:2], bias[:2], stride=(1, 2, 1), padding=1),
              F.max_pool3d(x, 2), F.max_pool3d(x, (1, 2, 2), stride=1, padding=(0, 1, 0)),
              F.max_pool3d(x, 2, ceil_mode=True), F.avg_pool3d(x, 2), F.avg_pool3d(x, 3, 2, 1),
              F.avg_pool3d(x, 3, 2, 1, exclusive=False), F.adaptive_avg_pool3d(x, 1),
              F.adaptive_avg_pool3d(x, (2, 3, 2)), F.adaptive_max_pool3d(x, 2),
              F.adaptive_max_pool3d(x, (3, 1, 2))):
        seen += [y, y.grad_fn.name(), paddle.grad((y * y).sum(), [x], retain_graph=True),
                 attempt(lambda: paddle.grad(y.sum(), [x], create_graph=True))]
    line = paddle.to_tensor(values[:, :, 0, 0], stop_gradient=False)
    kernel = paddle.to_tensor([[[0.5, -1.0]], [[0.25, 2.0]]], stop_gradient=False)
    for y in (F.conv1d(line, kernel.tile([1, 2, 1]), bias[:2]), F.conv2d(x[:, :, 0], w[:, :, 0], bias)):
        seen += [y, y.grad_fn.name(), [n.name() for n in y.grad_fn.next_functions if n],
                 paddle.grad(y.sum(), [bias], retain_graph=True)]
    norm = nn.BatchNorm3D(2)
    y = norm(x)
    y.exp().sum().backward()
    seen += [y, x.grad, norm.weight.grad, norm.bias.grad, norm._mean, norm._variance]
    norm.eval()
    seen += [norm(x), attempt(lambda: norm(x[0])), attempt(lambda: F.conv3d(x[0], w)),
             attempt(lambda: F.conv1d(line[0], kernel))]
    layers = [nn.Conv3D(2, 4, 3), nn.Conv3D(2, 4, (1, 2, 3), stride=2, padding=1, bias_attr=False),
              nn.Conv3DTranspose(2, 4, 2, stride=2), nn.MaxPool3D(2), nn.MaxPool3D(3, 2, 1), nn.AvgPool3D(2),
              nn.AvgPool3D((1, 2, 2)), nn.AdaptiveAvgPool3D(1), nn.AdaptiveAvgPool3D((1, 2, 3)),
              nn.AdaptiveMaxPool3D(2), nn.BatchNorm3D(3)]
    conv = layers[0]
    conv.weight.set_value(paddle.full(conv.weight.shape, 0.01))
    return seen + [repr(m) for m in layers] + [[tuple(p.shape) for p in m.parameters()] for m in layers] + [
        conv(x), layers[2](x[:, :, :2]).shape, layers[5](x).shape, layers[7](x)]


@program
def recurrent_layers_with_sequence_lengths(paddle):
    """LSTM, GRU and SimpleRNN with sequence_length, two layers, one way and both: each
    sequence runs as if alone (outputs past its length zero, the final state its last step's,
    the reverse direction from its own end), and so do the gradients."""
    import numpy as np

    seen = []
    for layer in (paddle.nn.LSTM, paddle.nn.GRU, paddle.nn.SimpleRNN):
        for direction in ("forward", "bidirect"):
            paddle.seed(0)
            net = layer(3, 4, num_layers=2, direction=direction)
            x = paddle.to_tensor(np.random.RandomState(1).randn(3, 5, 3).astype("float32"),
                                 stop_gradient=False)
            out, state = net(x, sequence_length=paddle.to_tensor([5, 2, 4]))
            final = state[0] if isinstance(state, tuple) else state
            (out.sum() + final.sum()).backward()
            seen.append([out, final, x.grad, net.weight_hh_l0.grad])
    return seen


@program
def rnn_and_birnn_wrappers_step_a_cell(paddle):
    """nn.RNN and nn.BiRNN around GRU, LSTM and SimpleRNN cells: forwards, backwards
    (is_reverse), time major, and with sequence_length (a sequence's states held past its end,
    its outputs not masked); outputs, final states, gradients and the outputs' node."""
    import numpy as np

    seen = []
    for cell in (paddle.nn.GRUCell, paddle.nn.LSTMCell, paddle.nn.SimpleRNNCell):
        for form in ("forwards", "backwards", "both", "time major"):
            for lengths in (None, [5, 2, 4]):
                if form == "time major" and lengths:
                    continue
                paddle.seed(0)
                first, second = cell(3, 4), cell(3, 4)
                net = paddle.nn.BiRNN(first, second) if form == "both" else paddle.nn.RNN(
                    first, is_reverse=form == "backwards", time_major=form == "time major")
                x = paddle.to_tensor(np.random.RandomState(1).randn(3, 5, 3).astype("float32"),
                                     stop_gradient=False)
                out, states = net(x, sequence_length=None if lengths is None else paddle.to_tensor(lengths))
                finals = [states] if not isinstance(states, (tuple, list)) else \
                    [s for group in states for s in (group if isinstance(group, (tuple, list)) else [group])]
                (out.sum() + sum(f.sum() for f in finals)).backward()
                seen.append([out, finals, x.grad, first.weight_hh.grad, out.grad_fn.name()])
    return seen


@program
def convolution_padding_forms(paddle):
    """Conv1D / Conv2D padding as "same" (the odd pad after; any stride), "valid", and one
    (before, after) pair of numbers per dimension: output shapes, values, input gradients and
    the layers' printouts."""
    paddle.seed(4)
    x = paddle.randn([1, 2, 7, 6])
    x.stop_gradient = False
    seen = []
    for padding, stride in (("same", 1), ("same", 2), ("valid", 1), ("SAME", 3), ([1, 0, 2, 1], 1),
                            ([0, 1, 1, 0], 2)):
        conv = paddle.nn.Conv2D(2, 3, (3, 2), stride=stride, padding=padding)
        y = conv(x)
        seen += [y, paddle.grad(y.pow(2).sum(), x)[0], str(conv)]
    line = paddle.randn([1, 2, 9])
    for padding in ("same", "valid", [1, 2]):
        seen.append(paddle.nn.Conv1D(2, 2, 4, padding=padding)(line))
    return seen


@program
def max_pools_return_their_masks(paddle):
    """max_pool2d / max_pool3d (and MaxPool2D) with return_mask: the with-index kernel's node,
    each window's first largest element as a flat index into its input plane (int32, needing
    a gradient as its input does), with padding, strides and ceil mode."""
    x = paddle.to_tensor([[[[0.5, -1.0, 2.0, 0.3, 1.1], [1.5, 0.25, -0.5, 2.5, 0.0],
                            [0.1, 3.0, 0.3, -2.0, 0.7], [1.0, -0.2, 0.9, 0.4, 1.9],
                            [-1.5, 0.6, 2.2, 0.8, -0.1]]]], stop_gradient=False)
    seen = []
    for settings in ({"kernel_size": 2}, {"kernel_size": 3, "stride": 2, "padding": 1},
                     {"kernel_size": 2, "ceil_mode": True}):
        out, mask = paddle.nn.functional.max_pool2d(x, return_mask=True, **settings)
        seen += [out, mask, mask.stop_gradient, out.grad_fn.name(), paddle.grad(out.sum(), x)[0]]
    cube = paddle.arange(48.0).reshape([1, 1, 3, 4, 4]).sin()
    return seen + [paddle.nn.MaxPool2D(2, return_mask=True)(x)[1],
                   paddle.nn.functional.max_pool3d(cube, 2, return_mask=True)[1]]


@program
def bilinear_layers_draw_and_differentiate_as_paddles(paddle):
    """nn.Bilinear draws its (out, in1, in2) weight as create_parameter draws a weight and a
    (1, out) bias of zeros, named bilinear_N; its one kernel (BilinearGradNode) has no double
    grad; functional.bilinear without a bias."""
    paddle.seed(0)
    layer = paddle.nn.Bilinear(2, 3, 4)
    x1 = paddle.to_tensor([[1.0, 2.0], [0.5, -1.0]], stop_gradient=False)
    x2 = paddle.to_tensor([[0.5, -1.0, 2.0], [1.0, 1.0, -0.5]], stop_gradient=False)
    out = layer(x1, x2)
    (out * paddle.to_tensor([1.0, -2.0, 3.0, 0.5])).sum().backward()
    second = attempt(lambda: paddle.grad(layer(x1, x2).sum(), x1, create_graph=True))
    return [str(layer), layer.weight.name.split("_")[0], out, out.grad_fn.name(), x1.grad, x2.grad,
            layer.weight.grad, layer.bias.grad, second,
            paddle.nn.functional.bilinear(x1, x2, layer.weight),
            paddle.nn.Bilinear(2, 3, 4, bias_attr=False).bias]


@program
def layers_are_named_by_the_unique_name_generator(paddle):
    """A layer's full name is its name_scope or its class name in snake case, numbered per name
    by paddle.utils.unique_name; create_parameter names its parameters under it (w for weights,
    b for biases, numbered); unique_name.guard numbers from 0 again inside, with a prefix if
    given, and the numbering outside resumes after it. A tensor where stack or concat wants a
    list is refused with paddle's words."""
    class CamelCaseNet(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.a = self.create_parameter([3])
            self.b = self.create_parameter([3], is_bias=True)
            self.c = self.create_parameter([2])

    class Scoped(paddle.nn.Layer):
        def __init__(self):
            super().__init__(name_scope="custom")

    def numbered(name):  # (the count before the program is the process's)
        prefix, _, rest = name.partition(".")
        return [prefix.rsplit("_", 1)[0], rest]

    first, second = CamelCaseNet(), CamelCaseNet()
    names = [numbered(first.full_name()), [numbered(p.name) for p in first.parameters()],
             int(second.full_name().rsplit("_", 1)[1]) - int(first.full_name().rsplit("_", 1)[1]),
             numbered(Scoped().full_name())]
    with paddle.utils.unique_name.guard():
        guarded = [paddle.nn.Linear(1, 1).weight.name, paddle.nn.Linear(1, 1).bias.name,
                   paddle.utils.unique_name.generate("foo")]
    with paddle.utils.unique_name.guard("pre_"):
        guarded.append(paddle.nn.Linear(1, 1).weight.name)
    x = paddle.to_tensor([1.0])
    return [names, guarded, attempt(lambda: paddle.stack(x)), attempt(lambda: paddle.concat(x))]
