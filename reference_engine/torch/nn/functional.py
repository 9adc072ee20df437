"""``torch.nn.functional``: the activations, losses and layers the reference engine models."""

from __future__ import annotations

import math
import warnings
from typing import Any, Optional, Sequence

import numpy as np

from reference_engine import composed as C
from reference_engine import kernel_node, layers, recorder, similarity
from reference_engine import ops as F
from reference_engine import rules as R
from reference_engine.dialects.torch_policy import TORCH, torch_size
from reference_engine.dtypes import is_floating
from reference_engine.framework_names import module_getattr
from reference_engine.messages import not_supported
from reference_engine.tensor import Tensor
from reference_engine.torch import autocast_ops

__all__ = ["adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d", "adaptive_max_pool2d",
           "adaptive_max_pool3d", "avg_pool1d", "avg_pool2d", "avg_pool3d", "max_pool1d", "max_pool2d",
           "max_pool3d", "conv3d", "conv_transpose3d", "batch_norm", "binary_cross_entropy",
           "binary_cross_entropy_with_logits", "conv1d", "conv2d", "conv_transpose1d", "conv_transpose2d",
           "cosine_embedding_loss", "cosine_similarity", "cross_entropy", "pairwise_distance",
           "triplet_margin_loss", "dropout", "huber_loss", "kl_div", "margin_ranking_loss", "softmin",
           "dropout1d", "dropout2d", "dropout3d", "elu", "group_norm", "instance_norm", "interpolate",
           "embedding", "gelu", "layer_norm", "l1_loss", "leaky_relu", "linear", "bilinear", "log_softmax",
           "mse_loss", "nll_loss", "normalize", "one_hot", "gumbel_softmax", "pad", "relu",
           "smooth_l1_loss", "scaled_dot_product_attention", "sigmoid", "silu", "softmax", "softplus",
           "tanh", "pixel_shuffle", "pixel_unshuffle", "relu_", "leaky_relu_", "elu_"]

sigmoid = F.sigmoid


def pixel_shuffle(input: Tensor, upscale_factor: int) -> Tensor:  # noqa: A002
    """(*, C·r², H, W) → (*, C, H·r, W·r) (PixelShuffleBackward0)."""
    return F.pixel_shuffle(input, upscale_factor)


def pixel_unshuffle(input: Tensor, downscale_factor: int) -> Tensor:  # noqa: A002
    """(*, C, H·r, W·r) → (*, C·r², H, W) (PixelUnshuffleBackward0)."""
    return F.pixel_unshuffle(input, downscale_factor)


def _not_in_place(name: str, inplace: bool) -> None:
    if inplace:
        raise not_supported(f"{name}(inplace=True)", "torch")


def relu(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    """``inplace``: the input written (``relu_``, ReluBackward0)."""
    return input._in_place("relu") if inplace else F.relu(input)


def relu_(input: Tensor) -> Tensor:  # noqa: A002
    return relu(input, inplace=True)


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:  # noqa: A002
    """``inplace``: the input written (LeakyReluBackward1, torch's in-place kernel)."""
    if inplace:
        return input._in_place("leaky_relu", slope=negative_slope, api="in_place")
    return F.leaky_relu(input, negative_slope)


def leaky_relu_(input: Tensor, negative_slope: float = 0.01) -> Tensor:  # noqa: A002
    return leaky_relu(input, negative_slope, inplace=True)


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:  # noqa: A002
    return F.activation("softplus", input, beta=beta, threshold=threshold)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:  # noqa: A002
    """``inplace``: the input written (EluBackward1, torch's in-place kernel)."""
    if inplace:
        return input._in_place("elu", alpha=alpha, api="in_place")
    return F.activation("elu", input, alpha=alpha)


def elu_(input: Tensor, alpha: float = 1.0) -> Tensor:  # noqa: A002
    return elu(input, alpha, inplace=True)


def gelu(input: Tensor, approximate: str = "none") -> Tensor:  # noqa: A002
    return F.activation("gelu", input, approximate=approximate)


def silu(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    """``inplace``: the input written (SiluBackward0)."""
    return input._in_place("silu") if inplace else F.activation("silu", input)
tanh = F.tanh


def _softmax_dim(name: str, dim: Optional[int], ndim: int) -> int:
    """``dim``, or torch's deprecated implicit choice without one (with its warning): the first
    dimension of a 0-, 1- or 3-d input, else the second."""
    if dim is not None:
        return dim
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call to "
                  "include dim=X as an argument.", UserWarning, stacklevel=3)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input: Tensor, dim: Optional[int] = None, _stacklevel: int = 3,  # noqa: A002
            dtype: Any = None) -> Tensor:
    """``dtype``: the input cast to it first."""
    dim = _softmax_dim("softmax", dim, input.dim())
    return F.softmax(input if dtype is None else input.to(dtype), dim)


def log_softmax(input: Tensor, dim: Optional[int] = None, _stacklevel: int = 3,  # noqa: A002
                dtype: Any = None) -> Tensor:
    dim = _softmax_dim("log_softmax", dim, input.dim())
    return F.log_softmax(input if dtype is None else input.to(dtype), dim)


def gumbel_softmax(logits: Tensor, tau: float = 1.0, hard: bool = False, eps: float = 1e-10,
                   dim: int = -1) -> Tensor:
    """torch's composition: Gumbel noise ``-log(e)`` of exponential draws (the generator's),
    added to ``logits`` and divided by ``tau``, then softmax; ``hard``: the one-hot of each
    argmax, with the soft values' gradient (``y_hard - y_soft.detach() + y_soft``)."""
    from reference_engine.torch import _core, extras

    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.", stacklevel=2)
    gumbels = -extras.empty_like(logits).exponential_().log()
    y_soft = ((logits + gumbels) / tau).softmax(dim)
    if not hard:
        return y_soft
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = _core.zeros_like(logits).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft


@autocast_ops.float32
def mse_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:  # noqa: A002
    """The reduced squared difference: one MseLossBackward0 (input, target)."""
    _check_target_size(input, target)
    return _loss("mse_loss", input, target, reduction)


@autocast_ops.lower_precision
def linear(input: Tensor, weight: Tensor, bias: Optional[Tensor] = None) -> Tensor:  # noqa: A002
    """``input @ weight.T + bias`` (with a bias: one AddmmBackward0 over the input's rows)."""
    return F.linear_addmm(input, weight, bias)


def bilinear(input1: Tensor, input2: Tensor, weight: Tensor, bias: Optional[Tensor] = None) -> Tensor:
    """``y_o = x1ᵀ W_o x2 + b_o`` over the leading dimensions, as torch composes it: both inputs
    viewed as rows, one TrilinearBackward0 over the rows and the weight, the result viewed back
    to the leading shape, the bias added."""
    batch = tuple(input1.shape[:-1])
    rows1 = F.reshape(input1, (-1, input1.shape[-1]))
    rows2 = F.reshape(input2, (-1, input2.shape[-1]))
    (product,) = kernel_node.one_node(
        "TrilinearBackward0", [rows1, weight, rows2],
        lambda a, w, b: (C.einsum("ni,oij,nj->no", [a, w, b])[0],))
    out = F.reshape(product, batch + (weight.shape[0],))
    return out if bias is None else F.add(out, bias)


@autocast_ops.float32
def nll_loss(input: Tensor, target: Tensor, weight: Optional[Tensor] = None,  # noqa: A002
             size_average: Any = None, ignore_index: int = -100, reduce: Any = None,
             reduction: str = "mean") -> Tensor:
    """Minus the log-probability of each row's target class (``input``: (N, C) log-probabilities,
    ``target``: N class indices), times the class's ``weight``; rows whose target is
    ``ignore_index`` count zero, and the mean divides by the counted rows' weights. One
    NllLossBackward0."""
    if reduction not in ("mean", "sum", "none"):
        raise TORCH.error("reduction", reduction=reduction)
    if input._data.ndim == 1:  # one sample: a batch of one, the loss of a 0-d target
        loss = nll_loss(F.unsqueeze(input, 0), F.reshape(target, [1]), weight, ignore_index=ignore_index,
                        reduction=reduction)
        return C.named(F.squeeze(loss, 0), "NllLossBackward0", input) if reduction == "none" else loss
    if input._data.ndim > 2:
        return _spatial_nll_loss(input, target, weight, ignore_index, reduction)
    classes = tuple(int(c) for c in target._data.reshape(-1))
    if weight is None and ignore_index not in classes:
        return recorder.apply(R.RULES["nll_loss"], (input,), {"classes": classes, "reduction": reduction})
    loss = layers.nll_loss(input, target, weight, ignore_index, reduction)
    return C.named(loss, "NllLossBackward0", input)


def _spatial_nll_loss(input: Tensor, target: Tensor, weight: Optional[Tensor],  # noqa: A002
                      ignore_index: int, reduction: str) -> Tensor:
    """(N, C, d1, ...) log-probabilities against (N, d1, ...) classes: each position a row, as
    torch's 2-d kernel takes them (NllLoss2DBackward0; other ranks are viewed as 4-d, so a
    loss per position comes back through a view)."""
    ndim = input._data.ndim
    rows = F.reshape(F.permute(input, [0, *range(2, ndim), 1]), [-1, input._data.shape[1]])
    losses = nll_loss(rows, F.reshape(target, [-1]), weight, ignore_index=ignore_index,
                      reduction=reduction)
    if reduction != "none":
        return C.named(losses, "NllLoss2DBackward0", input)
    out = F.reshape(losses, list(target._data.shape))
    return C.named(out, "NllLoss2DBackward0", input) if ndim == 4 else out


@autocast_ops.float32
def cross_entropy(input: Tensor, target: Tensor, weight: Optional[Tensor] = None,  # noqa: A002
                  size_average: Any = None, ignore_index: int = -100, reduce: Any = None,
                  reduction: str = "mean", label_smoothing: float = 0.0) -> Tensor:
    """``nll_loss(log_softmax(input, 1), target, ...)`` for class-index targets; with
    ``label_smoothing`` ε, torch's ``(1 - ε) * nll + ε / C * smooth``, where ``smooth`` is minus
    the (weighted) sum of the row's log-probabilities, zero for ignored rows, reduced as the
    loss is (the mean divides by the counted rows, or by their targets' weights)."""
    if is_floating(target._data.dtype):
        raise not_supported("cross_entropy with class-probability targets", "torch")
    log_probabilities = F.log_softmax(input, 1)
    loss = nll_loss(log_probabilities, target, weight, ignore_index=ignore_index, reduction=reduction)
    if not label_smoothing:
        return loss
    classes = input._data.shape[1]
    weighted = log_probabilities
    if weight is not None:
        weighted = F.mul(log_probabilities, F.reshape(weight, [1, classes] + [1] * (input._data.ndim - 2)))
    ignored = target._data == ignore_index
    smooth = F.where(F.constant_like(target, ignored), 0.0, F.neg(F.sum(weighted, 1)))
    if reduction == "sum":
        smooth = F.sum(smooth)
    elif reduction == "mean":
        counted = weight._data[target._data[~ignored]].sum() if weight is not None else (~ignored).sum()
        smooth = F.div(F.sum(smooth), float(counted))
    return F.add(F.mul(loss, 1.0 - label_smoothing), F.mul(smooth, label_smoothing / classes))


def pad(input: Tensor, pad: Sequence[int], mode: str = "constant",  # noqa: A002
        value: Optional[float] = None) -> Tensor:
    """Constant padding: ``pad`` holds (before, after) pairs from the last dimension back; a
    negative amount crops. One ConstantPadNdBackward0. ``reflect`` and ``replicate`` read the
    input's own elements (ReflectionPadNDBackward0 / ReplicationPadNDBackward0); ``circular``
    is refused by name."""
    amounts = [int(a) for a in pad]
    if mode in ("reflect", "replicate"):
        return _mapped_pad(input, amounts, mode)
    if mode != "constant":
        raise not_supported(f"pad with mode={mode!r}", "torch")
    if len(amounts) % 2 or len(amounts) // 2 > input._data.ndim:
        raise not_supported("pad with an odd number of amounts or more pairs than dimensions", "torch")
    widths = [(0, 0)] * input._data.ndim
    for i in range(len(amounts) // 2):
        widths[input._data.ndim - 1 - i] = (amounts[2 * i], amounts[2 * i + 1])
    cropped = input
    for axis, (before, after) in enumerate(widths):
        size = cropped._data.shape[axis]
        start, stop = max(0, -before), size - max(0, -after)
        if start or stop != size:
            cropped = F.getitem(cropped, (slice(None),) * axis + (slice(start, stop),))
    grown = [(max(0, b), max(0, a)) for b, a in widths]
    out = layers.constant_pad(cropped, grown, 0.0 if value is None else value)
    return C.named(out, "ConstantPadNdBackward0", input)


def _mapped_pad(input: Tensor, amounts: list[int], mode: str) -> Tensor:  # noqa: A002
    """Reflect or replicate padding of the last one to three dimensions, as torch allows them."""
    spatial, ndim = len(amounts) // 2, input._data.ndim
    if len(amounts) % 2 or spatial not in (1, 2, 3) or ndim not in (spatial + 1, spatial + 2):
        raise TORCH.error("pad_non_constant_size", size=len(amounts), ndim=ndim)
    if min(amounts) < 0:
        raise not_supported(f"{mode} padding by a negative amount", "torch")
    pairs = [(amounts[2 * i], amounts[2 * i + 1]) for i in reversed(range(spatial))]
    widths = [(0, 0)] * (ndim - spatial) + pairs
    name = f"{'Reflection' if mode == 'reflect' else 'Replication'}Pad{spatial}DBackward0"
    return C.named(layers.mapped_pad(input, widths, mode), name, input)


def one_hot(tensor: Tensor, num_classes: int = -1) -> Tensor:
    """int64 rows of zeros with a one at each class index (``num_classes``: the largest plus one
    by default); not recorded."""
    values = tensor._data
    if values.dtype != np.int64:
        raise TORCH.error("one_hot_dtype")
    if values.size and values.min() < 0:
        raise TORCH.error("one_hot_negative")
    classes = num_classes if num_classes != -1 else (int(values.max()) + 1 if values.size else 0)
    if values.size and values.max() >= classes:
        raise TORCH.error("one_hot_too_large")
    return type(tensor)._from_array((values[..., None] == np.arange(classes)).astype(np.int64))


def layer_norm(input: Tensor, normalized_shape: Sequence[int], weight: Optional[Tensor] = None,  # noqa: A002
               bias: Optional[Tensor] = None, eps: float = 1e-5) -> Tensor:
    """Normalise over the trailing ``normalized_shape`` (NativeLayerNormBackward0)."""
    shape = tuple(normalized_shape)
    if tuple(input._data.shape[-len(shape):]) != shape:
        raise TORCH.error("layer_norm_shape", shape=list(shape), dims=", ".join(map(str, shape)),
                          size=list(input._data.shape))
    out = layers.layer_norm(input, len(shape), weight, bias, eps)
    return C.named(out, "NativeLayerNormBackward0", input)


def batch_norm(input: Tensor, running_mean: Optional[Tensor], running_var: Optional[Tensor],  # noqa: A002
               weight: Optional[Tensor] = None, bias: Optional[Tensor] = None, training: bool = False,
               momentum: float = 0.1, eps: float = 1e-5) -> Tensor:
    """Per-channel normalisation (NativeBatchNormBackward0); training moves the running
    statistics by ``momentum`` towards the batch's."""
    if not training and running_mean is None:
        raise TORCH.error("batch_norm_eval", name="running_mean")
    if not training and running_var is None:
        raise TORCH.error("batch_norm_eval", name="running_var")
    out = layers.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)
    if not training and weight is not None and bias is not None and \
            input._data.dtype in (np.float32, np.float64):
        out._data[...] = _batch_norm_eval_values(input, running_mean, running_var, weight, bias, eps)
    return C.named(out, "NativeBatchNormBackward0", input)


def _batch_norm_eval_values(input: Tensor, mean: Tensor, var: Tensor, weight: Tensor,  # noqa: A002
                            bias: Tensor, eps: float) -> np.ndarray:
    """The values torch's CPU kernel computes out of training (measured bit for bit on 600
    random float32 inputs): ``x * alpha + beta`` fused, with ``alpha = weight / sqrt(var +
    eps)`` and ``beta = bias - mean * alpha`` fused. (The composed graph's values differ by an
    ulp; its derivatives are the kernel's.)"""
    from reference_engine.fused import fused_multiply_add

    shape = [1] * input._data.ndim
    shape[1] = -1
    dtype = input._data.dtype.type
    inverse = dtype(1) / np.sqrt(var._data + dtype(eps))
    alpha = (inverse * weight._data).astype(input._data.dtype)
    beta = fused_multiply_add(-mean._data.astype(input._data.dtype), alpha, bias._data)
    return fused_multiply_add(input._data, alpha.reshape(shape), beta.reshape(shape))


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:  # noqa: A002
    """Zero each element with probability ``p`` while training, scaling the rest by 1/(1-p)
    (products: MulBackward0, as torch's CPU dropout records it). The mask is the reference's
    own draw, or one given with ``reference_engine.layers.dropout_masks``."""
    _not_in_place("dropout", inplace)
    return layers.dropout(input, p, training)


def group_norm(input: Tensor, num_groups: int, weight: Optional[Tensor] = None,  # noqa: A002
               bias: Optional[Tensor] = None, eps: float = 1e-5) -> Tensor:
    """Each sample's channels in ``num_groups`` groups normalised (NativeGroupNormBackward0)."""
    return C.named(layers.group_norm(input, num_groups, weight, bias, eps), "NativeGroupNormBackward0", input)


def dropout1d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:  # noqa: A002
    """Zero whole channels of an (N, C, L) input (or an unbatched (C, L) one) while training."""
    return _channel_dropout("dropout1d", input, p, training, inplace, 1)


def dropout2d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:  # noqa: A002
    """Zero whole channels of an (N, C, H, W) input while training (a 3-D input, with torch's
    warning, as (N, C, L))."""
    if input.dim() == 3:
        TORCH.warn("dropout2d_3d", stacklevel=2)
        return _channel_dropout("dropout2d", input, p, training, inplace, 1)
    if input.dim() != 4:
        raise not_supported("dropout2d of an input other than (N, C, H, W) or (N, C, L)", "torch")
    return _channel_dropout("dropout2d", input, p, training, inplace, 2)


def dropout3d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:  # noqa: A002
    """Zero whole channels of an (N, C, D, H, W) input (or an unbatched (C, D, H, W) one) while
    training."""
    if input.dim() not in (4, 5):
        raise not_supported("dropout3d of an input other than (N, C, D, H, W) or (C, D, H, W)", "torch")
    return _channel_dropout("dropout3d", input, p, training, inplace, 3)


def _channel_dropout(name: str, input: Tensor, p: float, training: bool, inplace: bool,  # noqa: A002
                     spatial: int) -> Tensor:
    """Channel-wise dropout over ``spatial`` dimensions: one draw per (sample, channel), the
    input times the kept channels scaled by 1/(1-p) (MulBackward0); an input without its batch
    dimension gets one for the draw and loses it after (SqueezeBackward1)."""
    _not_in_place(name, inplace)
    if not 0 <= p <= 1:
        raise TORCH.error("dropout_p", p=p)
    if input.dim() not in (spatial + 1, spatial + 2):
        raise TORCH.error("channel_dropout_dims", name=name, dims=input.dim(), spatial=spatial,
                          plural="" if spatial == 1 else "s", unbatched=spatial + 1, batched=spatial + 2)
    if not training or p == 0 or input.numel() == 0:
        return input
    batched = input.dim() == spatial + 2
    x = input if batched else F.unsqueeze(input, 0)
    if p == 1:
        out = F.mul(x, F.zeros_like(x)[(0,) * x.dim()])
    else:
        noise = layers.feature_keep(x, p).astype(x._data.dtype) / x._data.dtype.type(1 - p)
        out = F.mul(x, F.constant_like(x, noise))
    return out if batched else F.squeeze(out, 0)


def instance_norm(input: Tensor, running_mean: Optional[Tensor] = None,  # noqa: A002
                  running_var: Optional[Tensor] = None, weight: Optional[Tensor] = None,
                  bias: Optional[Tensor] = None, use_input_stats: bool = True, momentum: float = 0.1,
                  eps: float = 1e-5) -> Tensor:
    """Normalise each sample's channels over their spatial dimensions: torch's batch norm of
    the batch viewed as one sample (ViewBackward0 over NativeBatchNormBackward0)."""
    if use_input_stats and math.prod(input.shape[2:]) <= 1:
        raise TORCH.error("instance_norm_spatial", shape=list(input.shape))
    out = layers.instance_norm(input, running_mean, running_var, weight, bias, use_input_stats,
                               momentum, eps)
    return out


_INTERPOLATION_NODES = {("nearest", 1): "UpsampleNearest1DBackward0",
                        ("nearest", 2): "UpsampleNearest2DBackward0",
                        ("linear", 1): "UpsampleLinear1DBackward0",
                        ("bilinear", 2): "UpsampleBilinear2DBackward0"}


def interpolate(input: Tensor, size: Any = None, scale_factor: Any = None, mode: str = "nearest",  # noqa: A002
                align_corners: Optional[bool] = None, recompute_scale_factor: Optional[bool] = None,
                antialias: bool = False) -> Tensor:
    """Resize the spatial dimensions to ``size`` or by ``scale_factor``: nearest reads the
    source at ``floor(i / scale)``; (bi)linear weighs the neighbours of half-pixel centres, or
    of aligned corners."""
    spatial = input.dim() - 2
    node = _INTERPOLATION_NODES.get((mode, spatial))
    if node is None or antialias or (size is None) == (scale_factor is None):
        raise not_supported(f"interpolate mode={mode!r} of a {input.dim()}-d input with these options",
                            "torch")
    if size is not None:
        sizes = [int(s) for s in layers.as_tuple(size, spatial)]
        scales: list[Optional[float]] = [None] * spatial
    else:
        factors = [float(s) for s in (scale_factor if isinstance(scale_factor, (list, tuple))
                                      else [scale_factor] * spatial)]
        sizes = [math.floor(n * s) for n, s in zip(input.shape[2:], factors)]
        scales = [None] * spatial if recompute_scale_factor else list(factors)
    out = layers.interpolate(input, sizes, mode, bool(align_corners), scales)
    return C.named(out, node, input)


def embedding(input: Tensor, weight: Tensor, padding_idx: Optional[int] = None,  # noqa: A002
              max_norm: Optional[float] = None, norm_type: float = 2.0,
              scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    """The rows of ``weight`` the indices pick (EmbeddingBackward0)."""
    if max_norm is not None or scale_grad_by_freq:
        raise not_supported("embedding's max_norm or scale_grad_by_freq", "torch")
    return C.named(layers.embedding(input, weight, padding_idx), "EmbeddingBackward0", weight)


def _check_convolution(api: str, input: Tensor, weight: Tensor, padding: Any,  # noqa: A002
                       dilation: Any, groups: int) -> None:
    """torch's argument checks, in its order: the input's rank, the weight's, the groups, the
    channels, then a kernel larger than the padded input."""
    spatial = int(api[-2])
    shape, w_shape = input._data.shape, weight._data.shape
    policy = input._policy
    if len(shape) not in (spatial + 1, spatial + 2):
        raise policy.error("conv_input_rank", api=api, unbatched=spatial + 1, batched=spatial + 2,
                           shape=list(shape))
    if len(w_shape) < 3:
        raise policy.error("conv_weight_rank")
    batched = shape if len(shape) == spatial + 2 else (1, *shape)
    if w_shape[0] % groups:
        raise policy.error("conv_groups", groups=groups, weight=[list(w_shape)])
    if batched[1] != w_shape[1] * groups:
        raise policy.error("conv_channels", groups=groups, weight=list(w_shape), input=list(batched),
                           expected=w_shape[1] * groups, got=batched[1])
    padding, dilation = (layers.as_tuple(v, spatial) for v in (padding, dilation))
    padded = [n + 2 * p for n, p in zip(batched[2:], padding)]
    kernel = [d * (k - 1) + 1 for k, d in zip(w_shape[2:], dilation)]
    if any(k > n for k, n in zip(kernel, padded)):
        raise policy.error("conv_kernel_size", input=" x ".join(map(str, padded)),
                           kernel=" x ".join(map(str, kernel)))


def _convolution(api: str, input: Tensor, weight: Tensor, bias: Optional[Tensor],  # noqa: A002
                 stride: Any, padding: Any, dilation: Any, groups: int) -> Tensor:
    if isinstance(padding, str):
        raise not_supported(f"convolution padding={padding!r}", "torch")
    _check_convolution(api, input, weight, padding, dilation, groups)
    unbatched = input._data.ndim == weight._data.ndim - 1
    batch = F.unsqueeze(input, 0) if unbatched else input
    out = C.named(layers.convolution(batch, weight, bias, stride, padding, dilation, groups),
                  "ConvolutionBackward0", batch)
    return F.squeeze(out, 0) if unbatched else out


@autocast_ops.lower_precision
def conv1d(input: Tensor, weight: Tensor, bias: Optional[Tensor] = None, stride: Any = 1,  # noqa: A002
           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    return _convolution("conv1d", input, weight, bias, stride, padding, dilation, groups)


@autocast_ops.lower_precision
def conv2d(input: Tensor, weight: Tensor, bias: Optional[Tensor] = None, stride: Any = 1,  # noqa: A002
           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    return _convolution("conv2d", input, weight, bias, stride, padding, dilation, groups)


@autocast_ops.lower_precision
def conv3d(input: Tensor, weight: Tensor, bias: Optional[Tensor] = None, stride: Any = 1,  # noqa: A002
           padding: Any = 0, dilation: Any = 1, groups: int = 1) -> Tensor:
    return _convolution("conv3d", input, weight, bias, stride, padding, dilation, groups)


def _check_target_size(input: Tensor, target: Tensor) -> None:  # noqa: A002
    """torch warns where a regression loss's target would broadcast against its input."""
    if target._data.shape != input._data.shape:
        input._policy.warn("loss_target_size", stacklevel=4, target=torch_size(target._data.shape),
                           input=torch_size(input._data.shape))


def _loss(op: str, input: Tensor, target: Tensor, reduction: str) -> Tensor:  # noqa: A002
    if reduction not in ("mean", "sum", "none"):
        raise TORCH.error("reduction", reduction=reduction)
    return recorder.apply(R.RULES[op], (input, target), {"reduction": reduction})


def _weighted(losses: Tensor, weight: Optional[Tensor], reduction: str, node: str,
              input: Tensor) -> Tensor:  # noqa: A002
    """Elementwise ``losses`` times ``weight``, reduced, shown as the loss's one kernel."""
    if reduction not in ("mean", "sum", "none"):
        raise TORCH.error("reduction", reduction=reduction)
    if weight is not None:
        losses = F.mul(losses, weight)
    out = losses if reduction == "none" else F.mean(losses) if reduction == "mean" else F.sum(losses)
    return C.named(out, node, input)


@autocast_ops.float32
def binary_cross_entropy_with_logits(input: Tensor, target: Tensor, weight: Optional[Tensor] = None,  # noqa: A002
                                     size_average: Any = None, reduce: Any = None, reduction: str = "mean",
                                     pos_weight: Optional[Tensor] = None) -> Tensor:
    """``max(x, 0) - x·y + log(1 + exp(-|x|))``, torch's stable form: one node. With
    ``pos_weight`` the positive term is scaled, ``(1 - y)·x + (1 + (pw - 1)·y)·(log(1 +
    exp(-|x|)) + max(-x, 0))``, and a ``weight`` scales each element (composed)."""
    if weight is None and pos_weight is None:
        return _loss("binary_cross_entropy_with_logits", input, target, reduction)
    if pos_weight is None:
        losses = _loss("binary_cross_entropy_with_logits", input, target, "none")
    else:
        losses = C.logits_loss_with_pos_weight(input, target, pos_weight)
    return _weighted(losses, weight, reduction, "BinaryCrossEntropyWithLogitsBackward0", input)


@autocast_ops.float32
def binary_cross_entropy(input: Tensor, target: Tensor, weight: Optional[Tensor] = None,  # noqa: A002
                         size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> Tensor:
    """``-(y·log(p) + (1 - y)·log(1 - p))``, logs clamped at -100 as torch clamps them: one
    node (a ``weight`` scales each element, composed)."""
    if weight is None:
        return _loss("binary_cross_entropy", input, target, reduction)
    losses = _loss("binary_cross_entropy", input, target, "none")
    return _weighted(losses, weight, reduction, "BinaryCrossEntropyBackward0", input)


@autocast_ops.float32
def l1_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:  # noqa: A002
    """``|input - target|``, reduced: composed (AbsBackward0, then MeanBackward0 or SumBackward0)."""
    _check_target_size(input, target)
    return C.l1_loss(input, target, reduction)


def smooth_l1_loss(input: Tensor, target: Tensor, size_average: Any = None, reduce: Any = None,  # noqa: A002
                   reduction: str = "mean", beta: float = 1.0) -> Tensor:
    """``0.5 * d² / beta`` where ``|d| < beta``, else ``|d| - beta / 2`` (``d = input - target``;
    with ``beta`` 0 torch's L1 loss itself), reduced: composed, shown as one SmoothL1LossBackward0."""
    _check_target_size(input, target)
    if beta == 0:
        return C.l1_loss(input, target, reduction)
    difference = F.sub(input, target)
    size = F.abs(difference)
    quadratic = F.div_number(F.mul(F.mul(difference, difference), 0.5), beta)
    inside = F.constant_like(size, size._data < beta)
    return _weighted(F.where(inside, quadratic, F.sub(size, 0.5 * beta)), None, reduction,
                     "SmoothL1LossBackward0", input)


def huber_loss(input: Tensor, target: Tensor, reduction: str = "mean", delta: float = 1.0,  # noqa: A002
               weight: Optional[Tensor] = None) -> Tensor:
    """``0.5 * d²`` where ``|d| < delta``, else ``delta * (|d| - delta / 2)``, reduced: composed,
    shown as one HuberLossBackward0."""
    if weight is not None:
        raise not_supported("huber_loss with a weight", "torch")
    _check_target_size(input, target)
    return _weighted(C.huber_terms(input, target, delta), None, reduction, "HuberLossBackward0", input)


def kl_div(input: Tensor, target: Tensor, size_average: Any = None, reduce: Any = None,  # noqa: A002
           reduction: str = "mean", log_target: bool = False) -> Tensor:
    """``xlogy(t, t) - t x`` (or ``exp(t) (t - x)`` for a log target), reduced; "batchmean"
    divides the sum by the batch size, "mean" (with torch's warning) by every element."""
    if reduction == "mean":
        TORCH.warn("kl_div_mean", stacklevel=2)
    pointwise = similarity.kl_div_pointwise_torch(input, target, log_target)
    if reduction == "batchmean":
        total = F.sum(pointwise)
        return F.div(total, input.shape[0]) if input.dim() else total
    return C.reduced(pointwise, reduction)


def cosine_similarity(x1: Tensor, x2: Tensor, dim: int = 1, eps: float = 1e-8) -> Tensor:
    return similarity.cosine_similarity_torch(x1, x2, dim, eps)


def margin_ranking_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                        size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> Tensor:
    """``max(0, -target (input1 - input2) + margin)``, reduced."""
    hinge = F.add(F.mul(F.neg(target), F.sub(input1, input2)), margin)
    return C.reduced(hinge.clamp_min(0.0), reduction)


def pairwise_distance(x1: Tensor, x2: Tensor, p: float = 2.0, eps: float = 1e-6,
                      keepdim: bool = False) -> Tensor:
    """The ``p``-norm of ``x1 - x2 + eps`` along the last dimension (NormBackward1)."""
    dim = max(x1.dim(), x2.dim()) - 1
    return C.named(F.norm(F.add(F.sub(x1, x2), eps), p, dim, keepdim), "NormBackward1", x1)


def triplet_margin_loss(anchor: Tensor, positive: Tensor, negative: Tensor, margin: float = 1.0,
                        p: float = 2.0, eps: float = 1e-6, swap: bool = False, size_average: Any = None,
                        reduce: Any = None, reduction: str = "mean") -> Tensor:
    """``max(0, margin + d(anchor, positive) - d(anchor, negative))``, reduced; with ``swap``
    the negative's distance is the smaller of its distances to the anchor and the positive."""
    positive_distance = pairwise_distance(anchor, positive, p, eps)
    negative_distance = pairwise_distance(anchor, negative, p, eps)
    if swap:
        negative_distance = F.minimum(negative_distance, pairwise_distance(positive, negative, p, eps))
    hinge = F.sub(F.add(positive_distance, margin), negative_distance)
    return C.reduced(hinge.clamp_min(0.0), reduction)


def cosine_embedding_loss(input1: Tensor, input2: Tensor, target: Tensor, margin: float = 0.0,
                          size_average: Any = None, reduce: Any = None, reduction: str = "mean") -> Tensor:
    """``1 - cos`` where the target is 1, ``max(0, cos - margin)`` where it is -1, the cosine
    over the last dimension as torch computes it (squared norms plus 1e-12, their product's root)."""
    dim = target.dim()
    product = F.sum(F.mul(input1, input2), dim)
    squares = [F.add(F.sum(F.mul(t, t), dim), 1e-12) for t in (input1, input2)]
    cos = F.div(product, F.sqrt(F.mul(squares[0], squares[1])))
    zeros = F.zeros_like(cos)
    positive = F.where(F.eq(target, 1), F.rsub(cos, 1.0), zeros)
    negative = F.where(F.eq(target, -1), F.sub(cos, margin).clamp_min(0.0), zeros)
    return C.reduced(F.add(positive, negative), reduction)


def softmin(input: Tensor, dim: Optional[int] = None, _stacklevel: int = 3,  # noqa: A002
            dtype: Any = None) -> Tensor:
    dim = _softmax_dim("softmin", dim, input.dim())
    negated = F.neg(input)
    return F.softmax(negated if dtype is None else negated.to(dtype), dim)


def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12) -> Tensor:  # noqa: A002
    """``input`` over its ``p``-norm along ``dim``, the norm held at ``eps`` or more (DivBackward0)."""
    norm = F.clamp(F.norm(input, p, dim, keepdim=True), eps)
    return F.div(input, F.expand(norm, input._data.shape))


def _pooled(spatial: int, input: Tensor, node: Optional[str], pooling: Any) -> Tensor:  # noqa: A002
    """``pooling`` applied to ``input`` with a batch axis put in where it has none (the 2-d and
    3-d kernels take such an input as it is: the last node is theirs), and for one spatial axis
    a height of 1 (torch's 1-d pools run the 2-d kernel between an unsqueeze and a squeeze)."""
    unbatched = input._data.ndim == spatial + 1
    x = F.unsqueeze(input, 0) if unbatched else input
    x = F.unsqueeze(x, 2) if spatial == 1 else x
    out = pooling(x)
    out = F.squeeze(out, 0) if unbatched and spatial > 1 else out
    if node is not None:
        out = C.named(out, node, input)
    out = F.squeeze(out, 2) if spatial == 1 else out
    return F.squeeze(out, 0) if unbatched and spatial == 1 else out


def _one_d(value: Any) -> Any:
    return (1, *layers.as_tuple(value, 1))


def _max_pool(spatial: int, input: Tensor, kernel_size: Any, stride: Any, padding: Any,  # noqa: A002
              dilation: Any, ceil_mode: bool, return_indices: bool) -> Tensor:
    if layers.as_tuple(dilation, spatial) != (1,) * spatial:
        raise not_supported(f"max_pool{spatial}d with dilation", "torch")
    out = _pooled(spatial, input, f"MaxPool{spatial}DWithIndicesBackward0",
                  lambda x: layers.pool(x, "max", kernel_size, stride, padding, ceil_mode))
    if not return_indices:
        return out
    return out, type(input)._from_array(_pool_indices(spatial, input._data, kernel_size, stride, padding,
                                                      ceil_mode))


def _pool_indices(spatial: int, data: np.ndarray, kernel_size: Any, stride: Any, padding: Any,
                  ceil_mode: bool) -> np.ndarray:
    """A 2-d or 3-d max pool's indices (int64, in the output's shape; an unbatched input's
    without the batch axis)."""
    unbatched = data.ndim == spatial + 1
    positions = layers.max_pool_indices(data[None] if unbatched else data, kernel_size, stride, padding,
                                        ceil_mode)
    return positions[0] if unbatched else positions


def _avg_pool(spatial: int, input: Tensor, kernel_size: Any, stride: Any, padding: Any,  # noqa: A002
              ceil_mode: bool, count_include_pad: bool, divisor_override: Any) -> Tensor:
    if divisor_override is not None:
        raise not_supported(f"avg_pool{spatial}d with divisor_override", "torch")
    return _pooled(spatial, input, f"AvgPool{spatial}DBackward0", lambda x: layers.pool(
        x, "avg", kernel_size, stride, padding, ceil_mode, count_include_pad))


def max_pool2d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,  # noqa: A002
               dilation: Any = 1, ceil_mode: bool = False, return_indices: bool = False) -> Tensor:
    return _max_pool(2, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)


def avg_pool2d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,  # noqa: A002
               ceil_mode: bool = False, count_include_pad: bool = True,
               divisor_override: Any = None) -> Tensor:
    return _avg_pool(2, input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)


def max_pool3d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,  # noqa: A002
               dilation: Any = 1, ceil_mode: bool = False, return_indices: bool = False) -> Tensor:
    return _max_pool(3, input, kernel_size, stride, padding, dilation, ceil_mode, return_indices)


def avg_pool3d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,  # noqa: A002
               ceil_mode: bool = False, count_include_pad: bool = True,
               divisor_override: Any = None) -> Tensor:
    return _avg_pool(3, input, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)


def max_pool1d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,  # noqa: A002
               dilation: Any = 1, ceil_mode: bool = False, return_indices: bool = False) -> Tensor:
    if return_indices or layers.as_tuple(dilation, 1) != (1,):
        raise not_supported("max_pool1d with dilation or return_indices", "torch")
    step = _one_d(stride) if stride is not None else None
    return _pooled(1, input, "MaxPool2DWithIndicesBackward0", lambda x: layers.pool(
        x, "max", _one_d(kernel_size), step, (0, *layers.as_tuple(padding, 1)), ceil_mode))


def avg_pool1d(input: Tensor, kernel_size: Any, stride: Any = None, padding: Any = 0,  # noqa: A002
               ceil_mode: bool = False, count_include_pad: bool = True) -> Tensor:
    step = _one_d(stride) if stride is not None else None
    padding_2d = (0, *layers.as_tuple(padding, 1))
    return _pooled(1, input, "AvgPool2DBackward0", lambda x: layers.pool(
        x, "avg", _one_d(kernel_size), step, padding_2d, ceil_mode, count_include_pad))


def adaptive_avg_pool2d(input: Tensor, output_size: Any) -> Tensor:  # noqa: A002
    """A 1 x 1 output is a mean over the spatial axes (torch records MeanBackward1)."""
    sizes = layers.as_tuple(output_size, 2)
    if sizes == (1, 1):
        return F.mean(input, [-2, -1], keepdim=True)
    return _pooled(2, input, "AdaptiveAvgPool2DBackward0", lambda x: layers.adaptive_avg_pool(x, sizes))


def _adaptive_max(spatial: int, input: Tensor, output_size: Any, return_indices: bool) -> Tensor:  # noqa: A002
    """The maximum of each adaptive cell (torch's AdaptiveMaxPool<n>DBackward0): its gradient
    to the cell's first largest element."""
    api = f"adaptive_max_pool{spatial}d"
    if return_indices or input.dim() not in (spatial + 1, spatial + 2):
        raise not_supported(f"{api} with return_indices, or of other than {spatial + 1}-d or "
                            f"{spatial + 2}-d input", "torch")
    batched = input.dim() == spatial + 2
    out = layers.adaptive_pool(input if batched else F.unsqueeze(input, 0), output_size, "max")
    return C.named(out if batched else F.squeeze(out, 0), f"AdaptiveMaxPool{spatial}DBackward0", input)


def adaptive_max_pool2d(input: Tensor, output_size: Any, return_indices: bool = False) -> Tensor:  # noqa: A002
    return _adaptive_max(2, input, output_size, return_indices)


def adaptive_max_pool3d(input: Tensor, output_size: Any, return_indices: bool = False) -> Tensor:  # noqa: A002
    return _adaptive_max(3, input, output_size, return_indices)


def adaptive_avg_pool3d(input: Tensor, output_size: Any) -> Tensor:  # noqa: A002
    """A 1 x 1 x 1 output is a mean over the spatial axes (torch records MeanBackward1)."""
    sizes = layers.as_tuple(output_size, 3)
    if sizes == (1, 1, 1):
        return F.mean(input, [-3, -2, -1], keepdim=True)
    return _pooled(3, input, "AdaptiveAvgPool3DBackward0", lambda x: layers.adaptive_avg_pool(x, sizes))


def adaptive_avg_pool1d(input: Tensor, output_size: Any) -> Tensor:  # noqa: A002
    return _pooled(1, input, "AdaptiveAvgPool2DBackward0",
                   lambda x: layers.adaptive_avg_pool(x, (1, *layers.as_tuple(output_size, 1))))


def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor,
                                 attn_mask: Optional[Tensor] = None, dropout_p: float = 0.0,
                                 is_causal: bool = False, scale: Optional[float] = None,
                                 enable_gqa: bool = False) -> Tensor:
    """``softmax(q k^T * scale + mask) v`` as torch's math kernel composes it: query and key
    each scaled by the root of ``scale`` (1 / sqrt(E) by default) before their product; a
    boolean mask (or ``is_causal``'s lower triangle) keeps where it is true, a float mask adds.
    On 4-d inputs torch's CPU picks a fused kernel whose node is its own; the values agree."""
    if enable_gqa:
        raise not_supported("scaled_dot_product_attention with enable_gqa", "torch")
    root = math.sqrt(scale if scale is not None else 1.0 / math.sqrt(query.shape[-1]))
    scores = F.matmul(F.mul(query, root), F.transpose(F.mul(key, root), -2, -1))
    length, source = scores._data.shape[-2:]
    keep = np.tril(np.ones((length, source), dtype=bool)) if is_causal else None
    if attn_mask is not None and attn_mask._data.dtype == np.bool_:
        keep = attn_mask._data if keep is None else keep & attn_mask._data
    elif attn_mask is not None:
        scores = F.add(scores, attn_mask)
    if keep is not None:
        masked = np.where(keep, 0.0, -np.inf).astype(scores._data.dtype)
        scores = F.add(scores, F.constant_like(scores, masked))
    weights = F.softmax(scores, -1)
    if dropout_p > 0.0:
        weights = dropout(weights, dropout_p, True)
    return F.matmul(weights, value)


def _transposed(spatial: int, input: Tensor, weight: Tensor, bias: Optional[Tensor], stride: Any,  # noqa: A002
                padding: Any, output_padding: Any, groups: int, dilation: Any) -> Tensor:
    unbatched = input._data.ndim == spatial + 1
    batch = F.unsqueeze(input, 0) if unbatched else input
    composed = layers.conv_transpose(batch, weight, bias, stride, padding, output_padding, dilation, groups)
    out = C.named(composed, "ConvolutionBackward0", batch)
    return F.squeeze(out, 0) if unbatched else out


def conv_transpose1d(input: Tensor, weight: Tensor, bias: Optional[Tensor] = None, stride: Any = 1,  # noqa: A002
                     padding: Any = 0, output_padding: Any = 0, groups: int = 1, dilation: Any = 1) -> Tensor:
    return _transposed(1, input, weight, bias, stride, padding, output_padding, groups, dilation)


def conv_transpose2d(input: Tensor, weight: Tensor, bias: Optional[Tensor] = None, stride: Any = 1,  # noqa: A002
                     padding: Any = 0, output_padding: Any = 0, groups: int = 1, dilation: Any = 1) -> Tensor:
    return _transposed(2, input, weight, bias, stride, padding, output_padding, groups, dilation)


def conv_transpose3d(input: Tensor, weight: Tensor, bias: Optional[Tensor] = None, stride: Any = 1,  # noqa: A002
                     padding: Any = 0, output_padding: Any = 0, groups: int = 1, dilation: Any = 1) -> Tensor:
    return _transposed(3, input, weight, bias, stride, padding, output_padding, groups, dilation)

from reference_engine.torch.nn.activation_functions import *  # noqa: E402, F403
from reference_engine.torch.nn.activation_functions import __all__ as _activations  # noqa: E402
from reference_engine.torch.nn.composite_functions import *  # noqa: E402, F403
from reference_engine.torch.nn.composite_functions import __all__ as _composites  # noqa: E402
from reference_engine.torch.nn.grid_sampling import *  # noqa: E402, F403
from reference_engine.torch.nn.grid_sampling import __all__ as _grid_sampling  # noqa: E402

__all__ += _activations + _composites + _grid_sampling
__getattr__ = module_getattr("torch.nn.functional")
