"""torch's lookups and counts over sorted boundaries and sets: ``searchsorted``, ``bucketize``,
``isin`` and ``histc``. None of them records: their results hold positions or counts."""

from __future__ import annotations

import builtins
from typing import Any, Optional

import numpy as np

from reference_engine import ops as F
from reference_engine import rules as R
from reference_engine.dialects.torch_policy import TORCH
from reference_engine.torch._core import Tensor, tensor

__all__ = ["bincount", "bucketize", "histc", "isin", "searchsorted"]


def _positions(values: np.ndarray, boundaries: np.ndarray, right: builtins.bool,
               out_int32: builtins.bool) -> Tensor:
    side = "right" if right else "left"
    if boundaries.ndim <= 1:
        found = np.searchsorted(boundaries, values, side=side)
    else:  # a row of boundaries for each row of values
        rows = zip(boundaries.reshape(-1, boundaries.shape[-1]), values.reshape(-1, values.shape[-1]))
        found = np.stack([np.searchsorted(b, v, side=side) for b, v in rows])
        found = found.reshape(values.shape)
    return tensor(np.asarray(found, np.int32 if out_int32 else np.int64))


def searchsorted(sorted_sequence: Tensor, input: Any, *, out_int32: builtins.bool = False,  # noqa: A002
                 right: builtins.bool = False, side: Optional[str] = None, sorter: Any = None) -> Tensor:
    """Where each value would go in the sorted innermost rows of ``sorted_sequence``."""
    if sorter is not None:
        sorted_sequence = Tensor._from_array(np.take_along_axis(sorted_sequence._data, sorter._data, -1))
    values = input._data if isinstance(input, Tensor) else np.asarray(input)
    return _positions(values, sorted_sequence._data, right or side == "right", out_int32)


def bucketize(input: Any, boundaries: Tensor, *, out_int32: builtins.bool = False,  # noqa: A002
              right: builtins.bool = False) -> Tensor:
    """The bucket of each value among the 1-d ``boundaries``."""
    values = input._data if isinstance(input, Tensor) else np.asarray(input)
    return _positions(values, boundaries._data, right, out_int32)


def isin(elements: Any, test_elements: Any, *, assume_unique: builtins.bool = False,
         invert: builtins.bool = False) -> Tensor:
    """Whether each element is among ``test_elements``."""
    values = elements._data if isinstance(elements, Tensor) else np.asarray(elements)
    tests = test_elements._data if isinstance(test_elements, Tensor) else np.asarray(test_elements)
    return tensor(np.isin(values, tests, invert=invert))


def histc(input: Tensor, bins: builtins.int = 100, min: Any = 0, max: Any = 0) -> Tensor:  # noqa: A002
    """Counts in ``bins`` equal bins between ``min`` and ``max`` (the data's range when both are
    0), a value on ``max`` in the last bin, outside values not counted; in the input's dtype."""
    data = input._data.reshape(-1)
    low, high = builtins.float(min), builtins.float(max)
    if low == high and data.size:
        low, high = builtins.float(data.min()), builtins.float(data.max())
    if low == high:
        low, high = low - 1, high + 1
    counts, _ = np.histogram(data, bins=bins, range=(low, high))
    return Tensor._from_array(counts.astype(input._data.dtype))


def bincount(input: Tensor, weights: Optional[Tensor] = None, minlength: builtins.int = 0) -> Tensor:  # noqa: A002
    """How often each value of a 1-d non-negative integer tensor occurs (int64, not recorded),
    or the sum of ``weights`` per value (float32 weights stay float32, others give float64),
    recorded under a node without derivative."""
    data = input._data
    if data.dtype.kind == "f":
        raise TORCH.error("bitwise_float", name="bincount") if data.dtype == np.float32 else \
            NotImplementedError(f"\"bincount_cpu\" not implemented for '{TORCH.dtype_name(data.dtype)}'")
    if data.ndim != 1 or (data.size and data.min() < 0):
        raise TORCH.error("bincount_input")
    if minlength < 0:
        raise TORCH.error("bincount_minlength")
    if weights is None:
        return Tensor._from_array(np.bincount(data, minlength=minlength).astype(np.int64))
    if weights._data.ndim != 1 or weights._data.shape[0] != data.shape[0]:
        raise TORCH.error("bincount_weights")
    return F.apply(R.RULES["bincount_weighted"], (weights,), {"index": data, "minlength": minlength})


TENSOR_METHODS = {"histc": histc, "bincount": bincount}
