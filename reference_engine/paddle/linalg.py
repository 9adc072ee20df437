"""``paddle.linalg``: ``norm`` (the same function as ``paddle.norm``)."""

from reference_engine.paddle.extras import norm

__all__ = ["norm"]
