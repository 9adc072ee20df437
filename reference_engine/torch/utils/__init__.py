"""``torch.utils``: ``data``, the datasets and loader training loops iterate."""

from reference_engine.framework_names import module_getattr
from reference_engine.torch.utils import data

__all__ = ["data"]

__getattr__ = module_getattr("torch.utils")
