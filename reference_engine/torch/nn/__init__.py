"""``torch.nn``: only ``functional`` is modelled."""

from reference_engine.torch.nn import functional

__all__ = ["functional"]
