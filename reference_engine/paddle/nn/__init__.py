"""``paddle.nn``: ``functional``, ``Layer``, ``Sequential``, ``Linear`` and the activation layers."""

from reference_engine.paddle.nn import functional, initializer
from reference_engine.paddle.nn.layers import (
    CrossEntropyLoss,
    Layer,
    Linear,
    MSELoss,
    ReLU,
    Sequential,
    Sigmoid,
    Tanh,
)

__all__ = ["CrossEntropyLoss", "Layer", "Linear", "MSELoss", "ReLU", "Sequential", "Sigmoid",
           "Tanh", "functional", "initializer"]
