"""``torch.nn.utils.stateless``: the functional call of torch 1.x, now ``torch.func``'s, with
torch's deprecation warning."""

from __future__ import annotations

import warnings
from typing import Any

from reference_engine.framework_names import module_getattr
from reference_engine.torch import func

__all__ = ["functional_call"]


def functional_call(module: Any, parameters_and_buffers: Any, args: Any = None, kwargs: Any = None, *,
                    tie_weights: bool = True, strict: bool = False) -> Any:
    """``module`` run with ``parameters_and_buffers`` in place of its own (torch.func's call)."""
    warnings.warn("`torch.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 and will be "
                  "removed in a future version of PyTorch. Please use `torch.func.functional_call` instead "
                  "which is a drop-in replacement.", FutureWarning, stacklevel=2)
    return func.functional_call(module, parameters_and_buffers, args, kwargs, tie_weights=tie_weights,
                                strict=strict)


__getattr__ = module_getattr("torch.nn.utils.stateless")
