"""paddle's CPU random generator, reproduced: a seeded program draws the numbers paddle draws.

paddle's CPU generator is a ``std::mt19937_64`` that ``paddle.seed(s)`` seeds through
``std::seed_seq{s}``; its kernels draw through libstdc++'s distributions, one distribution
object per kernel call. Measured against paddle 3.3.1 on the CPU:

- uniform (``rand``, ``uniform``, the Uniform / Xavier / Kaiming uniform initializers):
  ``generate_canonical``, one 64-bit draw converted to the dtype and divided by 2^64 (kept
  below 1), then ``u * (max - min) + min`` in the dtype;
- normal (``randn``, ``normal``, the normal initializers): Marsaglia's polar method on two
  such uniforms mapped to [-1, 1), a pair rejected outside the unit disc; an accepted pair
  gives its second value first, and the value left over at the end of a call is dropped;
- integers in ``[low, high)``: Lemire's multiply-and-reject on the 64-bit draws;
- a permutation: ``std::shuffle``, two swaps per draw while the range allows;
- dropout: a float32 uniform per element, dropped below the probability.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

_STATE_WORDS = 312
_MASK32 = 0xFFFFFFFF
_UPPER, _LOWER = np.uint64(0xFFFFFFFF80000000), np.uint64(0x7FFFFFFF)
_MATRIX = np.uint64(0xB5026F5AA96619E9)
_TWO_64 = 2.0 ** 64


def _seed_sequence(seed: int, count: int) -> list[int]:
    """``std::seed_seq{seed}.generate`` of ``count`` 32-bit words."""
    words = [0x8B8B8B8B] * count
    given = [seed & _MASK32]
    t = 11 if count >= 623 else 7 if count >= 68 else 5 if count >= 39 else 3 if count >= 7 else \
        (count - 1) // 2
    p, size = (count - t) // 2, len(given)
    q = p + t

    def mix(x: int) -> int:
        return x ^ (x >> 27)

    for k in range(max(size + 1, count)):
        r1 = 1664525 * mix(words[k % count] ^ words[(k + p) % count] ^ words[(k - 1) % count]) & _MASK32
        r2 = (r1 + (size if k == 0 else k % count + given[k - 1] if k <= size else k % count)) & _MASK32
        words[(k + p) % count] = (words[(k + p) % count] + r1) & _MASK32
        words[(k + q) % count] = (words[(k + q) % count] + r2) & _MASK32
        words[k % count] = r2
    for k in range(max(size + 1, count), max(size + 1, count) + count):
        total = (words[k % count] + words[(k + p) % count] + words[(k - 1) % count]) & _MASK32
        r3 = 1566083941 * mix(total) & _MASK32
        r4 = (r3 - k % count) & _MASK32
        words[(k + p) % count] ^= r3
        words[(k + q) % count] ^= r4
        words[k % count] = r4
    return words


def _to_float32(raw: np.ndarray) -> np.ndarray:
    """uint64 to float32 rounded once, to nearest even (numpy goes through float64)."""
    exponent = np.frexp(raw.astype(np.float64))[1].astype(np.int64)
    exponent = np.where((exponent > 0) & ((raw >> np.maximum(exponent - 1, 0).astype(np.uint64)) == 0),
                        exponent - 1, exponent)
    shift = np.maximum(exponent - 24, 0).astype(np.uint64)
    mantissa = raw >> shift
    remainder = raw - (mantissa << shift)
    half = np.where(shift > 0, np.uint64(1) << np.maximum(shift, 1) - np.uint64(1), 0)
    up = (shift > 0) & ((remainder > half) | ((remainder == half) & (mantissa & np.uint64(1) == 1)))
    return np.ldexp((mantissa + up).astype(np.float64), shift.astype(np.int64)).astype(np.float32)


def _canonical(raw: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """``generate_canonical``: each draw in the dtype, divided by 2^64, kept below 1."""
    kind = np.float64 if np.dtype(dtype) == np.float64 else np.float32
    values = (raw.astype(np.float64) if kind is np.float64 else _to_float32(raw)) / kind(_TWO_64)
    return np.where(values >= 1, np.nextafter(kind(1), kind(0)), values).astype(kind)


class PaddleGenerator:
    """paddle's default CPU generator."""

    def __init__(self, seed: int = 0) -> None:
        self.manual_seed(seed)

    def manual_seed(self, seed: int) -> PaddleGenerator:
        self._seed = int(seed)
        words = _seed_sequence(self._seed, 2 * _STATE_WORDS)
        pairs = np.array(words, np.uint64).reshape(_STATE_WORDS, 2)
        self._state = pairs[:, 0] | (pairs[:, 1] << np.uint64(32))
        self._index = _STATE_WORDS
        self._unread = np.zeros(0, np.uint64)
        return self

    def initial_seed(self) -> int:
        return self._seed

    # --- the engine's raw draws -----------------------------------------------------------

    def _twist(self) -> None:
        state = self._state

        def rows(lo: int, hi: int, following: np.ndarray, far: np.ndarray) -> None:
            x = (state[lo:hi] & _UPPER) | (following & _LOWER)
            shifted = x >> np.uint64(1)
            state[lo:hi] = far ^ np.where((x & np.uint64(1)) != 0, shifted ^ _MATRIX, shifted)

        half = _STATE_WORDS // 2
        rows(0, half, state[1:half + 1].copy(), state[half:].copy())
        rows(half, _STATE_WORDS - 1, state[half + 1:].copy(), state[:half - 1].copy())
        rows(_STATE_WORDS - 1, _STATE_WORDS, state[:1].copy(), state[half - 1:half].copy())
        self._index = 0

    def random64(self, count: int) -> np.ndarray:
        """``count`` 64-bit draws (those handed back by :meth:`_unread_draws` first)."""
        taken, self._unread = self._unread[:count], self._unread[count:]
        out = [taken]
        needed = count - taken.size
        while needed > 0:
            if self._index >= _STATE_WORDS:
                self._twist()
            chunk = self._state[self._index:self._index + needed].copy()
            self._index += chunk.size
            needed -= chunk.size
            chunk ^= (chunk >> np.uint64(29)) & np.uint64(0x5555555555555555)
            chunk ^= (chunk << np.uint64(17)) & np.uint64(0x71D67FFFEDA60000)
            chunk ^= (chunk << np.uint64(37)) & np.uint64(0xFFF7EEE000000000)
            chunk ^= chunk >> np.uint64(43)
            out.append(chunk)
        return np.concatenate(out)

    def _unread_draws(self, draws: np.ndarray) -> None:
        self._unread = np.concatenate([draws, self._unread])

    def _canonical(self, count: int, dtype: np.dtype) -> np.ndarray:
        return _canonical(self.random64(count), dtype)

    # --- distributions -------------------------------------------------------------------


    def uniform(self, low: float, high: float, shape: Sequence[int], dtype: np.dtype,
                layout: Any = None) -> np.ndarray:
        count = int(np.prod(shape, dtype=np.int64))
        unit = self._canonical(count, dtype)
        kind = unit.dtype.type
        # the kernel's bounds are float attributes: float32 whatever the tensor's dtype
        low, high = kind(np.float32(low)), kind(np.float32(high))
        return (unit * (high - low) + low).astype(dtype).reshape(shape)

    def normal(self, mean: float, std: float, shape: Sequence[int], dtype: np.dtype,
               layout: Any = None) -> np.ndarray:
        count = int(np.prod(shape, dtype=np.int64))
        pairs_needed = (count + 1) // 2
        kind = np.float64 if np.dtype(dtype) == np.float64 else np.float32
        accepted: list[np.ndarray] = []
        found = 0
        while found < pairs_needed:
            batch = max(8, int((pairs_needed - found) * 1.35) + 8)
            raw = self.random64(2 * batch)
            unit = _canonical(raw, kind).reshape(batch, 2)
            x, y = kind(2) * unit[:, 0] - kind(1), kind(2) * unit[:, 1] - kind(1)
            r2 = x * x + y * y
            inside = np.flatnonzero((r2 <= 1) & (r2 != 0))
            used = inside[:pairs_needed - found]
            if found + used.size == pairs_needed:  # hand back the draws past the last pair used
                self._unread_draws(raw[2 * (used[-1] + 1):])
            accepted.append(np.stack([x[used], y[used], r2[used]], axis=1))
            found += used.size
        x, y, r2 = np.concatenate(accepted).T
        if kind is np.float32:  # glibc's logf and sqrtf round once: float64 then float32 does too
            log = np.log(r2.astype(np.float64)).astype(np.float32)
            ratio = (np.float32(-2) * log) / r2
            multiplier = np.sqrt(ratio.astype(np.float64)).astype(np.float32)
        else:
            multiplier = np.array([math.sqrt(-2 * math.log(r) / r) for r in r2], np.float64)
        values = np.stack([y * multiplier, x * multiplier], axis=1).reshape(-1)[:count]
        # (mean and std are float attributes of the kernel: float32 whatever the tensor's dtype)
        return (values * kind(np.float32(std)) + kind(np.float32(mean))).astype(dtype).reshape(shape)

    def integers(self, low: int, high: int, shape: Sequence[int]) -> np.ndarray:
        count = int(np.prod(shape, dtype=np.int64))
        return (np.array([self._below(high - low) for _ in range(count)], np.int64) + low).reshape(shape)

    def _below(self, bound: int) -> int:
        """``uniform_int_distribution(0, bound - 1)``: Lemire's method."""
        product = int(self.random64(1)[0]) * bound
        if product % (1 << 64) < bound:
            threshold = ((1 << 64) - bound) % bound
            while product % (1 << 64) < threshold:
                product = int(self.random64(1)[0]) * bound
        return product >> 64

    def permutation(self, n: int) -> np.ndarray:
        """``std::shuffle`` of 0..n-1."""
        order = list(range(n))
        if n < 2:
            return np.array(order, np.int64)
        i = 1
        if n % 2 == 0:
            j = self._below(2)
            order[1], order[j] = order[j], order[1]
            i = 2
        while i < n:
            bound = i + 1
            drawn = self._below(bound * (bound + 1))
            first, second = drawn // (bound + 1), drawn % (bound + 1)
            order[i], order[first] = order[first], order[i]
            order[i + 1], order[second] = order[second], order[i + 1]
            i += 2
        return np.array(order, np.int64)

    def bernoulli(self, p: float, shape: Sequence[int]) -> np.ndarray:
        return self.uniform(0.0, 1.0, shape, np.float32) < p

    def dropout_keep(self, p: float, shape: Sequence[int], layout: Any = None) -> np.ndarray:
        """paddle's dropout mask: a float32 uniform per element, kept unless below ``p``."""
        return ~(self.uniform(0.0, 1.0, shape, np.float32) < p)
