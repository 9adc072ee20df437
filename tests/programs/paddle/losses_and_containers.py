"""kl_div (paddle's kernel: the label gets no gradient, no double grad) and cosine_similarity,
their layers, LayerDict and ParameterList, and the small tensor functions and aliases (cat,
clamp, clone, logical functions, rank, take_along_axis, nan_to_num, and the
Tensor methods permute, contiguous, ravel, new_ones …)."""

from __future__ import annotations

from tests.observe import attempt
from tests.programs.registry import paddle_program as program


@program
def kl_divergence_and_cosine_similarity(paddle):
    F = paddle.nn.functional
    x = paddle.to_tensor([[-1.0, -2.0, -0.5], [-0.3, -1.2, -2.2]], stop_gradient=False)
    t = paddle.to_tensor([[0.2, 0.0, 0.8], [0.5, 0.25, 0.25]], stop_gradient=False)
    seen = []
    for reduction in ("mean", "batchmean", "sum", "none"):
        y = F.kl_div(x, t, reduction=reduction)
        seen += [y, y.grad_fn.name(), paddle.grad(y.sum(), [x, t], allow_unused=True)]
    y = F.kl_div(x, t, reduction="sum", log_target=True)
    seen += [y, paddle.grad(y, x), attempt(lambda: paddle.grad(F.kl_div(x, t, reduction="sum"), x,
                                                             create_graph=True)),
             paddle.nn.KLDivLoss("batchmean")(x, t)]
    a = paddle.to_tensor([[1.0, 2.0, 0.0], [0.0, 0.0, 0.0]], stop_gradient=False)
    b = paddle.to_tensor([[2.0, -1.0, 1.0], [1.0, 1.0, 0.0]], stop_gradient=False)
    c = F.cosine_similarity(a, b, axis=1)
    return seen + [c, c.grad_fn.name(), paddle.grad(c.sum(), [a, b]), repr(paddle.nn.CosineSimilarity()),
                   paddle.nn.CosineSimilarity(axis=0, eps=1e-6)(a, b)]


@program
def layer_dict_and_parameter_list(paddle):
    plist = paddle.nn.ParameterList([paddle.create_parameter([2, 3], "float32"),
                                     paddle.create_parameter([3], "float32", is_bias=True)])
    layers = paddle.nn.LayerDict({"a": paddle.nn.Linear(2, 2), "b": paddle.nn.ReLU()})
    layers["c"] = paddle.nn.Tanh()
    return [repr(plist), len(plist), [n for n, _ in plist.named_parameters()], plist[1], repr(layers),
            list(layers.keys()), "b" in layers, len(list(layers.parameters()))]


@program
def small_tensor_functions_and_aliases(paddle):
    x = paddle.to_tensor([[1.0, -2.0, 3.0], [0.5, 0.0, -1.5]], stop_gradient=False)
    y = paddle.to_tensor([[0.5, 1.0, -1.0], [2.0, 0.0, 1.0]], stop_gradient=False)
    seen = []
    for out in (paddle.cat([x, y], 0), paddle.clone(x), x.clamp(-1, 1), paddle.clamp(x, -1.0),
                x.permute(1, 0), x.permute([1, 0]), x.ravel(),
                paddle.take_along_axis(x, paddle.to_tensor([[0, 2], [1, 1]]), 1),
                paddle.take_along_axis(x, paddle.to_tensor([[0, 1, 1]]), 0)):
        seen += [out, out.grad_fn.name(), paddle.grad(out.sum(), x, allow_unused=True)]
    inf = paddle.to_tensor([float("nan"), float("inf"), -float("inf"), 1.0], stop_gradient=False)
    fixed = paddle.nan_to_num(inf, nan=1.0)
    t = x.transpose([1, 0])
    return seen + [fixed, fixed.grad_fn.name(), paddle.grad(fixed.sum(), inf),
                   paddle.nan_to_num(inf, posinf=5.0), paddle.logical_not(x > 0),
                   paddle.logical_or(x > 0, y > 0), paddle.logical_and(x > 0, y > 0),
                   paddle.logical_xor(x > 2, x > 0), paddle.rank(x), x.rank(), x.new_ones([2]),
                   x.new_zeros([1, 2]), x.new_full([2], 3.0), x.allclose(y), x.equal_all(x),
                   paddle.empty([2, 3]).shape, t.is_contiguous(), t.contiguous() is t, t.is_contiguous()]


@program
def soft_labels_triplets_and_layer_printouts(paddle):
    """cross_entropy with soft labels or label_smoothing (one-hot, smoothed, then the soft
    kernel: (N, 1) per row), triplet_margin_loss / pairwise_distance, an initializer called on
    a parameter, Embedding's padding row zeroed when made, and the recurrent layers' printouts
    (a wrapper per layer around its cells)."""
    paddle.seed(0)
    F = paddle.nn.functional
    x = paddle.to_tensor([[1.0, -0.5, 2.0], [0.3, 0.2, -1.0]], stop_gradient=False)
    y = paddle.to_tensor([2, 0])
    soft = paddle.to_tensor([[0.1, 0.2, 0.7], [0.5, 0.5, 0.0]])
    seen = []
    seen.append(attempt(lambda: F.cross_entropy(x, y.unsqueeze(1), label_smoothing=0.2)))
    for loss in (F.cross_entropy(x, y, label_smoothing=0.1),
                 F.cross_entropy(x, y, label_smoothing=0.2, reduction="none"),
                 F.cross_entropy(x, soft, soft_label=True),
                 F.cross_entropy(x, soft, soft_label=True, reduction="sum")):
        seen += [loss, loss.grad_fn.name(), paddle.grad(loss.sum(), x)]
    a, p, n = paddle.randn([4, 3]), paddle.randn([4, 3]), paddle.randn([4, 3])
    a.stop_gradient = False
    for loss in (F.triplet_margin_loss(a, p, n),
                 paddle.nn.TripletMarginLoss(margin=0.5, p=1.0, swap=True)(a, p, n),
                 F.pairwise_distance(a, p), paddle.nn.PairwiseDistance(keepdim=True)(a, n)):
        seen += [loss, paddle.grad(loss.sum(), a)]
    layer = paddle.nn.Linear(3, 2)
    paddle.nn.initializer.XavierUniform()(layer.weight)
    paddle.nn.initializer.Constant(0.5)(layer.bias)
    embedding = paddle.nn.Embedding(5, 3, padding_idx=0)
    return seen + [layer.weight, layer.bias, embedding.weight,
                   paddle.nn.Embedding(4, 2, padding_idx=-1).weight,
                   repr(paddle.nn.LSTM(6, 5)),
                   repr(paddle.nn.GRU(4, 3, num_layers=2, direction="bidirect", time_major=True,
                                      dropout=0.1)),
                   repr(paddle.nn.SimpleRNN(3, 2, activation="relu"))]


@program
def forward_differences_and_layer_aliases(paddle):
    """diff (a subtraction each time) as a function and a method; a Layer's modules(),
    register_parameter and _modules."""
    x = paddle.to_tensor([[1.0, 4.0, 9.0], [2.0, 2.0, 5.0]], stop_gradient=False)
    seen = []
    for y in (paddle.diff(x), x.diff(axis=0), paddle.diff(x, n=2),
              paddle.diff(x, prepend=paddle.zeros([2, 1]))):
        seen += [y, y.grad_fn.name(), paddle.grad((y * y).sum(), x)]
    model = paddle.nn.Sequential(paddle.nn.Linear(2, 2), paddle.nn.ReLU())
    layer = paddle.nn.Layer()
    layer.register_parameter("w", layer.create_parameter([2]))
    return seen + [attempt(lambda: paddle.diff(x, n=0)), [type(m).__name__ for m in model.modules()],
                   list(model._modules),
                   [n for n, _ in layer.named_parameters()]]


@program
def aliases_and_in_place_activations(paddle):
    """paddle.autograd.grad (paddle.grad), paddle.float, Tensor.mul / sub / mv, is_floating_point,
    hstack, empty_like's shape and dtype, and the in-place tanh_, relu_ and elu_ (the tensor
    itself returned, its node the activation's); a leaf that needs a gradient refuses them."""
    x = paddle.to_tensor([[1.0, -2.0], [3.0, 4.0]], stop_gradient=False)
    y, y2, y3 = x * 1.0, x * 1.0, x * 1.0
    written = [paddle.tanh_(y) is y, paddle.nn.functional.relu_(y2) is y2,
               paddle.nn.functional.elu_(y3, alpha=0.5) is y3]
    (y.sum() + y2.sum() + y3.sum()).backward()
    made = [x.mul(x), x.sub(x * 2), x.mv(paddle.ones([2])), paddle.hstack([x, x]),
            paddle.hstack([paddle.ones([2]), paddle.zeros([3])])]
    return written + [y, y2, y3, y.grad_fn.name(), y2.grad_fn.name(), y3.grad_fn.name(), x.grad,
                      made, [m.grad_fn.name() for m in made[:4]], paddle.is_floating_point(x),
                      x.is_floating_point(), paddle.is_floating_point(paddle.to_tensor([1])),
                      paddle.empty_like(x).shape, str(paddle.empty_like(x, dtype="float64").dtype),
                      paddle.autograd.grad is paddle.grad, str(paddle.float),
                      attempt(lambda: paddle.nn.functional.relu_(x))]


@program
def cross_entropy_ignore_index_and_class_weights(paddle):
    """Hard-label cross_entropy (its layer made with the same settings): an ignored label's
    loss and gradient are 0; the mean divides by the weights of the labels counted, or by the
    labels not ignored when ``ignore_index`` is a class, or by every row when it is not (-100);
    a label out of range that is not ignored is refused, its text naming the bound."""
    F = paddle.nn.functional
    x = paddle.to_tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5], [0.1, 0.2, 0.3], [1.0, -2.0, 0.0]],
                         stop_gradient=False)
    weight = paddle.to_tensor([0.5, 2.0, 1.0])
    seen = []
    for label in (paddle.to_tensor([0, 2, -100, 1]), paddle.to_tensor([[0], [2], [1], [1]])):
        for settings in ({}, {"ignore_index": 1}, {"weight": weight}, {"weight": weight, "ignore_index": 2}):
            if -100 in label.tolist() and settings.get("ignore_index", -100) != -100:
                continue
            for reduction in ("mean", "sum", "none"):
                out = F.cross_entropy(x, label, reduction=reduction, **settings)
                seen += [out, paddle.grad(out.sum(), x)[0]]
            seen.append(paddle.nn.CrossEntropyLoss(**settings)(x, label))
    smoothed = paddle.nn.CrossEntropyLoss(label_smoothing=0.1)(x, paddle.to_tensor([0, 2, 1, 1]))
    return seen + [smoothed, attempt(lambda: F.cross_entropy(x, paddle.to_tensor([0, 3, 1, 1]))),
                   attempt(lambda: F.cross_entropy(x, paddle.to_tensor([0, -5, 1, 1]), ignore_index=2))]


@program
def logits_loss_with_weights_and_pos_weight(paddle):
    """binary_cross_entropy_with_logits with ``pos_weight`` (the positive term scaled) and
    ``weight`` (each element's loss scaled), and its layer; a logit of 0 checks the derivative
    there (-0.5 of the positive term's scale)."""
    F = paddle.nn.functional
    x = paddle.to_tensor([[0.5, -1.5, 0.0], [-0.25, 1.0, -3.0]], stop_gradient=False)
    y = paddle.to_tensor([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]])
    pos_weight, weight = paddle.to_tensor([2.0, 1.0, 0.5]), paddle.to_tensor([1.0, 2.0, 3.0])
    seen = []
    for settings in ({"pos_weight": pos_weight}, {"weight": weight},
                     {"weight": weight, "pos_weight": pos_weight}):
        for reduction in ("mean", "sum", "none"):
            out = F.binary_cross_entropy_with_logits(x, y, reduction=reduction, **settings)
            seen += [out, paddle.grad(out.sum(), x)[0]]
        seen.append(paddle.nn.BCEWithLogitsLoss(**settings)(x, y))
    return seen


@program
def functions_patched_onto_tensors(paddle):
    """paddle's tensor functions are Tensor methods too: mm, bmm, where, hypot, logaddexp,
    atleast_2d (values, nodes, gradients); concat as a method takes the tensor for its list."""
    x = paddle.to_tensor([[1.0, -2.0], [3.0, 0.5]], stop_gradient=False)
    made = [x.mm(x), x.unsqueeze(0).bmm(x.unsqueeze(0)), (x > 0).where(x, -x), x.hypot(x * 2),
            x.logaddexp(x * 0.5), x[0, 0].atleast_2d()]
    total = sum(m.sum() for m in made)
    return made + [m.grad_fn.name() for m in made] + [paddle.grad(total, x)[0],
                                                      attempt(lambda: x.concat([x], axis=0))]
