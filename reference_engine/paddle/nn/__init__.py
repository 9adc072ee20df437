"""``paddle.nn``: ``functional``, ``initializer``, ``Layer``, ``Sequential``, ``LayerList``,
``Linear``, the activation and loss layers."""

from reference_engine.paddle.nn import functional, initializer
from reference_engine.paddle.nn.layers import *  # noqa: F403
from reference_engine.paddle.nn.layers import __all__ as _layers

__all__ = [*_layers, "functional", "initializer"]
