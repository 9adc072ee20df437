"""``paddle.nn``: ``functional``, ``Layer`` and ``Linear``."""

from reference_engine.paddle.nn import functional
from reference_engine.paddle.nn.layers import Layer, Linear

__all__ = ["Layer", "Linear", "functional"]
