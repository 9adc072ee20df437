"""``paddle.framework``: the legacy home of ``ParamAttr`` and the mode queries."""

from reference_engine.framework_names import module_getattr
from reference_engine.paddle._core import in_dynamic_mode
from reference_engine.paddle.param_attr import ParamAttr

__all__ = ["ParamAttr", "in_dynamic_mode"]

__getattr__ = module_getattr("paddle.framework")
