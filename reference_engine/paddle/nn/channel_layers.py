"""``paddle.nn``'s per-channel layers (``PReLU``, ``Dropout2D``, ``InstanceNorm1D`` and
``InstanceNorm2D``) and the clipping, gating and self-normalising activation layers, over the
functionals of ``reference_engine.paddle.nn``. Their parameters, checks and printouts are
paddle 3.3.1's."""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from reference_engine import modules as shared
from reference_engine.dialects.paddle_policy import PADDLE
from reference_engine.paddle import param_attr
from reference_engine.paddle._core import Tensor, get_default_dtype
from reference_engine.paddle.nn import functional
from reference_engine.paddle.nn.layers import Layer, Parameter

__all__ = ["GLU", "SELU", "Pad1D", "Pad2D", "PixelShuffle", "PixelUnshuffle", "ZeroPad2D", "PairwiseDistance",
           "TripletMarginLoss", "CosineEmbeddingLoss", "MarginRankingLoss", "SoftMarginLoss", "Unfold",
           "PoissonNLLLoss", "GaussianNLLLoss", "MultiLabelSoftMarginLoss",
           "HingeEmbeddingLoss",
           "BCELoss", "BCEWithLogitsLoss", "NLLLoss", "CosineSimilarity", "Dropout2D",
           "KLDivLoss", "Hardshrink", "Hardsigmoid", "Hardswish", "Hardtanh", "Softshrink", "Tanhshrink",
           "ThresholdedReLU", "InstanceNorm1D", "InstanceNorm2D",
           "LogSigmoid", "Mish", "PReLU", "ReLU6", "Softsign"]

(ReLU6, Hardtanh, Hardswish, Hardsigmoid, Mish, LogSigmoid, Softsign, SELU, GLU) = shared.function_modules(
    Layer, shared.ActivationBase, ReLU6=functional.relu6, Hardtanh=functional.hardtanh,
    Hardswish=functional.hardswish, Hardsigmoid=functional.hardsigmoid, Mish=functional.mish,
    LogSigmoid=functional.log_sigmoid, Softsign=functional.softsign, SELU=functional.selu,
    GLU=functional.glu)
(Softshrink, Hardshrink, Tanhshrink, ThresholdedReLU) = shared.function_modules(
    Layer, shared.ActivationBase, Softshrink=functional.softshrink, Hardshrink=functional.hardshrink,
    Tanhshrink=functional.tanhshrink, ThresholdedReLU=functional.thresholded_relu)
# what each printout shows (measured on paddle 3.3.1)
Hardtanh.shown = (("min", False), ("max", False))
Softshrink.shown = Hardshrink.shown = (("threshold", False),)
ThresholdedReLU.shown = (("threshold", False), ("value", False))
SELU.shown = (("scale", False), ("alpha", False))
GLU.shown = (("axis", False),)


def _parameter(values: np.ndarray, name: str, attr: Any) -> Parameter:
    values = param_attr.initial_values(attr, values.shape, get_default_dtype(), lambda: values)
    return param_attr.applied(Parameter.of(values.astype(get_default_dtype()), name), attr)


class PReLU(Layer):
    """``x`` where positive, else a learnt slope (``_weight``, starting at ``init``) times ``x``."""

    def __init__(self, num_parameters: int = 1, init: float = 0.25, weight_attr: Any = None,
                 data_format: str = "NCHW", name: Optional[str] = None) -> None:
        super().__init__()
        self._num_parameters, self._init, self._data_format = num_parameters, init, data_format
        self._weight = _parameter(np.full(num_parameters, init), "prelu.w_0", weight_attr)

    def forward(self, x: Tensor) -> Tensor:
        return functional.prelu(x, self._weight, self._data_format)

    def extra_repr(self) -> str:
        return (f"num_parameters={self._num_parameters}, data_format={self._data_format}, init={self._init}, "
                f"dtype={get_default_dtype()}")


class Dropout2D(Layer):
    """Zero whole channels of an (N, C, H, W) input while training."""

    def __init__(self, p: float = 0.5, data_format: str = "NCHW", name: Optional[str] = None) -> None:
        super().__init__()
        self.p, self.data_format = p, data_format

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return functional.dropout2d(input, self.p, self.training, self.data_format)

    def extra_repr(self) -> str:
        return f"p={self.p}, data_format={self.data_format}"


class _InstanceNormBase(Layer):
    """Per-sample, per-channel normalisation with a ``scale`` (ones) and ``bias`` (zeros) per
    channel, unless their attributes are False."""

    dims: tuple[int, ...] = ()

    def __init__(self, num_features: int, epsilon: float = 1e-05, momentum: float = 0.9,
                 weight_attr: Any = None, bias_attr: Any = None, data_format: str = "NCHW",
                 name: Optional[str] = None) -> None:
        super().__init__()
        self._num_features, self._epsilon, self._data_format = num_features, epsilon, data_format
        affine = weight_attr is not False and bias_attr is not False
        self.scale = _parameter(np.ones(num_features), "instance_norm.w_0", weight_attr) if affine else None
        self.bias = _parameter(np.zeros(num_features), "instance_norm.b_0", bias_attr) if affine else None

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        if input.ndim not in self.dims:
            raise PADDLE.error("norm_input_rank", ranks=" or ".join(f"{d}D" for d in self.dims),
                               got=input.ndim)
        return functional.instance_norm(input, weight=self.scale, bias=self.bias, eps=self._epsilon,
                                        data_format=self._data_format)

    def extra_repr(self) -> str:
        return f"num_features={self._num_features}, epsilon={self._epsilon}"


class InstanceNorm1D(_InstanceNormBase):
    dims = (2, 3)


class InstanceNorm2D(_InstanceNormBase):
    dims = (4,)


class BCELoss(Layer):
    """``binary_cross_entropy`` with the weight and reduction it was made with."""

    def __init__(self, weight: Optional[Tensor] = None, reduction: str = "mean",
                 name: Optional[str] = None) -> None:
        super().__init__()
        self.weight, self.reduction = weight, reduction

    def forward(self, input: Tensor, label: Tensor) -> Tensor:  # noqa: A002
        return functional.binary_cross_entropy(input, label, self.weight, self.reduction)


class BCEWithLogitsLoss(Layer):
    """``binary_cross_entropy_with_logits`` with the weight, reduction and ``pos_weight`` it
    was made with."""

    def __init__(self, weight: Optional[Tensor] = None, reduction: str = "mean",
                 pos_weight: Optional[Tensor] = None, name: Optional[str] = None) -> None:
        super().__init__()
        self.weight, self.reduction, self.pos_weight = weight, reduction, pos_weight

    def forward(self, logit: Tensor, label: Tensor) -> Tensor:
        return functional.binary_cross_entropy_with_logits(logit, label, self.weight, self.reduction,
                                                           self.pos_weight)


class NLLLoss(Layer):
    """``nll_loss`` with the weight, ``ignore_index`` and reduction it was made with."""

    def __init__(self, weight: Optional[Tensor] = None, ignore_index: int = -100, reduction: str = "mean",
                 name: Optional[str] = None) -> None:
        super().__init__()
        self._weight, self._ignore_index, self._reduction = weight, ignore_index, reduction

    def forward(self, input: Tensor, label: Tensor) -> Tensor:  # noqa: A002
        return functional.nll_loss(input, label, self._weight, self._ignore_index, self._reduction)


class KLDivLoss(Layer):
    """``kl_div`` with the reduction and target form it was made with."""

    def __init__(self, reduction: str = "mean", log_target: bool = False) -> None:
        super().__init__()
        self.reduction, self.log_target = reduction, log_target

    def forward(self, input: Tensor, label: Tensor) -> Tensor:  # noqa: A002
        return functional.kl_div(input, label, self.reduction, self.log_target)


class CosineSimilarity(Layer):
    """``cosine_similarity`` along ``axis``."""

    def __init__(self, axis: int = 1, eps: float = 1e-8) -> None:
        super().__init__()
        self._axis, self._eps = axis, eps

    def forward(self, x1: Tensor, x2: Tensor) -> Tensor:
        return functional.cosine_similarity(x1, x2, self._axis, self._eps)

    def extra_repr(self) -> str:
        return f"axis={self._axis}, eps={self._eps}"


class TripletMarginLoss(Layer):
    """``triplet_margin_loss`` with the settings it was made with."""

    def __init__(self, margin: float = 1.0, p: float = 2.0, epsilon: float = 1e-6, swap: bool = False,
                 reduction: str = "mean", name: Optional[str] = None) -> None:
        super().__init__()
        self.margin, self.p, self.epsilon, self.swap, self.reduction = margin, p, epsilon, swap, reduction

    def forward(self, input: Tensor, positive: Tensor, negative: Tensor) -> Tensor:  # noqa: A002
        return functional.triplet_margin_loss(input, positive, negative, self.margin, self.p, self.epsilon,
                                              self.swap, self.reduction)


class CosineEmbeddingLoss(Layer):
    """``cosine_embedding_loss`` with the settings it was made with."""

    def __init__(self, margin: float = 0, reduction: str = "mean", name: Optional[str] = None) -> None:
        super().__init__()
        self.margin, self.reduction = margin, reduction

    def forward(self, input1: Tensor, input2: Tensor, label: Tensor) -> Tensor:
        return functional.cosine_embedding_loss(input1, input2, label, self.margin, self.reduction)


class MarginRankingLoss(Layer):
    """``margin_ranking_loss`` with the settings it was made with."""

    def __init__(self, margin: float = 0.0, reduction: str = "mean", name: Optional[str] = None) -> None:
        super().__init__()
        self.margin, self.reduction = margin, reduction

    def forward(self, input: Tensor, other: Tensor, label: Tensor) -> Tensor:  # noqa: A002
        return functional.margin_ranking_loss(input, other, label, self.margin, self.reduction)


class SoftMarginLoss(Layer):
    """``soft_margin_loss`` with the reduction it was made with."""

    def __init__(self, reduction: str = "mean", name: Optional[str] = None) -> None:
        super().__init__()
        self.reduction = reduction

    def forward(self, input: Tensor, label: Tensor) -> Tensor:  # noqa: A002
        return functional.soft_margin_loss(input, label, self.reduction)


class HingeEmbeddingLoss(Layer):
    """``hinge_embedding_loss`` with the settings it was made with."""

    def __init__(self, margin: float = 1.0, reduction: str = "mean", name: Optional[str] = None) -> None:
        super().__init__()
        self.margin, self.reduction = margin, reduction

    def forward(self, input: Tensor, label: Tensor) -> Tensor:  # noqa: A002
        return functional.hinge_embedding_loss(input, label, self.margin, self.reduction)


class PoissonNLLLoss(Layer):
    """``poisson_nll_loss`` with the settings it was made with."""

    def __init__(self, log_input: bool = True, full: bool = False, epsilon: float = 1e-8,
                 reduction: str = "mean", name: Optional[str] = None) -> None:
        super().__init__()
        self.log_input, self.full, self.epsilon, self.reduction = log_input, full, epsilon, reduction

    def forward(self, input: Tensor, label: Tensor) -> Tensor:  # noqa: A002
        return functional.poisson_nll_loss(input, label, self.log_input, self.full, self.epsilon,
                                           self.reduction)


class GaussianNLLLoss(Layer):
    """``gaussian_nll_loss`` with the settings it was made with."""

    def __init__(self, full: bool = False, epsilon: float = 1e-6, reduction: str = "mean",
                 name: Optional[str] = None) -> None:
        super().__init__()
        self.full, self.epsilon, self.reduction = full, epsilon, reduction

    def forward(self, input: Tensor, label: Tensor, variance: Tensor) -> Tensor:  # noqa: A002
        return functional.gaussian_nll_loss(input, label, variance, self.full, self.epsilon, self.reduction)


class MultiLabelSoftMarginLoss(Layer):
    """``multi_label_soft_margin_loss`` with the weight and reduction it was made with."""

    def __init__(self, weight: Optional[Tensor] = None, reduction: str = "mean",
                 name: Optional[str] = None) -> None:
        super().__init__()
        self.weight, self.reduction = weight, reduction

    def forward(self, input: Tensor, label: Tensor) -> Tensor:  # noqa: A002
        return functional.multi_label_soft_margin_loss(input, label, self.weight, self.reduction)


class PairwiseDistance(Layer):
    """``pairwise_distance`` with the settings it was made with."""

    def __init__(self, p: float = 2.0, epsilon: float = 1e-6, keepdim: bool = False,
                 name: Optional[str] = None) -> None:
        super().__init__()
        self.p, self.epsilon, self.keepdim = p, epsilon, keepdim

    def forward(self, x: Tensor, y: Tensor) -> Tensor:
        return functional.pairwise_distance(x, y, self.p, self.epsilon, self.keepdim)


class Unfold(Layer):
    """``unfold`` with the settings it was made with."""

    def __init__(self, kernel_sizes: Any, dilations: Any = 1, paddings: Any = 0, strides: Any = 1,
                 name: Optional[str] = None) -> None:
        super().__init__()
        self.kernel_sizes, self.dilations = kernel_sizes, dilations
        self.paddings, self.strides = paddings, strides

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return functional.unfold(input, self.kernel_sizes, self.strides, self.paddings, self.dilations)

    def extra_repr(self) -> str:
        return (f"kernel_size={self.kernel_sizes}, dilation={self.dilations}, padding={self.paddings}, "
                f"stride={self.strides}")


class PixelShuffle(Layer):
    def __init__(self, upscale_factor: int, data_format: str = "NCHW", name: Optional[str] = None) -> None:
        super().__init__()
        self._upscale_factor, self._data_format = upscale_factor, data_format

    def forward(self, x: Tensor) -> Tensor:
        return functional.pixel_shuffle(x, self._upscale_factor, self._data_format)

    def extra_repr(self) -> str:
        return f"upscale_factor={self._upscale_factor}"


class PixelUnshuffle(Layer):
    def __init__(self, downscale_factor: int, data_format: str = "NCHW", name: Optional[str] = None) -> None:
        super().__init__()
        self._downscale_factor, self._data_format = downscale_factor, data_format

    def forward(self, x: Tensor) -> Tensor:
        return functional.pixel_unshuffle(x, self._downscale_factor, self._data_format)

    def extra_repr(self) -> str:
        return f"downscale_factor={self._downscale_factor}"


class Pad2D(Layer):
    """``pad`` of an (N, C, H, W) input's last two axes: left, right, top, bottom."""

    sides = 4

    def __init__(self, padding: Any, mode: str = "constant", value: float = 0.0, data_format: str = "NCHW",
                 name: Optional[str] = None) -> None:
        super().__init__()
        self._pad = [padding] * self.sides if isinstance(padding, int) else list(padding)
        self._mode, self._value, self._data_format = mode, value, data_format

    def forward(self, x: Tensor) -> Tensor:
        return functional.pad(x, self._pad, self._mode, self._value, self._data_format)

    def extra_repr(self) -> str:
        return f"padding={self._pad}, mode={self._mode}, value={self._value}, data_format={self._data_format}"


class Pad1D(Pad2D):
    """``pad`` of an (N, C, L) input's last axis: left, right."""

    sides = 2

    def __init__(self, padding: Any, mode: str = "constant", value: float = 0.0, data_format: str = "NCL",
                 name: Optional[str] = None) -> None:
        super().__init__(padding, mode, value, data_format)


class ZeroPad2D(Pad2D):
    """``Pad2D`` with zeros."""

    def __init__(self, padding: Any, data_format: str = "NCHW", name: Optional[str] = None) -> None:
        super().__init__(padding, "constant", 0.0, data_format)
