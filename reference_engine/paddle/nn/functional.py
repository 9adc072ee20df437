"""``paddle.nn.functional``: the activations and losses the reference engine models (losses are
composed from the core's operations)."""

from __future__ import annotations

import contextlib
from typing import Any, Optional

import numpy as np

from reference_engine import composed as C
from reference_engine import layers, recorder, similarity
from reference_engine import ops as F
from reference_engine import rules as R
from reference_engine.dialects.paddle_policy import PADDLE
from reference_engine.framework_names import module_getattr
from reference_engine.graph import as_kernel
from reference_engine.messages import not_supported
from reference_engine.paddle._core import full_like, matmul, transpose
from reference_engine.paddle.extras import triu
from reference_engine.paddle.nn.activation_functions import *  # noqa: F403
from reference_engine.paddle.nn.activation_functions import __all__ as _activations
from reference_engine.paddle.nn.activation_functions import float_attribute
from reference_engine.paddle.nn.composed_losses import *  # noqa: F403
from reference_engine.paddle.nn.composed_losses import __all__ as _composed_losses
from reference_engine.paddle.nn.composed_losses import mean_all as _mean_all
from reference_engine.tensor import Tensor

__all__ = ["group_norm", "interpolate", "label_smooth", "one_hot", "pad", "upsample", "adaptive_avg_pool1d",
           "adaptive_avg_pool2d", "adaptive_avg_pool3d", "adaptive_max_pool2d", "adaptive_max_pool3d",
           "avg_pool1d", "avg_pool2d", "avg_pool3d", "max_pool1d", "max_pool2d", "max_pool3d", "conv3d",
           "conv3d_transpose", "conv1d_transpose", "unfold",
           "cosine_embedding_loss", "batch_norm", "binary_cross_entropy", "binary_cross_entropy_with_logits",
           "cosine_similarity", "kl_div", "pairwise_distance", "triplet_margin_loss", "conv1d", "conv2d",
           "conv2d_transpose", "cross_entropy", "dropout", "dropout2d", "elu", "instance_norm", "embedding",
           "gelu", "l1_loss", "layer_norm", "leaky_relu", "linear", "log_softmax", "mse_loss", "nll_loss",
           "normalize", "relu", "sigmoid", "silu", "smooth_l1_loss", "softmax", "softplus", "tanh", "elu_",
           "relu_",
           "pixel_shuffle", "pixel_unshuffle", "scaled_dot_product_attention", "bilinear", *_activations,
           *_composed_losses]


def bilinear(x1: Tensor, x2: Tensor, weight: Tensor, bias: Optional[Tensor] = None,
             name: Optional[str] = None) -> Tensor:
    """``out[b, o] = x1[b] · weight[o] · x2[b] (+ bias[0, o])``: one kernel (BilinearGradNode;
    no double grad, measured on 3.3.1), composed here as a batched product."""
    with as_kernel("bilinear_kernel"):
        left = matmul(x1, weight)  # (out, batch, in2)
        out = transpose(F.sum(F.mul(left, x2), -1), [1, 0])
        if bias is not None:
            out = out + bias
    return C.named(out, "BilinearGradNode", x1)


def pixel_shuffle(x: Tensor, upscale_factor: int, data_format: str = "NCHW",
                  name: Optional[str] = None) -> Tensor:
    """(N, C·r², H, W) → (N, C, H·r, W·r) (PixelShuffleGradNode; no double grad)."""
    if data_format != "NCHW":
        raise not_supported(f"pixel_shuffle with data_format={data_format!r}", "paddle")
    return F.pixel_shuffle(x, upscale_factor)


def pixel_unshuffle(x: Tensor, downscale_factor: int, data_format: str = "NCHW",
                    name: Optional[str] = None) -> Tensor:
    """(N, C, H·r, W·r) → (N, C·r², H, W) (PixelUnshuffleGradNode; no double grad)."""
    if data_format != "NCHW":
        raise not_supported(f"pixel_unshuffle with data_format={data_format!r}", "paddle")
    return F.pixel_unshuffle(x, downscale_factor)

sigmoid = F.sigmoid
tanh = F.tanh


def relu(x: Tensor, name: Optional[str] = None) -> Tensor:
    return F.relu(x)


def relu_(x: Tensor, name: Optional[str] = None) -> Tensor:
    """relu written into ``x`` (ReluGradNode)."""
    return x._in_place("relu")


def leaky_relu(x: Tensor, negative_slope: float = 0.01, name: Optional[str] = None) -> Tensor:
    return F.leaky_relu(x, negative_slope)


def softplus(x: Tensor, beta: float = 1, threshold: float = 20, name: Optional[str] = None) -> Tensor:
    return F.activation("softplus", x, beta=beta, threshold=threshold)


def elu(x: Tensor, alpha: float = 1.0, name: Optional[str] = None) -> Tensor:
    return F.activation("elu", x, alpha=float_attribute(alpha))


def elu_(x: Tensor, alpha: float = 1.0, name: Optional[str] = None) -> Tensor:
    """elu written into ``x`` (EluGradNode)."""
    return x._in_place("elu", alpha=float_attribute(alpha))


def gelu(x: Tensor, approximate: bool = False, name: Optional[str] = None) -> Tensor:
    return F.activation("gelu", x, approximate="tanh" if approximate else "none")


def silu(x: Tensor, name: Optional[str] = None) -> Tensor:
    return F.activation("silu", x)


def softmax(x: Tensor, axis: int = -1, dtype: Any = None, name: Optional[str] = None) -> Tensor:
    return F.softmax(x, axis)


def log_softmax(x: Tensor, axis: int = -1, dtype: Any = None, name: Optional[str] = None) -> Tensor:
    return F.log_softmax(x, axis)


def mse_loss(input: Tensor, label: Tensor, reduction: str = "mean") -> Tensor:  # noqa: A002
    """The mean (or sum) of squared differences, as paddle composes it."""
    squared = F.pow(F.sub(input, label), 2.0)
    if reduction == "none":
        return squared
    return F.sum(squared) if reduction == "sum" else F.mean(squared)


def l1_loss(input: Tensor, label: Tensor, reduction: str = "mean",  # noqa: A002
            name: Optional[str] = None) -> Tensor:
    """``|input - label|``, reduced (MeanAllGradNode for the mean), as paddle composes it."""
    if reduction not in ("sum", "mean", "none"):
        raise PADDLE.error("loss_reduction", api="L1Loss", reduction=reduction)
    loss = C.l1_loss(input, label, reduction)
    return C.named(loss, "MeanAllGradNode") if reduction == "mean" else loss


def smooth_l1_loss(input: Tensor, label: Tensor, reduction: str = "mean", delta: float = 1.0,  # noqa: A002
                   name: Optional[str] = None) -> Tensor:
    """paddle's huber_loss kernel (HuberLossGradNode, no double grad), then ``paddle.mean`` or
    ``paddle.sum`` for the reduction."""
    if reduction not in ("sum", "mean", "none"):
        raise PADDLE.error("loss_reduction", api="smooth_l1_loss", reduction=reduction)
    terms = C.named(C.huber_terms(input, label, delta), "HuberLossGradNode", input)
    if reduction == "none":
        return terms
    return C.named(F.mean(terms) if reduction == "mean" else F.sum(terms),
                   "MeanGradNode" if reduction == "mean" else "SumGradNode")


def normalize(x: Tensor, p: float = 2, axis: int = 1, epsilon: float = 1e-12,
              name: Optional[str] = None) -> Tensor:
    """``x`` over its ``p``-norm along ``axis``, the norm held at ``epsilon`` or more, as paddle
    composes it (DivideGradNode)."""
    floor = F.constant_like(x, np.full([1], epsilon, x._data.dtype))
    return F.div(x, F.maximum(F.norm(x, p, axis, keepdim=True), floor))


def linear(x: Tensor, weight: Tensor, bias: Optional[Tensor] = None, name: Optional[str] = None) -> Tensor:
    """``x @ weight + bias``, ``weight`` of shape (in_features, out_features) as paddle keeps it."""
    out = F.matmul(x, weight)
    return out if bias is None else F.add(out, bias)


def cross_entropy(input: Tensor, label: Tensor, weight: Optional[Tensor] = None,  # noqa: A002
                  ignore_index: int = -100, reduction: str = "mean", soft_label: bool = False,
                  axis: int = -1, use_softmax: bool = True, label_smoothing: float = 0.0,
                  name: Optional[str] = None) -> Tensor:
    """Hard labels (shape (N,) or (N, 1)) over the last axis: ``-log_softmax(input)[n, label[n]]``,
    0 where the label is ``ignore_index``, times the label's class ``weight``; soft labels (or
    hard ones smoothed by ``label_smoothing``, made one-hot first): ``-sum(label *
    log_softmax(input))`` per row, of shape (N, 1). paddle's mean (its Python composes it):
    weighted, the sum over the labels' weights; unweighted, over the labels not ignored when
    ``ignore_index`` is a class (>= 0), else over every row, ignored ones included."""
    if axis not in (-1, input._data.ndim - 1) or (weight is not None and (soft_label or label_smoothing)):
        raise not_supported("cross_entropy with soft labels and weights, or another axis", "paddle")
    log_p = F.log_softmax(input, -1) if use_softmax else F.log(input)
    if label_smoothing > 0.0:
        soft_label = True
        if label._data.ndim == input._data.ndim - 1:  # hard labels of rank N-1 only (paddle's test)
            label = one_hot(label, input._data.shape[-1])
        if label._data.dtype.kind not in "f":
            raise PADDLE.error("kernel_dtype", kernel="label_smooth", dtype=label._data.dtype,
                               supported="float64, float32")
        label = F.cast(label_smooth(label, epsilon=label_smoothing), input._data.dtype)
    if soft_label:
        out = C.named(F.neg(F.sum(F.mul(label, log_p), -1, keepdim=True)), "CrossEntropyWithSoftmaxGradNode",
                      input)
        return out if reduction == "none" else F.sum(out) if reduction == "sum" else _mean_all(out)
    classes = label._data.reshape(-1).astype(np.int64)
    kept = classes != ignore_index
    for value in classes[kept]:
        if not 0 <= value < input._data.shape[-1]:
            raise PADDLE.error("label_negative" if value < 0 else "label_too_large", label=value,
                               ignore_index=ignore_index, classes=input._data.shape[-1])
    picked = F.neg(F.getitem(log_p, (np.arange(classes.size), np.where(kept, classes, 0))))
    if not kept.all():
        picked = F.where(F.constant_like(picked, kept), picked, 0.0)
    counted = None
    if weight is not None:
        counted = F.mul(F.getitem(weight, np.where(kept, classes, 0)), F.constant_like(weight, kept.astype(
            weight._data.dtype)))
        picked = F.mul(picked, counted)
    elif ignore_index >= 0 and reduction == "mean":
        counted = F.constant_like(picked, kept.astype(picked._data.dtype))
    if reduction == "none":  # (N,) or (N, 1), as the labels: paddle's kernel gives (N, 1)
        out = F.reshape(picked, label._data.shape)
        kernel = "CrossEntropyWithSoftmaxGradNode" if use_softmax else None
        name = "SqueezeGradNode" if label._data.ndim == 1 else kernel
        return C.named(out, name, input) if name else out
    if reduction == "sum":
        return F.sum(picked)
    if counted is None:
        return _mean_all(picked)
    total = F.sum(counted)
    return F.div(F.sum(picked), F.add(total, F.cast(F.eq(total, 0.0), total._data.dtype)))


def binary_cross_entropy_with_logits(logit: Tensor, label: Tensor, weight: Optional[Tensor] = None,
                                     reduction: str = "mean", pos_weight: Optional[Tensor] = None,
                                     name: Optional[str] = None) -> Tensor:
    """paddle's ``sigmoid_cross_entropy_with_logits`` kernel elementwise (one node; with
    ``pos_weight`` scaling the positive term, composed), times ``weight``, then the sum or the
    mean of all elements (MeanAllGradNode)."""
    if reduction not in ("mean", "sum", "none"):
        raise PADDLE.error("loss_reduction", api="binary_cross_entropy_with_logits", reduction=reduction)
    if pos_weight is None:
        loss = recorder.apply(R.RULES["sigmoid_cross_entropy_with_logits"], (logit, label))
    else:
        loss = C.named(C.logits_loss_with_pos_weight(logit, label, pos_weight),
                       "SigmoidCrossEntropyWithLogitsGradNode", logit)
    if weight is not None:
        loss = F.mul(loss, weight)
    if reduction == "none":
        return loss
    return F.sum(loss) if reduction == "sum" else _mean_all(loss)


def binary_cross_entropy(input: Tensor, label: Tensor, weight: Optional[Tensor] = None,  # noqa: A002
                         reduction: str = "mean", name: Optional[str] = None) -> Tensor:
    """paddle's ``bce_loss`` kernel elementwise (one BceLossGradNode, logs held at -100 as
    torch holds them: measured alike at 0 and 1), then the sum or the mean of all elements."""
    if weight is not None:
        raise not_supported("binary_cross_entropy with weight", "paddle")
    return _elementwise_loss("binary_cross_entropy", "BceLossGradNode", input, label, reduction)


def _elementwise_loss(op: str, node: str, input: Tensor, label: Tensor,  # noqa: A002
                      reduction: str) -> Tensor:
    """A loss kernel of paddle's elementwise (one ``node``), then the sum or the mean of all
    elements (MeanAllGradNode), or neither."""
    if reduction not in ("mean", "sum", "none"):
        raise PADDLE.error("loss_reduction", api=op, reduction=reduction)
    loss = C.named(recorder.apply(R.RULES[op], (input, label), {"reduction": "none"}), node, input)
    if reduction == "none":
        return loss
    return F.sum(loss) if reduction == "sum" else _mean_all(loss)


def nll_loss(input: Tensor, label: Tensor, weight: Optional[Tensor] = None,  # noqa: A002
             ignore_index: int = -100, reduction: str = "mean", name: Optional[str] = None) -> Tensor:
    """Minus each row's log-probability at its label, times the class's ``weight``; rows whose
    label is ``ignore_index`` count zero; the mean divides by the counted rows' weights."""
    if reduction not in ("sum", "mean", "none"):
        raise PADDLE.error("loss_reduction", api="nll_loss", reduction=reduction)
    with as_kernel("nll_loss_kernel"):
        loss = layers.nll_loss(input, label, weight, ignore_index, reduction)
    return C.named(loss, "NllLossGradNode", input)


def layer_norm(x: Tensor, normalized_shape: Any, weight: Optional[Tensor] = None,
               bias: Optional[Tensor] = None, epsilon: float = 1e-05, name: Optional[str] = None) -> Tensor:
    """Normalise over the trailing ``normalized_shape`` (LayerNormGradNode)."""
    dims = 1 if isinstance(normalized_shape, int) else len(normalized_shape)
    with as_kernel("layer_norm_kernel"):
        out = layers.layer_norm(x, dims, weight, bias, epsilon, scale=_layer_norm_scale)
    return C.named(out, "LayerNormGradNode", x)


def batch_norm(x: Tensor, running_mean: Tensor, running_var: Tensor, weight: Optional[Tensor] = None,
               bias: Optional[Tensor] = None, training: bool = False, momentum: float = 0.9,
               epsilon: float = 1e-05, data_format: str = "NCHW", use_global_stats: Any = None,
               name: Optional[str] = None) -> Tensor:
    """Per-channel normalisation (BatchNormGradNode); training keeps ``momentum`` of the running
    statistics and takes the rest from the batch (its biased variance, as paddle's kernel)."""
    if data_format not in ("NCHW", "NCL", "NC"):
        raise not_supported(f"batch_norm with data_format={data_format!r}", "paddle")
    out = layers.batch_norm(x, running_mean, running_var, weight, bias, training, 1.0 - momentum,
                            epsilon, unbiased_running_var=False)
    return C.named(out, "BatchNormGradNode", x)


def dropout(x: Tensor, p: float = 0.5, axis: Any = None, training: bool = True,
            mode: str = "upscale_in_train", name: Optional[str] = None) -> Tensor:
    """Zero each element with probability ``p`` while training (DropoutGradNode); the mask is
    the reference's own draw, or one given with ``reference_engine.layers.dropout_masks``.
    ``p == 0`` returns ``x`` itself, whatever the mode (paddle's fast return). Along ``axis``,
    one draw per position of those axes, composed as paddle composes it (a scale, then a
    product with the mask)."""
    if isinstance(p, (int, float)) and p == 0:
        return x
    if not 0 <= p <= 1:
        raise PADDLE.error("dropout_p")
    if mode not in ("upscale_in_train", "downscale_in_infer"):
        raise PADDLE.error("dropout_mode")
    if axis is not None:
        return _dropout_along(x, p, [axis] if isinstance(axis, int) else list(axis), training, mode)
    with as_kernel("dropout_kernel"):
        out = layers.dropout(x, p, training, scale_in_train=mode == "upscale_in_train",
                             eval_runs_kernel=True)
    return C.named(out, "DropoutGradNode", x)


def _dropout_along(x: Tensor, p: float, axes: list[int], training: bool, mode: str) -> Tensor:
    """paddle's dropout along axes (``dropout_nd``): out of training ``x`` (or ``x`` scaled
    by 1 - p), at p = 1 ``x`` scaled by 0, else ``x`` scaled by 1 / (1 - p) times a mask drawn
    as float32 uniforms over the axes' shape."""
    if not training:
        return x if mode == "upscale_in_train" else F.mul(x, 1.0 - p)
    if p == 1:
        return F.mul(x, 0.0)
    scaled = F.mul(x, 1.0 / (1.0 - p)) if mode == "upscale_in_train" else x
    shape = tuple(n if i in axes else 1 for i, n in enumerate(x._data.shape))
    keep = layers.feature_keep(x, p, shape)
    return F.mul(scaled, F.constant_like(x, keep.astype(x._data.dtype)))


def kl_div(input: Tensor, label: Tensor, reduction: str = "mean", log_target: bool = False,  # noqa: A002
           name: Optional[str] = None) -> Tensor:
    """paddle's kldiv_loss kernel (KldivLossGradNode, no double grad; the label gets no
    gradient), then the reduction as paddle's Python writes it: a mean, a sum, or a sum over
    the batch size ("batchmean")."""
    with as_kernel("kldiv_loss_kernel"):
        pointwise = C.named(similarity.kl_div_pointwise_paddle(input, label, log_target), "KldivLossGradNode",
                            input)
    if reduction == "batchmean":
        total = F.sum(pointwise)
        return F.div(total, input._data.shape[0]) if input._data.ndim else total
    return C.reduced(pointwise, reduction)


def pairwise_distance(x: Tensor, y: Tensor, p: float = 2.0, epsilon: float = 1e-6, keepdim: bool = False,
                      name: Optional[str] = None) -> Tensor:
    """The ``p``-norm of ``x - y + epsilon`` along the last axis (PNormGradNode)."""
    difference = F.sub(x, y)
    if epsilon != 0.0:
        shift = F.constant_like(difference, np.asarray([epsilon], difference._data.dtype))
        difference = F.add(difference, shift)
    return C.named(F.norm(difference, float(p), -1, keepdim), "PNormGradNode", x)


def triplet_margin_loss(input: Tensor, positive: Tensor, negative: Tensor, margin: float = 1.0,  # noqa: A002
                        p: float = 2, epsilon: float = 1e-06, swap: bool = False, reduction: str = "mean",
                        name: Optional[str] = None) -> Tensor:
    """``clip(d(input, positive) - d(input, negative) + margin, 0)``, reduced; with ``swap`` the
    negative's distance the smaller of its distances to the input and the positive."""
    from reference_engine.paddle._core import clip  # (paddle's core imports this package)

    positive_distance = pairwise_distance(input, positive, p, epsilon)
    negative_distance = pairwise_distance(input, negative, p, epsilon)
    if swap:
        negative_distance = F.minimum(negative_distance, pairwise_distance(positive, negative, p, epsilon))
    return C.reduced(clip(F.add(F.sub(positive_distance, negative_distance), margin), 0.0), reduction)


def cosine_embedding_loss(input1: Tensor, input2: Tensor, label: Tensor, margin: float = 0,
                          reduction: str = "mean", name: Optional[str] = None) -> Tensor:
    """``1 - cos`` where the label is 1, ``clip(cos - margin, 0)`` where it is -1, zero
    elsewhere, reduced; composed as paddle composes it (each squared magnitude plus 1e-11)."""
    from reference_engine.paddle._core import clip, square, where  # (paddle's core imports this package)

    if len(label.shape) != 1:
        raise ValueError("1D target tensor expected, multi-target not supported")
    product = F.sum(F.mul(input1, input2), -1)
    magnitudes = [F.add(F.sum(square(x), -1), 10e-12) for x in (input1, input2)]
    cos = F.div(product, F.sqrt(F.mul(*magnitudes)))
    zeros = full_like(cos, 0.0)
    out = F.add(where(label == 1, F.rsub(cos, 1), zeros),
                where(label == -1, clip(F.sub(cos, margin), min=0), zeros))
    return out if reduction == "none" else C.reduced(out, reduction)


def cosine_similarity(x1: Tensor, x2: Tensor, axis: int = 1, eps: float = 1e-8) -> Tensor:
    return similarity.cosine_similarity_paddle(x1, x2, axis, eps)


def dropout2d(x: Tensor, p: float = 0.5, training: bool = True, data_format: str = "NCHW",
              name: Optional[str] = None) -> Tensor:
    """Zero whole channels of an (N, C, H, W) input: ``dropout`` along axes 0 and 1."""
    if x._data.ndim != 4 or data_format != "NCHW":
        raise not_supported("dropout2d other than of an (N, C, H, W) input", "paddle")
    return dropout(x, p, [0, 1], training, "upscale_in_train")


def instance_norm(x: Tensor, running_mean: Optional[Tensor] = None, running_var: Optional[Tensor] = None,
                  weight: Optional[Tensor] = None, bias: Optional[Tensor] = None,
                  use_input_stats: bool = True,
                  momentum: float = 0.9, eps: float = 1e-05, data_format: str = "NCHW",
                  name: Optional[str] = None) -> Tensor:
    """Normalise each sample's channels over their spatial axes (InstanceNormGradNode)."""
    if running_mean is not None or running_var is not None or not use_input_stats or \
            data_format not in ("NCHW", "NCL", "NCDHW"):
        raise not_supported("instance_norm with running statistics or channels last", "paddle")
    out = layers.instance_norm(x, None, None, weight, bias, True, 0.0, eps)
    return C.named(out, "InstanceNormGradNode", x)


def embedding(x: Tensor, weight: Tensor, padding_idx: Optional[int] = None, max_norm: Any = None,
              norm_type: float = 2.0, sparse: bool = False, scale_grad_by_freq: bool = False,
              name: Optional[str] = None) -> Tensor:
    """The rows of ``weight`` the ids pick (EmbeddingGradNode)."""
    with as_kernel("embedding_kernel"):
        out = layers.embedding(x, weight, padding_idx)
    return C.named(out, "EmbeddingGradNode", weight)


def _convolution(spatial: int, x: Tensor, weight: Tensor, bias: Optional[Tensor], stride: Any,
                 padding: Any, dilation: Any, groups: int, data_format: str) -> Tensor:
    """paddle's convolution kernel, then the bias added in a node of its own (AddGradNode over
    a reshape of the bias). conv1d is conv2d of a height-1 image between an unsqueeze and a
    squeeze; a conv2d with one group per input channel runs the depthwise kernel."""
    if data_format not in ("NCHW", "NCL", "NCDHW"):
        raise not_supported("convolution with channels last", "paddle")
    if x._data.ndim != spatial + 2:
        raise PADDLE.error("conv_input_rank", rank=spatial + 2, shape=list(x._data.shape))
    padding = _convolution_padding(padding, spatial, x._data.shape[2:], weight._data.shape[2:], stride,
                                   dilation)
    if spatial == 1:
        image = _convolution(2, F.unsqueeze(x, -2), F.unsqueeze(weight, -2), bias, _one_d(stride),
                             _one_d(padding, 0), _one_d(dilation), groups, "NCHW")
        return F.squeeze(image, -2)
    out = layers.convolution(x, weight, None, stride, padding, dilation, groups)
    channels, filters = x._data.shape[1], weight._data.shape[0]
    depthwise = spatial == 2 and groups > 1 and groups == channels and filters % channels == 0
    name = "Conv3dGradNode" if spatial == 3 else \
        "DepthwiseConv2dGradNode" if depthwise else "Conv2dGradNodeFinal"
    return _with_bias(C.named(out, name, x), bias)


def _convolution_padding(padding: Any, spatial: int, size: tuple[int, ...], kernel: tuple[int, ...],
                         stride: Any, dilation: Any) -> Any:
    """paddle's padding forms as one number or one (before, after) pair per dimension:
    ``"valid"`` none; ``"same"`` what keeps ``ceil(size / stride)`` outputs, the odd one after;
    ``2 * spatial`` numbers, each dimension's before and after."""
    if isinstance(padding, str):
        if padding.lower() == "valid":
            return 0
        if padding.lower() != "same":
            raise not_supported(f"convolution padding {padding!r}", "paddle")
        pairs = []
        strides, dilations = layers.as_tuple(stride, spatial), layers.as_tuple(dilation, spatial)
        for n, k, s, d in zip(size, kernel, strides, dilations):
            total = max((-(-n // s) - 1) * s + d * (k - 1) + 1 - n, 0)
            pairs.append((total // 2, total - total // 2))
        return pairs
    if isinstance(padding, (list, tuple)) and len(padding) == 2 * spatial and \
            all(isinstance(p, int) for p in padding):
        return [(padding[2 * i], padding[2 * i + 1]) for i in range(spatial)]
    return padding


def _with_bias(out: Tensor, bias: Optional[Tensor]) -> Tensor:
    """``out`` plus ``bias`` along its channels, as paddle adds a convolution's bias."""
    return out if bias is None else F.add(out, F.reshape(bias, [1, -1] + [1] * (out._data.ndim - 2)))


def conv1d(x: Tensor, weight: Tensor, bias: Optional[Tensor] = None, stride: Any = 1, padding: Any = 0,
           dilation: Any = 1, groups: int = 1, data_format: str = "NCL",
           name: Optional[str] = None) -> Tensor:
    return _convolution(1, x, weight, bias, stride, padding, dilation, groups, data_format)


def conv2d(x: Tensor, weight: Tensor, bias: Optional[Tensor] = None, stride: Any = 1, padding: Any = 0,
           dilation: Any = 1, groups: int = 1, data_format: str = "NCHW",
           name: Optional[str] = None) -> Tensor:
    return _convolution(2, x, weight, bias, stride, padding, dilation, groups, data_format)


def conv3d(x: Tensor, weight: Tensor, bias: Optional[Tensor] = None, stride: Any = 1, padding: Any = 0,
           dilation: Any = 1, groups: int = 1, data_format: str = "NCDHW",
           name: Optional[str] = None) -> Tensor:
    return _convolution(3, x, weight, bias, stride, padding, dilation, groups, data_format)


def _layer_norm_scale(normalized: Tensor, weight: Tensor) -> Tensor:
    """The weight's product in paddle's layer_norm kernel (see the ``layer_norm_scale`` rule)."""
    return recorder.apply(R.RULES["layer_norm_scale"], (normalized, weight))


def _pooled(spatial: int, x: Tensor, pooling: Any, padding: Any = 0, data_format: str = "NCHW") -> Tensor:
    """``pooling`` of an (N, C, *spatial) ``x``, recorded as paddle's pool2d or pool3d kernel;
    the 1-d pools run pool2d between an unsqueeze and a squeeze, as paddle does. pool3d's
    kernel has no double grad (measured)."""
    if x._data.ndim != spatial + 2 or isinstance(padding, str) or data_format not in ("NCHW", "NCL", "NCDHW"):
        raise not_supported("pooling other than of an (N, C, *spatial) tensor padded by numbers", "paddle")
    if spatial == 3:
        with as_kernel("pool3d_kernel"):
            return C.named(pooling(x), "Pool3dGradNode", x)
    batch = F.unsqueeze(x, 2) if spatial == 1 else x
    out = C.named(pooling(batch), "Pool2dGradNode", batch)
    return F.squeeze(out, 2) if spatial == 1 else out


def _one_d(value: Any, height: int = 1) -> Any:
    """A 1-d pooling argument as the 2-d kernel's: ``height`` (1, or 0 for padding) first."""
    return None if value is None else (height, *layers.as_tuple(value, 1))


def _max_pool(spatial: int, x: Tensor, kernel_size: Any, stride: Any, padding: Any, return_mask: bool,
              ceil_mode: bool, data_format: str) -> Tensor:
    """paddle's max pool: pool2d's kernel (its double grad refuses) or pool3d's (none); with
    ``return_mask`` the with-index kernel (MaxPool<n>dWithIndexGradNode, no double grad), its
    mask the flat index of each window's first largest element (int32, marked as needing a
    gradient, as paddle marks it)."""
    if return_mask:
        if spatial == 1 or x._data.ndim != spatial + 2 or isinstance(padding, str):
            raise not_supported(f"max_pool{spatial}d with return_mask of other than an (N, C, *spatial) "
                                "tensor padded by numbers", "paddle")
        with as_kernel(f"max_pool{spatial}d_with_index_kernel"):
            out = layers.pool(x, "max", kernel_size, stride, padding, ceil_mode)
        mask = type(x)._from_array(layers.max_pool_indices(x._data, kernel_size, stride, padding, ceil_mode)
                                   .astype(np.int32))
        if x._requires_grad:  # an output of the recorded kernel: it shows a node, as paddle's does
            mask._requires_grad = True
            mask._accumulator_node()
        return C.named(out, f"MaxPool{spatial}dWithIndexGradNode", x), mask
    with as_kernel("max_pool_kernel") if spatial == 2 else contextlib.nullcontext():
        return _pooled(spatial, x, lambda t: layers.pool(t, "max", kernel_size, stride, padding, ceil_mode),
                       padding, data_format)


def _avg_pool(spatial: int, x: Tensor, kernel_size: Any, stride: Any, padding: Any, ceil_mode: bool,
              exclusive: bool, divisor_override: Any, data_format: str) -> Tensor:
    if divisor_override is not None:
        raise not_supported(f"avg_pool{spatial}d with divisor_override", "paddle")
    return _pooled(spatial, x, lambda t: layers.pool(t, "avg", kernel_size, stride, padding, ceil_mode,
                                                     count_padding=not exclusive), padding, data_format)


def max_pool2d(x: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, return_mask: bool = False,
               ceil_mode: bool = False, data_format: str = "NCHW", name: Optional[str] = None) -> Tensor:
    return _max_pool(2, x, kernel_size, stride, padding, return_mask, ceil_mode, data_format)


def avg_pool2d(x: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
               exclusive: bool = True, divisor_override: Any = None, data_format: str = "NCHW",
               name: Optional[str] = None) -> Tensor:
    return _avg_pool(2, x, kernel_size, stride, padding, ceil_mode, exclusive, divisor_override, data_format)


def adaptive_avg_pool2d(x: Tensor, output_size: Any, data_format: str = "NCHW",
                        name: Optional[str] = None) -> Tensor:
    return _pooled(2, x, lambda t: layers.adaptive_avg_pool(t, output_size), 0, data_format)


def _adaptive_max(spatial: int, x: Tensor, output_size: Any, return_mask: bool) -> Tensor:
    """The maximum of each adaptive cell (MaxPool<n>dWithIndexGradNode, no double grad): its
    gradient to the cell's first largest element."""
    if return_mask or x._data.ndim != spatial + 2:
        raise not_supported(f"adaptive_max_pool{spatial}d with return_mask, or of other than "
                            f"{spatial + 2}-d input", "paddle")
    with as_kernel(f"max_pool{spatial}d_with_index_kernel"):
        out = layers.adaptive_pool(x, output_size, "max")
    return C.named(out, f"MaxPool{spatial}dWithIndexGradNode", x)


def adaptive_max_pool2d(x: Tensor, output_size: Any, return_mask: bool = False,
                        name: Optional[str] = None) -> Tensor:
    return _adaptive_max(2, x, output_size, return_mask)


def adaptive_max_pool3d(x: Tensor, output_size: Any, return_mask: bool = False,
                        name: Optional[str] = None) -> Tensor:
    return _adaptive_max(3, x, output_size, return_mask)


def max_pool3d(x: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, return_mask: bool = False,
               ceil_mode: bool = False, data_format: str = "NCDHW", name: Optional[str] = None) -> Tensor:
    return _max_pool(3, x, kernel_size, stride, padding, return_mask, ceil_mode, data_format)


def avg_pool3d(x: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, ceil_mode: bool = False,
               exclusive: bool = True, divisor_override: Any = None, data_format: str = "NCDHW",
               name: Optional[str] = None) -> Tensor:
    return _avg_pool(3, x, kernel_size, stride, padding, ceil_mode, exclusive, divisor_override, data_format)


def adaptive_avg_pool3d(x: Tensor, output_size: Any, data_format: str = "NCDHW",
                        name: Optional[str] = None) -> Tensor:
    return _pooled(3, x, lambda t: layers.adaptive_avg_pool(t, output_size), 0, data_format)


def max_pool1d(x: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, return_mask: bool = False,
               ceil_mode: bool = False, name: Optional[str] = None) -> Tensor:
    if return_mask:
        raise not_supported("max_pool1d with return_mask", "paddle")
    with as_kernel("max_pool_kernel"):
        return _pooled(1, x, lambda t: layers.pool(t, "max", _one_d(kernel_size), _one_d(stride),
                                                   _one_d(padding, 0), ceil_mode), padding)


def avg_pool1d(x: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0, exclusive: bool = True,
               ceil_mode: bool = False, name: Optional[str] = None) -> Tensor:
    return _pooled(1, x, lambda t: layers.pool(t, "avg", _one_d(kernel_size), _one_d(stride),
                                               _one_d(padding, 0), ceil_mode, count_padding=not exclusive),
                   padding)


def adaptive_avg_pool1d(x: Tensor, output_size: int, name: Optional[str] = None) -> Tensor:
    return _pooled(1, x, lambda t: layers.adaptive_avg_pool(t, _one_d(output_size)))


def group_norm(x: Tensor, num_groups: int, epsilon: float = 1e-05, weight: Optional[Tensor] = None,
               bias: Optional[Tensor] = None, data_format: str = "NCHW",
               name: Optional[str] = None) -> Tensor:
    """Normalise each sample's channel groups (GroupNormGradNode)."""
    if data_format not in ("NCHW", "NCL", "NCDHW"):
        raise not_supported(f"group_norm with data_format={data_format!r}", "paddle")
    return C.named(layers.group_norm(x, num_groups, weight, bias, epsilon), "GroupNormGradNode", x)


def pad(x: Tensor, pad: Any, mode: str = "constant", value: float = 0.0, data_format: Any = None,
        pad_from_left_axis: bool = True, name: Optional[str] = None) -> Tensor:
    """Constant padding. A pad of two numbers per axis pads from the first axis on; a shorter one
    pads the trailing axes, the last first. A pad of a 3-d or 4-d input's spatial axes runs the
    pad3d kernel between an unsqueeze and a squeeze (SqueezeGradNode), any other PadGradNode.
    ``reflect`` and ``replicate`` (spatial axes only) read the input's own elements."""
    widths = [int(p) for p in (pad.tolist() if isinstance(pad, Tensor) else pad)]
    ndim = x._data.ndim
    mapped = mode in ("reflect", "replicate") and ndim in (3, 4) and len(widths) == 2 * (ndim - 2)
    if (mode != "constant" and not mapped) or len(widths) % 2 or len(widths) > 2 * ndim or \
            data_format not in (None, "NCHW", "NCL"):
        raise not_supported(f"pad with mode={mode!r} or this rank and layout", "paddle")
    pairs = list(zip(widths[::2], widths[1::2]))
    if mapped:
        full = [(0, 0)] * (ndim - len(pairs)) + pairs[::-1]
        return C.named(layers.mapped_pad(x, full, mode), "SqueezeGradNode", x)
    if len(widths) == 2 * ndim:
        return C.named(layers.constant_pad(x, pairs, value), "PadGradNode", x)
    full = [(0, 0)] * (ndim - len(pairs)) + pairs[::-1]
    spatial = ndim in (3, 4) and len(pairs) == ndim - 2
    return C.named(layers.constant_pad(x, full, value), "SqueezeGradNode" if spatial else "PadGradNode", x)


_INTERPOLATION_NODES = {"nearest": "NearestInterpGradNode", "bilinear": "BilinearInterpGradNode",
                        "linear": "LinearInterpGradNode"}


def interpolate(x: Tensor, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
                align_corners: bool = False, align_mode: int = 0, data_format: Any = None,
                recompute_scale_factor: Any = None, antialias: bool = False,
                name: Optional[str] = None) -> Tensor:
    """Resize the spatial axes to ``size`` or by ``scale_factor``: nearest (the source floor)
    or (bi)linear with half-pixel centres or aligned corners."""
    spatial = x._data.ndim - 2
    layout_ok = data_format in (None, "NCHW", "NCW")
    if mode not in _INTERPOLATION_NODES or align_mode != 0 or antialias or not layout_ok:
        raise not_supported(f"interpolate mode={mode!r} with these options", "paddle")
    if size is not None:
        given = size.tolist() if isinstance(size, Tensor) else size
        sizes = [int(s) for s in layers.as_tuple(given, spatial)]
        scales = [None] * spatial
    else:
        scales = [float(s) for s in layers.as_tuple(scale_factor, spatial)]
        sizes = [int(n * s) for n, s in zip(x._data.shape[2:], scales)]
    with as_kernel(f"{mode}_interp_kernel"):
        out = layers.interpolate(x, sizes, mode, align_corners, scales)
    return C.named(out, _INTERPOLATION_NODES[mode], x)


upsample = interpolate


def _transposed(spatial: int, x: Tensor, weight: Tensor, bias: Optional[Tensor], stride: Any,
                padding: Any, output_padding: Any, dilation: Any, groups: int, output_size: Any,
                data_format: str) -> Tensor:
    """The transposed convolution (Conv<n>dTransposeGradNode; conv3d_transpose's without double
    grad, measured), then the bias added in a node of its own, as paddle does."""
    if isinstance(padding, str) or output_size is not None or data_format not in ("NCHW", "NCDHW"):
        raise not_supported(f"conv{spatial}d_transpose with string padding, output_size or channels last",
                            "paddle")
    with as_kernel("conv3d_transpose_kernel") if spatial == 3 else contextlib.nullcontext():
        composed = layers.conv_transpose(x, weight, None, stride, padding, output_padding, dilation, groups)
        out = C.named(composed, f"Conv{spatial}dTransposeGradNode", x)
    return _with_bias(out, bias)


def unfold(x: Tensor, kernel_sizes: Any, strides: Any = 1, paddings: Any = 0, dilations: Any = 1,
           name: Optional[str] = None) -> Tensor:
    """Sliding blocks of an (N, C, H, W) batch as columns, (N, C·kh·kw, L) (UnfoldGradNode, whose
    kernel has no double grad); ``paddings`` one number, (h, w), or (top, left, bottom, right)
    with top = bottom and left = right."""
    if x._data.ndim != 4:
        raise AssertionError("input should be the format of [N, C, H, W]")
    pads = [paddings] * 4 if isinstance(paddings, int) else list(paddings)
    pads = pads * 2 if len(pads) == 2 else pads
    if len(pads) != 4:
        raise ValueError("paddings should either be an integer or a list/tuple of 2 or 4 integers")
    if pads[0] != pads[2] or pads[1] != pads[3]:
        raise not_supported("unfold with different paddings on opposite sides", "paddle")
    with as_kernel("unfold_kernel"):
        columns = layers.unfold(x, kernel_sizes, dilations, (pads[0], pads[1]), strides)
        return C.named(columns, "UnfoldGradNode", x)


def conv1d_transpose(x: Tensor, weight: Tensor, bias: Optional[Tensor] = None, stride: Any = 1,
                     padding: Any = 0, output_padding: Any = 0, groups: int = 1, dilation: Any = 1,
                     output_size: Any = None, data_format: str = "NCL",
                     name: Optional[str] = None) -> Tensor:
    """conv2d_transpose of a width-1 image between an unsqueeze and a squeeze (SqueezeGradNode),
    the bias added before the squeeze, as paddle does."""
    if data_format != "NCL":
        raise not_supported("conv1d_transpose with channels last", "paddle")

    def widthwise(value: Any, width: int) -> Any:
        return value if isinstance(value, str) else (*layers.as_tuple(value, 1), width)

    image = _transposed(2, F.unsqueeze(x, -1), F.unsqueeze(weight, -1), bias, widthwise(stride, 1),
                        widthwise(padding, 0), widthwise(output_padding, 0), widthwise(dilation, 1), groups,
                        output_size, "NCHW")
    return F.squeeze(image, -1)


def conv2d_transpose(x: Tensor, weight: Tensor, bias: Optional[Tensor] = None, stride: Any = 1,
                     padding: Any = 0, output_padding: Any = 0, dilation: Any = 1, groups: int = 1,
                     output_size: Any = None, data_format: str = "NCHW",
                     name: Optional[str] = None) -> Tensor:
    return _transposed(2, x, weight, bias, stride, padding, output_padding, dilation, groups, output_size,
                       data_format)


def conv3d_transpose(x: Tensor, weight: Tensor, bias: Optional[Tensor] = None, stride: Any = 1,
                     padding: Any = 0, output_padding: Any = 0, groups: int = 1, dilation: Any = 1,
                     output_size: Any = None, data_format: str = "NCDHW",
                     name: Optional[str] = None) -> Tensor:
    return _transposed(3, x, weight, bias, stride, padding, output_padding, dilation, groups, output_size,
                       data_format)


def one_hot(x: Tensor, num_classes: int, name: Any = None) -> Tensor:
    """float32 rows of zeros with a one at each index of ``x``; not recorded."""
    values = x._data
    if values.size and values.max() >= num_classes:
        raise PADDLE.error("one_hot_index", value=int(values.max()), depth=num_classes)
    return type(x)._from_array((values[..., None] == np.arange(num_classes)).astype(np.float32))


def label_smooth(label: Tensor, prior_dist: Optional[Tensor] = None, epsilon: float = 0.1,
                 name: Any = None) -> Tensor:
    """``(1 - epsilon) * label + epsilon * prior`` (the uniform prior ``1 / classes`` by default),
    one LabelSmoothGradNode."""
    kept = F.mul(label, 1.0 - epsilon)
    if prior_dist is None:
        out = F.add(kept, epsilon / label._data.shape[-1])
    else:
        out = F.add(kept, F.mul(prior_dist, epsilon))
    return C.named(out, "LabelSmoothGradNode", label)


__getattr__ = module_getattr("paddle.nn.functional")


def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor,
                                 attn_mask: Optional[Tensor] = None, dropout_p: float = 0.0,
                                 is_causal: bool = False, training: bool = True, backend: Any = None,
                                 scale: Optional[float] = None, enable_gqa: bool = True,
                                 name: Optional[str] = None) -> Tensor:
    """Attention over [batch, seq, heads, dim] tensors as paddle's CPU path composes it: the
    heads moved forward, ``query * scale`` times the keys transposed, a float mask (or, causal,
    -1e4 above the diagonal) added, softmax, dropout, times the values, the heads moved back."""
    if query._data.ndim != 4 or len({query.shape[2], key.shape[2], value.shape[2]}) != 1 or \
            (attn_mask is not None and attn_mask._data.dtype == np.bool_):
        raise not_supported("scaled_dot_product_attention beyond 4-d inputs of equal heads and a float mask",
                            "paddle")
    head_dim = query.shape[-1]
    query, key, value = (transpose(t, [0, 2, 1, 3]) for t in (query, key, value))
    scale = scale or (head_dim ** -0.5 if head_dim != 0 else 1.0)
    product = matmul(query * scale, key, transpose_y=True)
    if is_causal:
        mask = full_like(product, -1e4)
        mask.stop_gradient = True
        product = product + triu(mask, diagonal=1)
    elif attn_mask is not None:
        product = product + attn_mask
    weights = softmax(product)
    if dropout_p > 0.0:
        weights = dropout(weights, dropout_p, training=training, mode="upscale_in_train")
    return transpose(matmul(weights, value), [0, 2, 1, 3])

