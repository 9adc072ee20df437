"""``torch.random`` and ``torch.Generator``: torch's CPU generator, reproduced
(``reference_engine.torch_random``), as the default generator and as generator objects.

A state (``get_state``, ``get_rng_state``) is a tensor of torch's size (5056 bytes, each an
int64 here, as the engine has no uint8) that only this engine reads back: its bytes are not
torch's layout.
"""

from __future__ import annotations

import builtins
import contextlib
import secrets
from typing import Any, Iterator, Optional

import numpy as np

from reference_engine import rng
from reference_engine.dialects.torch_policy import TORCH
from reference_engine.torch._core import Tensor, _new, _np_dtype, _shape_args, dtype
from reference_engine.torch_random import TorchGenerator

__all__ = ["Generator", "bernoulli", "default_generator", "fork_rng", "get_rng_state", "initial_seed",
           "manual_seed", "normal", "rand", "randn", "seed", "set_rng_state"]

_STATE_BYTES = 5056  # the size of torch's CPU generator state
_KEY_WORDS = 624


class Generator(TorchGenerator):
    """``torch.Generator(device="cpu")``."""

    def __init__(self, device: Any = "cpu") -> None:
        super().__init__()
        self.device = device

    def seed(self) -> int:
        """A fresh nondeterministic seed, set and returned."""
        value = secrets.randbits(63)
        self.manual_seed(value)
        return value

    def get_state(self) -> Tensor:
        seed, engine, cached = self.snapshot()
        words = np.zeros(_STATE_BYTES // 4, np.uint32)
        words[:_KEY_WORDS] = engine["state"]["key"]
        words[_KEY_WORDS] = engine["state"]["pos"]
        words[_KEY_WORDS + 1:_KEY_WORDS + 3] = np.array([seed], np.uint64).view(np.uint32)
        words[_KEY_WORDS + 3] = cached is not None
        words[_KEY_WORDS + 4:_KEY_WORDS + 6] = np.array([cached or 0.0], np.float64).view(np.uint32)
        return Tensor._from_array(words.view(np.uint8).astype(np.int64))

    def set_state(self, new_state: Any) -> Generator:
        words = np.asarray(new_state._data, np.uint8).view(np.uint32)
        engine = {"bit_generator": "MT19937",
                  "state": {"key": words[:_KEY_WORDS].copy(), "pos": int(words[_KEY_WORDS])}}
        seed = int(words[_KEY_WORDS + 1:_KEY_WORDS + 3].copy().view(np.uint64)[0])
        cached = float(words[_KEY_WORDS + 4:_KEY_WORDS + 6].copy().view(np.float64)[0]) \
            if words[_KEY_WORDS + 3] else None
        self.restore((seed, engine, cached))
        return self


default_generator = Generator()
rng.install("torch", default_generator)


def drawing(generator: Optional[TorchGenerator]) -> TorchGenerator:
    """The generator a ``generator=`` argument names: the default one for None."""
    return default_generator if generator is None else generator


def manual_seed(seed: int) -> Generator:
    """``torch.manual_seed``: reseeds the default generator and returns it."""
    return default_generator.manual_seed(int(seed))


def seed() -> int:
    return default_generator.seed()


def initial_seed() -> int:
    return default_generator.initial_seed()


def get_rng_state() -> Any:
    return default_generator.get_state()


def set_rng_state(new_state: Any) -> None:
    default_generator.set_state(new_state)


@contextlib.contextmanager
def fork_rng(devices: Any = None, enabled: bool = True, **_: Any) -> Iterator[None]:
    """Draws inside the block leave the default generator as it was."""
    if not enabled:
        yield
        return
    saved = default_generator.snapshot()
    try:
        yield
    finally:
        default_generator.restore(saved)


def _drawn(draw: Any, size: tuple[Any, ...], dtype_: Optional[dtype], api: str,
           requires_grad: builtins.bool, device: Any) -> Tensor:
    target = _np_dtype(dtype_, api) or np.dtype(TORCH.default_float)
    return _new(draw(_shape_args(size), target), None, requires_grad, device)


def randn(*size: Any, generator: Optional[TorchGenerator] = None, dtype: Optional[dtype] = None,
          device: Any = None, requires_grad: builtins.bool = False, **_: Any) -> Tensor:
    """Standard normal draws of torch's generator."""
    return _drawn(lambda shape, d: drawing(generator).normal(0.0, 1.0, shape, d), size, dtype, "randn",
                  requires_grad, device)


def rand(*size: Any, generator: Optional[TorchGenerator] = None, dtype: Optional[dtype] = None,
         device: Any = None, requires_grad: builtins.bool = False, **_: Any) -> Tensor:
    """Uniform draws in [0, 1) of torch's generator."""
    return _drawn(lambda shape, d: drawing(generator).uniform(0.0, 1.0, shape, d), size, dtype, "rand",
                  requires_grad, device)


def bernoulli(input: Tensor, p: Optional[builtins.float] = None, *,  # noqa: A002
              generator: Optional[TorchGenerator] = None) -> Tensor:
    """``torch.bernoulli``: 1 with each element's probability (or ``p``), by a uniform draw of
    the probabilities' dtype below it."""
    probabilities = input._data if p is None else np.full(input._data.shape, p, np.float64)
    kind = np.float64 if probabilities.dtype == np.float64 else np.float32
    drawn = drawing(generator).uniform(0.0, 1.0, probabilities.shape, kind) < probabilities
    return _new(drawn.astype(input._data.dtype), None, False)


def normal(mean: Any, std: Any = 1.0, size: Any = None, *, generator: Optional[TorchGenerator] = None,
           dtype: Optional[dtype] = None, requires_grad: builtins.bool = False, **_: Any) -> Tensor:
    """``torch.normal``: with two numbers, draws of ``size``; with a tensor, draws of its shape,
    standard normals scaled by ``std`` and shifted by ``mean`` (torch's order of operations)."""
    draws = drawing(generator)
    if not isinstance(mean, Tensor) and not isinstance(std, Tensor):
        target = _np_dtype(dtype, "normal") or np.dtype(TORCH.default_float)
        return _new(draws.normal(mean, std, _shape_args(tuple(size)), target), None, requires_grad)
    like = mean if isinstance(mean, Tensor) else std
    kind = like._data.dtype
    scale = std._data if isinstance(std, Tensor) else None
    drawn = draws.normal(0.0, 1.0 if scale is not None else std, like._data.shape, kind)
    if scale is not None:
        drawn = (drawn * scale).astype(kind)
    shift = mean._data if isinstance(mean, Tensor) else mean
    return _new((drawn + np.asarray(shift, kind)).astype(kind), None, requires_grad)
