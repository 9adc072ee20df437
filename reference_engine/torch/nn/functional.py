"""``torch.nn.functional``: the activations, losses and layers the reference engine models."""

from __future__ import annotations

from typing import Any, Optional, Sequence

from reference_engine import composed as C
from reference_engine import layers, recorder
from reference_engine import ops as F
from reference_engine import rules as R
from reference_engine.dialects.torch_policy import TORCH, torch_size
from reference_engine.framework_names import module_getattr
from reference_engine.messages import not_supported
from reference_engine.tensor import Tensor
from reference_engine.torch import autocast_ops

__all__ = ["batch_norm", "binary_cross_entropy", "binary_cross_entropy_with_logits", "conv1d", "conv2d",
           "cross_entropy", "dropout", "elu", "embedding", "gelu", "layer_norm",
           "l1_loss", "leaky_relu", "linear", "log_softmax", "mse_loss", "nll_loss", "normalize", "relu",
           "sigmoid", "silu", "softmax", "softplus", "tanh"]

sigmoid = F.sigmoid


def _not_in_place(name: str, inplace: bool) -> None:
    if inplace:
        raise not_supported(f"{name}(inplace=True)", "torch")


def relu(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    _not_in_place("relu", inplace)
    return F.relu(input)


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:  # noqa: A002
    _not_in_place("leaky_relu", inplace)
    return F.leaky_relu(input, negative_slope)


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0) -> Tensor:  # noqa: A002
    return F.activation("softplus", input, beta=beta, threshold=threshold)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:  # noqa: A002
    _not_in_place("elu", inplace)
    return F.activation("elu", input, alpha=alpha)


def gelu(input: Tensor, approximate: str = "none") -> Tensor:  # noqa: A002
    return F.activation("gelu", input, approximate=approximate)


def silu(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    _not_in_place("silu", inplace)
    return F.activation("silu", input)
tanh = F.tanh


def softmax(input: Tensor, dim: Optional[int] = None) -> Tensor:  # noqa: A002
    return F.softmax(input, -1 if dim is None else dim)


def log_softmax(input: Tensor, dim: Optional[int] = None) -> Tensor:  # noqa: A002
    return F.log_softmax(input, -1 if dim is None else dim)


@autocast_ops.float32
def mse_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:  # noqa: A002
    """The reduced squared difference: one MseLossBackward0 (input, target)."""
    _check_target_size(input, target)
    return _loss("mse_loss", input, target, reduction)


@autocast_ops.lower_precision
def linear(input: Tensor, weight: Tensor, bias: Optional[Tensor] = None) -> Tensor:  # noqa: A002
    """``input @ weight.T + bias`` (with a bias: one AddmmBackward0 over the input's rows)."""
    return F.linear_addmm(input, weight, bias)


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
    classes = tuple(int(c) for c in target._data.reshape(-1))
    if weight is None and ignore_index not in classes:
        return recorder.apply(R.RULES["nll_loss"], (input,), {"classes": classes, "reduction": reduction})
    loss = layers.nll_loss(input, target, weight, ignore_index, reduction)
    return C.named(loss, "NllLossBackward0", input)


@autocast_ops.float32
def cross_entropy(input: Tensor, target: Tensor, weight: Optional[Tensor] = None,  # noqa: A002
                  size_average: Any = None, ignore_index: int = -100, reduce: Any = None,
                  reduction: str = "mean", label_smoothing: float = 0.0) -> Tensor:
    """``nll_loss(log_softmax(input, 1), target, ...)`` for class-index targets."""
    if label_smoothing:
        raise not_supported("cross_entropy's label_smoothing", "torch")
    return nll_loss(F.log_softmax(input, 1), target, weight, ignore_index=ignore_index,
                    reduction=reduction)


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
    return C.named(out, "NativeBatchNormBackward0", input)


def dropout(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:  # noqa: A002
    """Zero each element with probability ``p`` while training, scaling the rest by 1/(1-p)
    (products: MulBackward0, as torch's CPU dropout records it). The mask is the reference's
    own draw, or one given with ``reference_engine.layers.dropout_masks``."""
    _not_in_place("dropout", inplace)
    return layers.dropout(input, p, training)


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


def _check_target_size(input: Tensor, target: Tensor) -> None:  # noqa: A002
    """torch warns where a regression loss's target would broadcast against its input."""
    if target._data.shape != input._data.shape:
        input._policy.warn("loss_target_size", stacklevel=4, target=torch_size(target._data.shape),
                           input=torch_size(input._data.shape))


def _loss(op: str, input: Tensor, target: Tensor, reduction: str) -> Tensor:  # noqa: A002
    if reduction not in ("mean", "sum", "none"):
        raise TORCH.error("reduction", reduction=reduction)
    return recorder.apply(R.RULES[op], (input, target), {"reduction": reduction})


@autocast_ops.float32
def binary_cross_entropy_with_logits(input: Tensor, target: Tensor,  # noqa: A002
                                     reduction: str = "mean") -> Tensor:
    """``max(x, 0) - x·y + log(1 + exp(-|x|))``, torch's stable form: one node."""
    return _loss("binary_cross_entropy_with_logits", input, target, reduction)


@autocast_ops.float32
def binary_cross_entropy(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:  # noqa: A002
    """``-(y·log(p) + (1 - y)·log(1 - p))``, logs clamped at -100 as torch clamps them: one
    node."""
    return _loss("binary_cross_entropy", input, target, reduction)


@autocast_ops.float32
def l1_loss(input: Tensor, target: Tensor, reduction: str = "mean") -> Tensor:  # noqa: A002
    """``|input - target|``, reduced: composed (AbsBackward0, then MeanBackward0 or SumBackward0)."""
    _check_target_size(input, target)
    return C.l1_loss(input, target, reduction)


def normalize(input: Tensor, p: float = 2.0, dim: int = 1, eps: float = 1e-12) -> Tensor:  # noqa: A002
    """``input`` over its ``p``-norm along ``dim``, the norm held at ``eps`` or more (DivBackward0)."""
    norm = F.clamp(F.norm(input, p, dim, keepdim=True), eps)
    return F.div(input, F.expand(norm, input._data.shape))

__getattr__ = module_getattr("torch.nn.functional")
