"""``paddle.linalg``: ``norm`` (the same function as ``paddle.norm``)."""

from reference_engine.framework_names import module_getattr
from reference_engine.paddle.extras import norm

__all__ = ["norm"]

__getattr__ = module_getattr("paddle.linalg")
