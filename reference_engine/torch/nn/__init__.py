"""``torch.nn``: ``functional``, ``Parameter``, ``Module``, ``Linear`` and ``MSELoss``."""

from reference_engine.torch.nn import functional
from reference_engine.torch.nn.modules import Linear, Module, MSELoss
from reference_engine.torch.nn.parameter import Parameter

__all__ = ["Linear", "MSELoss", "Module", "Parameter", "functional"]
