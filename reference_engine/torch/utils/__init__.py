"""``torch.utils``: ``data``, the datasets and loader training loops iterate, and
``checkpoint`` (activation checkpointing)."""

from reference_engine.framework_names import module_getattr
from reference_engine.torch.utils import checkpoint, data

__all__ = ["checkpoint", "data"]

__getattr__ = module_getattr("torch.utils")
