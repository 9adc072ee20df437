"""``paddle.nn``: only ``functional`` is modelled."""

from reference_engine.paddle.nn import functional

__all__ = ["functional"]
