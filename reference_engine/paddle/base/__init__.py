"""``paddle.base``: only ``dygraph.grad``, where older programs import ``paddle.grad`` from."""

from reference_engine.framework_names import module_getattr
from reference_engine.paddle.base import dygraph

__all__ = ["dygraph"]

__getattr__ = module_getattr("paddle.base")
