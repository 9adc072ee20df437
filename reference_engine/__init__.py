"""A small, readable, pure-numpy autograd engine with PyTorch's and Paddle's semantics.

Import a dialect, not this package: ``import reference_engine.torch as torch``.
"""

__version__ = "0.1.0"
