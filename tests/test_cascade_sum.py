"""The reference's torch sums (``reference_engine.cascade_sum``) are torch's CPU sums to the bit:
every dtype torch adds in its own order, every path of its kernel (a contiguous reduced or kept
dimension of at least one vector, scalar rows and columns, outer loops, the cascade's levels),
on contiguous, transposed, sliced and expanded inputs."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from reference_engine.cascade_sum import torch_mean, torch_sum

torch = pytest.importorskip("torch")

SHAPES = [(5,), (8,), (16,), (33,), (100,), (1023,), (1025,), (5000,), (20000,), (3, 7), (7, 33), (64, 3),
          (100, 70), (2, 3, 4), (5, 20, 17), (3, 1, 40), (1, 30), (2, 600, 20), (8, 9, 10, 3)]


def _layouts(rng: np.random.Generator, shape: tuple[int, ...], dtype: type) -> list[np.ndarray]:
    """The same shape laid out contiguous, with its first and last axes' strides swapped, as
    every other element of a twice-as-wide array, and expanded from a row."""
    # terms of two magnitudes, so that the order of addition shows in the last bits
    x = (rng.standard_normal(shape) * rng.choice([1.0, 1000.0], size=shape)).astype(dtype)
    out = [x]
    if len(shape) > 1:
        out.append(np.ascontiguousarray(np.swapaxes(x, 0, -1)).swapaxes(0, -1))
        out.append(np.repeat(x, 2, axis=-1)[..., ::2])
        out.append(np.broadcast_to(x[:1], shape))
    return out


def _reductions(ndim: int) -> list[tuple[int, ...]]:
    singles = [(d,) for d in range(ndim)]
    pairs = list(itertools.combinations(range(ndim), 2)) if ndim > 2 else []
    return [tuple(range(ndim)), *singles, *pairs, (-1,)]


@pytest.fixture(scope="module", autouse=True)
def one_thread():
    """The conformance run's torch adds on one thread (several split a large sum otherwise)."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_sum_and_mean_are_torch_bit_for_bit(shape: tuple[int, ...], dtype: type) -> None:
    rng = np.random.default_rng(len(shape) * 1000 + shape[-1])
    for x in _layouts(rng, shape, dtype):
        theirs = _torch_view(x)
        assert theirs.stride() == tuple(s // x.itemsize for s in x.strides)
        for dims in _reductions(len(shape)):
            for keepdim in (False, True):
                want = theirs.sum(dim=dims, keepdim=keepdim).numpy()
                got = torch_sum(x, dims, keepdim)
                assert got.shape == want.shape and got.dtype == want.dtype
                assert np.array_equal(got, want), (x.strides, dims, keepdim, got - want)
                want_mean = theirs.mean(dim=dims, keepdim=keepdim).numpy()
                assert np.array_equal(torch_mean(x, dims, keepdim), want_mean), (x.strides, dims)


def _torch_view(x: np.ndarray):
    """A torch tensor over ``x``'s own memory with ``x``'s strides (torch.from_numpy refuses a
    zero stride, so an expanded array goes through its base row)."""
    base = x.base if x.base is not None else x
    while base.base is not None:
        base = base.base
    flat = torch.from_numpy(np.ascontiguousarray(base).reshape(-1))
    offset = (x.__array_interface__["data"][0] - base.__array_interface__["data"][0]) // x.itemsize
    return torch.as_strided(flat, x.shape, [s // x.itemsize for s in x.strides], offset)


def test_sums_of_other_dtypes_and_empty_inputs_are_numpy_s() -> None:
    ints = np.arange(12, dtype=np.int64).reshape(3, 4)
    assert np.array_equal(torch_sum(ints, (1,), False), torch.from_numpy(ints).sum(1).numpy())
    empty = np.zeros((0, 3), np.float32)
    assert np.array_equal(torch_sum(empty, (0,), True), torch.from_numpy(empty).sum(0, keepdim=True).numpy())
