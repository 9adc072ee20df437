"""``paddle.base``: only ``dygraph.grad``, where older programs import ``paddle.grad`` from."""

from reference_engine.paddle.base import dygraph

__all__ = ["dygraph"]
