"""``paddle.utils.unique_name``: names numbered per key in the process (``linear_0``,
``linear_1``; ``linear_0.w_0``), as paddle's generator numbers them. ``guard()`` swaps in a
fresh generator for a block (a model built inside it numbers from 0 again), then restores the
one before, as paddle's does."""

from __future__ import annotations

import contextlib
import itertools
from typing import Any, Iterator, Optional

from reference_engine.framework_names import module_getattr

__all__ = ["UniqueNameGenerator", "generate", "guard", "switch"]


class UniqueNameGenerator:
    """``generate(key)`` gives ``{prefix}{key}_{n}``, ``n`` counting that key from 0."""

    def __init__(self, prefix: Optional[str] = None) -> None:
        self.prefix = prefix or ""
        self._counts: dict[str, Any] = {}

    def __call__(self, key: str) -> str:
        return f"{self.prefix}{key}_{next(self._counts.setdefault(key, itertools.count()))}"


_current = [UniqueNameGenerator()]


def generate(key: str) -> str:
    """The next name for ``key`` from the generator in use."""
    return _current[0](key)


def switch(new_generator: Optional[UniqueNameGenerator] = None) -> UniqueNameGenerator:
    """Put ``new_generator`` (a fresh one if None) in use; return the one it replaces."""
    old = _current[0]
    _current[0] = new_generator if new_generator is not None else UniqueNameGenerator()
    return old


@contextlib.contextmanager
def guard(new_generator: Any = None) -> Iterator[None]:
    """A fresh generator (or one with the prefix ``new_generator`` names) for the block."""
    if isinstance(new_generator, (str, bytes)):
        new_generator = UniqueNameGenerator(new_generator.decode() if isinstance(new_generator, bytes)
                                            else new_generator)
    old = switch(new_generator)
    try:
        yield
    finally:
        switch(old)


__getattr__ = module_getattr("paddle.utils.unique_name")
