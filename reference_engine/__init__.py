"""A small, readable, pure-numpy autograd engine with PyTorch's and Paddle's semantics.

Import a dialect, not this package: ``import reference_engine.torch as torch``.
"""

# the derivative table fills the rule registry the recorder looks operations up in
from reference_engine import rules as _rules  # noqa: F401

__version__ = "0.1.0"
