"""``paddle.nn.ClipGradByGlobalNorm``, ``ClipGradByNorm`` and ``ClipGradByValue``: given to an
optimizer as ``grad_clip``, each maps the (parameter, gradient) pairs a step reads to clipped
gradients, as paddle's dygraph clip does (new tensors; ``.grad`` is left as it is)."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["ClipGradByGlobalNorm", "ClipGradByNorm", "ClipGradByValue"]

Pairs = list[tuple[Any, Any]]


def _clipped(pairs: Pairs, scale: Any) -> Pairs:
    """Each gradient a parameter allows to be clipped (``need_clip``), times its scale."""
    return [(p, g * scale(g) if getattr(p, "need_clip", True) else g) for p, g in pairs]


class ClipGradByGlobalNorm:
    """Every gradient times ``clip_norm / max(global_norm, clip_norm)``, the global norm being
    the square root of the sum of the gradients' squared L2 norms."""

    def __init__(self, clip_norm: float, group_name: str = "default_group",
                 auto_skip_clip: bool = False) -> None:
        self.clip_norm = float(clip_norm)
        self.auto_skip_clip = auto_skip_clip

    def __call__(self, pairs: Pairs) -> Pairs:
        clipped = [g for p, g in pairs if getattr(p, "need_clip", True)]
        if not clipped:
            return pairs
        dtype = clipped[0]._data.dtype
        squares = [np.sum(np.square(g._data), dtype=g._data.dtype) for g in clipped]
        global_norm = np.sqrt(np.sum(np.array(squares, dtype=dtype), dtype=dtype))
        limit = np.asarray(self.clip_norm, dtype)
        if self.auto_skip_clip and not global_norm > limit:
            return pairs
        factor = limit / np.maximum(global_norm, limit)
        return _clipped(pairs, lambda g: type(g)._from_array(np.asarray(factor, g._data.dtype)))

    def __str__(self) -> str:
        return f"Gradient Clip By GlobalNorm, global_norm={self.clip_norm:f}"


class ClipGradByNorm:
    """Each gradient times ``clip_norm / max(its L2 norm, clip_norm)``."""

    def __init__(self, clip_norm: float) -> None:
        self.clip_norm = float(clip_norm)

    def __call__(self, pairs: Pairs) -> Pairs:
        def scale(g: Any) -> Any:
            dtype = g._data.dtype
            norm = np.sqrt(np.sum(np.square(g._data), dtype=dtype))
            limit = np.asarray(self.clip_norm, dtype)
            return type(g)._from_array(np.asarray(limit / np.maximum(norm, limit), dtype))

        return _clipped(pairs, scale)


class ClipGradByValue:
    """Each gradient clamped to ``[min, max]`` (``min`` defaults to ``-max``)."""

    def __init__(self, max: float, min: Any = None) -> None:  # noqa: A002
        self.max = float(max)
        self.min = -self.max if min is None else float(min)

    def __call__(self, pairs: Pairs) -> Pairs:
        return [(p, g.clip(self.min, self.max) if getattr(p, "need_clip", True) else g)
                for p, g in pairs]
