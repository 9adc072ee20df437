"""``paddle.nn.functional``'s clipping, gating and self-normalising activations, composed by
``reference_engine.activations``. Each but glu is one paddle kernel without a double grad
(measured on 3.3.1: "The Op relu6_grad doesn't have any grad op"), so each is recorded inside
its kernel and shown under its node; glu is paddle's own composition (MultiplyGradNode)."""

from __future__ import annotations

from typing import Optional

import numpy as np

from reference_engine import activations as A
from reference_engine import composed as C
from reference_engine import ops as F
from reference_engine.graph import SavedTensor, as_kernel
from reference_engine.messages import not_supported
from reference_engine.tensor import Tensor

__all__ = ["glu", "hardshrink", "hardsigmoid", "hardswish", "hardtanh", "log_sigmoid", "mish", "prelu",
           "relu6", "selu", "softshrink", "softsign", "tanhshrink", "thresholded_relu"]


def _kernel(name: str, x: Tensor, compose: object) -> Tensor:
    """``compose(x)`` recorded as paddle's kernel ``name`` (``<name>_kernel``, node
    ``<Name>GradNode``)."""
    with as_kernel(f"{name}_kernel"):
        out = compose(x)  # type: ignore[operator]
    named = C.named(out, KERNEL_NODES[name], x)
    if name in KERNELS_SAVING_THEIR_OUTPUT and named._grad_fn is not None and \
            named._grad_fn is not x._grad_fn:
        named._grad_fn.saved["out"] = SavedTensor(named)  # version-checked as the kernel's
    return named


KERNEL_NODES = {"relu6": "Relu6GradNode", "hardtanh": "HardtanhGradNode", "hardswish": "HardswishGradNode",
                "hardsigmoid": "HardsigmoidGradNode", "mish": "MishGradNode",
                "logsigmoid": "LogsigmoidGradNode", "softsign": "SoftsignGradNode", "selu": "SeluGradNode",
                "prelu": "PreluGradNode", "softshrink": "SoftshrinkGradNode",
                "hardshrink": "HardshrinkGradNode", "tanhshrink": "TanhShrinkGradNode",
                "thresholded_relu": "ThresholdedReluGradNode"}

# kernels whose gradient reads their output: a write into it since is refused (measured on 3.3.1)
KERNELS_SAVING_THEIR_OUTPUT = frozenset({"relu6", "hardsigmoid"})


def float_attribute(value: float) -> float:
    """A kernel attribute paddle declares as ``float``: the number rounded to float32, also for
    a float64 input (measured: elu's alpha, hardtanh's bounds, hardsigmoid's slope and offset,
    selu's scale and alpha; softplus and leaky_relu take doubles)."""
    return float(np.float32(value))


def relu6(x: Tensor, name: Optional[str] = None) -> Tensor:
    return _kernel("relu6", x, lambda t: A.hardtanh(t, 0.0, 6.0))


def hardtanh(x: Tensor, min: float = -1.0, max: float = 1.0, name: Optional[str] = None) -> Tensor:  # noqa: A002
    return _kernel("hardtanh", x, lambda t: A.hardtanh(t, float_attribute(min), float_attribute(max)))


def hardswish(x: Tensor, name: Optional[str] = None) -> Tensor:
    return _kernel("hardswish", x, A.hardswish)


def hardsigmoid(x: Tensor, slope: float = 0.1666667, offset: float = 0.5,
                name: Optional[str] = None) -> Tensor:
    """``clip(x * slope + offset, 0, 1)``: paddle's slope is 0.1666667, not 1/6."""
    slope, offset = float_attribute(slope), float_attribute(offset)
    return _kernel("hardsigmoid", x, lambda t: A.hardtanh(F.add(F.mul(t, slope), offset), 0.0, 1.0))


def mish(x: Tensor, name: Optional[str] = None) -> Tensor:
    return _kernel("mish", x, A.mish)


def log_sigmoid(x: Tensor, name: Optional[str] = None) -> Tensor:
    return _kernel("logsigmoid", x, lambda t: A.log_sigmoid(t, by_log_sum_exp=True))


def softsign(x: Tensor, name: Optional[str] = None) -> Tensor:
    return _kernel("softsign", x, A.softsign)


def selu(x: Tensor, scale: float = A.SELU_SCALE, alpha: float = A.SELU_ALPHA,
         name: Optional[str] = None) -> Tensor:
    """One kernel, whose gradient reads its output (a rule of the table: see ``selu``)."""
    alpha, scale = float_attribute(alpha), float_attribute(scale)
    return _kernel("selu", x, lambda t: F.activation("selu", t, scale=scale, alpha=alpha))


def glu(x: Tensor, axis: int = -1, name: Optional[str] = None) -> Tensor:
    return A.glu(x, axis)


def prelu(x: Tensor, weight: Tensor, data_format: str = "NCHW", name: Optional[str] = None) -> Tensor:
    """One slope, or one per channel (axis 1 for the NC* layouts)."""
    if data_format not in ("NCHW", "NCL", "NC", "NCDHW"):
        raise not_supported(f"prelu with data_format={data_format!r}", "paddle")
    return _kernel("prelu", x, lambda t: A.prelu(t, weight))


def softshrink(x: Tensor, threshold: float = 0.5, name: Optional[str] = None) -> Tensor:
    """``x ∓ t`` outside [-t, t], +0 inside (SoftshrinkGradNode; no double grad)."""
    t = float_attribute(threshold)
    return _kernel("softshrink", x, lambda v: F.where(F.gt(v, t), F.sub(v, t),
                                                      F.where(F.lt(v, -t), F.add(v, t), F.zeros_like(v))))


def hardshrink(x: Tensor, threshold: float = 0.5, name: Optional[str] = None) -> Tensor:
    """``x`` where ``x <= -t`` or ``x >= t``, ``x · 0`` inside (HardshrinkGradNode; no double grad).

    The band is open: ``x = ±t`` is kept, with ``t`` the float32 attribute (measured on paddle
    3.3.1: 0.2 is zeroed at ``threshold=0.2`` in float64, float32's 0.2 kept).
    """
    t = float_attribute(threshold)
    return _kernel("hardshrink", x, lambda v: F.mul(v, _mask(v, (v._data <= -t) | (v._data >= t))))


def tanhshrink(x: Tensor, name: Optional[str] = None) -> Tensor:
    """``x - tanh(x)``, one kernel (a rule of the table: see ``tanh_shrink``)."""
    return _kernel("tanhshrink", x, lambda v: F.activation("tanh_shrink", v))


def thresholded_relu(x: Tensor, threshold: float = 1.0, value: float = 0.0,
                     name: Optional[str] = None) -> Tensor:
    """``x`` above the threshold, ``value`` (a float32 attribute) elsewhere (ThresholdedReluGradNode;
    no double grad).

    The gradient is the incoming one times the mask, so a negative gradient leaves -0 below
    the threshold, as paddle's kernel does.
    """
    t = float_attribute(threshold)

    def compose(v: Tensor) -> Tensor:
        above = v._data > t
        filler = np.where(above, 0, float_attribute(value)).astype(v._data.dtype)
        return F.add(F.mul(v, _mask(v, above)), F.constant_like(v, filler))

    return _kernel("thresholded_relu", x, compose)


def _mask(like: Tensor, selected: np.ndarray) -> Tensor:
    """A constant of ones where ``selected`` holds, zeros elsewhere, in ``like``'s dtype."""
    return F.constant_like(like, selected.astype(like._data.dtype))
