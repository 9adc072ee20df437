"""``paddle.base.dygraph``: ``grad`` is ``paddle.grad``; ``guard`` the eager mode the reference
is always in."""

from __future__ import annotations

import contextlib
from typing import Any, Iterator

from reference_engine.framework_names import module_getattr
from reference_engine.paddle._core import grad

__all__ = ["grad", "guard"]


@contextlib.contextmanager
def guard(place: Any = None) -> Iterator[None]:
    """Eager mode within the block (it always is here)."""
    yield


__getattr__ = module_getattr("paddle.base.dygraph")
