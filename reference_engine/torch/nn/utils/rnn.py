"""``torch.nn.utils.rnn``: batching sequences of different lengths, padded or packed (a
``PackedSequence``: the running sequences' rows step after step, longest first, which the
recurrent layers run without the padding)."""

from __future__ import annotations

from typing import Any, NamedTuple, Optional, Sequence

import numpy as np

from reference_engine import composed as C
from reference_engine import ops as F
from reference_engine.dialects.torch_policy import TORCH
from reference_engine.framework_names import module_getattr
from reference_engine.tensor import Tensor
from reference_engine.torch._core import full, tensor

__all__ = ["PackedSequence", "pack_padded_sequence", "pack_sequence", "pad_packed_sequence", "pad_sequence"]


class PackedSequence(NamedTuple):
    """torch's packed batch: ``data`` (the rows of each step, time-major), ``batch_sizes`` (how
    many sequences run at each step), and the order the sequences were sorted into by length
    (None where they came sorted) with its inverse."""

    data: Tensor
    batch_sizes: Tensor
    sorted_indices: Optional[Tensor] = None
    unsorted_indices: Optional[Tensor] = None


def pack_padded_sequence(input: Tensor, lengths: Any, batch_first: bool = False,  # noqa: A002
                         enforce_sorted: bool = True) -> PackedSequence:
    """Each step's rows of the sequences still running, longest first (PackPaddedSequenceBackward0);
    unsorted lengths are sorted first (stably, by descending length) unless ``enforce_sorted``."""
    counts = np.asarray(getattr(lengths, "_data", lengths), np.int64).reshape(-1)
    if enforce_sorted:
        if (np.diff(counts) > 0).any():
            raise TORCH.error("packed_unsorted")
        order = None
    else:
        order = np.argsort(-counts, kind="stable")
        input = F.index_select(input, 0 if batch_first else 1, order)  # noqa: A001
        counts = counts[order]
    steps = F.transpose(input, 0, 1) if batch_first else input
    sizes = [int((counts > t).sum()) for t in range(int(counts[0]))]
    data = C.named(F.cat([F.getitem(steps, (t, slice(0, n))) for t, n in enumerate(sizes)], 0),
                   "PackPaddedSequenceBackward0", input)
    if order is None:
        return PackedSequence(data, tensor(np.asarray(sizes, np.int64)))
    return PackedSequence(data, tensor(np.asarray(sizes, np.int64)), tensor(order),
                          tensor(np.argsort(order, kind="stable")))


def pad_packed_sequence(sequence: PackedSequence, batch_first: bool = False, padding_value: float = 0.0,
                        total_length: Optional[int] = None) -> tuple[Tensor, Tensor]:
    """The packed batch padded back to (L, B, *) (or (B, L, *)) in the sequences' own order,
    and their lengths (int64)."""
    sizes = [int(n) for n in sequence.batch_sizes._data]
    batch, rest = sizes[0], tuple(sequence.data.shape[1:])
    longest = len(sizes) if total_length is None else total_length
    rows, start = [], 0
    for t in range(longest):
        n = sizes[t] if t < len(sizes) else 0
        piece = F.getitem(sequence.data, slice(start, start + n))
        start += n
        if n < batch:
            filler = full((batch - n, *rest), padding_value, dtype=sequence.data.dtype)
            piece = F.cat([piece, filler], 0) if n else filler
        rows.append(piece)
    padded = F.stack(rows, 1 if batch_first else 0)
    lengths = np.asarray([sum(1 for n in sizes if n > b) for b in range(batch)], np.int64)
    if sequence.unsorted_indices is not None:
        order = sequence.unsorted_indices._data
        padded = F.index_select(padded, 0 if batch_first else 1, order)
        lengths = lengths[order]
    return padded, tensor(lengths)


def pack_sequence(sequences: Sequence[Tensor], enforce_sorted: bool = True) -> PackedSequence:
    lengths = [s.shape[0] for s in sequences]
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def pad_sequence(sequences: Sequence[Tensor], batch_first: bool = False, padding_value: float = 0.0,
                 padding_side: str = "right") -> Tensor:
    """The sequences (each (L_i, *)) stacked into (L, B, *) (or (B, L, *)), each padded with
    ``padding_value`` to the longest on ``padding_side``: a new tensor the sequences are written
    into, as torch does (CopySlices)."""
    longest = max(s.shape[0] for s in sequences)
    rest = tuple(sequences[0].shape[1:])
    shape = (len(sequences), longest, *rest) if batch_first else (longest, len(sequences), *rest)
    out = full(shape, padding_value, dtype=sequences[0].dtype)
    for i, sequence in enumerate(sequences):
        length = sequence.shape[0]
        steps = slice(0, length) if padding_side == "right" else slice(longest - length, longest)
        out[(i, steps) if batch_first else (steps, i)] = sequence
    return out


__getattr__ = module_getattr("torch.nn.utils.rnn")
