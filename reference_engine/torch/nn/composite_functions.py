"""torch.nn.functional's functions that torch composes, in Python or in a composite kernel,
composed here in the same steps so that their graphs are torch's node for node
(``rms_norm``, ``hinge_embedding_loss``, ``poisson_nll_loss``, ``gaussian_nll_loss``,
``multilabel_soft_margin_loss``), and those with a kernel of their own shown under its node
(``soft_margin_loss``, ``multi_margin_loss``, ``celu``). torch's OpInfo samples check each
(``tests/test_opinfo.py``)."""

from __future__ import annotations

import math
from typing import Any, Optional, Sequence

import numpy as np

from reference_engine import composed as C
from reference_engine import grad_mode, layers
from reference_engine import ops as F
from reference_engine.messages import not_supported
from reference_engine.tensor import Tensor
from reference_engine.torch.nn.activation_functions import logsigmoid
from reference_engine.torch.nn.reductions import legacy_reduction

__all__ = ["embedding_bag", "fold", "unfold", "celu", "gaussian_nll_loss", "hinge_embedding_loss",
           "multi_margin_loss", "multilabel_soft_margin_loss", "poisson_nll_loss", "rms_norm",
           "soft_margin_loss"]


def _reduction(reduction: str, size_average: Any = None, reduce: Any = None) -> str:
    if size_average is not None or reduce is not None:
        return legacy_reduction(size_average, reduce)
    return reduction


def rms_norm(input: Tensor, normalized_shape: Sequence[int], weight: Optional[Tensor] = None,  # noqa: A002
             eps: Optional[float] = None) -> Tensor:
    """``input / sqrt(mean(input²) + eps)`` over the trailing ``normalized_shape``, times
    ``weight``: torch's composite kernel (eps: the dtype's machine epsilon by default)."""
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    dims = list(range(input._data.ndim - len(shape), input._data.ndim))
    if eps is None:
        eps = float(np.finfo(input._data.dtype if input._data.dtype.kind == "f" else np.float32).eps)
    mean = F.mean(F.pow(input, 2), dims, keepdim=True)
    shifted = C.named(F.add(mean, eps), "AddBackward1", mean)  # (the kernel's add_ of a number)
    out = F.mul(input, F.rsqrt(shifted))
    return out if weight is None else F.mul(out, weight)


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:  # noqa: A002
    """``max(0, x) + min(0, alpha (exp(x / alpha) - 1))`` (CeluBackward0)."""
    if inplace:
        raise not_supported("celu(inplace=True)", "torch")
    negative = F.mul(F.expm1(F.div(input, alpha)), alpha)
    return C.named(F.where(F.gt(input, 0), input, negative), "CeluBackward0", input)


def soft_margin_loss(input: Tensor, target: Tensor, size_average: Any = None, reduce: Any = None,  # noqa: A002
                     reduction: str = "mean") -> Tensor:
    """``log(1 + exp(-target · input))``, reduced (SoftMarginLossBackward0)."""
    losses = F.log1p(F.exp(F.neg(F.mul(input, target))))
    return C.named(C.reduced(losses, _reduction(reduction, size_average, reduce)), "SoftMarginLossBackward0",
                   input)


def hinge_embedding_loss(input: Tensor, target: Tensor, margin: float = 1.0, size_average: Any = None,  # noqa: A002
                         reduce: Any = None, reduction: str = "mean") -> Tensor:
    """``max(0, margin - input)`` where the target is -1, ``input`` where it is 1, reduced."""
    zeros = F.zeros_like(input)
    margin_clamp = F.rsub(input, margin).clamp_min_(0.0)
    output = F.add(F.where(F.ne(target, 1), margin_clamp, zeros), F.where(F.ne(target, -1), input, zeros))
    return C.reduced(output, _reduction(reduction, size_average, reduce))


def poisson_nll_loss(input: Tensor, target: Tensor, log_input: bool = True, full: bool = False,  # noqa: A002
                     size_average: Any = None, eps: float = 1e-8, reduce: Any = None,
                     reduction: str = "mean") -> Tensor:
    """``exp(input) - target · input`` (or ``input - target · log(input + eps)``), plus
    Stirling's term where ``full`` and the target exceeds 1, reduced."""
    if log_input:
        loss = F.sub(F.exp(input), F.mul(target, input))
    else:
        loss = F.sub(input, F.mul(target, F.log(F.add(input, eps))))
    if full:
        stirling = F.add(F.sub(F.mul(target, F.log(target)), target),
                         F.mul(F.log(F.mul(target, 2 * math.pi)), 0.5))
        loss = F.add(loss, F.masked_fill(stirling, target._data <= 1, 0.0))
    return C.reduced(loss, _reduction(reduction, size_average, reduce))


def gaussian_nll_loss(input: Tensor, target: Tensor, var: Any, full: bool = False, eps: float = 1e-6,  # noqa: A002
                      reduction: str = "mean") -> Tensor:
    """``0.5 (log(var) + (input - target)² / var)``, the variance held at ``eps`` or more
    without recording, as torch's Python computes it."""
    if not isinstance(var, Tensor):
        var = F.constant_like(input, np.full(input._data.shape, var, input._data.dtype))
    if var._data.shape != input._data.shape:
        if input._data.shape[:-1] == var._data.shape:
            var = F.unsqueeze(var, -1)
        elif not (input._data.ndim == var._data.ndim and sum(
                y for x, y in zip(input._data.shape, var._data.shape) if x != y) == 1):
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = F.clone(var)
    with grad_mode.no_grad():
        var._in_place("clamp", low=eps, high=None)
    loss = F.mul(F.add(F.log(var), F.div(F.pow(F.sub(input, target), 2), var)), 0.5)
    if full:
        loss = F.add(loss, 0.5 * math.log(2 * math.pi))
    return C.reduced(loss, reduction)


def multilabel_soft_margin_loss(input: Tensor, target: Tensor, weight: Optional[Tensor] = None,  # noqa: A002
                                size_average: Any = None, reduce: Any = None,
                                reduction: str = "mean") -> Tensor:
    """The mean over classes of each label's logistic loss, as torch's Python computes it."""
    reduction = _reduction(reduction, size_average, reduce)
    loss = F.neg(F.add(F.mul(target, logsigmoid(input)), F.mul(F.rsub(target, 1), logsigmoid(F.neg(input)))))
    if weight is not None:
        loss = F.mul(loss, weight)
    class_dim = input._data.ndim - 1
    loss = F.div(F.sum(loss, [class_dim]), input._data.shape[class_dim])
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    return C.reduced(loss, reduction)


def multi_margin_loss(input: Tensor, target: Tensor, p: int = 1, margin: float = 1.0,  # noqa: A002
                      weight: Optional[Tensor] = None, size_average: Any = None, reduce: Any = None,
                      reduction: str = "mean") -> Tensor:
    """Per sample, the sum over the other classes of ``max(0, margin - x[y] + x[i])^p`` (times
    the target's weight), over the number of classes (MultiMarginLossBackward0)."""
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    reduction = _reduction(reduction, size_average, reduce)
    batch = input if input._data.ndim == 2 else F.reshape(input, (1, -1))
    labels = np.asarray(target._data, np.int64).reshape(-1)
    classes = batch._data.shape[1]
    chosen = F.gather(batch, 1, labels.reshape(-1, 1))
    hinge = F.add(F.sub(batch, chosen), margin).clamp_min(0.0)
    if p == 2:
        hinge = F.mul(hinge, hinge)
    if weight is not None:
        hinge = F.mul(hinge, F.reshape(F.getitem(weight, (labels,)), (-1, 1)))
    others = F.constant_like(batch, np.arange(classes)[None, :] != labels[:, None])
    losses = F.div(F.sum(F.mul(hinge, others), [1]), classes)
    if input._data.ndim < 2:
        losses = F.reshape(losses, ())
    return C.named(C.reduced(losses, reduction), "MultiMarginLossBackward0", input)


def embedding_bag(input: Tensor, weight: Tensor, offsets: Optional[Tensor] = None, max_norm: Any = None,  # noqa: A002
                  norm_type: float = 2, scale_grad_by_freq: bool = False, mode: str = "mean",
                  sparse: bool = False,
                  per_sample_weights: Optional[Tensor] = None, include_last_offset: bool = False,
                  padding_idx: Optional[int] = None) -> Tensor:
    """Each bag's rows of ``weight`` (a row of a 2-d ``input``, or the ids between two
    ``offsets``) summed, averaged or maximised per column (EmbeddingBagBackward0); a bag with
    no ids, or only ``padding_idx``, gives zeros. ``include_last_offset``: the last offset ends
    the last bag; one short of the input's end is refused (torch 2.13 then reads the ids past
    it in some modes and not in others, and its sum's gradient holds uninitialised memory,
    measured)."""
    if max_norm is not None or scale_grad_by_freq:
        raise not_supported("embedding_bag with max_norm or scale_grad_by_freq", "torch")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(
            f"embedding_bag: per_sample_weights was not None. per_sample_weights is only supported for "
            f"mode='sum' (got mode='{mode}'). Please open a feature request on GitHub.")
    ids = np.asarray(input._data, np.int64)
    if ids.ndim == 2:
        if offsets is not None:
            kind = "<class 'torch.Tensor'>" if isinstance(offsets, Tensor) else str(type(offsets))
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated is a "
                             "mini-batch of fixed length sequences. However, found offsets of type "
                             f"{kind}")
        starts = np.arange(0, ids.size, max(ids.shape[1], 1))[:ids.shape[0]]
        ends = starts + ids.shape[1]
        ids = ids.reshape(-1)
    else:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        bounds = np.asarray(offsets._data, np.int64).reshape(-1)
        if include_last_offset and bounds.size and bounds[-1] != ids.size:
            raise not_supported("embedding_bag with include_last_offset and a last offset short of the "
                                "input's end", "torch")
        starts = bounds[:-1] if include_last_offset else bounds
        ends = bounds[1:] if include_last_offset else np.append(bounds[1:], ids.size)
    flat_weights = None if per_sample_weights is None else F.reshape(per_sample_weights, (-1,))
    rows = []
    for start, end in zip(starts, ends):
        padding = None if padding_idx is None else padding_idx % weight.shape[0]
        picked = [i for i in range(start, end) if ids[i] != padding]
        if not picked:
            rows.append(F.zeros_like(F.getitem(weight, 0)))
            continue
        bag = F.getitem(weight, (ids[picked],))
        if flat_weights is not None:
            bag = F.mul(bag, F.reshape(F.getitem(flat_weights, (np.asarray(picked),)), (-1, 1)))
        if mode == "sum":
            rows.append(F.sum(bag, [0]))
        elif mode == "mean":
            rows.append(F.div(F.sum(bag, [0]), len(picked)))
        else:
            rows.append(F.max_dim(bag, 0)[0])
    out = F.stack(rows, 0) if rows else F.reshape(F.getitem(weight, (slice(0, 0),)), (0, weight.shape[1]))
    return C.named(out, "EmbeddingBagBackward0", weight)


def _batched(x: Tensor, ndim: int, run: Any) -> Tensor:
    """``run`` of ``x`` with a batch axis put in where it has ``ndim - 1`` dimensions."""
    if x._data.ndim == ndim - 1:
        return F.squeeze(run(F.unsqueeze(x, 0)), 0)
    return run(x)


def unfold(input: Tensor, kernel_size: Any, dilation: Any = 1, padding: Any = 0, stride: Any = 1) -> Tensor:  # noqa: A002
    """Sliding blocks as columns (Im2ColBackward0): (N, C, H, W) to (N, C·kh·kw, L)."""
    if input._data.ndim not in (3, 4):
        raise not_supported("unfold of other than a 3-d or 4-d input", "torch")
    return C.named(_batched(input, 4, lambda x: layers.unfold(x, kernel_size, dilation, padding, stride)),
                   "Im2ColBackward0", input)


def fold(input: Tensor, output_size: Any, kernel_size: Any, dilation: Any = 1, padding: Any = 0,  # noqa: A002
         stride: Any = 1) -> Tensor:
    """Columns of sliding blocks summed back into a plane (Col2ImBackward0)."""
    if input._data.ndim not in (2, 3):
        raise not_supported("fold of other than a 2-d or 3-d input", "torch")
    return C.named(_batched(input, 3, lambda x: layers.fold(x, output_size, kernel_size, dilation, padding,
                                                             stride)), "Col2ImBackward0", input)
