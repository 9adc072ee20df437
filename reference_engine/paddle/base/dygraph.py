"""``paddle.base.dygraph``: ``grad`` is ``paddle.grad``."""

from reference_engine.paddle._core import grad

__all__ = ["grad"]
