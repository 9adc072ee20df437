"""Layers and losses: normalisation, dropout, convolution, embedding, activations and their
gradients."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import torch_program as program


@program
def cross_entropy_loss_module(torch):
    x = torch.tensor([[1.0, 2.0, 0.5], [0.3, -1.0, 2.0]], requires_grad=True)
    loss = torch.nn.CrossEntropyLoss()(x, torch.tensor([1, 2]))
    loss.backward()
    return [loss.detach(), x.grad,
            torch.nn.CrossEntropyLoss(reduction="none")(x, torch.tensor([0, 0])).detach()]


@program
def a_linear_layer_with_a_bias_is_one_addmm(torch):
    """nn.Linear / functional.linear with a bias record one AddmmBackward0 (bias, input, the
    weight's transpose); a vector or a batch is viewed as a matrix first and the result viewed
    back (ViewBackward0); without a bias, MmBackward0."""
    seen = []
    for x in (torch.ones(4, 3), torch.ones(3), torch.ones(2, 4, 3), torch.ones(4, 3, requires_grad=True)):
        layer = torch.nn.Linear(3, 2)
        with torch.no_grad():
            layer.weight.copy_(torch.tensor([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]]))
            layer.bias.copy_(torch.tensor([0.7, -0.8]))
        y = layer(x)
        y.sum().backward()
        seen += [y, y.grad_fn.name(), [n.name() if n else None for n, _ in y.grad_fn.next_functions],
                 layer.weight.grad, layer.bias.grad, x.grad]
    w = torch.tensor([[0.1, -0.2, 0.3]], requires_grad=True)
    linear = torch.nn.functional.linear
    return seen + [linear(torch.ones(2, 3), w).grad_fn.name(),
                   linear(torch.ones(2, 3), w, torch.ones(1)).grad_fn.name()]


@program
def a_loss_function_is_one_node(torch):
    """mse_loss, nll_loss (cross_entropy's last node), binary_cross_entropy and its logits form:
    one node each (MseLossBackward0, NllLossBackward0, ...) listing input and target (nll: the
    input), their values and gradients for every reduction, and second derivatives."""
    functional = torch.nn.functional
    seen = []
    for reduction in ("mean", "sum", "none"):
        x = torch.tensor([[0.5, -1.2, 0.8], [1.5, 0.3, -0.9]], dtype=torch.float64, requires_grad=True)
        y = torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 0.5]], dtype=torch.float64, requires_grad=True)
        classes = torch.tensor([0, 2])
        for loss in (functional.mse_loss(x, y, reduction=reduction),
                     functional.cross_entropy(x, classes, reduction=reduction),
                     functional.nll_loss(x, classes, reduction=reduction),
                     functional.binary_cross_entropy(x.sigmoid(), y, reduction=reduction),
                     functional.binary_cross_entropy_with_logits(x, y, reduction=reduction)):
            g = torch.autograd.grad(loss.sum(), (x, y), create_graph=True, allow_unused=True)
            links = [n.name() if n else None for n, _ in loss.grad_fn.next_functions]
            seen += [loss, loss.grad_fn.name(), links, g,
                     torch.autograd.grad(g[0].sum(), x, allow_unused=True)]
    return seen


@program
def activation_loss_and_container_modules(torch):
    """nn's activation modules with their settings, its loss modules (the functional's nodes),
    Identity, Flatten and ModuleList: values, node names, gradients, parameter names."""
    nn = torch.nn
    x = torch.tensor([[0.5, -1.5, 2.0], [-0.25, 1.0, -3.0]], requires_grad=True)
    target = torch.tensor([[0.2, 0.8, 0.0], [1.0, 0.0, 0.5]])
    modules = [nn.ReLU(), nn.LeakyReLU(0.2), nn.ELU(alpha=0.5), nn.GELU(), nn.SiLU(),
               nn.Softplus(beta=2.0), nn.Softmax(dim=1), nn.LogSoftmax(dim=0), nn.Tanh(),
               nn.Sigmoid(), nn.Identity(7, scale=2)]
    outs = [m(x) for m in modules]
    losses = [nn.MSELoss()(x, target), nn.L1Loss(reduction="sum")(x, target),
              nn.BCEWithLogitsLoss()(x, target), nn.BCELoss()(torch.sigmoid(x), target),
              nn.NLLLoss()(torch.log_softmax(x, 1), torch.tensor([2, 0])),
              nn.CrossEntropyLoss(reduction="none")(x, torch.tensor([1, 2]))]
    sum(((o * (i + 1)).sum() for i, o in enumerate(outs + losses)), torch.tensor(0.0)).backward()
    stack = nn.ModuleList([nn.Linear(3, 2), nn.ReLU()])
    stack.append(nn.Linear(2, 1))
    cube = torch.ones(2, 3, 4)
    return ([o.detach() for o in outs + losses] + [o.grad_fn.name() for o in outs[:-1] + losses]
            + [x.grad, nn.Identity()(x) is x, len(stack), [n for n, _ in stack.named_parameters()],
               nn.Flatten()(cube).shape, nn.Flatten(0, 1)(cube).shape, nn.Flatten()(x) is x])


@program
def nn_init_fills_in_place_without_recording(torch):
    """``nn.init``'s fillers write in place under no_grad: the same tensor back, its version
    grown, no node; a graph built before the write still runs (mul by a number saves nothing).
    The random ones keep shapes and bounds (their values are the generator's)."""
    init = torch.nn.init
    w = torch.nn.Parameter(torch.ones(2, 3))
    before = w * 2
    seen = [init.constant_(w, 0.5) is w, w._version, w.requires_grad, w.grad_fn is None,
            w.detach().clone()]
    init.zeros_(w)
    before.sum().backward()
    seen += [w._version, w.grad, init.eye_(torch.empty(2, 3)), init.ones_(torch.empty(2)),
             attempt(lambda: init.eye_(torch.empty(2))), init.calculate_gain("tanh"),
             init.calculate_gain("leaky_relu", 0.2), init.calculate_gain("relu"),
             attempt(lambda: init.calculate_gain("swish"))]
    inner = torch.ones(2, requires_grad=True) * 1
    init.zeros_(inner)
    seen.append([inner.grad_fn.name(), inner._version, inner.detach()])
    for fill in (init.xavier_uniform_, init.kaiming_uniform_):
        filled = fill(torch.empty(4, 6))
        seen.append([filled.shape, bool((filled.abs() <= 1.0).all())])
    return seen


def _set(torch, param, values):
    with torch.no_grad():
        param.copy_(torch.tensor(values))


@program
def layer_norm_and_batch_norm(torch):
    """LayerNorm and BatchNorm1d/2d in training and in eval: values, first and second derivatives,
    the running statistics a training step moves (momentum 0.1 and the cumulative average),
    ``num_batches_tracked``, and the state_dict keys."""
    nn = torch.nn
    x = torch.tensor([[[0.5, -1.0, 2.0, 0.0], [1.5, 0.25, -0.5, 1.0], [0.0, 3.0, -2.0, 0.5]],
                      [[1.0, 1.0, -1.0, 0.5], [0.0, -0.5, 2.5, 1.5], [2.0, 0.0, 1.0, -1.0]]],
                     requires_grad=True)
    ln = nn.LayerNorm(4)
    _set(torch, ln.weight, [1.0, 0.5, -1.0, 2.0])
    _set(torch, ln.bias, [0.0, 0.1, 0.2, 0.3])
    y = ln(x)
    (g,) = torch.autograd.grad((y * y * y).sum(), x, create_graph=True)
    seen = [y, g, torch.autograd.grad(g.sum(), x, retain_graph=True)[0],
            torch.autograd.grad(y.sum(), [ln.weight, ln.bias]),
            nn.functional.layer_norm(x, (3, 4), eps=1e-3)]
    bn = nn.BatchNorm1d(3)
    _set(torch, bn.weight, [1.0, 2.0, 0.5])
    out = bn(x)
    (gb,) = torch.autograd.grad((out * out * torch.tensor([1.0, -1.0, 2.0, 0.5])).sum(), x,
                                create_graph=True)
    seen += [out, gb, torch.autograd.grad(gb.sum(), x)[0], bn.running_mean, bn.running_var,
             bn.num_batches_tracked, list(bn.state_dict().keys())]
    bn.eval()
    seen += [bn(x), bn.training]
    cumulative = nn.BatchNorm2d(2, momentum=None, affine=False)
    image = x.reshape(2, 2, 3, 2)
    for _ in range(2):
        cumulative(image * 2)
    seen += [cumulative.running_mean, cumulative.running_var, cumulative.num_batches_tracked,
             attempt(lambda: cumulative(x))]
    seen.append([t.grad_fn.name() for t in (y, out, nn.functional.layer_norm(x, (4,)),
                                             nn.functional.batch_norm(x, None, None, training=True))])
    return seen


@program
def convolution_embedding_dropout(torch):
    """Conv1d (padding, dilation, stride) and Conv2d (groups) values and gradients of input,
    weight and bias, a second derivative through a convolution; Embedding with padding_idx (no
    gradient to its row); dropout's identities (eval, p=0, p=1)."""
    nn = torch.nn
    x = torch.tensor([[[0.5, -1.0, 2.0, 0.0, 1.0], [1.5, 0.25, -0.5, 1.0, -2.0]]], requires_grad=True)
    conv = nn.Conv1d(2, 3, 2, stride=2, padding=1, dilation=2)
    _set(torch, conv.weight, [[[0.1, 0.2], [0.3, -0.4]], [[-0.5, 0.6], [0.7, 0.8]],
                              [[0.9, -1.0], [0.0, 0.5]]])
    _set(torch, conv.bias, [0.1, -0.1, 0.0])
    y = conv(x)
    (g,) = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    seen = [y, g, torch.autograd.grad(g.sum(), conv.weight, retain_graph=True)[0],
            torch.autograd.grad(y.sum(), [conv.weight, conv.bias])]
    image = torch.tensor([[[[1.0, 2.0, 0.0], [0.5, -1.0, 1.5], [2.0, 0.0, -0.5]],
                           [[0.0, 1.0, 1.0], [-1.0, 0.5, 0.0], [1.0, 1.0, 2.0]]]], requires_grad=True)
    conv2 = nn.Conv2d(2, 2, 2, groups=2, bias=False)
    _set(torch, conv2.weight, [[[[1.0, -1.0], [0.5, 0.0]]], [[[0.0, 2.0], [1.0, -0.5]]]])
    z = conv2(image)
    z.sum().backward()
    seen += [z, image.grad, conv2.weight.grad,
             nn.functional.conv2d(image, conv2.weight, None, 1, 1, 1, 2)]
    emb = nn.Embedding(4, 2, padding_idx=1)
    _set(torch, emb.weight, [[0.1, 0.2], [0.0, 0.0], [0.5, -0.5], [1.0, 2.0]])
    ids = torch.tensor([[0, 1, 3], [1, 1, 2]])
    e = emb(ids)
    (e * torch.tensor([1.0, 2.0])).sum().backward()
    seen += [e, emb.weight.grad, nn.functional.embedding(torch.tensor([2, 2]), emb.weight)]
    drop = nn.Dropout(0.5)
    drop.eval()
    h = x * 2
    seen += [drop(h), nn.functional.dropout(h, 0.0), nn.functional.dropout(h, 1.0),
             attempt(lambda: nn.Dropout(1.5))]
    seen.append([t.grad_fn.name() for t in (y, z, e, nn.functional.dropout(h, 1.0),
                                             nn.functional.dropout(h, 0.0), drop(h))])
    return seen


@program
def weighted_nll_and_cross_entropy(torch):
    """nll_loss and cross_entropy with a class weight, ignore_index and each reduction (the mean
    divides by the counted rows' weights), as functions and as modules with their weight
    buffer; first and second derivatives."""
    nn = torch.nn
    logits = torch.tensor([[0.5, 1.0, -1.0], [2.0, 0.0, 0.5], [-0.5, 0.5, 1.5], [1.0, 1.0, 0.0]],
                          requires_grad=True)
    target = torch.tensor([1, 0, 2, 1])
    weight = torch.tensor([1.0, 2.0, 0.5])
    seen = []
    for reduction in ("mean", "sum", "none"):
        loss = nn.functional.cross_entropy(logits, target, weight=weight, ignore_index=2,
                                           reduction=reduction)
        (g,) = torch.autograd.grad(loss.sum(), logits, create_graph=True)
        seen += [loss, g, torch.autograd.grad((g * g).sum(), logits)[0]]
    log_p = torch.log_softmax(logits, 1)
    seen += [nn.functional.nll_loss(log_p, target, weight),
             nn.functional.nll_loss(log_p, target, ignore_index=0),
             nn.NLLLoss(weight, reduction="sum")(log_p, target),
             list(nn.CrossEntropyLoss(weight).state_dict().keys()),
             nn.CrossEntropyLoss(ignore_index=1)(logits, target)]
    seen.append([t.grad_fn.name() for t in (nn.functional.nll_loss(log_p, target, weight),
                                             nn.functional.nll_loss(log_p, target, ignore_index=0),
                                             nn.functional.nll_loss(log_p, target))])
    return seen


@program
def convolution_arguments_are_checked_in_torchs_order(torch):
    F = torch.nn.functional
    x = torch.ones(1, 2, 3)
    return [attempt(f) for f in (
        lambda: F.conv1d(x, torch.ones(2, 3, 1)), lambda: F.conv2d(x[:, None], torch.ones(1, 2, 1, 1)),
        lambda: F.conv1d(x, torch.ones(2, 2, 5)), lambda: F.conv1d(x[0], torch.ones(2, 2, 1)),
        lambda: F.conv1d(torch.ones(1, 1, 2, 3), torch.ones(1, 1, 1)),
        lambda: F.conv2d(torch.ones(2, 3), torch.ones(1, 1, 1, 1)),
        lambda: F.conv2d(torch.ones(1, 1, 2, 3), torch.ones(1, 1, 5, 5)),
        lambda: F.conv1d(torch.ones(1, 4, 3), torch.ones(2, 2, 1), groups=2),
        lambda: F.conv1d(torch.ones(1, 4, 3), torch.ones(2, 3, 1), groups=2),
        lambda: F.conv1d(torch.ones(1, 4, 3), torch.ones(3, 2, 1), groups=2),
        lambda: F.conv1d(x, torch.ones(2, 2)), lambda: F.conv1d(x, torch.ones(2, 2, 2), dilation=3),
        lambda: F.conv2d(torch.ones(2, 3, 3), torch.ones(1, 2, 2, 2)))]


@program
def pooling_max_average_and_adaptive(torch):
    """max_pool / avg_pool / adaptive_avg_pool in 1-d and 2-d, padded, strided, in ceil mode,
    unbatched and as modules: values, node names, first and second derivatives."""
    F = torch.nn.functional
    x = torch.tensor([[[[0.5, -1.0, 2.0, 0.0, 1.5], [3.0, 3.0, -2.0, 1.0, 0.25], [-0.5, 4.0, 1.0, 1.0, 2.0],
                        [0.0, 2.5, -1.5, 3.5, 0.75], [1.25, -0.75, 0.5, 2.0, -3.0]]]],
                     requires_grad=True)
    seen = []
    for out in (F.max_pool2d(x, 2), F.max_pool2d(x, 2, stride=1), F.max_pool2d(x, 3, stride=2, padding=1),
                F.max_pool2d(x, 2, ceil_mode=True), F.avg_pool2d(x, 2),
                F.avg_pool2d(x, 3, stride=2, padding=1),
                F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False),
                F.avg_pool2d(x, 2, ceil_mode=True), F.adaptive_avg_pool2d(x, 1), F.adaptive_avg_pool2d(x, 2),
                F.adaptive_avg_pool2d(x, (3, 5)), F.max_pool1d(x[0], 2),
                F.avg_pool1d(x[0], 3, stride=1, padding=1),
                F.adaptive_avg_pool1d(x[0], 2), F.max_pool2d(x[0], 2),
                torch.nn.MaxPool2d(2, stride=1)(x), torch.nn.AvgPool2d(2)(x),
                torch.nn.AdaptiveAvgPool2d((2, 2))(x)):
        g, = torch.autograd.grad((out * out).sum(), x, create_graph=True)
        seen += [out, out.grad_fn.name(), g, torch.autograd.grad(g.sum(), x, allow_unused=True)]
    return seen


@program
def module_dict_and_padded_sequences(torch):
    """nn.ModuleDict registers its entries (named parameters, keys in order, update, pop,
    membership); nn.utils.rnn.pad_sequence writes the sequences into a padded batch
    (CopySlices), their gradients the slices they were written to."""
    layers = torch.nn.ModuleDict({"first": torch.nn.Linear(2, 2), "act": torch.nn.ReLU()})
    layers["second"] = torch.nn.Linear(2, 1)
    layers.update({"last": torch.nn.Tanh()})
    popped = type(layers.pop("act")).__name__
    names = [name for name, _ in layers.named_parameters()]
    pad_sequence = torch.nn.utils.rnn.pad_sequence
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = torch.tensor([[4.0], [5.0]], requires_grad=True).squeeze(1)
    padded = [pad_sequence([a, b]), pad_sequence([a, b], batch_first=True, padding_value=-1.0),
              pad_sequence([a, b], batch_first=True, padding_side="left")]
    (padded[0] * torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])).sum().backward()
    return [list(layers.keys()), len(layers), "act" in layers, "first" in layers, popped, names,
            padded, padded[0].grad_fn.name(), a.grad, b.grad]


@program
def scaled_dot_product_attention_as_the_math_kernel(torch):
    """F.scaled_dot_product_attention on 3-d inputs (torch's math kernel: UnsafeViewBackward0),
    plain, causal, with a boolean and a float mask and a scale: values, gradients of the three
    inputs and a second derivative; on 4-d inputs (a fused kernel) the values."""
    F = torch.nn.functional
    q = torch.tensor([[[0.1, 0.2], [0.3, -0.4], [0.5, 0.6]]], requires_grad=True)
    k = torch.tensor([[[0.2, -0.1], [0.4, 0.3], [-0.6, 0.5]]], requires_grad=True)
    v = torch.tensor([[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]], requires_grad=True)
    mask = torch.tensor([[True, False, True], [True, True, False], [False, True, True]])
    seen = []
    for out in (F.scaled_dot_product_attention(q, k, v),
                F.scaled_dot_product_attention(q, k, v, is_causal=True),
                F.scaled_dot_product_attention(q, k, v, attn_mask=mask),
                F.scaled_dot_product_attention(q, k, v, attn_mask=mask.float() * 0.5),
                F.scaled_dot_product_attention(q, k, v, scale=0.3)):
        grads = torch.autograd.grad((out * out).sum(), (q, k, v), create_graph=True)
        seen += [out, out.grad_fn.name(), grads, torch.autograd.grad(grads[0].sum(), q)]
    four = F.scaled_dot_product_attention(q[None], k[None], v[None], is_causal=True)
    return seen + [four, torch.autograd.grad(four.sum(), q)]


@program
def recurrent_layers_step_by_step(torch):
    """nn.RNN (tanh, relu), nn.LSTM and nn.GRU with torch's parameter names and shapes, the
    weights set to fixed values: outputs and final states (time first, batch first,
    bidirectional, two layers, unbatched, a given initial state), and the gradients of the
    input and of every parameter."""
    x = torch.tensor([[[0.5, -1.0, 0.25]], [[1.5, 0.75, -0.5]], [[-0.25, 0.5, 1.0]]], requires_grad=True)
    seen = []
    for make in (lambda: torch.nn.RNN(3, 2), lambda: torch.nn.RNN(3, 2, nonlinearity="relu", num_layers=2),
                 lambda: torch.nn.LSTM(3, 2), lambda: torch.nn.LSTM(3, 2, num_layers=2, bidirectional=True),
                 lambda: torch.nn.GRU(3, 2), lambda: torch.nn.GRU(3, 2, batch_first=True, bias=False),
                 lambda: torch.nn.GRU(3, 2, bidirectional=True)):
        layer = make()
        names = [name for name, _ in layer.named_parameters()]
        with torch.no_grad():
            for i, p in enumerate(layer.parameters()):
                p.copy_(torch.linspace(-0.5, 0.6, p.numel()).reshape(p.shape) * (1 + 0.1 * i))
        out, state = layer(x)
        states = list(state) if isinstance(state, tuple) else [state]
        total = (out * out).sum() + sum((s * s).sum() for s in states)
        grads = torch.autograd.grad(total, [x, *layer.parameters()])
        seen += [names, [tuple(p.shape) for p in layer.parameters()], out, states, grads]
    lstm = torch.nn.LSTM(3, 2)
    h0, c0 = torch.full((1, 1, 2), 0.5), torch.full((1, 1, 2), -0.25)
    with torch.no_grad():
        for p in lstm.parameters():
            p.fill_(0.1)
    unbatched, (h, c) = lstm(x[:, 0], (h0[:, 0], c0[:, 0]))
    given, _ = lstm(x, (h0, c0))
    return seen + [unbatched, h, c, given]


@program
def a_float32_lstm_layer_is_one_fused_node(torch):
    """torch's CPU LSTM on float32 records each layer and direction as one
    MkldnnRnnLayerBackward0 (edges: input, four weights, the initial h and c selected from hx),
    the final states stack its outputs; it saves its input (a write refuses the backward) and
    frees at the backward. float64, GRU and a packed batch keep their composed nodes."""
    torch.manual_seed(3)

    def edges(node):
        return [None if f is None else (f.name(), i) for f, i in node.next_functions]

    seen = []
    for make in (lambda: torch.nn.LSTM(3, 4), lambda: torch.nn.LSTM(3, 4, num_layers=2),
                 lambda: torch.nn.LSTM(3, 4, bidirectional=True),
                 lambda: torch.nn.LSTM(3, 4, batch_first=True),
                 lambda: torch.nn.LSTM(3, 4).double(), lambda: torch.nn.GRU(3, 4)):
        layer = make()
        dtype = next(layer.parameters()).dtype
        out, state = layer(torch.randn(5, 2, 3, dtype=dtype))
        states = list(state) if isinstance(state, tuple) else [state]
        seen += [out.grad_fn.name(), edges(out.grad_fn), [edges(s.grad_fn) for s in states]]
    lstm = torch.nn.LSTM(3, 4)
    h0 = torch.zeros(1, 2, 4, requires_grad=True)
    x = torch.randn(5, 2, 3, requires_grad=True)
    out, (h, c) = lstm(x, (h0, torch.zeros(1, 2, 4)))
    seen += [edges(out.grad_fn), h.grad_fn.name()]
    (out.sum() + h.sum() + c.sum()).backward(retain_graph=True)
    seen += [x.grad, h0.grad, lstm.weight_hh_l0.grad]
    out.sum().backward()
    seen.append(attempt(lambda: out.sum().backward()))
    out, _ = lstm(x)
    with torch.no_grad():
        x.mul_(2)
    seen.append(attempt(lambda: out.sum().backward()))
    packed = torch.nn.utils.rnn.pack_padded_sequence(torch.randn(5, 2, 3), [5, 3])
    out, (h, c) = lstm(packed)
    seen += [out.data.grad_fn.name(), h.grad_fn.name()]
    deep = torch.nn.LSTM(3, 4, num_layers=2, bidirectional=True)  # a second derivative through it
    x = torch.randn(4, 2, 3, requires_grad=True)
    out, (h, c) = deep(x)
    (g,) = torch.autograd.grad((out ** 2).sum() + h.sum(), x, create_graph=True)
    (g ** 2).sum().backward()
    return seen + [x.grad, deep.weight_hh_l0.grad, deep.bias_ih_l1_reverse.grad]


@program
def bilinear_is_one_trilinear_node_between_views(torch):
    """nn.Bilinear (its draws, repr) and F.bilinear as torch composes them: the inputs viewed as
    rows, one TrilinearBackward0 with the weight, viewed back, the bias added; gradients to
    the second order, leading dimensions and 1-d inputs."""
    torch.manual_seed(0)
    layer = torch.nn.Bilinear(3, 2, 4)
    x1 = torch.randn(5, 3, requires_grad=True)
    x2 = torch.randn(5, 2, requires_grad=True)
    y = layer(x1, x2)
    view = y.grad_fn.next_functions[0][0]
    trilinear = view.next_functions[0][0]
    seen = [repr(layer), layer.weight, layer.bias, y, y.grad_fn.name(), view.name(), trilinear.name(),
            [None if f is None else f.name() for f, _ in trilinear.next_functions]]
    y.pow(2).sum().backward()
    seen += [x1.grad, x2.grad, layer.weight.grad.clone()]
    (g,) = torch.autograd.grad(layer(x1, x2).sum(), x1, create_graph=True)
    g.pow(2).sum().backward()
    return seen + [layer.weight.grad, layer(torch.randn(2, 5, 3), torch.randn(2, 5, 2)).shape,
                   torch.nn.functional.bilinear(torch.randn(3), torch.randn(2), layer.weight).shape,
                   repr(torch.nn.Bilinear(2, 2, 1, bias=False))]


@program
def transposed_convolutions(torch):
    """F.conv_transpose2d / conv_transpose1d and nn.ConvTranspose2d (stride, padding,
    output_padding, groups, dilation, a bias, an unbatched input): values, node names, the
    gradients of input, weight and bias, and a second derivative."""
    F = torch.nn.functional
    x = (torch.arange(36.0).reshape(2, 2, 3, 3) / 10).requires_grad_()
    w = (torch.arange(32.0).reshape(2, 4, 2, 2) / 7 - 2).requires_grad_()
    b = torch.tensor([0.1, -0.2, 0.3, 0.4], requires_grad=True)
    seen = []
    for out in (F.conv_transpose2d(x, w), F.conv_transpose2d(x, w, b, stride=2),
                F.conv_transpose2d(x, w, b, stride=2, padding=1, output_padding=1),
                F.conv_transpose2d(x, w[:, :2], b, groups=2), F.conv_transpose2d(x, w, dilation=2, padding=1),
                F.conv_transpose2d(x[0], w, b, stride=(2, 1)),
                F.conv_transpose1d(x[:, :, 0], w[:, :, 0], b, stride=2)):
        grads = torch.autograd.grad((out * out).sum(), (x, w, b), create_graph=True, allow_unused=True)
        seen += [out, out.grad_fn.name(), grads, torch.autograd.grad(grads[0].sum(), w)]
    layer = torch.nn.ConvTranspose2d(2, 3, 3, stride=2, padding=1, output_padding=1)
    with torch.no_grad():
        layer.weight.copy_(torch.linspace(-1.0, 1.0, 54).reshape(2, 3, 3, 3))
        layer.bias.fill_(0.5)
    return seen + [layer(x), str(layer), [tuple(p.shape) for p in layer.parameters()]]


@program
def reflection_and_replication_padding(torch):
    """F.pad with mode reflect and replicate (one node each, named by how many dims it pads),
    the ReflectionPad / ReplicationPad modules and their reprs, gradients that sum over the
    places an element was read, second order, and torch's refusal of a pad size the rank
    does not take."""
    x = torch.arange(12.0).reshape(1, 1, 3, 4).requires_grad_()
    seen = []
    for mode in ("reflect", "replicate"):
        y = torch.nn.functional.pad(x, (1, 2, 2, 1), mode=mode)
        first, = torch.autograd.grad((y * y * y).sum(), x, create_graph=True)
        seen += [y, y.grad_fn.name(), first, torch.autograd.grad(first.sum(), x)]
    line = torch.arange(6.0).reshape(1, 2, 3).requires_grad_()
    modules = [torch.nn.ReflectionPad2d(1), torch.nn.ReplicationPad2d((1, 0, 2, 0)),
               torch.nn.ReflectionPad1d(2), torch.nn.ReplicationPad1d((0, 2))]
    return seen + [torch.nn.functional.pad(line, (2, 1), mode="reflect"), [repr(m) for m in modules],
                   modules[0](x), modules[1](x).grad_fn.name(), modules[2](line), modules[3](line),
                   attempt(lambda: torch.nn.functional.pad(torch.ones(3), (1, 1), mode="reflect"))]


@program
def pixel_shuffles(torch):
    """pixel_shuffle / pixel_unshuffle and their modules: the permutation, each the other's
    derivative (second order included), and the module path."""
    x = torch.arange(32.0).reshape(2, 4, 2, 2).requires_grad_()
    y = torch.nn.functional.pixel_shuffle(x, 2)
    first, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    back = torch.nn.PixelUnshuffle(2)(y)
    return [y, y.grad_fn.name(), first, first.grad_fn.name(), torch.autograd.grad((first * first).sum(), x),
            repr(torch.nn.PixelShuffle(2)), repr(torch.nn.PixelUnshuffle(3)), back.grad_fn.name(),
            torch.equal(back, x), torch.nn.modules.pixelshuffle.PixelShuffle is torch.nn.PixelShuffle]


@program
def volumes_convolved_pooled_and_normalised(torch):
    """The 3-d family on a (N, C, D, H, W) volume: conv3d and conv_transpose3d (strided,
    padded, grouped, unbatched), max / avg / adaptive pools (a 1 x 1 x 1 output is a mean),
    BatchNorm3d in training and eval, and the modules' printouts: values, node names, first
    and second derivatives."""
    F, nn = torch.nn.functional, torch.nn
    values = torch.arange(2 * 2 * 3 * 4 * 4, dtype=torch.float32).reshape(2, 2, 3, 4, 4)
    x = ((values * 0.37) % 2.3 - 1.1).requires_grad_()
    w = ((torch.arange(4 * 2 * 2 * 2 * 2, dtype=torch.float32).reshape(4, 2, 2, 2, 2) * 0.21) % 1.3 - 0.6)
    w.requires_grad_()
    seen = []
    for out in (F.conv3d(x, w), F.conv3d(x, w, stride=(1, 2, 2), padding=1),
                F.conv3d(x[0], w, dilation=(1, 2, 1)),
                F.conv3d(x, w[:, :1], groups=2), F.conv_transpose3d(x, w[:2], stride=2),
                F.conv_transpose3d(x, w[:2], stride=(1, 2, 1), padding=1, output_padding=(0, 1, 0)),
                F.max_pool3d(x, 2), F.max_pool3d(x, (1, 2, 2), stride=1, padding=(0, 1, 0)),
                F.max_pool3d(x[0], 2, ceil_mode=True), F.avg_pool3d(x, 2), F.avg_pool3d(x, 3, 2, 1),
                F.avg_pool3d(x, 3, 2, 1, count_include_pad=False), F.adaptive_avg_pool3d(x, 1),
                F.adaptive_avg_pool3d(x, (2, 3, 2)), F.adaptive_avg_pool3d(x[0], (1, 2, None)),
                F.adaptive_max_pool3d(x, 2), F.adaptive_max_pool3d(x[1], (3, 1, 2))):
        g, = torch.autograd.grad((out * out).sum(), x, create_graph=True)
        seen += [out, out.grad_fn.name(), g, torch.autograd.grad(g.sum(), x, allow_unused=True)]
    norm = nn.BatchNorm3d(2)
    y = norm(x)
    y.pow(3).sum().backward()
    norm.eval()
    seen += [y, x.grad, norm.weight.grad, norm.bias.grad, norm.running_mean, norm.running_var, norm(x),
             attempt(lambda: norm(x[0])), attempt(lambda: F.conv3d(x[0, 0], w))]
    modules = [nn.Conv3d(2, 4, 3), nn.Conv3d(2, 4, (1, 2, 3), stride=2, padding=1, bias=False),
               nn.ConvTranspose3d(2, 4, 2, stride=2), nn.MaxPool3d(2), nn.MaxPool3d(3, 2, 1), nn.AvgPool3d(2),
               nn.AvgPool3d((1, 2, 2)), nn.AdaptiveAvgPool3d(1), nn.AdaptiveAvgPool3d((1, 2, 3)),
               nn.AdaptiveMaxPool3d(2), nn.BatchNorm3d(3, momentum=None)]
    conv = modules[0]
    with torch.no_grad():
        conv.weight.copy_(torch.ones_like(conv.weight) * 0.01)
        conv.bias.zero_()
    return seen + [repr(m) for m in modules] + [[tuple(p.shape) for p in m.parameters()] for m in modules] + [
        conv(x), type(torch.nn.modules.conv.Conv3d(1, 1, 1)).__name__]


@program
def embedding_bags_sum_mean_and_max(torch):
    """embedding_bag and nn.EmbeddingBag: bags by offsets (an empty one, include_last_offset),
    or the rows of a 2-d input; sum (per-sample weights, which get a gradient too), mean
    (padding_idx left out of the count) and max (to each column's first largest row); the
    module's draws, padding row and printout, from_pretrained, and the refusals."""
    F = torch.nn.functional
    weight = torch.tensor([[0.5, -1.0], [2.0, 0.25], [1.5, 1.5], [-0.5, 3.0], [0.0, -2.0]],
                          requires_grad=True)
    ids, offsets = torch.tensor([1, 2, 4, 4, 3, 0, 2]), torch.tensor([0, 3, 3, 5])
    per_sample = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0], requires_grad=True)
    seen = []
    for y in (F.embedding_bag(ids, weight, offsets, mode="sum"), F.embedding_bag(ids, weight, offsets),
              F.embedding_bag(ids, weight, offsets, mode="max"),
              F.embedding_bag(ids, weight, offsets, mode="mean", padding_idx=4),
              F.embedding_bag(ids, weight, offsets, mode="sum", per_sample_weights=per_sample),
              F.embedding_bag(ids, weight, torch.tensor([0, 3, 3, 7]), mode="max", include_last_offset=True),
              F.embedding_bag(torch.tensor([[0, 2], [3, 3]]), weight, mode="mean")):
        scale = torch.arange(1.0, y.numel() + 1).reshape(y.shape)
        seen += [y, y.grad_fn.name(), torch.autograd.grad((y * scale).sum(), [weight, per_sample],
                                                          allow_unused=True)]
    torch.manual_seed(1)
    bag = torch.nn.EmbeddingBag(4, 3, mode="sum", padding_idx=1)
    pretrained = torch.nn.EmbeddingBag.from_pretrained(weight.detach(), mode="max")
    return seen + [bag.weight, bag(torch.tensor([0, 1, 3]), torch.tensor([0, 1])), repr(bag),
                   repr(torch.nn.EmbeddingBag(10, 3)), pretrained(ids, offsets),
                   pretrained.weight.requires_grad,
                   attempt(lambda: F.embedding_bag(ids, weight)),
                   attempt(lambda: F.embedding_bag(torch.tensor([[0, 1]]), weight, offsets)),
                   attempt(lambda: F.embedding_bag(ids, weight, offsets, mode="max",
                                                   per_sample_weights=torch.ones(7)))]


@program
def unfold_and_fold_blocks(torch):
    """unfold (im2col: padded, dilated, strided blocks as columns, an unbatched input) and fold
    (col2im, its adjoint: overlapping blocks summed), as functions and modules: values, node
    names, first and second derivatives, printouts."""
    F, nn = torch.nn.functional, torch.nn
    x = (torch.arange(2 * 2 * 4 * 5, dtype=torch.float32).reshape(2, 2, 4, 5) * 0.37 % 1.9).requires_grad_()
    columns = F.unfold(x, (2, 3), dilation=(1, 2), padding=1, stride=(2, 1))
    planes = F.fold(columns, (4, 5), (2, 3), dilation=(1, 2), padding=1, stride=(2, 1))
    g, = torch.autograd.grad((planes * planes).sum(), x, create_graph=True)
    unfold, fold = nn.Unfold(2, padding=1), nn.Fold((4, 5), 2)
    blocks = unfold(x[0])
    return [columns, columns.grad_fn.name(), planes, planes.grad_fn.name(), g,
            torch.autograd.grad(g.sum(), x),
            blocks, fold(F.unfold(x, 2)), repr(unfold), repr(fold)]


@program
def weighted_binary_losses_keep_their_weights_as_buffers(torch):
    """BCELoss's ``weight`` and BCEWithLogitsLoss's ``weight`` and ``pos_weight`` are buffers;
    MSELoss and L1Loss take torch's legacy arguments (size_average, reduce) positionally first.
    A logit of 0 checks the derivative where |x| and max(-x, 0) have kinks."""
    nn = torch.nn
    x = torch.tensor([[0.5, -1.5, 0.0], [-0.25, 1.0, -3.0]], requires_grad=True)
    target = torch.tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]])
    losses = [nn.BCEWithLogitsLoss(pos_weight=torch.tensor([2.0, 1.0, 0.5])),
              nn.BCEWithLogitsLoss(torch.tensor([1.0, 2.0, 3.0]), reduction="sum"),
              nn.BCELoss(weight=torch.tensor([0.5, 1.0, 2.0])), nn.MSELoss(None, None, "sum"),
              nn.L1Loss(reduction="none")]
    seen = []
    for loss in losses:
        logits = not isinstance(loss, nn.BCELoss) or isinstance(loss, nn.BCEWithLogitsLoss)
        out = loss(x if logits else torch.sigmoid(x), target)
        seen += [out.detach(), out.grad_fn.name(), torch.autograd.grad(out.sum(), x)[0],
                 sorted(dict(loss.named_buffers())), repr(loss)]
    return seen


@program
def max_pools_return_their_indices(torch):
    """max_pool2d / max_pool3d (and MaxPool2d) with return_indices: each window's first largest
    element as a flat index into its input plane (int64), with padding, strides and ceil mode;
    an unbatched input's without the batch axis."""
    x = torch.tensor([[[[0.5, -1.0, 2.0, 0.3, 1.1], [1.5, 0.25, -0.5, 2.5, 0.0], [0.1, 3.0, 0.3, -2.0, 0.7],
                        [1.0, -0.2, 0.9, 0.4, 1.9], [-1.5, 0.6, 2.2, 0.8, -0.1]]]], requires_grad=True)
    seen = []
    for settings in ({"kernel_size": 2}, {"kernel_size": 3, "stride": 2, "padding": 1},
                     {"kernel_size": 2, "ceil_mode": True}):
        out, indices = torch.nn.functional.max_pool2d(x, return_indices=True, **settings)
        seen += [out, indices, out.grad_fn.name(), torch.autograd.grad(out.sum(), x)[0]]
    cube = torch.arange(48.0).reshape(1, 1, 3, 4, 4).sin()
    return seen + [torch.nn.functional.max_pool2d(x[0], 2, return_indices=True)[1],
                   torch.nn.MaxPool2d(2, return_indices=True)(x)[1],
                   torch.nn.functional.max_pool3d(cube, 2, return_indices=True)[1]]


@program
def parametrized_weights(torch):
    """torch.nn.utils.parametrize and parametrizations: weight_norm (g and v as original0 and
    original1, trained by SGD), a custom parametrization (the same Parameter kept as original,
    the class renamed, cached() reusing one value, remove_parametrizations leaving the value in
    it, an unknown name refused) and spectral_norm (power iteration from torch's draws, in
    training and in eval, a transposed convolution along dim 1)."""
    parametrize, parametrizations = torch.nn.utils.parametrize, torch.nn.utils.parametrizations
    torch.manual_seed(0)
    layer = parametrizations.weight_norm(torch.nn.Linear(3, 2))
    seen = [type(layer).__name__, repr(layer), isinstance(layer, torch.nn.Linear),
            list(layer.state_dict()), [name for name, _ in layer.named_parameters()], layer.weight,
            layer.weight.grad_fn.name()]
    opt = torch.optim.SGD(layer.parameters(), lr=0.1)
    layer(torch.randn(4, 3)).sum().backward()
    opt.step()
    seen += [layer.parametrizations.weight.original0.grad, layer.weight,
             parametrize.is_parametrized(layer), parametrize.is_parametrized(layer, "bias"),
             parametrize.type_before_parametrizations(layer).__name__]

    class Symmetric(torch.nn.Module):
        def forward(self, x):
            return x.triu() + x.triu(1).transpose(-1, -2)

    square = torch.nn.Linear(3, 3)
    original = square.weight
    parametrize.register_parametrization(square, "weight", Symmetric())
    seen += [square.weight, square.weight.grad_fn.name(),
             square.parametrizations.weight.original is original, repr(square)]
    with parametrize.cached():
        seen.append(square.weight is square.weight)
    seen.append(square.weight is square.weight)
    parametrize.remove_parametrizations(square, "weight", leave_parametrized=True)
    seen += [type(square).__name__, [name for name, _ in square.named_parameters()],
             square.weight is original, square.weight,
             attempt(lambda: parametrize.register_parametrization(square, "nope", Symmetric()))]
    spectral = parametrizations.spectral_norm(torch.nn.Linear(4, 3))
    chain = spectral.parametrizations.weight
    seen += [list(spectral.state_dict()), chain[0]._u, chain[0]._v, spectral.weight,
             spectral.weight.grad_fn.name()]
    spectral(torch.randn(2, 4)).sum().backward()
    spectral.eval()
    transposed = parametrizations.spectral_norm(torch.nn.ConvTranspose2d(2, 3, 2))
    return seen + [chain.original.grad, spectral.weight, transposed.parametrizations.weight[0]._u.shape,
                   transposed.parametrizations.weight[0].dim]


@program
def matrix_transposes_as_attributes(torch):
    """Tensor.mT / mH (a matrix or a batch of them) and H (a matrix only): transposes of the last
    two dimensions, views recorded as TransposeBackward0; the wrong ranks refused."""
    x = torch.arange(6.0).reshape(2, 3).requires_grad_()
    batch = torch.arange(8.0).reshape(2, 2, 2)
    seen = [x.mT, x.mH, x.H, x.H.grad_fn.name(), x.H.is_contiguous(), batch.mT, batch.mH]
    (x.H * torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])).sum().backward()
    return seen + [x.grad, attempt(lambda: batch.H), attempt(lambda: torch.ones(3).mT),
                   attempt(lambda: torch.ones(3).mH), attempt(lambda: torch.ones(3).H)]


@program
def lazy_linear_materialises_on_its_first_input(torch):
    """LazyLinear: uninitialized parameters (refused when used), then its first forward draws
    them as Linear(in_features, out_features) would and the module becomes a Linear."""
    nn = torch.nn
    torch.manual_seed(0)
    lazy = nn.LazyLinear(3)
    before = [str(lazy), repr(lazy.weight), type(lazy.weight).__name__, lazy.in_features,
              list(lazy.state_dict().keys()), lazy.has_uninitialized_params(),
              attempt(lambda: nn.LazyLinear(3).weight.sum()), str(nn.LazyLinear(4, bias=False))]
    out = lazy(torch.randn(2, 5))
    out.sum().backward()
    model = nn.Sequential(nn.LazyLinear(4), nn.ReLU(), nn.LazyLinear(1))
    return [before, type(lazy).__name__, str(lazy), lazy.weight, lazy.bias, out, lazy.weight.grad,
            model(torch.ones(3, 2)), str(model)]
