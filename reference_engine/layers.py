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

from reference_engine import composed, grad_mode, rng
from reference_engine import ops as F
from reference_engine.messages import not_supported

if TYPE_CHECKING:
    from reference_engine.tensor import Tensor


def as_tuple(value: Any, n: int) -> tuple[int, ...]:
    """A size, stride or padding argument as one number per dimension (a number, or a sequence
    of one, repeated)."""
    if isinstance(value, (tuple, list)):
        return tuple(value) * n if len(value) == 1 and n > 1 else tuple(value)
    return (value,) * n


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
        keep = rng.generator(x._policy.dialect).dropout_keep(p, x._data.shape, x._data)
    mask = F.constant_like(x, keep.astype(x._data.dtype))
    out = F.mul(x, mask)
    return F.mul(out, 1.0 / (1.0 - p)) if scale_in_train and p < 1 else out


def feature_keep(x: Tensor, p: float, shape: Optional[Sequence[int]] = None) -> np.ndarray:
    """Which channels (N, C) of ``x`` a channel-wise dropout keeps, shaped (N, C, 1, ...) to
    broadcast over the spatial dimensions (or the positions of another broadcast ``shape``):
    the dialect's draw for a mask of that shape."""
    shape = tuple(shape) if shape is not None else x._data.shape[:2] + (1,) * (x._data.ndim - 2)
    if _GIVEN_MASKS and _GIVEN_MASKS[-1]:
        return _GIVEN_MASKS[-1].pop(0).reshape(shape)
    return rng.generator(x._policy.dialect).dropout_keep(p, shape)


def instance_norm(x: Tensor, running_mean: Optional[Tensor], running_var: Optional[Tensor],
                  weight: Optional[Tensor], bias: Optional[Tensor], use_input_stats: bool,
                  new_weight: float, eps: float) -> Tensor:
    """Normalise each sample's channels over their spatial dimensions, as torch composes it:
    the batch viewed as one sample of N * C channels, batch-normalised with the per-channel
    weight, bias and running statistics repeated N times, and viewed back; the running
    statistics then take the mean over the samples."""
    n, c = x._data.shape[:2]
    folded = F.reshape(x, (1, n * c) + x._data.shape[2:])
    repeated = [None if t is None else F.tile(t, (n,)) for t in (weight, bias, running_mean, running_var)]
    out = batch_norm(folded, repeated[2], repeated[3], repeated[0], repeated[1], use_input_stats,
                     new_weight, eps)
    with grad_mode.no_grad():
        for running, moved in ((running_mean, repeated[2]), (running_var, repeated[3])):
            if running is not None and moved is not None:
                running._data[...] = moved._data.reshape(n, c).mean(0)
                running._counter.value += 1
    return F.reshape(out, x._data.shape)


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
    product per group. ``stride``, ``padding`` and ``dilation``: a number or one per dimension
    (a padding also a (before, after) pair per dimension)."""
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


def _zero_pad(x: Tensor, padding: Sequence[Any]) -> Tensor:
    """``x`` with ``padding[i]`` zeros on both sides of spatial axis ``i`` (or a (before, after)
    pair of counts)."""
    for axis, amount in enumerate(padding, start=2):
        before, after = amount if isinstance(amount, tuple) else (amount, amount)
        pieces = []
        for count in (before, after):
            shape = list(x._data.shape)
            shape[axis] = count
            pieces.append(F.constant_like(x, np.zeros(shape, x._data.dtype)) if count else None)
        if before or after:
            x = F.cat([p for p in (pieces[0], x, pieces[1]) if p is not None], axis)
    return x


def _block_positions(size: Sequence[int], kernel: Sequence[int], dilation: Sequence[int],
                     padding: Sequence[int], stride: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """For 2-d sliding blocks over a padded plane of ``size``: the row and column of each
    kernel offset (rows of the result) in each block (columns), as ``im2col`` lays them out."""
    blocks = [(n + 2 * p - d * (k - 1) - 1) // s + 1
              for n, k, d, p, s in zip(size, kernel, dilation, padding, stride)]
    offset_rows, offset_cols = np.meshgrid(np.arange(kernel[0]) * dilation[0],
                                           np.arange(kernel[1]) * dilation[1], indexing="ij")
    block_rows, block_cols = np.meshgrid(np.arange(blocks[0]) * stride[0], np.arange(blocks[1]) * stride[1],
                                         indexing="ij")
    rows = offset_rows.reshape(-1, 1) + block_rows.reshape(1, -1)
    cols = offset_cols.reshape(-1, 1) + block_cols.reshape(1, -1)
    return rows, cols


def unfold(x: Tensor, kernel: Any, dilation: Any, padding: Any, stride: Any) -> Tensor:
    """``im2col`` of a batch (N, C, H, W): each sliding block's values as a column, (N, C·kh·kw,
    blocks); a value in several blocks gets the sum of their gradients."""
    kernel, dilation, padding, stride = (as_tuple(v, 2) for v in (kernel, dilation, padding, stride))
    batch, channels = x._data.shape[:2]
    rows, cols = _block_positions(x._data.shape[2:], kernel, dilation, padding, stride)
    gathered = F.getitem(_zero_pad(x, padding), (slice(None), slice(None), rows, cols))
    return F.reshape(gathered, (batch, channels * rows.shape[0], rows.shape[1]))


def fold(columns: Tensor, output_size: Any, kernel: Any, dilation: Any, padding: Any, stride: Any) -> Tensor:
    """``col2im``, unfold's adjoint: each column's values summed back into their block's places
    of an (N, C, H, W) plane, the padding cut away."""
    size, kernel, dilation, padding, stride = (as_tuple(v, 2) for v in (output_size, kernel, dilation,
                                                                           padding, stride))
    rows, cols = _block_positions(size, kernel, dilation, padding, stride)
    batch = columns._data.shape[0]
    channels = columns._data.shape[1] // rows.shape[0]
    padded = (size[0] + 2 * padding[0], size[1] + 2 * padding[1])
    blocks = F.reshape(columns, (batch, channels, rows.shape[0], rows.shape[1]))
    plane = F.index_backward(blocks, (batch, channels, *padded), (slice(None), slice(None), rows, cols))
    return F.getitem(plane, (slice(None), slice(None), slice(padding[0], padding[0] + size[0]),
                             slice(padding[1], padding[1] + size[1])))


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


def _pool_sizes(in_shape: Sequence[int], kernel: Sequence[int], stride: Sequence[int],
                padding: Sequence[int], ceil_mode: bool) -> list[int]:
    """Each spatial axis's output length; in ceil mode a last window that would start in the
    right padding is dropped, as both frameworks do."""
    out = []
    for n, k, s, p in zip(in_shape, kernel, stride, padding):
        span = n + 2 * p - k
        o = (-(-span // s) if ceil_mode else span // s) + 1
        if ceil_mode and (o - 1) * s >= n + p:
            o -= 1
        out.append(o)
    return out


def _window_index(kernel: Sequence[int], stride: Sequence[int],
                  out_shape: Sequence[int]) -> tuple[np.ndarray, ...]:
    """Per spatial axis, the (padded) input position of each kernel offset at each output
    position, shaped (*kernel, *out)."""
    spatial = len(kernel)
    grids = np.meshgrid(*[np.arange(k) for k in kernel], *[np.arange(o) for o in out_shape], indexing="ij")
    return tuple(grids[i + spatial] * stride[i] + grids[i] for i in range(spatial))


def _padded(x: Tensor, before: Sequence[int], after: Sequence[int], fill: float) -> Tensor:
    """``x`` with ``before[i]`` and ``after[i]`` elements of ``fill`` around spatial axis ``i``."""
    for axis, (left, right) in enumerate(zip(before, after), start=2):
        pieces = []
        for amount in (left, right):
            shape = list(x._data.shape)
            shape[axis] = amount
            pieces.append(F.constant_like(x, np.full(shape, fill, x._data.dtype)) if amount else None)
        x = F.cat([p for p in (pieces[0], x, pieces[1]) if p is not None], axis) if left or right else x
    return x


def pool(x: Tensor, kind: str, kernel: Any, stride: Any, padding: Any, ceil_mode: bool,
         count_padding: bool = True) -> Tensor:
    """Max or average pooling of ``x`` (N, C, *spatial) over windows of ``kernel``: the windows
    gathered by one index into (N, C, window, *out), then the maximum (its gradient goes to the
    first largest element of each window, as the kernels pick it) or the mean. An average
    divides by the window's elements inside the input, and inside the padding too where
    ``count_padding``; never by those past it that ceil mode adds."""
    spatial = x._data.ndim - 2
    kernel = as_tuple(kernel, spatial)
    stride = as_tuple(stride if stride is not None else kernel, spatial)
    padding = as_tuple(padding, spatial)
    in_shape = x._data.shape[2:]
    out_shape = _pool_sizes(in_shape, kernel, stride, padding, ceil_mode)
    beyond = [max(0, (o - 1) * s + k - (n + 2 * p))
              for n, k, s, p, o in zip(in_shape, kernel, stride, padding, out_shape)]
    fill = -np.inf if kind == "max" else 0.0
    padded = _padded(x, padding, [p + b for p, b in zip(padding, beyond)], fill)
    index = _window_index(kernel, stride, out_shape)
    batch, channels = x._data.shape[:2]
    windows = F.reshape(F.getitem(padded, (slice(None), slice(None), *index)),
                        [batch, channels, int(np.prod(kernel)), *out_shape])
    if kind == "max":
        return F.max_dim(windows, 2)[0]
    inside = np.zeros([n + 2 * p + b for n, p, b in zip(in_shape, padding, beyond)])
    inside[tuple(slice(0 if count_padding else p, n + (2 * p if count_padding else p))
                 for n, p in zip(in_shape, padding))] = 1
    counts = inside[index].reshape(int(np.prod(kernel)), *out_shape).sum(axis=0)
    return F.div(F.sum(windows, 2), F.constant_like(windows, counts.astype(x._data.dtype)))


def max_pool_indices(x: np.ndarray, kernel: Any, stride: Any, padding: Any, ceil_mode: bool) -> np.ndarray:
    """Where each max-pooling window of ``x`` (N, C, *spatial) has its first largest element:
    the flat index into its input plane, as both frameworks' pools return it."""
    spatial = x.ndim - 2
    kernel = as_tuple(kernel, spatial)
    stride = as_tuple(stride if stride is not None else kernel, spatial)
    padding = as_tuple(padding, spatial)
    in_shape = x.shape[2:]
    out_shape = _pool_sizes(in_shape, kernel, stride, padding, ceil_mode)
    beyond = [max(0, (o - 1) * s + k - (n + 2 * p))
              for n, k, s, p, o in zip(in_shape, kernel, stride, padding, out_shape)]
    widths = [(0, 0), (0, 0)] + [(p, p + b) for p, b in zip(padding, beyond)]
    padded = np.pad(x, widths, constant_values=-np.inf)
    index = _window_index(kernel, stride, out_shape)
    windows = padded[(slice(None), slice(None), *index)].reshape(*x.shape[:2], -1, *out_shape)
    offset = windows.argmax(axis=2)  # (N, C, *out): which kernel offset
    flat = np.zeros(index[0].shape, np.int64)
    for axis in range(spatial):
        flat = flat * in_shape[axis] + (index[axis] - padding[axis])
    flat = flat.reshape(-1, *out_shape)  # (kernel offsets, *out)
    out_positions = np.indices(out_shape)
    return flat[(offset, *out_positions)]


def adaptive_avg_pool(x: Tensor, output_size: Sequence[Optional[int]]) -> Tensor:
    """The mean of each of ``output_size`` cells per spatial axis, cell ``i`` of ``o`` over an
    axis of ``n`` covering ``floor(i n / o)`` to ``ceil((i + 1) n / o)`` (None keeps the axis)."""
    return adaptive_pool(x, output_size, "avg")


def adaptive_pool(x: Tensor, output_size: Sequence[Optional[int]], kind: str) -> Tensor:
    """The mean ("avg") or maximum ("max", its gradient to the cell's first largest element) of
    each cell, the cells as ``adaptive_avg_pool`` lays them out."""
    spatial = x._data.ndim - 2
    in_shape = x._data.shape[2:]
    sizes = [n if o is None else o for n, o in zip(in_shape, as_tuple(output_size, spatial))]
    if all(n % o == 0 for n, o in zip(in_shape, sizes)):
        kernel = [n // o for n, o in zip(in_shape, sizes)]
        return pool(x, kind, kernel, kernel, 0, False)
    bounds = [[(i * n // o, -(-(i + 1) * n // o)) for i in range(o)] for n, o in zip(in_shape, sizes)]
    cells = []
    for corner in np.ndindex(*sizes):
        region = F.getitem(x, (slice(None), slice(None), *(slice(*bounds[axis][i])
                                                           for axis, i in enumerate(corner))))
        if kind == "max":
            cells.append(F.max_dim(F.reshape(region, [*x._data.shape[:2], -1]), 2)[0])
        else:
            cells.append(F.mean(region, list(range(2, 2 + spatial))))
    stacked = F.cat([F.unsqueeze(c, 2) for c in cells], 2)
    return F.reshape(stacked, [*x._data.shape[:2], *sizes])


def group_norm(x: Tensor, groups: int, weight: Optional[Tensor], bias: Optional[Tensor],
               epsilon: float) -> Tensor:
    """Each sample's channels in ``groups`` groups, each group normalised over its channels and
    positions by its mean and biased variance; then the per-channel affine."""
    shape = list(x._data.shape)
    grouped = F.reshape(x, [shape[0], groups, int(np.prod(shape[1:])) // groups])
    mean = F.mean(grouped, [2], keepdim=True)
    centred = F.sub(grouped, mean)
    variance = F.mean(F.mul(centred, centred), [2], keepdim=True)
    normalised = F.reshape(F.div(centred, F.sqrt(F.add(variance, epsilon))), shape)
    per_channel = [1, shape[1]] + [1] * (len(shape) - 2)
    if weight is not None:
        normalised = F.mul(normalised, F.reshape(weight, per_channel))
    if bias is not None:
        normalised = F.add(normalised, F.reshape(bias, per_channel))
    return normalised


def constant_pad(x: Tensor, widths: Sequence[tuple[int, int]], value: float) -> Tensor:
    """``x`` with ``widths[axis]`` = (before, after) elements of ``value`` around each axis."""
    for axis, (before, after) in enumerate(widths):
        pieces = []
        for amount in (before, after):
            shape = list(x._data.shape)
            shape[axis] = amount
            pieces.append(F.constant_like(x, np.full(shape, value, x._data.dtype)) if amount else None)
        if before or after:
            x = F.cat([p for p in (pieces[0], x, pieces[1]) if p is not None], axis)
    return x


def mapped_pad(x: Tensor, widths: Sequence[tuple[int, int]], mode: str) -> Tensor:
    """``x`` padded by reading its own elements: ``reflect`` mirrors about each edge (the edge
    itself not repeated), ``replicate`` repeats the edge. One gather, so the gradient of each
    element sums what every place that read it received. A pad reflect cannot reach (at least
    the axis's size) is refused by name."""
    positions = []
    for size, (before, after) in zip(x._data.shape, widths):
        at = np.arange(-before, size + after)
        if mode == "replicate":
            at = np.clip(at, 0, size - 1)
        else:
            if before >= size or after >= size:
                raise not_supported(f"reflect padding of {max(before, after)} on a dimension of size {size}")
            at = np.abs(at)
            at = np.where(at > size - 1, 2 * (size - 1) - at, at)
        positions.append(at)
    return F.getitem(x, np.ix_(*positions))


def _source_positions(out_size: int, in_size: int, mode: str, align_corners: bool,
                      scale: Optional[float]) -> np.ndarray:
    """Where each output position reads along one axis: nearest takes ``floor(i * in / out)``;
    linear modes half-pixel centres (clamped at 0), or the corners aligned."""
    ratio = (1.0 / scale) if scale else in_size / out_size
    i = np.arange(out_size, dtype=np.float64)
    if mode == "nearest":
        return np.minimum(np.floor(i * ratio), in_size - 1)
    if align_corners:
        return i * ((in_size - 1) / (out_size - 1)) if out_size > 1 else np.zeros(out_size)
    return np.maximum((i + 0.5) * ratio - 0.5, 0.0)


def interpolate(x: Tensor, sizes: Sequence[int], mode: str, align_corners: bool,
                scales: Sequence[Optional[float]]) -> Tensor:
    """``x`` (N, C, *spatial) resized to ``sizes``: nearest picks one input per output; linear
    modes weigh the two neighbours on each axis in turn."""
    for axis, (out_size, scale) in enumerate(zip(sizes, scales), start=2):
        in_size = x._data.shape[axis]
        source = _source_positions(out_size, in_size, mode, align_corners, scale)
        lead = (slice(None),) * axis
        if mode == "nearest":
            x = F.getitem(x, lead + (source.astype(np.int64),))
            continue
        low = np.minimum(np.floor(source).astype(np.int64), in_size - 1)
        high = np.minimum(low + 1, in_size - 1)
        frac_shape = [1] * x._data.ndim
        frac_shape[axis] = out_size
        frac = (source - low).reshape(frac_shape).astype(x._data.dtype)
        below, above = F.getitem(x, lead + (low,)), F.getitem(x, lead + (high,))
        x = F.add(F.mul(below, F.constant_like(below, 1 - frac)), F.mul(above, F.constant_like(above, frac)))
    return x


def _zero_inserted(x: Tensor, strides: Sequence[int]) -> Tensor:
    """``x`` with ``stride - 1`` zeros between neighbours along each spatial axis."""
    for axis, s in enumerate(strides, start=2):
        if s == 1:
            continue
        n = x._data.shape[axis]
        expanded = F.unsqueeze(x, axis + 1)
        shape = list(expanded._data.shape)
        shape[axis + 1] = s - 1
        stacked = F.cat([expanded, F.constant_like(x, np.zeros(shape, x._data.dtype))], axis + 1)
        merged_shape = list(x._data.shape)
        merged_shape[axis] = n * s
        merged = F.reshape(stacked, merged_shape)
        index = [slice(None)] * x._data.ndim
        index[axis] = slice(0, (n - 1) * s + 1)
        x = F.getitem(merged, tuple(index))
    return x


def conv_transpose(x: Tensor, weight: Tensor, bias: Optional[Tensor], stride: Any, padding: Any,
                   output_padding: Any, dilation: Any, groups: int) -> Tensor:
    """The transposed convolution of ``x`` with ``weight`` (C_in, C_out / groups, *kernel): the
    input spread by ``stride`` (zeros between), padded by ``dilation * (kernel - 1) - padding``
    (and ``output_padding`` more after), then a convolution with the weight flipped and its
    channel axes swapped per group: the gradient of a convolution, composed."""
    spatial = weight._data.ndim - 2
    stride, padding, output_padding, dilation = (as_tuple(v, spatial)
                                                 for v in (stride, padding, output_padding, dilation))
    kernel = weight._data.shape[2:]
    up = _zero_inserted(x, stride)
    for axis, (k, p, op, d) in enumerate(zip(kernel, padding, output_padding, dilation), start=2):
        before, after = d * (k - 1) - p, d * (k - 1) - p + op
        widths = [(0, 0)] * up._data.ndim
        widths[axis] = (max(before, 0), max(after, 0))
        up = constant_pad(up, widths, 0.0)
        if before < 0 or after < 0:
            index = [slice(None)] * up._data.ndim
            index[axis] = slice(max(-before, 0), up._data.shape[axis] - max(-after, 0))
            up = F.getitem(up, tuple(index))
    c_in, c_out_group = weight._data.shape[:2]
    flipped = composed.flip(weight, list(range(2, 2 + spatial)))
    grouped = F.reshape(flipped, [groups, c_in // groups, c_out_group, *kernel])
    swapped = F.transpose(grouped, 1, 2)
    w = F.reshape(swapped, [groups * c_out_group, c_in // groups, *kernel])
    return convolution(up, w, bias, 1, 0, dilation, groups)
