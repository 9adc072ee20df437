"""``paddle.nn``: ``functional``, ``Layer``, ``Sequential``, ``Linear`` and the activation layers."""

from reference_engine.paddle.nn import functional
from reference_engine.paddle.nn.layers import Layer, Linear, ReLU, Sequential, Sigmoid, Tanh

__all__ = ["Layer", "Linear", "ReLU", "Sequential", "Sigmoid", "Tanh", "functional"]
