"""``torch.nn``: ``functional``, ``Parameter``, ``Module``, ``Sequential``, ``Linear``, the
activation modules, ``MSELoss`` and ``utils`` (gradient clipping)."""

from reference_engine.torch.nn import functional, utils
from reference_engine.torch.nn.modules import (
    CrossEntropyLoss,
    Linear,
    Module,
    MSELoss,
    ReLU,
    Sequential,
    Sigmoid,
    Tanh,
)
from reference_engine.torch.nn.parameter import Parameter

__all__ = ["CrossEntropyLoss", "Linear", "MSELoss", "Module", "Parameter", "ReLU", "Sequential",
           "Sigmoid", "Tanh", "functional", "utils"]
