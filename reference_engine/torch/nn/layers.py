"""``torch.nn``'s normalisation, dropout, convolution and embedding modules, on the shared
layer functions (``reference_engine.layers``). Parameters start as torch initialises them:
ones and zeros for the affine normalisations, uniform in ±1/√fan_in for convolutions (with
numpy's generator: a program that compares values sets them), a standard normal for
embeddings."""

from __future__ import annotations

import math
from typing import Any, Optional

import numpy as np

from reference_engine import layers, rng
from reference_engine.dialects.torch_policy import TORCH
from reference_engine.messages import not_supported
from reference_engine.torch._core import Tensor, get_default_dtype, no_grad, tensor
from reference_engine.torch.nn import functional
from reference_engine.torch.nn.modules import Module, initialised
from reference_engine.torch.nn.parameter import Parameter

__all__ = ["BatchNorm1d", "BatchNorm2d", "Conv1d", "Conv2d", "Dropout", "Embedding", "LayerNorm"]


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


class BatchNorm1d(_BatchNorm):
    dims = (2, 3)


class BatchNorm2d(_BatchNorm):
    dims = (4,)


class Dropout(Module):
    """``torch.nn.Dropout``: zero elements with probability ``p`` while training."""

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if not 0 <= p <= 1:
            raise TORCH.error("dropout_p", p=p)
        self.p, self.inplace = p, inplace

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return functional.dropout(input, self.p, self.training, self.inplace)


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
        self.weight = _parameter(rng.generator().uniform(-bound, bound, shape))
        self.bias = _parameter(rng.generator().uniform(-bound, bound, out_channels)) if bias else None

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        conv = functional.conv1d if self.spatial == 1 else functional.conv2d
        return conv(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)


class Conv1d(_ConvNd):
    spatial = 1


class Conv2d(_ConvNd):
    spatial = 2


class Embedding(Module):
    """``torch.nn.Embedding``: rows of ``weight`` by index; ``padding_idx``'s row starts at zero
    and gets no gradient."""

    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx: Optional[int] = None,
                 _weight: Optional[Tensor] = None) -> None:
        super().__init__()
        self.num_embeddings, self.embedding_dim, self.padding_idx = num_embeddings, embedding_dim, padding_idx
        values = rng.generator().standard_normal((num_embeddings, embedding_dim))
        if padding_idx is not None:
            values[padding_idx] = 0.0
        self.weight = Parameter(_weight) if _weight is not None else _parameter(
            values, 1 if padding_idx is None else 2)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return functional.embedding(input, self.weight, self.padding_idx)
