"""torch's CPU random generator, reproduced: a seeded program draws the numbers torch draws.

torch's ``CPUGeneratorImpl`` is a 32-bit Mersenne Twister (``mt19937``, seeded with the low 32
bits of the seed) whose outputs ATen's distributions transform (``ATen/core/DistributionsHelper.h``
and ``ATen/native/cpu/DistributionTemplates.h``); numpy's ``MT19937`` with its legacy seeding
is the same engine. Measured against torch 2.13 on the CPU:

- uniform: a float32 takes the low 24 bits of one 32-bit draw, a float64 the low 53 bits of a
  64-bit draw (two 32-bit draws, the first the high half), times 2^-digits, then
  ``x * (to - from) + from`` in the dtype;
- normal, 16 values or more of a contiguous tensor: all of them drawn uniform first, then
  Box-Muller over blocks of 16 (``1 - u`` of the first 8 as the radius's, the last 8 as the
  angle's), the last block redrawn when the count is not a multiple of 16;
- normal, fewer: ``normal_distribution<double>``, two float64 uniforms per pair, the second
  value of a pair kept by the generator for the next draw (a reseed drops it);
- integers in ``[low, high)``: a 32-bit draw modulo the range (a 64-bit one for a range of
  2^32 or more); a full-range ``random_`` of int64: a 64-bit draw modulo 2^63;
- a permutation: Fisher-Yates from the front, ``random() % (n - i)`` for step ``i``;
- Bernoulli: a float64 uniform below ``p``.

A fill of a tensor that is not contiguous (a transposed view, or dropout's mask, made with its
input's strides) draws in the order of memory, not of indices; a normal fill of one takes the
per-value path whatever its size.

float32 normals may differ from torch's in the last bit (its vectorised log and cos).
"""

from __future__ import annotations

import math
from typing import Optional, Sequence

import numpy as np

from reference_engine import vector_math

_U32 = np.uint64(0xFFFFFFFF)


class TorchGenerator:
    """One of torch's CPU generators: ``torch.Generator()`` or the default one."""

    def __init__(self, seed: int = 67280421310721) -> None:
        self.manual_seed(seed)

    def manual_seed(self, seed: int) -> TorchGenerator:
        self._seed = int(seed) & 0xFFFFFFFFFFFFFFFF
        self._engine = np.random.MT19937()
        self._engine._legacy_seeding(self._seed & 0xFFFFFFFF)
        self._next_normal: Optional[float] = None
        return self

    def initial_seed(self) -> int:
        return self._seed

    # --- the engine's raw draws -----------------------------------------------------------

    def random32(self, count: int) -> np.ndarray:
        """``count`` 32-bit draws, as uint64."""
        if count <= 0:
            return np.zeros(0, np.uint64)
        return self._engine.random_raw(count).astype(np.uint64)

    def random64(self, count: int) -> np.ndarray:
        """``count`` 64-bit draws: two 32-bit draws each, the first the high half."""
        pairs = self.random32(2 * count).reshape(count, 2)
        return (pairs[:, 0] << np.uint64(32)) | pairs[:, 1]

    # --- distributions -------------------------------------------------------------------

    def uniform(self, low: float, high: float, shape: Sequence[int], dtype: np.dtype,
                layout: Optional[np.ndarray] = None) -> np.ndarray:
        """``Tensor.uniform_(low, high)``: draws in [low, high) in ``dtype``, in the memory order
        of ``layout`` (the tensor filled) where given."""
        count = int(np.prod(shape, dtype=np.int64))
        dtype = np.dtype(dtype)
        if dtype == np.float64:
            unit = (self.random64(count) & np.uint64((1 << 53) - 1)).astype(np.float64) * 2.0 ** -53
            return _placed(unit * (high - low) + low, shape, layout)
        # the bounds in dtype, the arithmetic in double (the CPU kernel's accumulate type), one
        # rounding to dtype at the end (measured: in float32 throughout, half the draws of
        # uniform_(-b, b) came out an ulp off)
        unit = (self.random32(count) & np.uint64((1 << 24) - 1)).astype(np.float64) * 2.0 ** -24
        start, end = np.float64(dtype.type(low)), np.float64(dtype.type(high))
        return _placed((unit * (end - start) + start).astype(dtype), shape, layout)

    def exponential(self, rate: float, shape: Sequence[int], dtype: np.dtype,
                    layout: Optional[np.ndarray] = None) -> np.ndarray:
        """``Tensor.exponential_(rate)``: ``-log1p(-u) / rate`` of a 53-bit uniform per element,
        in double, then in ``dtype`` (torch's CPU kernel, in the tensor's memory order)."""
        count = int(np.prod(shape, dtype=np.int64))
        unit = (self.random64(count) & np.uint64((1 << 53) - 1)).astype(np.float64) * 2.0 ** -53
        return _placed((-1.0 / rate * np.log1p(-unit)).astype(dtype), shape, layout)

    def normal(self, mean: float, std: float, shape: Sequence[int], dtype: np.dtype,
               layout: Optional[np.ndarray] = None) -> np.ndarray:
        """``Tensor.normal_(mean, std)`` / ``randn``: see the module's docstring."""
        count = int(np.prod(shape, dtype=np.int64))
        dtype = np.dtype(dtype)
        if count < 16 or not _contiguous(layout):
            values = np.array([self._normal_double() * std + mean for _ in range(count)], dtype=np.float64)
            return _placed(values.astype(dtype), shape, layout)
        work = np.float64 if dtype == np.float64 else np.float32
        data = self.uniform(0.0, 1.0, (count,), work)
        for start in range(0, count - 15, 16):
            data[start:start + 16] = _box_muller_16(data[start:start + 16], mean, std)
        if count % 16:
            data[count - 16:] = _box_muller_16(self.uniform(0.0, 1.0, (16,), work), mean, std)
        return data.astype(dtype).reshape(shape)

    def _normal_double(self) -> float:
        if self._next_normal is not None:
            value, self._next_normal = self._next_normal, None
            return value
        u1, u2 = self.uniform(0.0, 1.0, (2,), np.float64)
        radius = math.sqrt(-2.0 * math.log1p(-u2))
        theta = 2.0 * math.pi * u1
        self._next_normal = radius * math.sin(theta)
        return radius * math.cos(theta)

    def integers(self, low: int, high: int, shape: Sequence[int]) -> np.ndarray:
        """``randint(low, high)``: int64 draws in [low, high)."""
        count = int(np.prod(shape, dtype=np.int64))
        span = high - low
        raw = self.random64(count) if span >= 1 << 32 else self.random32(count)
        return ((raw % np.uint64(span)).astype(np.int64) + low).reshape(shape)

    def full_range_int64(self) -> int:
        """``torch.empty((), dtype=torch.int64).random_()``: what seeds a sampler's generator."""
        return int(self.random64(1)[0] % np.uint64(1 << 63))

    def permutation(self, n: int) -> np.ndarray:
        """``randperm(n)``."""
        order = np.arange(n, dtype=np.int64)
        for i in range(n - 1):
            j = i + int(self.random32(1)[0]) % (n - i)
            order[i], order[j] = order[j], order[i]
        return order

    def bernoulli(self, p: float, shape: Sequence[int], layout: Optional[np.ndarray] = None) -> np.ndarray:
        """``Tensor.bernoulli_(p)``: booleans, True with probability ``p``."""
        return self.uniform(0.0, 1.0, shape, np.float64, layout) < p

    def dropout_keep(self, p: float, shape: Sequence[int], layout: Optional[np.ndarray] = None) -> np.ndarray:
        """torch's dropout mask: ``bernoulli_(1 - p)`` of a tensor with its input's strides."""
        return self.bernoulli(1.0 - p, shape, layout)

    def snapshot(self) -> tuple[int, dict, Optional[float]]:
        """A copy of the generator's state: its seed, the engine's and the cached normal."""
        return self._seed, self._engine.state, self._next_normal

    def restore(self, snapshot: tuple[int, dict, Optional[float]]) -> None:
        """Go back to a state :meth:`snapshot` took."""
        self._seed, engine_state, self._next_normal = snapshot
        self._engine.state = engine_state


def _contiguous(layout: Optional[np.ndarray]) -> bool:
    return layout is None or layout.flags.c_contiguous


def _placed(values: np.ndarray, shape: Sequence[int], layout: Optional[np.ndarray]) -> np.ndarray:
    """``values`` (in the order they were drawn) as an array of ``shape``, laid in the memory
    order of ``layout``: its axes from the largest stride to the smallest."""
    if _contiguous(layout):
        return values.reshape(shape)
    order = sorted(range(layout.ndim), key=lambda axis: -layout.strides[axis])
    laid = values.reshape([layout.shape[axis] for axis in order])
    return np.ascontiguousarray(laid.transpose(np.argsort(order)))


def _box_muller_16(block: np.ndarray, mean: float, std: float) -> np.ndarray:
    """ATen's ``normal_fill_16``: 16 uniforms into 16 normals, in the block's dtype. float32
    blocks go through its AVX2 kernel (``reference_engine.vector_math``: Cephes' log and sincos,
    then ``n · std + mean`` fused); float64 ones through the scalar kernel in double."""
    kind = block.dtype.type
    u1, u2 = 1 - block[:8], block[8:]
    if block.dtype == np.float32:
        radius = np.sqrt(np.float32(-2) * vector_math.cephes_log(u1))
        sine, cosine = vector_math.cephes_sincos(np.float32(2.0 * math.pi) * u2)
        return np.concatenate([vector_math.multiply_add(radius * cosine, np.float32(std), np.float32(mean)),
                               vector_math.multiply_add(radius * sine, np.float32(std), np.float32(mean))])
    radius = np.sqrt(kind(-2) * np.log(u1))
    theta = kind(2.0 * math.pi) * u2
    return np.concatenate([radius * np.cos(theta) * kind(std) + kind(mean),
                           radius * np.sin(theta) * kind(std) + kind(mean)]).astype(block.dtype)
