"""``paddle.utils``: the unique-name generator paddle names layers, parameters and optimizer
accumulators with (``unique_name``). The rest of the namespace is refused by name."""

from __future__ import annotations

from reference_engine.framework_names import module_getattr
from reference_engine.paddle.utils import unique_name

__all__ = ["unique_name"]

__getattr__ = module_getattr("paddle.utils")
