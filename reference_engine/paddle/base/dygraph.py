"""``paddle.base.dygraph``: ``grad`` is ``paddle.grad``."""

from reference_engine.paddle import grad

__all__ = ["grad"]
