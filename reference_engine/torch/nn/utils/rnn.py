"""``torch.nn.utils.rnn``: batching sequences of different lengths."""

from __future__ import annotations

from typing import Sequence

from reference_engine.framework_names import module_getattr
from reference_engine.tensor import Tensor
from reference_engine.torch._core import full

__all__ = ["pad_sequence"]


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
