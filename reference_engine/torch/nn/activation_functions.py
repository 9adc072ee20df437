"""``torch.nn.functional``'s clipping, gating and self-normalising activations. The clipping
ones (hardtanh, relu6, hardswish, hardsigmoid) are rules of the derivative table, whose second
derivatives are torch's own; the others are composed by ``reference_engine.activations`` and
shown under torch's node for each kernel (measured on torch 2.13.0: relu6 is hardtanh's
kernel, selu elu's, softsign a composition of its own)."""

from __future__ import annotations

from reference_engine import activations as A
from reference_engine import composed as C
from reference_engine import ops as F
from reference_engine.dialects.torch_policy import TORCH
from reference_engine.messages import not_supported
from reference_engine.tensor import Tensor

__all__ = ["glu", "hardshrink", "hardsigmoid", "hardswish", "hardtanh", "logsigmoid", "mish", "prelu",
           "relu6", "selu", "softshrink", "softsign", "tanhshrink", "threshold", "hardtanh_", "threshold_"]


def _not_in_place(name: str, inplace: bool) -> None:
    if inplace:
        raise not_supported(f"{name}(inplace=True)", "torch")


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0,  # noqa: A002
             inplace: bool = False) -> Tensor:
    """``inplace``: the input written (``hardtanh_``, HardtanhBackward0 as out of place)."""
    if inplace:
        return input._in_place("hardtanh", low=min_val, high=max_val)
    return F.activation("hardtanh", input, low=min_val, high=max_val)


def hardtanh_(input: Tensor, min_val: float = -1.0, max_val: float = 1.0) -> Tensor:  # noqa: A002
    return hardtanh(input, min_val, max_val, inplace=True)


def relu6(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    return hardtanh(input, 0.0, 6.0, inplace)


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    """``inplace``: the input written (HardswishBackward0 as out of place)."""
    return input._in_place("hardswish") if inplace else F.activation("hardswish", input)


def softshrink(input: Tensor, lambd: float = 0.5) -> Tensor:  # noqa: A002
    """``x ∓ λ`` outside [-λ, λ], 0 inside (SoftshrinkBackward0)."""
    return F.activation("softshrink", input, lambd=float(lambd))


def hardshrink(input: Tensor, lambd: float = 0.5) -> Tensor:  # noqa: A002
    """``x`` outside [-λ, λ], 0 inside (HardshrinkBackward0)."""
    return F.activation("hardshrink", input, lambd=float(lambd))


def tanhshrink(input: Tensor) -> Tensor:  # noqa: A002
    """``x - tanh(x)`` (SubBackward0)."""
    return F.sub(input, F.tanh(input))


def _threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:  # noqa: A002
    """``value`` where ``x ≤ threshold``, ``x`` elsewhere (ThresholdBackward0; in place,
    ThresholdBackward1). torch's function is named ``_threshold`` (its argument errors say so)."""
    attrs = {"threshold": float(threshold), "value": float(value)}
    if inplace:
        return input._in_place("threshold", api="in_place", **attrs)
    return F.activation("threshold", input, **attrs)


threshold = _threshold


def threshold_(input: Tensor, threshold: float, value: float) -> Tensor:  # noqa: A002
    return _threshold(input, threshold, value, inplace=True)


def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    _not_in_place("hardsigmoid", inplace)
    return F.activation("hardsigmoid", input)


def mish(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    _not_in_place("mish", inplace)
    return C.named(A.mish(input), "MishBackward0", input)


def logsigmoid(input: Tensor) -> Tensor:  # noqa: A002
    return C.named(A.log_sigmoid(input), "LogSigmoidBackward0", input)


def softsign(input: Tensor) -> Tensor:  # noqa: A002
    return A.softsign(input)


def selu(input: Tensor, inplace: bool = False) -> Tensor:  # noqa: A002
    _not_in_place("selu", inplace)
    return C.named(A.selu(input), "EluBackward0", input)


def glu(input: Tensor, dim: int = -1) -> Tensor:  # noqa: A002
    d = F.normalize_dim(type(input), dim, input.dim())
    if input.shape[d] % 2:
        raise TORCH.error("glu_halving", dim=d, size=input.shape[d])
    return C.named(A.glu(input, dim), "GluBackward0", input)


def prelu(input: Tensor, weight: Tensor) -> Tensor:  # noqa: A002
    """One kernel (PreluKernelBackward0); torch views the weight as (C, 1, ...) first."""
    channels = input.shape[1] if input.dim() > 1 else 1
    if weight.numel() not in (1, channels):
        raise TORCH.error("prelu_channels", weights=weight.numel(), channels=channels)
    if input.dim() != 1:  # a 0-d input keeps its shape
        weight = F.reshape(weight, (weight.numel(),) + (1,) * (input.dim() - 2) if input.dim() else ())
    return F.prelu(input, weight)
