"""``torch.nn.utils.weight_norm`` (deprecated in torch 2.13, still common): a parameter split
into its norm ``<name>_g`` and direction ``<name>_v``, recomposed before every forward.

The module keeps ``<name>`` as a plain attribute, ``v * (g / ‖v‖)`` with the norm over every
dimension but ``dim`` (WeightNormInterfaceBackward0); a forward pre-hook computes it again, so
each forward differentiates into ``g`` and ``v``. ``dim=None`` takes the norm of the whole
tensor. ``remove_weight_norm`` makes it a parameter again.
"""

from __future__ import annotations

import warnings
from typing import Any, Optional

from reference_engine import composed as C
from reference_engine import ops as F
from reference_engine.torch._core import Tensor
from reference_engine.torch.nn.parameter import Parameter

__all__ = ["remove_weight_norm", "weight_norm"]


def norm_except_dim(v: Tensor, dim: int) -> Tensor:
    """The 2-norm of ``v`` over every dimension but ``dim`` (kept, the others of size 1), or over
    all of it for ``dim`` -1 (a 0-d tensor)."""
    if dim == -1:
        return F.norm(v, 2, None, False)
    others = tuple(d for d in range(v._data.ndim) if d != dim)
    return F.norm(v, 2, others, True)


def recomposed(g: Tensor, v: Tensor, dim: int) -> Tensor:
    """``v * (g / ‖v‖)``, the norm over every dimension but ``dim``."""
    return C.named(F.mul(v, F.div(g, norm_except_dim(v, dim))), "WeightNormInterfaceBackward0")


class WeightNorm:
    """The forward pre-hook that recomposes ``name`` from ``name_g`` and ``name_v``."""

    def __init__(self, name: str, dim: int) -> None:
        self.name, self.dim = name, dim

    def compute_weight(self, module: Any) -> Tensor:
        return recomposed(getattr(module, self.name + "_g"), getattr(module, self.name + "_v"), self.dim)

    def __call__(self, module: Any, inputs: Any) -> None:
        object.__setattr__(module, self.name, self.compute_weight(module))


def weight_norm(module: Any, name: str = "weight", dim: Optional[int] = 0) -> Any:
    """Split ``module.<name>`` into ``<name>_g`` and ``<name>_v`` (registered last, in that order)
    and recompose it before every forward; torch's FutureWarning says it is deprecated."""
    warnings.warn("`torch.nn.utils.weight_norm` is deprecated in favor of "
                  "`torch.nn.utils.parametrizations.weight_norm`.", FutureWarning, stacklevel=2)
    for hook in module._forward_pre_hooks.values():
        if isinstance(hook, WeightNorm) and hook.name == name:
            raise RuntimeError(f"Cannot register two weight_norm hooks on the same parameter {name}")
    dim = -1 if dim is None else dim
    hook = WeightNorm(name, dim)
    weight = getattr(module, name)
    del module._parameters[name]
    module.register_parameter(name + "_g", Parameter(norm_except_dim(weight, dim).detach()))
    module.register_parameter(name + "_v", Parameter(weight.detach()))
    object.__setattr__(module, name, hook.compute_weight(module))
    module.register_forward_pre_hook(hook)
    return module


def remove_weight_norm(module: Any, name: str = "weight") -> Any:
    """``module.<name>`` a parameter again, holding the recomposed values."""
    for key, hook in list(module._forward_pre_hooks.items()):
        if isinstance(hook, WeightNorm) and hook.name == name:
            weight = hook.compute_weight(module)
            del module._forward_pre_hooks[key]
            del module._parameters[name + "_g"], module._parameters[name + "_v"]
            module.__dict__.pop(name, None)
            module.register_parameter(name, Parameter(weight.detach()))
            return module
    raise ValueError(f"weight_norm of '{name}' not found in {module}")
