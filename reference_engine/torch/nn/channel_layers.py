"""``torch.nn``'s per-channel layers (``PReLU``, ``Dropout2d``, ``InstanceNorm1d`` and
``InstanceNorm2d``) and ``Upsample``, over the functionals of ``reference_engine.torch.nn``.
Their parameters, buffers, checks and printouts are torch 2.13.0's."""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from reference_engine import ops as F
from reference_engine.dialects.torch_policy import TORCH
from reference_engine.torch._core import Tensor, get_default_dtype, no_grad, tensor
from reference_engine.torch.nn import functional
from reference_engine.torch.nn.layers import Dropout
from reference_engine.torch.nn.modules import Module, initialised
from reference_engine.torch.nn.parameter import Parameter

__all__ = ["ConstantPad1d", "ConstantPad2d", "Dropout1d", "Dropout2d", "Dropout3d", "GroupNorm",
           "InstanceNorm1d", "InstanceNorm2d", "PReLU", "PixelShuffle", "PixelUnshuffle",
           "ReflectionPad1d", "ReflectionPad2d", "ReplicationPad1d", "ReplicationPad2d", "Softmax2d",
           "Upsample", "UpsamplingBilinear2d", "UpsamplingNearest2d", "ZeroPad2d"]


def _parameter(values: np.ndarray) -> Parameter:
    with no_grad():
        return initialised(Parameter(tensor(values.astype(get_default_dtype().numpy))))


class PReLU(Module):
    """``x`` where positive, else a learnt slope times ``x``: one slope, or one per channel,
    starting at ``init``."""

    def __init__(self, num_parameters: int = 1, init: float = 0.25) -> None:
        super().__init__()
        self.num_parameters, self.init = num_parameters, init
        self.weight = _parameter(np.full(num_parameters, init))

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return functional.prelu(input, self.weight)

    def extra_repr(self) -> str:
        return f"num_parameters={self.num_parameters}"


class Dropout1d(Dropout):
    """Zero whole channels of an (N, C, L) or (C, L) input while training."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return functional.dropout1d(input, self.p, self.training, self.inplace)


class Dropout2d(Dropout):
    """Zero whole channels of an (N, C, H, W) input while training."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return functional.dropout2d(input, self.p, self.training, self.inplace)


class Dropout3d(Dropout):
    """Zero whole channels of an (N, C, D, H, W) or (C, D, H, W) input while training."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return functional.dropout3d(input, self.p, self.training, self.inplace)


class _InstanceNorm(Module):
    """Per-sample, per-channel normalisation; with ``affine`` a weight and bias per channel,
    with ``track_running_stats`` running statistics used out of training."""

    dims: tuple[int, ...] = ()

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: Optional[float] = 0.1,
                 affine: bool = False, track_running_stats: bool = False) -> None:
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
        feature_dim = input.dim() - self.dims[0]
        if self.affine and input.shape[feature_dim] != self.num_features:
            raise TORCH.error("instance_norm_features", dim=feature_dim, features=self.num_features,
                              got=input.shape[feature_dim])
        unbatched = input.dim() == self.dims[0]
        x = F.unsqueeze(input, 0) if unbatched else input
        out = functional.instance_norm(x, self.running_mean, self.running_var, self.weight, self.bias,
                                       self.training or not self.track_running_stats,
                                       0.0 if self.momentum is None else self.momentum, self.eps)
        return F.squeeze(out, 0) if unbatched else out

    def extra_repr(self) -> str:
        return (f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, affine={self.affine}, "
                f"bias={self.bias is not None}, track_running_stats={self.track_running_stats}")


class InstanceNorm1d(_InstanceNorm):
    dims = (2, 3)


class InstanceNorm2d(_InstanceNorm):
    dims = (3, 4)


class Upsample(Module):
    """``interpolate`` with the size or scale factor and mode it was made with."""

    def __init__(self, size: Any = None, scale_factor: Any = None, mode: str = "nearest",
                 align_corners: Optional[bool] = None, recompute_scale_factor: Optional[bool] = None) -> None:
        super().__init__()
        self.size, self.mode, self.align_corners = size, mode, align_corners
        self.scale_factor = (tuple(float(s) for s in scale_factor) if isinstance(scale_factor, (list, tuple))
                             else None if scale_factor is None else float(scale_factor))
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return functional.interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                                      self.recompute_scale_factor)

    def extra_repr(self) -> str:
        shown = (f"scale_factor={self.scale_factor!r}" if self.scale_factor is not None
                 else f"size={self.size!r}")
        return f"{shown}, mode={self.mode!r}"


class GroupNorm(Module):
    """``num_channels`` channels in ``num_groups`` groups, each normalised per sample, then a
    per-channel weight (ones) and bias (zeros) with ``affine`` (NativeGroupNormBackward0)."""

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-5, affine: bool = True,
                 bias: bool = True) -> None:
        super().__init__()
        self.num_groups, self.num_channels, self.eps, self.affine = num_groups, num_channels, eps, affine
        self.weight = _parameter(np.ones(num_channels)) if affine else None
        self.bias = _parameter(np.zeros(num_channels)) if affine and bias else None

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return functional.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, "
                f"bias={self.bias is not None}")


class _ConstantPadNd(Module):
    """``pad`` with a constant (or, ``mode``, the input's own elements): each side of the last
    ``spatial`` dimensions."""

    spatial = 1
    shown_value = True
    mode = "constant"

    def __init__(self, padding: Any, value: float = 0.0) -> None:
        super().__init__()
        sides = 2 * self.spatial
        self.padding = tuple(padding) if isinstance(padding, (tuple, list)) else (padding,) * sides
        self.value = value

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        if self.mode != "constant":
            return functional.pad(input, self.padding, mode=self.mode)
        return functional.pad(input, self.padding, value=self.value)

    def extra_repr(self) -> str:
        return f"padding={self.padding}, value={self.value}" if self.shown_value else f"{self.padding}"


class _MappedPadNd(_ConstantPadNd):
    shown_value = False

    def __init__(self, padding: Any) -> None:
        super().__init__(padding)


class ReflectionPad1d(_MappedPadNd):
    spatial, mode = 1, "reflect"


class ReflectionPad2d(_MappedPadNd):
    spatial, mode = 2, "reflect"


class ReplicationPad1d(_MappedPadNd):
    spatial, mode = 1, "replicate"


class ReplicationPad2d(_MappedPadNd):
    spatial, mode = 2, "replicate"


class ConstantPad1d(_ConstantPadNd):
    spatial = 1


class ConstantPad2d(_ConstantPadNd):
    spatial = 2


class ZeroPad2d(_ConstantPadNd):
    spatial = 2
    shown_value = False

    def __init__(self, padding: Any) -> None:
        super().__init__(padding, 0.0)


class UpsamplingNearest2d(Upsample):
    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__(size, scale_factor, "nearest")


class UpsamplingBilinear2d(Upsample):
    """Bilinear with the corners aligned."""

    def __init__(self, size: Any = None, scale_factor: Any = None) -> None:
        super().__init__(size, scale_factor, "bilinear", align_corners=True)


class PixelShuffle(Module):
    def __init__(self, upscale_factor: int) -> None:
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return functional.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self) -> str:
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    def __init__(self, downscale_factor: int) -> None:
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return functional.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self) -> str:
        return f"downscale_factor={self.downscale_factor}"


class Softmax2d(Module):
    """``softmax`` over the channels (the third dimension from the end)."""

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return functional.softmax(input, -3)
