"""The layers the field's autograd programs use, shared by both facades: normalisation,
dropout, convolution, embedding and the weighted negative log-likelihood.

Each is composed from the engine's operations, so its derivatives (of every order) come from the
derivative table and need no rules of their own; the final node is named as the framework's
kernel names it (``C.named``). What differs between the frameworks (paddle's ``momentum`` is the
weight of the old running statistic, torch's of the new one; their weight layouts) is decided by
the facades, which call these with their own arguments.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional, Sequence

import numpy as np

from reference_engine import grad_mode, rng
from reference_engine import ops as F

if TYPE_CHECKING:
    from reference_engine.tensor import Tensor


def as_tuple(value: Any, n: int) -> tuple[int, ...]:
    """A size, stride or padding argument as one number per dimension (a number repeated)."""
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


def _affine(out: Tensor, weight: Optional[Tensor], bias: Optional[Tensor], shape: Sequence[int],
            scale: Callable[[Tensor, Tensor], Tensor] = F.mul) -> Tensor:
    """``scale(out, weight) + bias``, each broadcast from ``shape``."""
    if weight is not None:
        out = scale(out, F.reshape(weight, shape))
    if bias is not None:
        out = F.add(out, F.reshape(bias, shape))
    return out


def layer_norm(x: Tensor, normalized_dims: int, weight: Optional[Tensor], bias: Optional[Tensor],
               eps: float, scale: Callable[[Tensor, Tensor], Tensor] = F.mul) -> Tensor:
    """Normalise over the last ``normalized_dims`` dimensions: ``(x - mean) / sqrt(var + eps)``
    with the biased variance, then the elementwise affine (``scale``: how the weight multiplies,
    where a framework's kernel differentiates that product its own way)."""
    dims = tuple(range(x._data.ndim - normalized_dims, x._data.ndim))
    centered = F.sub(x, F.mean(x, dims, keepdim=True))
    variance = F.mean(F.mul(centered, centered), dims, keepdim=True)
    out = F.div(centered, F.sqrt(F.add(variance, eps)))
    return _affine(out, weight, bias, x._data.shape[-normalized_dims:], scale)


def batch_norm(x: Tensor, running_mean: Optional[Tensor], running_var: Optional[Tensor],
               weight: Optional[Tensor], bias: Optional[Tensor], training: bool,
               new_weight: float, eps: float, unbiased_running_var: bool = True) -> Tensor:
    """Normalise each channel (dimension 1) over the other dimensions. Training: by the batch's
    mean and biased variance, moving the running statistics in place without recording
    (``new_weight`` is the weight of the batch's statistic; the running variance takes the
    unbiased one, as torch's does, or the biased one, as paddle's does); otherwise by the
    running statistics."""
    dims = tuple(i for i in range(x._data.ndim) if i != 1)
    shape = [1] * x._data.ndim
    shape[1] = x._data.shape[1]
    if training or running_mean is None:
        mean = F.mean(x, dims, keepdim=True)
        centered = F.sub(x, mean)
        variance = F.mean(F.mul(centered, centered), dims, keepdim=True)
        if running_mean is not None and running_var is not None:
            count = x._data.size // x._data.shape[1]
            with grad_mode.no_grad():
                batch_mean = mean._data.reshape(-1)
                batch_var = variance._data.reshape(-1)
                if unbiased_running_var:
                    batch_var = batch_var * (count / max(count - 1, 1))
                for running, batch in ((running_mean, batch_mean), (running_var, batch_var)):
                    running._data[...] = (1 - new_weight) * running._data + new_weight * batch
                    running._counter.value += 1
    else:
        centered = F.sub(x, F.reshape(running_mean, shape))
        variance = F.reshape(running_var, shape)
    out = F.div(centered, F.sqrt(F.add(variance, eps)))
    return _affine(out, weight, bias, shape)


_GIVEN_MASKS: list[list[np.ndarray]] = []


@contextmanager
def dropout_masks(masks: Sequence[Any]) -> Iterator[None]:
    """Within the block, the dropout calls keep the elements the given masks keep, in order (a
    framework's masks, read from its output): its random draws are not the reference's."""
    _GIVEN_MASKS.append([np.asarray(m, dtype=bool) for m in masks])
    try:
        yield
    finally:
        _GIVEN_MASKS.pop()


def dropout(x: Tensor, p: float, training: bool, scale_in_train: bool = True,
            eval_runs_kernel: bool = False) -> Tensor:
    """Zero each element with probability ``p`` and scale the kept ones by ``1 / (1 - p)``
    (``scale_in_train=False``: paddle's ``downscale_in_infer``, which scales nothing while
    training and multiplies by ``1 - p`` otherwise). ``p = 0`` while training returns ``x``
    itself; out of training it does too, unless ``eval_runs_kernel`` (paddle's kernel runs, and
    is recorded, even where it changes nothing)."""
    if not 0 <= p <= 1:
        raise x._policy.error("dropout_p", p=p)
    if not training:
        if not scale_in_train:
            return F.mul(x, 1.0 - p)
        return F.mul(x, 1.0) if eval_runs_kernel else x
    if p == 0:
        return x
    if _GIVEN_MASKS and _GIVEN_MASKS[-1]:
        keep = _GIVEN_MASKS[-1].pop(0)
    else:
        keep = rng.generator().random(x._data.shape) >= p
    mask = F.constant_like(x, keep.astype(x._data.dtype))
    out = F.mul(x, mask)
    return F.mul(out, 1.0 / (1.0 - p)) if scale_in_train and p < 1 else out


def embedding(ids: Tensor, weight: Tensor, padding_idx: Optional[int]) -> Tensor:
    """The rows of ``weight`` the ids pick; no gradient reaches the ``padding_idx`` row."""
    positions = np.asarray(ids._data, dtype=np.int64)
    out = F.getitem(weight, positions)
    if padding_idx is None:
        return out
    row = padding_idx % weight._data.shape[0]
    padded = F.constant_like(out, np.broadcast_to((positions == row)[..., None], out._data.shape).copy())
    return F.where(padded, F.constant_like(out, out._data.copy()), out)


def convolution(x: Tensor, weight: Tensor, bias: Optional[Tensor], stride: Any,
                padding: Any, dilation: Any, groups: int) -> Tensor:
    """N-d convolution (cross-correlation) of ``x`` (N, C, *spatial) with ``weight``
    (O, C / groups, *kernel): zero padding, the patches gathered by one index, then a matrix
    product per group. ``stride``, ``padding`` and ``dilation``: a number or one per dimension."""
    spatial = weight._data.ndim - 2
    stride, padding, dilation = (as_tuple(v, spatial) for v in (stride, padding, dilation))
    if padding and any(padding):
        x = _zero_pad(x, padding)
    in_shape, kernel = x._data.shape[2:], weight._data.shape[2:]
    out_shape = [(n - d * (k - 1) - 1) // s + 1 for n, k, s, d in zip(in_shape, kernel, stride, dilation)]
    # positions[i]: for each kernel offset and output position, the input index along axis i
    grids = np.meshgrid(*[np.arange(k) for k in kernel], *[np.arange(o) for o in out_shape], indexing="ij")
    index = tuple(grids[i + spatial] * stride[i] + grids[i] * dilation[i] for i in range(spatial))
    patches = F.getitem(x, (slice(None), slice(None), *index))  # (N, C, *kernel, *out)
    batch, channels = x._data.shape[:2]
    columns = F.reshape(patches, [batch, channels * int(np.prod(kernel)), int(np.prod(out_shape))])
    outputs = weight._data.shape[0]
    per_group_in, per_group_out = channels // groups * int(np.prod(kernel)), outputs // groups
    pieces = []
    for g in range(groups):
        w = F.reshape(F.getitem(weight, slice(g * per_group_out, (g + 1) * per_group_out)),
                      [per_group_out, per_group_in])
        cols = F.getitem(columns, (slice(None), slice(g * per_group_in, (g + 1) * per_group_in)))
        pieces.append(F.matmul(w, cols))
    out = pieces[0] if groups == 1 else F.cat(pieces, 1)
    out = F.reshape(out, [batch, outputs, *out_shape])
    if bias is not None:
        out = F.add(out, F.reshape(bias, [1, outputs] + [1] * spatial))
    return out


def _zero_pad(x: Tensor, padding: Sequence[int]) -> Tensor:
    """``x`` with ``padding[i]`` zeros on both sides of spatial axis ``i``."""
    for axis, amount in enumerate(padding, start=2):
        if amount:
            shape = list(x._data.shape)
            shape[axis] = amount
            zeros = F.constant_like(x, np.zeros(shape, x._data.dtype))
            x = F.cat([zeros, x, zeros], axis)
    return x


def nll_loss(log_p: Tensor, target: Tensor, weight: Optional[Tensor], ignore_index: int,
             reduction: str) -> Tensor:
    """``-weight[t] * log_p[n, t]`` for each row's target ``t`` (rows whose target is
    ``ignore_index`` count zero); the mean divides by the summed weights of the counted rows."""
    classes = np.asarray(target._data, dtype=np.int64).reshape(-1)
    counted = classes != ignore_index
    safe = np.where(counted, classes, 0)
    class_weights = np.ones(log_p._data.shape[1], log_p._data.dtype) if weight is None else weight._data
    row_weights = np.where(counted, class_weights[safe], 0).astype(log_p._data.dtype)
    picked = F.getitem(log_p, (np.arange(len(classes)), safe))
    losses = F.mul(F.neg(picked), F.constant_like(picked, row_weights))
    if reduction == "none":
        return F.reshape(losses, target._data.shape)
    total = F.sum(losses)
    return total if reduction == "sum" else F.div(total, float(row_weights.sum()))
