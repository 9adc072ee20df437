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
from reference_engine import modules as shared
from reference_engine.dialects.paddle_policy import PADDLE
from reference_engine.messages import not_supported
from reference_engine.paddle import param_attr
from reference_engine.paddle._core import Tensor, get_default_dtype
from reference_engine.paddle.nn import functional
from reference_engine.paddle.nn.initializer import XavierUniform
from reference_engine.paddle.nn.layers import Layer, Parameter

__all__ = ["BatchNorm", "GroupNorm", "Upsample", "AdaptiveAvgPool1D", "AdaptiveAvgPool2D",
           "AdaptiveAvgPool3D", "AdaptiveMaxPool2D", "AdaptiveMaxPool3D", "AvgPool1D", "AvgPool2D",
           "AvgPool3D", "MaxPool1D", "MaxPool2D", "MaxPool3D", "BatchNorm1D", "BatchNorm2D", "BatchNorm3D",
           "Conv1D", "Conv2D", "Conv3D", "Conv1DTranspose", "Conv2DTranspose", "Conv3DTranspose", "Dropout",
           "Embedding",
           "LayerNorm"]


def _normal_draws(std: float, shape: tuple[int, ...]) -> np.ndarray:
    """The Normal(0, std) initializer's draws, by paddle's generator."""
    return rng.generator("paddle").normal(0.0, std, shape, np.dtype(get_default_dtype()))


def _parameter(values: np.ndarray, name: str) -> Parameter:
    return Parameter.of(values.astype(get_default_dtype()), name)


def _made(attr: Any, shape: tuple[int, ...], default: Any, name: str) -> Parameter:
    """A parameter of ``shape`` as ``attr`` asks, ``default()`` giving its values unless the
    attribute's initializer does."""
    values = param_attr.initial_values(attr, shape, get_default_dtype(), default)
    return param_attr.applied(_parameter(values, name), attr)


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

    def extra_repr(self) -> str:
        return f"normalized_shape={list(self._normalized_shape)}, epsilon={self._epsilon}"


class _BatchNormBase(Layer):
    """``paddle.nn.BatchNorm*D``: per-channel statistics; the running ones (``_mean``,
    ``_variance``, parameters that are not trainable) keep ``momentum`` of their old value at
    each training step."""

    dims: tuple[int, ...] = ()
    warns_in_training = True

    def __init__(self, num_features: int, momentum: float = 0.9, epsilon: float = 1e-05,
                 weight_attr: Any = None, bias_attr: Any = None, data_format: str = "NCHW",
                 use_global_stats: Optional[bool] = None, name: Optional[str] = None) -> None:
        super().__init__()
        self._momentum, self._epsilon, self._use_global_stats = momentum, epsilon, use_global_stats
        self.weight = None if weight_attr is False else _parameter(np.ones(num_features), "batch_norm.w_0")
        self.bias = None if bias_attr is False else _parameter(np.zeros(num_features), "batch_norm.b_0")
        # the running statistics are parameters in paddle too, which no optimizer updates
        self._mean = _parameter(np.zeros(num_features), "batch_norm.w_1")
        self._variance = _parameter(np.ones(num_features), "batch_norm.w_2")
        self._mean.trainable = self._variance.trainable = False

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        if len(input.shape) not in self.dims:
            raise PADDLE.error("norm_input_rank", ranks=" or ".join(f"{d}D" for d in self.dims),
                               got=len(input.shape))
        if self.training and self.warns_in_training:  # paddle warns at every training step
            PADDLE.warn("batch_norm_training", stacklevel=3)
        training = self.training if self._use_global_stats is None else not self._use_global_stats
        return functional.batch_norm(input, self._mean, self._variance, self.weight, self.bias,
                                     training, self._momentum, self._epsilon)


def _batch_norm_repr(self: _BatchNormBase) -> str:
    text = f"num_features={self.weight.shape[0]}, momentum={self._momentum}, epsilon={self._epsilon}"
    return text + {"BatchNorm1D": ", data_format=NCL", "BatchNorm3D": ", data_format=NCDHW"}.get(
        type(self).__name__, "")


_BatchNormBase.extra_repr = _batch_norm_repr  # type: ignore[method-assign]


class BatchNorm1D(_BatchNormBase):
    dims = (2, 3)


class BatchNorm2D(_BatchNormBase):
    dims = (4,)


class BatchNorm3D(_BatchNormBase):
    dims = (5,)


class Dropout(Layer):
    """``paddle.nn.Dropout``: zero elements with probability ``p`` while training."""

    def __init__(self, p: float = 0.5, axis: Any = None, mode: str = "upscale_in_train",
                 name: Optional[str] = None) -> None:
        super().__init__()
        self.p, self.axis, self.mode = p, axis, mode

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return functional.dropout(input, self.p, self.axis, self.training, self.mode)

    def extra_repr(self) -> str:
        return f"p={self.p}, axis={self.axis}, mode={self.mode}, inplace=False"


class _ConvNd(Layer):
    spatial = 0

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, dilation: Any = 1, groups: int = 1, padding_mode: str = "zeros",
                 weight_attr: Any = None, bias_attr: Any = None, data_format: Optional[str] = None) -> None:
        super().__init__()
        data_format = data_format or ("NCHW", "NCHW", "NCDHW")[self.spatial - 1]
        if padding_mode != "zeros":
            raise not_supported("convolution padding other than zeros", "paddle")
        n = self.spatial
        self._stride = layers.as_tuple(stride, n)
        self._padding = padding if isinstance(padding, str) else layers.as_tuple(padding, n)
        self._dilation, self._groups = layers.as_tuple(dilation, n), groups
        self._shown = (in_channels, out_channels, list(layers.as_tuple(kernel_size, n)), padding, data_format)
        shape = (out_channels, in_channels // groups, *layers.as_tuple(kernel_size, n))
        std = math.sqrt(2.0 / (in_channels * math.prod(shape[2:])))  # paddle counts every input channel
        self.weight = _made(weight_attr, shape, lambda: _normal_draws(std, shape), "conv.w_0")
        self.bias = None if bias_attr is False else _made(bias_attr, (out_channels,),
                                                          lambda: np.zeros(out_channels), "conv.b_0")

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        conv = (functional.conv1d, functional.conv2d, functional.conv3d)[self.spatial - 1]
        return conv(input, self.weight, self.bias, self._stride, self._padding, self._dilation,
                    self._groups)


def _convolution_repr(self: _ConvNd) -> str:
    in_channels, out_channels, kernel, padding, data_format = self._shown
    text = f"{in_channels}, {out_channels}, kernel_size={kernel}"
    if any(s != 1 for s in self._stride):
        text += f", stride={list(self._stride)}"
    if padding != 0:
        text += f", padding={padding}"
    if any(d != 1 for d in self._dilation):
        text += f", dilation={list(self._dilation)}"
    if self._groups != 1:
        text += f", groups={self._groups}"
    layout = "NCL" if self.spatial == 1 and data_format == "NCHW" else data_format
    return f"{text}, data_format={layout}"


_ConvNd.extra_repr = _convolution_repr  # type: ignore[method-assign]


class _ConvTransposeNd(Layer):
    """A transposed convolution: weight (in_channels, out_channels / groups, *kernel) drawn by
    paddle's default for a weight (``XavierUniform`` over that shape), bias zeros."""

    spatial = 0

    def __init__(self, in_channels: int, out_channels: int, kernel_size: Any, stride: Any = 1,
                 padding: Any = 0, output_padding: Any = 0, dilation: Any = 1, groups: int = 1,
                 weight_attr: Any = None, bias_attr: Any = None, data_format: Optional[str] = None) -> None:
        super().__init__()
        kernel = layers.as_tuple(kernel_size, self.spatial)
        self._settings = dict(stride=stride, padding=padding, output_padding=output_padding,
                              dilation=dilation, groups=groups,
                              data_format=data_format or ("NCL", "NCHW", "NCDHW")[self.spatial - 1])
        self._shown = (in_channels, out_channels, list(kernel))
        shape = (in_channels, out_channels // groups, *kernel)
        name = f"conv{self.spatial}d_transpose"
        self.weight = _made(weight_attr, shape,
                            lambda: XavierUniform().values(list(shape), get_default_dtype()), f"{name}.w_0")
        self.bias = None if bias_attr is False else _made(
            bias_attr, (out_channels,), lambda: np.zeros(out_channels), f"{name}.b_0")

    def forward(self, x: Tensor) -> Tensor:
        function = (functional.conv1d_transpose, functional.conv2d_transpose,
                    functional.conv3d_transpose)[self.spatial - 1]
        return function(x, self.weight, self.bias, **self._settings)

    def extra_repr(self) -> str:
        in_channels, out_channels, kernel = self._shown
        settings, ones = self._settings, [1] * self.spatial
        text = f"{in_channels}, {out_channels}, kernel_size={kernel}"
        stride = list(layers.as_tuple(settings["stride"], self.spatial))
        if stride != ones:
            text += f", stride={stride}"
        for name in ("padding", "output_padding"):
            if settings[name] != 0:
                text += f", {name}={settings[name]}"
        dilation = list(layers.as_tuple(settings["dilation"], self.spatial))
        if dilation != ones:
            text += f", dilation={dilation}"
        if settings["groups"] != 1:
            text += f", groups={settings['groups']}"
        return f"{text}, data_format={settings['data_format']}"


class Conv1DTranspose(_ConvTransposeNd):
    spatial = 1


class Conv2DTranspose(_ConvTransposeNd):
    spatial = 2


class Conv3DTranspose(_ConvTransposeNd):
    spatial = 3


class Conv1D(_ConvNd):
    spatial = 1


class Conv2D(_ConvNd):
    spatial = 2


class Conv3D(_ConvNd):
    spatial = 3


class Embedding(Layer):
    """``paddle.nn.Embedding``: rows of ``weight`` by index; no gradient reaches the
    ``padding_idx`` row."""

    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx: Optional[int] = None,
                 sparse: bool = False, weight_attr: Any = None, name: Optional[str] = None) -> None:
        super().__init__()
        self._padding_idx = padding_idx
        bound = math.sqrt(6.0 / (num_embeddings + embedding_dim))
        shape = (num_embeddings, embedding_dim)
        self.weight = _made(weight_attr, shape, lambda: rng.generator("paddle").uniform(
            -bound, bound, shape, np.dtype(get_default_dtype())), "embedding_0.w_0")
        if padding_idx is not None:  # paddle zeroes the padding row once made (measured)
            self.weight._data[padding_idx % num_embeddings] = 0

    def forward(self, x: Tensor) -> Tensor:
        return functional.embedding(x, self.weight, self._padding_idx)

    def extra_repr(self) -> str:
        rows, columns = self.weight.shape
        given = "" if self._padding_idx is None else f", padding_idx={self._padding_idx}"
        return f"{rows}, {columns}{given}, sparse=False, scale_grad_by_freq=False"


(MaxPool1D, MaxPool2D, MaxPool3D, AvgPool1D, AvgPool2D, AvgPool3D, AdaptiveAvgPool1D, AdaptiveAvgPool2D,
 AdaptiveAvgPool3D, AdaptiveMaxPool2D, AdaptiveMaxPool3D) = shared.function_modules(
    Layer, shared.ActivationBase, MaxPool1D=functional.max_pool1d, MaxPool2D=functional.max_pool2d,
    MaxPool3D=functional.max_pool3d, AvgPool1D=functional.avg_pool1d, AvgPool2D=functional.avg_pool2d,
    AvgPool3D=functional.avg_pool3d, AdaptiveAvgPool1D=functional.adaptive_avg_pool1d,
    AdaptiveAvgPool2D=functional.adaptive_avg_pool2d, AdaptiveAvgPool3D=functional.adaptive_avg_pool3d,
    AdaptiveMaxPool2D=functional.adaptive_max_pool2d, AdaptiveMaxPool3D=functional.adaptive_max_pool3d)
# what each pool's printout shows (measured on paddle 3.3.1)
for _pool in (MaxPool1D, MaxPool2D, MaxPool3D, AvgPool1D, AvgPool2D, AvgPool3D):
    _pool.shown = (("kernel_size", False), ("stride", False), ("padding", False))
AdaptiveAvgPool1D.shown = AdaptiveAvgPool2D.shown = AdaptiveAvgPool3D.shown = (("output_size", False),)
AdaptiveMaxPool2D.shown = AdaptiveMaxPool3D.shown = (("output_size", False), ("return_mask", False))


class GroupNorm(Layer):
    """``paddle.nn.GroupNorm``: ``num_groups`` groups of channels normalised, then a
    per-channel weight (ones) and bias (zeros)."""

    def __init__(self, num_groups: int, num_channels: int, epsilon: float = 1e-05, *, affine: bool = True,
                 device: Any = None, dtype: Any = None, weight_attr: Any = None, bias_attr: Any = None,
                 data_format: str = "NCHW", name: Optional[str] = None) -> None:
        super().__init__()
        self._num_groups, self._epsilon, self._data_format = num_groups, epsilon, data_format
        keep = affine and weight_attr is not False
        self.weight = _made(weight_attr, (num_channels,), lambda: np.ones(num_channels),
                            "group_norm.w_0") if keep else None
        self.bias = _made(bias_attr, (num_channels,), lambda: np.zeros(num_channels),
                          "group_norm.b_0") if affine and bias_attr is not False else None

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return functional.group_norm(input, self._num_groups, self._epsilon, self.weight, self.bias,
                                     self._data_format)

    def extra_repr(self) -> str:
        channels = "" if self.weight is None else f", num_channels={self.weight.shape[0]}"
        return f"num_groups={self._num_groups}{channels}, epsilon={self._epsilon}"


class Upsample(Layer):
    """``paddle.nn.Upsample``: ``functional.interpolate`` with the arguments it was made with."""

    def __init__(self, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
                 align_corners: bool = False, align_mode: int = 0, data_format: Any = None,
                 recompute_scale_factor: Any = None, name: Optional[str] = None) -> None:
        super().__init__()
        self._arguments = dict(size=size, scale_factor=scale_factor, mode=mode, align_corners=align_corners,
                               align_mode=align_mode, data_format=data_format)

    def forward(self, x: Tensor) -> Tensor:
        return functional.interpolate(x, **self._arguments)

    def extra_repr(self) -> str:
        given = self._arguments
        size = f"size={given['size']}" if given["size"] is not None else \
            f"scale_factor={given['scale_factor']}"
        return (f"{size}, mode={given['mode']}, align_corners={given['align_corners']}, "
                f"align_mode={given['align_mode']}, data_format={given['data_format']}")


class BatchNorm(_BatchNormBase):
    """The legacy ``paddle.nn.BatchNorm(num_channels, act=...)``: any rank from 2 on, then the
    activation ``act`` names."""

    dims = (2, 3, 4, 5)
    warns_in_training = False  # (measured: the legacy layer does not)

    def __init__(self, num_channels: int, act: Optional[str] = None, is_test: bool = False,
                 momentum: float = 0.9, epsilon: float = 1e-05, param_attr: Any = None, bias_attr: Any = None,
                 dtype: Any = "float32", data_layout: str = "NCHW", in_place: bool = False,
                 moving_mean_name: Any = None, moving_variance_name: Any = None,
                 do_model_average_for_mean_and_var: bool = True, use_global_stats: bool = False,
                 trainable_statistics: bool = False) -> None:
        if is_test or trainable_statistics or data_layout != "NCHW":
            raise not_supported("BatchNorm with is_test, trainable_statistics or channels last", "paddle")
        super().__init__(num_channels, momentum, epsilon, param_attr, bias_attr,
                         use_global_stats=use_global_stats or None)
        self._act = None if act is None else getattr(functional, act)

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        out = super().forward(input)
        return out if self._act is None else self._act(out)
