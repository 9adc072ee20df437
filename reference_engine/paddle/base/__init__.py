"""``paddle.base``: the legacy namespace older programs reach paddle through: ``dygraph``
(``grad``, ``guard``), the flags and the mode queries."""

from reference_engine.framework_names import module_getattr
from reference_engine.paddle._core import in_dynamic_mode
from reference_engine.paddle.base import dygraph
from reference_engine.paddle.flags import get_flags, set_flags

__all__ = ["dygraph", "get_flags", "in_dygraph_mode", "in_dynamic_mode", "set_flags"]

in_dygraph_mode = in_dynamic_mode

__getattr__ = module_getattr("paddle.base")
