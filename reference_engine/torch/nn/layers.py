"""``torch.nn``'s normalisation, dropout, convolution and embedding modules, on the shared
layer functions (``reference_engine.layers``). Parameters start as torch initialises them:
ones and zeros for the affine normalisations, uniform in ±1/√fan_in for convolutions, a
standard normal for embeddings, drawn by torch's generator (``reference_engine.torch.random``)."""

from __future__ import annotations

import math
from typing import Any, Optional

import numpy as np

from reference_engine import layers
from reference_engine import modules as shared
from reference_engine.dialects.torch_policy import TORCH
from reference_engine.messages import not_supported
from reference_engine.torch._core import Tensor, get_default_dtype, no_grad, tensor
from reference_engine.torch.nn import functional
from reference_engine.torch.nn.modules import Module, initialised
from reference_engine.torch.nn.parameter import Parameter
from reference_engine.torch.random import drawing

__all__ = ["AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool2d",
           "AdaptiveMaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d", "BatchNorm1d", "BatchNorm2d",
           "BatchNorm3d", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d",
           "ConvTranspose3d", "Dropout", "Embedding", "LayerNorm", "MaxPool1d", "MaxPool2d", "MaxPool3d",
           "RMSNorm", "EmbeddingBag", "Fold", "Unfold"]


def _uniform_draws(bound: float, shape: tuple[int, ...]) -> np.ndarray:
    """``init.uniform_(-bound, bound)`` of a new parameter, by torch's generator."""
    return drawing(None).uniform(-bound, bound, shape, get_default_dtype().numpy)


def _parameter(values: np.ndarray, writes: int = 1) -> Parameter:
    with no_grad():
        return initialised(Parameter(tensor(values.astype(get_default_dtype().numpy))), writes)


class LayerNorm(Module):
    """``torch.nn.LayerNorm``: normalise over the trailing ``normalized_shape``."""

    def __init__(self, normalized_shape: Any, eps: float = 1e-5, elementwise_affine: bool = True,
                 bias: bool = True) -> None:
        super().__init__()
        self.normalized_shape = layers.as_tuple(normalized_shape, 1)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        self.weight = _parameter(np.ones(self.normalized_shape)) if elementwise_affine else None
        self.bias = _parameter(np.zeros(self.normalized_shape)) if elementwise_affine and bias else None

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return functional.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}, "
                f"bias={self.bias is not None}")


class RMSNorm(Module):
    """``torch.nn.RMSNorm``: divide by the root mean square over the trailing
    ``normalized_shape``, times a weight of ones."""

    def __init__(self, normalized_shape: Any, eps: Optional[float] = None,
                 elementwise_affine: bool = True) -> None:
        super().__init__()
        self.normalized_shape = layers.as_tuple(normalized_shape, 1)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        self.weight = _parameter(np.ones(self.normalized_shape)) if elementwise_affine else None

    def forward(self, x: Tensor) -> Tensor:
        return functional.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self) -> str:
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"


class _BatchNorm(Module):
    """``torch.nn.BatchNorm*d``: per-channel statistics, running ones kept as buffers."""

    dims: tuple[int, ...] = ()

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: Optional[float] = 0.1,
                 affine: bool = True, track_running_stats: bool = True) -> None:
        super().__init__()
        self.num_features, self.eps, self.momentum = num_features, eps, momentum
        self.affine, self.track_running_stats = affine, track_running_stats
        self.weight = _parameter(np.ones(num_features)) if affine else None
        self.bias = _parameter(np.zeros(num_features)) if affine else None
        if track_running_stats:
            self.register_buffer("running_mean", initialised(tensor(np.zeros(num_features, np.float32))))
            self.register_buffer("running_var", initialised(tensor(np.ones(num_features, np.float32))))
            self.register_buffer("num_batches_tracked", initialised(tensor(0)))
        else:
            self.running_mean = self.running_var = None

    def reset_running_stats(self) -> None:
        """The running statistics back to their start: mean 0, variance 1, no batches."""
        if self.track_running_stats:
            with no_grad():
                self.running_mean.zero_()
                self.running_var.fill_(1)
                self.num_batches_tracked.zero_()

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        if input.dim() not in self.dims:
            raise TORCH.error("norm_input_rank", ranks=" or ".join(f"{d}D" for d in self.dims),
                              got=input.dim())
        factor = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats:
            self.num_batches_tracked.add_(1)
            if self.momentum is None:  # a cumulative moving average
                factor = 1.0 / float(self.num_batches_tracked.item())
        use_batch = self.training or not self.track_running_stats
        return functional.batch_norm(input, self.running_mean, self.running_var, self.weight,
                                     self.bias, use_batch, factor, self.eps)


def _batch_norm_repr(self: _BatchNorm) -> str:
    return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
            f"bias={self.bias is not None}, track_running_stats={self.track_running_stats}")


_BatchNorm.extra_repr = _batch_norm_repr  # type: ignore[method-assign]


class BatchNorm1d(_BatchNorm):
    dims = (2, 3)


class BatchNorm2d(_BatchNorm):
    dims = (4,)


class BatchNorm3d(_BatchNorm):
    dims = (5,)


class Dropout(Module):
    """``torch.nn.Dropout``: zero elements with probability ``p`` while training."""

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if not 0 <= p <= 1:
            raise TORCH.error("dropout_p", p=p)
        self.p, self.inplace = p, inplace

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return functional.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


def _convolution_repr(module: Any) -> str:
    text = (f"{module.in_channels}, {module.out_channels}, kernel_size={module.kernel_size}, "
            f"stride={module.stride}")
    if any(module.padding):
        text += f", padding={module.padding}"
    if any(d != 1 for d in module.dilation):
        text += f", dilation={module.dilation}"
    if any(getattr(module, "output_padding", ())):
        text += f", output_padding={module.output_padding}"
    if module.groups != 1:
        text += f", groups={module.groups}"
    return text if module.bias is not None else text + ", bias=False"


class _ConvNd(Module):
    spatial = 0

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, dilation: Any = 1, groups: int = 1, bias: bool = True,
                 padding_mode: str = "zeros") -> None:
        super().__init__()
        if in_channels % groups or out_channels % groups:
            raise TORCH.error("conv_module_groups", channels="in_channels" if in_channels % groups
                              else "out_channels")
        if padding_mode != "zeros":
            raise not_supported(f"padding_mode={padding_mode!r}", "torch")
        n = self.spatial
        self.in_channels, self.out_channels, self.groups = in_channels, out_channels, groups
        self.kernel_size, self.stride = layers.as_tuple(kernel_size, n), layers.as_tuple(stride, n)
        self.padding, self.dilation = layers.as_tuple(padding, n), layers.as_tuple(dilation, n)
        shape = (out_channels, in_channels // groups, *self.kernel_size)
        bound = 1 / math.sqrt(math.prod(shape[1:])) if math.prod(shape[1:]) else 0.0
        self.weight = _parameter(_uniform_draws(bound, shape))
        self.bias = _parameter(_uniform_draws(bound, (out_channels,))) if bias else None

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        conv = (functional.conv1d, functional.conv2d, functional.conv3d)[self.spatial - 1]
        return conv(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)

    def extra_repr(self) -> str:
        return _convolution_repr(self)


class _ConvTransposeNd(Module):
    """A transposed convolution: weight (in_channels, out_channels / groups, *kernel), torch's
    uniform initialisation from that weight's fan-in."""

    spatial = 0

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, output_padding: Any = 0, groups: int = 1, bias: bool = True,
                 dilation: Any = 1, padding_mode: str = "zeros") -> None:
        super().__init__()
        if padding_mode != "zeros":
            raise not_supported(f"padding_mode={padding_mode!r}", "torch")
        n = self.spatial
        self.in_channels, self.out_channels, self.groups = in_channels, out_channels, groups
        self.kernel_size, self.stride = layers.as_tuple(kernel_size, n), layers.as_tuple(stride, n)
        self.padding, self.dilation = layers.as_tuple(padding, n), layers.as_tuple(dilation, n)
        self.output_padding = layers.as_tuple(output_padding, n)
        shape = (in_channels, out_channels // groups, *self.kernel_size)
        bound = 1 / math.sqrt(math.prod(shape[1:])) if math.prod(shape[1:]) else 0.0
        self.weight = _parameter(_uniform_draws(bound, shape))
        self.bias = _parameter(_uniform_draws(bound, (out_channels,))) if bias else None

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        function = (functional.conv_transpose1d, functional.conv_transpose2d,
                    functional.conv_transpose3d)[self.spatial - 1]
        return function(input, self.weight, self.bias, self.stride, self.padding, self.output_padding,
                        self.groups, self.dilation)

    def extra_repr(self) -> str:
        return _convolution_repr(self)


class ConvTranspose1d(_ConvTransposeNd):
    spatial = 1


class ConvTranspose2d(_ConvTransposeNd):
    spatial = 2


class ConvTranspose3d(_ConvTransposeNd):
    spatial = 3


class Conv1d(_ConvNd):
    spatial = 1


class Conv2d(_ConvNd):
    spatial = 2


class Conv3d(_ConvNd):
    spatial = 3


def _embedding_table(num_embeddings: int, embedding_dim: int, padding_idx: Optional[int],
                     weight: Optional[Tensor], freeze: bool = False) -> Parameter:
    """An embedding's table: ``weight`` as it is (no draw, its padding row kept), or drawn from
    a standard normal with the padding row zeroed (``reset_parameters``)."""
    if weight is not None:
        if list(weight.shape) != [num_embeddings, embedding_dim]:
            raise AssertionError("Shape of weight does not match num_embeddings and embedding_dim")
        return Parameter(weight, requires_grad=not freeze)
    values = drawing(None).normal(0.0, 1.0, (num_embeddings, embedding_dim), get_default_dtype().numpy)
    if padding_idx is not None:
        values[padding_idx] = 0.0
    table = _parameter(values, 1 if padding_idx is None else 2)
    table.requires_grad = not freeze
    return table


def _padding_index(padding_idx: Optional[int], num_embeddings: int) -> Optional[int]:
    """A negative ``padding_idx`` counted from the end; one out of range refused as torch does."""
    if padding_idx is None:
        return None
    if not -num_embeddings <= padding_idx < num_embeddings:
        raise AssertionError("Padding_idx must be within num_embeddings")
    return padding_idx + num_embeddings if padding_idx < 0 else padding_idx


class Embedding(Module):
    """``torch.nn.Embedding``: rows of ``weight`` by index; ``padding_idx``'s row starts at zero
    and gets no gradient. ``max_norm``, ``scale_grad_by_freq`` and ``sparse`` are refused."""

    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx: Optional[int] = None,
                 max_norm: Optional[float] = None, norm_type: float = 2.0, scale_grad_by_freq: bool = False,
                 sparse: bool = False, _weight: Optional[Tensor] = None, _freeze: bool = False,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        if max_norm is not None or scale_grad_by_freq or sparse:
            raise not_supported("Embedding with max_norm, scale_grad_by_freq or sparse", "torch")
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        self.padding_idx = _padding_index(padding_idx, num_embeddings)
        self.max_norm, self.norm_type = max_norm, norm_type
        self.scale_grad_by_freq, self.sparse = scale_grad_by_freq, sparse
        self.weight = _embedding_table(num_embeddings, embedding_dim, self.padding_idx, _weight, _freeze)

    @classmethod
    def from_pretrained(cls, embeddings: Tensor, freeze: bool = True, padding_idx: Optional[int] = None,
                        max_norm: Optional[float] = None, norm_type: float = 2.0,
                        scale_grad_by_freq: bool = False, sparse: bool = False) -> Embedding:
        """An embedding over ``embeddings`` (2-d) itself, trained unless ``freeze``."""
        if embeddings.dim() != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, columns = embeddings.shape
        return cls(rows, columns, padding_idx, max_norm, norm_type, scale_grad_by_freq, sparse,
                   _weight=embeddings, _freeze=freeze)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return functional.embedding(input, self.weight, self.padding_idx)

    def extra_repr(self) -> str:
        text = f"{self.num_embeddings}, {self.embedding_dim}"
        return text if self.padding_idx is None else f"{text}, padding_idx={self.padding_idx}"


class EmbeddingBag(Module):
    """``torch.nn.EmbeddingBag``: an embedding table (drawn as Embedding's) reduced per bag by
    ``embedding_bag``."""

    def __init__(self, num_embeddings: int, embedding_dim: int, max_norm: Any = None, norm_type: float = 2.0,
                 scale_grad_by_freq: bool = False, mode: str = "mean", sparse: bool = False,
                 _weight: Optional[Tensor] = None, include_last_offset: bool = False,
                 padding_idx: Optional[int] = None) -> None:
        super().__init__()
        if max_norm is not None or scale_grad_by_freq or sparse:
            raise not_supported("EmbeddingBag with max_norm, scale_grad_by_freq or sparse", "torch")
        self.num_embeddings, self.embedding_dim, self.mode = num_embeddings, embedding_dim, mode
        self.include_last_offset, self.padding_idx = include_last_offset, padding_idx
        self.weight = _embedding_table(num_embeddings, embedding_dim, padding_idx, _weight)

    @classmethod
    def from_pretrained(cls, embeddings: Tensor, freeze: bool = True, max_norm: Any = None,
                        norm_type: float = 2.0, scale_grad_by_freq: bool = False, mode: str = "mean",
                        sparse: bool = False, include_last_offset: bool = False,
                        padding_idx: Optional[int] = None) -> EmbeddingBag:
        rows, columns = embeddings.shape
        bag = cls(rows, columns, max_norm, norm_type, scale_grad_by_freq, mode, sparse, embeddings,
                  include_last_offset, padding_idx)
        bag.weight.requires_grad = not freeze
        return bag

    def forward(self, input: Tensor, offsets: Optional[Tensor] = None,  # noqa: A002
                per_sample_weights: Optional[Tensor] = None) -> Tensor:
        return functional.embedding_bag(input, self.weight, offsets, mode=self.mode,
                                        per_sample_weights=per_sample_weights,
                                        include_last_offset=self.include_last_offset,
                                        padding_idx=self.padding_idx)

    def extra_repr(self) -> str:
        text = f"{self.num_embeddings}, {self.embedding_dim}, mode={self.mode!r}"
        return text if self.padding_idx is None else f"{text}, padding_idx={self.padding_idx}"


class Unfold(Module):
    """``unfold`` (im2col) with the block settings it was made with."""

    def __init__(self, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1) -> None:
        super().__init__()
        self.kernel_size, self.dilation, self.padding, self.stride = kernel_size, dilation, padding, stride

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return functional.unfold(input, self.kernel_size, self.dilation, self.padding, self.stride)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_size}, dilation={self.dilation}, padding={self.padding}, "
                f"stride={self.stride}")


class Fold(Unfold):
    """``fold`` (col2im) into planes of ``output_size``."""

    def __init__(self, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0,
                 stride: Any = 1) -> None:
        super().__init__(kernel_size, dilation, padding, stride)
        self.output_size = output_size

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return functional.fold(input, self.output_size, self.kernel_size, self.dilation, self.padding,
                               self.stride)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}, {super().extra_repr()}"


class _Windows(shared.ActivationBase):
    """The pooling modules: their function with the arguments they were made with; a stride not
    given prints as the kernel's, as torch's do."""

    def shown_values(self, values: dict[str, Any]) -> dict[str, Any]:
        if values.get("stride") is None and "kernel_size" in values:
            values["stride"] = values["kernel_size"]
        return values


(MaxPool1d, MaxPool2d, MaxPool3d, AvgPool1d, AvgPool2d, AvgPool3d, AdaptiveAvgPool1d, AdaptiveAvgPool2d,
 AdaptiveAvgPool3d, AdaptiveMaxPool2d, AdaptiveMaxPool3d) = shared.function_modules(
    Module, _Windows, MaxPool1d=functional.max_pool1d, MaxPool2d=functional.max_pool2d,
    MaxPool3d=functional.max_pool3d, AvgPool1d=functional.avg_pool1d, AvgPool2d=functional.avg_pool2d,
    AvgPool3d=functional.avg_pool3d, AdaptiveAvgPool1d=functional.adaptive_avg_pool1d,
    AdaptiveAvgPool2d=functional.adaptive_avg_pool2d, AdaptiveAvgPool3d=functional.adaptive_avg_pool3d,
    AdaptiveMaxPool2d=functional.adaptive_max_pool2d, AdaptiveMaxPool3d=functional.adaptive_max_pool3d)
# what each pool's printout shows (measured on torch 2.13.0)
_WINDOW = ("kernel_size", "stride", "padding")
for _pools, _names in (((MaxPool1d, MaxPool2d, MaxPool3d), (*_WINDOW, "dilation", "ceil_mode")),
                       ((AvgPool1d, AvgPool2d, AvgPool3d), _WINDOW),
                       ((AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveAvgPool3d, AdaptiveMaxPool2d,
                         AdaptiveMaxPool3d), ("output_size",))):
    for _pool in _pools:
        _pool.shown = tuple((name, False) for name in _names)
