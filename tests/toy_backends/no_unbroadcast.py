"""Gradients of broadcast operands are not summed back to the operand's shape."""

from reference_engine import engine
from reference_engine.torch import *  # noqa: F403


class _KeepShape:
    def __getattr__(self, name):
        from reference_engine import ops

        return (lambda g, shape: g) if name == "sum_to_shape" else getattr(ops, name)


engine.F = _KeepShape()
