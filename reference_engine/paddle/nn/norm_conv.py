"""``paddle.nn``'s normalisation, dropout, convolution and embedding layers, on the shared layer
functions (``reference_engine.layers``). Parameters start as paddle initialises the affine
normalisations (ones and zeros); convolution and embedding weights are drawn with numpy's
generator (paddle's own draws are not the reference's: a program that compares values sets
them)."""

from __future__ import annotations

import math
from typing import Any, Optional

import numpy as np

from reference_engine import layers, rng
from reference_engine.dialects.paddle_policy import PADDLE
from reference_engine.messages import not_supported
from reference_engine.paddle._core import Tensor, get_default_dtype, to_tensor
from reference_engine.paddle.nn import functional
from reference_engine.paddle.nn.layers import Layer, Parameter

__all__ = ["BatchNorm1D", "BatchNorm2D", "Conv1D", "Conv2D", "Dropout", "Embedding", "LayerNorm"]


def _parameter(values: np.ndarray, name: str) -> Parameter:
    return Parameter.of(values.astype(get_default_dtype()), name)


class LayerNorm(Layer):
    """``paddle.nn.LayerNorm``: normalise over the trailing ``normalized_shape``."""

    def __init__(self, normalized_shape: Any, epsilon: float = 1e-05, weight_attr: Any = None,
                 bias_attr: Any = None, name: Optional[str] = None) -> None:
        super().__init__()
        self._normalized_shape = layers.as_tuple(normalized_shape, 1)
        self._epsilon = epsilon
        size = int(np.prod(self._normalized_shape))
        self.weight = None if weight_attr is False else _parameter(np.ones(size), "layer_norm.w_0")
        self.bias = None if bias_attr is False else _parameter(np.zeros(size), "layer_norm.b_0")

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return functional.layer_norm(input, self._normalized_shape, self.weight, self.bias, self._epsilon)


class _BatchNormBase(Layer):
    """``paddle.nn.BatchNorm*D``: per-channel statistics; the running ones (``_mean``,
    ``_variance``) keep ``momentum`` of their old value at each training step."""

    dims: tuple[int, ...] = ()

    def __init__(self, num_features: int, momentum: float = 0.9, epsilon: float = 1e-05,
                 weight_attr: Any = None, bias_attr: Any = None, data_format: str = "NCHW",
                 use_global_stats: Optional[bool] = None, name: Optional[str] = None) -> None:
        super().__init__()
        self._momentum, self._epsilon, self._use_global_stats = momentum, epsilon, use_global_stats
        self.weight = None if weight_attr is False else _parameter(np.ones(num_features), "batch_norm.w_0")
        self.bias = None if bias_attr is False else _parameter(np.zeros(num_features), "batch_norm.b_0")
        self.register_buffer("_mean", to_tensor(np.zeros(num_features, get_default_dtype())))
        self.register_buffer("_variance", to_tensor(np.ones(num_features, get_default_dtype())))

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        if len(input.shape) not in self.dims:
            raise PADDLE.error("norm_input_rank", ranks=" or ".join(f"{d}D" for d in self.dims),
                               got=len(input.shape))
        if self.training:  # paddle warns at every training step
            PADDLE.warn("batch_norm_training", stacklevel=3)
        training = self.training if self._use_global_stats is None else not self._use_global_stats
        return functional.batch_norm(input, self._mean, self._variance, self.weight, self.bias,
                                     training, self._momentum, self._epsilon)


class BatchNorm1D(_BatchNormBase):
    dims = (2, 3)


class BatchNorm2D(_BatchNormBase):
    dims = (4,)


class Dropout(Layer):
    """``paddle.nn.Dropout``: zero elements with probability ``p`` while training."""

    def __init__(self, p: float = 0.5, axis: Any = None, mode: str = "upscale_in_train",
                 name: Optional[str] = None) -> None:
        super().__init__()
        self.p, self.axis, self.mode = p, axis, mode

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return functional.dropout(input, self.p, self.axis, self.training, self.mode)


class _ConvNd(Layer):
    spatial = 0

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, dilation: Any = 1, groups: int = 1, padding_mode: str = "zeros",
                 weight_attr: Any = None, bias_attr: Any = None, data_format: str = "NCHW") -> None:
        super().__init__()
        if padding_mode != "zeros" or not isinstance(padding, (int, list, tuple)):
            raise not_supported("convolution padding other than zeros given as numbers", "paddle")
        n = self.spatial
        self._stride, self._padding = layers.as_tuple(stride, n), layers.as_tuple(padding, n)
        self._dilation, self._groups = layers.as_tuple(dilation, n), groups
        shape = (out_channels, in_channels // groups, *layers.as_tuple(kernel_size, n))
        std = math.sqrt(2.0 / math.prod(shape[1:]))
        self.weight = _parameter(rng.generator().normal(0.0, std, shape), "conv.w_0")
        self.bias = None if bias_attr is False else _parameter(np.zeros(out_channels), "conv.b_0")

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        conv = functional.conv1d if self.spatial == 1 else functional.conv2d
        return conv(input, self.weight, self.bias, self._stride, self._padding, self._dilation,
                    self._groups)


class Conv1D(_ConvNd):
    spatial = 1


class Conv2D(_ConvNd):
    spatial = 2


class Embedding(Layer):
    """``paddle.nn.Embedding``: rows of ``weight`` by index; no gradient reaches the
    ``padding_idx`` row."""

    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx: Optional[int] = None,
                 sparse: bool = False, weight_attr: Any = None, name: Optional[str] = None) -> None:
        super().__init__()
        self._padding_idx = padding_idx
        bound = math.sqrt(6.0 / (num_embeddings + embedding_dim))
        values = rng.generator().uniform(-bound, bound, (num_embeddings, embedding_dim))
        self.weight = _parameter(values, "embedding_0.w_0")

    def forward(self, x: Tensor) -> Tensor:
        return functional.embedding(x, self.weight, self._padding_idx)
