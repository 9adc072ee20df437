"""Helpers both generator versions share: nested values and shapes."""

from __future__ import annotations

from typing import Any, Optional


def nest(flat: list[float], shape: tuple[int, ...]) -> Any:
    """A flat list of values as nested lists of ``shape``."""
    if not shape:
        return flat[0]
    step = len(flat) // shape[0]
    return [nest(flat[i * step:(i + 1) * step], shape[1:]) for i in range(shape[0])]


def broadcast(a: tuple[int, ...], b: tuple[int, ...]) -> Optional[tuple[int, ...]]:
    """The broadcast of two shapes, or None when they do not broadcast."""
    out = []
    for x, y in zip((1,) * (len(b) - len(a)) + a, (1,) * (len(a) - len(b)) + b):
        if x != y and 1 not in (x, y):
            return None
        out.append(max(x, y))
    return tuple(out)
