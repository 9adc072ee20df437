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
