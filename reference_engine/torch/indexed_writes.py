"""``torch.scatter``, ``scatter_add`` and ``index_add`` (functions and Tensor methods): writes
along a dimension at given indices, composed from the derivative table's ``scatter_add_zeros``
(whose derivative is a gather) and ``where``, and shown under torch's node for each
(ScatterBackward0 / 1, ScatterAddBackward0, IndexAddBackward0).

Each is also a Tensor method written in place (``scatter_``, ``scatter_add_``, ``index_add_``).

``scatter`` with an index that writes one place twice is refused: torch leaves which write wins
unspecified (its CPU loop keeps the last one, and still hands every source entry a gradient)."""

from __future__ import annotations

import builtins
from typing import Any, Optional

import numpy as np

from reference_engine import composed as C
from reference_engine import ops as F
from reference_engine.dialects.torch_policy import TORCH
from reference_engine.messages import not_supported
from reference_engine.tensor import Tensor, in_place_method

__all__ = ["diagonal_scatter", "index_add", "index_copy", "index_fill", "masked_scatter", "scatter",
           "scatter_add", "select_scatter", "slice_scatter"]


def _positions(input: Tensor, dim: int, index: np.ndarray) -> tuple[np.ndarray, ...]:  # noqa: A002
    """The coordinates ``index`` writes to along ``dim``, checked against the input's size."""
    size = input._data.shape[dim] if input._data.ndim else 1
    if index.size and (index.max() >= size or index.min() < -size):
        bad = int(index.max()) if index.max() >= size else int(index.min())
        raise TORCH.error("index_out_of_bounds", index=bad, dim=dim, size=size)
    if not input._data.ndim:
        return (np.zeros(index.size, np.int64),) if index.size else ()
    grids = np.indices(index.shape)
    return tuple(index % size if d == dim else grids[d] for d in range(input._data.ndim))


def _placed(src: Tensor, shape: tuple[int, ...], dim: int, index: np.ndarray) -> Tensor:
    """Zeros of ``shape`` with ``src`` added at ``index`` along ``dim`` (a 0-d tensor written as
    one of a single element, as torch treats it)."""
    if shape:
        return F.scatter_add_zeros(src, shape, dim, index)
    flat = src if src._data.ndim == 1 else F.reshape(src, (src._data.size,))
    return F.reshape(F.scatter_add_zeros(flat, (1,), 0, index.reshape(-1)), ())


def _source(src: Tensor, index: np.ndarray) -> Tensor:
    """``src``, of the index's shape: torch 2.13 reads a larger source's leading part but its
    backward then hands the source a gradient of the index's shape, which its engine refuses
    ("returned an invalid gradient"), so the reference refuses that form."""
    if src._data.shape != index.shape:
        raise not_supported("scatter of a source of another shape than the index", "torch")
    return src


def scatter(input: Tensor, dim: builtins.int, index: Tensor, src: Any = None, *,  # noqa: A002
            value: Any = None, reduce: Optional[str] = None) -> Tensor:
    """``input`` with ``src`` (a tensor: ScatterBackward0) or a number (ScatterBackward1)
    written at ``index`` along ``dim``; the input's gradient is 0 where it was written."""
    if reduce is not None:
        raise not_supported("scatter with reduce", "torch")
    source = value if src is None else src
    d = dim % max(input._data.ndim, 1)
    idx = np.asarray(index._data, np.int64)
    places = _positions(input, d, idx)
    written = np.zeros(input._data.shape or (1,), np.int64)
    np.add.at(written, places, 1)
    written = written.reshape(input._data.shape)
    if (written > 1).any():
        raise not_supported("scatter writing one place twice (which write wins is unspecified)", "torch")
    mask = F.constant_like(input, written > 0)
    if isinstance(source, Tensor):
        placed = _placed(_source(source, idx), input._data.shape, d, idx)
        return C.named(F.where(mask, placed, input), "ScatterBackward0", input)
    filled = F.constant_like(input, np.full(input._data.shape, source, input._data.dtype))
    return C.named(F.where(mask, filled, input), "ScatterBackward1", input)


def scatter_add(input: Tensor, dim: builtins.int, index: Tensor, src: Tensor) -> Tensor:  # noqa: A002
    """``input`` plus ``src`` added at ``index`` along ``dim`` (repeated places add up)."""
    d = dim % max(input._data.ndim, 1)
    idx = np.asarray(index._data, np.int64)
    _positions(input, d, idx)
    placed = _placed(_source(src, idx), input._data.shape, d, idx % (input._data.shape or (1,))[d])
    return C.named(F.add(input, placed), "ScatterAddBackward0", input)


def index_add(input: Tensor, dim: builtins.int, index: Tensor, source: Tensor, *,  # noqa: A002
              alpha: Any = 1) -> Tensor:
    """``input`` plus ``alpha * source``, its slices along ``dim`` added at the positions
    ``index`` (a vector) lists."""
    d = dim % max(input._data.ndim, 1)
    positions = np.asarray(index._data, np.int64).reshape(-1)
    shape = [1] * source._data.ndim
    if shape:
        shape[d] = positions.size
    idx = np.broadcast_to(positions.reshape(shape), source._data.shape).copy()
    _positions(input, d, idx)
    scaled = source if alpha == 1 else F.mul(source, alpha)
    placed = _placed(scaled, input._data.shape, d, idx % (input._data.shape or (1,))[d])
    return C.named(F.add(input, placed), "IndexAddBackward0", input)


def _index_mask(input: Tensor, dim: builtins.int, index: Tensor) -> tuple[builtins.int, np.ndarray]:  # noqa: A002
    """The dimension, and where along it ``index`` (a vector) selects slices of ``input``."""
    d = dim % max(input._data.ndim, 1)
    positions = np.asarray(index._data, np.int64).reshape(-1)
    size = (input._data.shape or (1,))[d]
    bad = positions[(positions >= size) | (positions < -size)]
    if bad.size:
        raise TORCH.error("index_out_of_bounds", index=int(bad[0]), dim=d, size=size)
    mask = np.zeros(input._data.shape or (1,), bool)
    np.moveaxis(mask, d, 0)[positions % size] = True
    return d, mask.reshape(input._data.shape)


def index_fill(input: Tensor, dim: builtins.int, index: Tensor, value: Any) -> Tensor:  # noqa: A002
    """``input`` with its slices along ``dim`` at ``index`` set to ``value``: a number
    (IndexFillBackward0) or a 0-d tensor, which collects their gradient (IndexFillBackward1)."""
    _, mask = _index_mask(input, dim, index)
    where = F.constant_like(input, mask)
    if isinstance(value, Tensor):
        filled = F.expand(F.cast(value, input._data.dtype), input._data.shape)
        return C.named(F.where(where, filled, input), "IndexFillBackward1", input)
    filled = F.constant_like(input, np.full(input._data.shape, value, input._data.dtype))
    return C.named(F.where(where, filled, input), "IndexFillBackward0", input)


def index_copy(input: Tensor, dim: builtins.int, index: Tensor, source: Tensor) -> Tensor:  # noqa: A002
    """``input`` with its slices along ``dim`` at ``index`` replaced by ``source``'s
    (IndexCopyBackward0). An index that lists a place twice is refused: which copy wins is
    unspecified."""
    d, mask = _index_mask(input, dim, index)
    positions = np.asarray(index._data, np.int64).reshape(-1) % max((input._data.shape or (1,))[d], 1)
    if len(set(positions.tolist())) != positions.size:
        raise not_supported("index_copy with a repeated index (which copy wins is unspecified)", "torch")
    shape = [1] * source._data.ndim
    if shape:
        shape[d] = positions.size
    idx = np.broadcast_to(positions.reshape(shape), source._data.shape).copy()
    placed = _placed(source, input._data.shape, d, idx)
    return C.named(F.where(F.constant_like(input, mask), placed, input), "IndexCopyBackward0", input)


def _written_at(input: Tensor, src: Tensor, positions: np.ndarray, node: str) -> Tensor:  # noqa: A002
    """``input`` with ``src``'s elements written at ``positions`` (flat indices into ``input``,
    one per element of ``src``), shown as ``node``."""
    if src._data.shape != positions.shape:
        raise TORCH.error("scatter_src_size", src=list(src._data.shape), slice=list(positions.shape))
    size = input._data.size
    mask = np.zeros(size, bool)
    mask[positions.reshape(-1)] = True
    flat = F.reshape(F.cast(src, input._data.dtype), (src._data.size,))
    placed = F.reshape(F.scatter_add_zeros(flat, (size,), 0, positions.reshape(-1)), input._data.shape)
    where = F.constant_like(input, mask.reshape(input._data.shape))
    return C.named(F.where(where, placed, input), node, input)


def _flat_positions(input: Tensor) -> np.ndarray:  # noqa: A002
    return np.arange(input._data.size).reshape(input._data.shape)


def select_scatter(input: Tensor, src: Tensor, dim: builtins.int, index: builtins.int) -> Tensor:  # noqa: A002
    """``input`` with its slice ``select(dim, index)`` replaced by ``src`` (SelectScatterBackward0)."""
    d = F.normalize_dim(type(input), dim, input._data.ndim)
    return _written_at(input, src, np.take(_flat_positions(input), index, axis=d), "SelectScatterBackward0")


def slice_scatter(input: Tensor, src: Tensor, dim: builtins.int = 0, start: Optional[builtins.int] = None,  # noqa: A002
                  end: Optional[builtins.int] = None, step: builtins.int = 1) -> Tensor:
    """``input`` with its slice ``start:end:step`` along ``dim`` replaced by ``src``
    (SliceScatterBackward0)."""
    d = F.normalize_dim(type(input), dim, input._data.ndim)
    positions = np.moveaxis(np.moveaxis(_flat_positions(input), d, 0)[start:end:step], 0, d)
    return _written_at(input, src, positions, "SliceScatterBackward0")


def diagonal_scatter(input: Tensor, src: Tensor, offset: builtins.int = 0, dim1: builtins.int = 0,  # noqa: A002
                     dim2: builtins.int = 1) -> Tensor:
    """``input`` with its diagonal (``offset``, ``dim1``, ``dim2``) replaced by ``src``
    (DiagonalScatterBackward0)."""
    ndim = input._data.ndim
    d1, d2 = (F.normalize_dim(type(input), d, ndim) for d in (dim1, dim2))
    positions = np.diagonal(_flat_positions(input), offset, d1, d2)
    return _written_at(input, src, positions, "DiagonalScatterBackward0")


def masked_scatter(input: Tensor, mask: Tensor, source: Tensor) -> Tensor:  # noqa: A002
    """``input`` with the places ``mask`` holds True (the two broadcast together) taken, in
    order, from ``source``'s first elements (MaskedScatterBackward0; the rest of ``source`` gets
    zeros)."""
    if mask._data.dtype != np.bool_:
        dtype = TORCH.dtype_name(mask._data.dtype).split(".")[-1].title()
        raise TORCH.error("masked_scatter_mask", dtype=dtype)
    shape = np.broadcast_shapes(input._data.shape, mask._data.shape)
    if shape != input._data.shape:  # (out of place, the input broadcasts with the mask)
        input = F.expand(input, shape)  # noqa: A001
    chosen = np.broadcast_to(mask._data, shape)
    positions = _flat_positions(input)[chosen]
    if positions.size > source._data.size:
        raise TORCH.error("masked_scatter_source")
    taken = F.getitem(F.reshape(source, (source._data.size,)), slice(0, positions.size))
    return _written_at(input, taken, positions, "MaskedScatterBackward0")


def fill_diagonal_(self: Tensor, fill_value: Any, wrap: builtins.bool = False) -> Tensor:
    """Fill the main diagonal (``[i, i, ...]``) in place, through a strided view of the tensor as
    torch's kernel writes it (its ``as_strided`` view: the write is CopySlices over the tensor's
    node). With ``wrap``, a matrix taller than wide repeats the diagonal every ``width + 1``
    rows."""
    shape = self._data.shape
    if len(shape) < 2:
        raise TORCH.error("fill_diagonal_rank")
    if len(shape) > 2 and any(n != shape[0] for n in shape[1:]):
        raise TORCH.error("fill_diagonal_lengths")
    if not self.is_contiguous():
        raise not_supported("fill_diagonal_ on a non-contiguous tensor", "torch")
    flat = self.view(-1)
    step = sum(int(np.prod(shape[i + 1:])) for i in range(len(shape)))
    size = min(shape[0], shape[1])
    flat[:(size - 1) * step + 1:step].fill_(fill_value)
    height, width = shape[0], shape[1]
    if wrap and len(shape) == 2 and height > width + 1:
        count = -(-self._data.size // (width + 1)) - size
        start = width * (width + 1)
        flat[start:start + (count - 1) * step + 1:step].fill_(fill_value)
    return self


# the in-place forms torch has (the *_scatter functions have none)
IN_PLACE_METHODS = {**{f"{name}_": in_place_method(name, globals()[name]) for name in __all__
                       if name not in ("select_scatter", "slice_scatter", "diagonal_scatter")},
                    "fill_diagonal_": fill_diagonal_}
