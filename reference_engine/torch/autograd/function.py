"""``torch.autograd.function``: where programs import ``Function`` and ``once_differentiable``."""

from reference_engine.torch.autograd._core import Function, FunctionCtx, once_differentiable

__all__ = ["Function", "FunctionCtx", "once_differentiable"]
