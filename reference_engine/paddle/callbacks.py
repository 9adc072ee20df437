"""``paddle.callbacks``: the hooks of ``paddle.Model``'s loops (``reference_engine.paddle.hapi``)."""

from __future__ import annotations

from reference_engine.framework_names import module_getattr
from reference_engine.paddle.hapi import (
    Callback,
    EarlyStopping,
    LRScheduler,
    ModelCheckpoint,
    ProgBarLogger,
)

__all__ = ["Callback", "EarlyStopping", "LRScheduler", "ModelCheckpoint", "ProgBarLogger"]

__getattr__ = module_getattr("paddle.callbacks")
