"""``torch.autograd.forward_ad``: dual tensors (a primal and its tangent) inside a
``dual_level``; every op on them carries the tangent forward (``reference_engine.dual``).
``make_dual`` is a view of its primal (ViewBackward0), its tangent the tensor given where it
fits the primal's layout; ``unpack_dual`` gives the primal as a view and the tangent; leaving
the level drops every tangent. One level at a time, as torch allows."""

from __future__ import annotations

from collections import namedtuple
from typing import Any, Optional

from reference_engine import dual
from reference_engine.dialects.torch_policy import TORCH
from reference_engine.framework_names import module_getattr
from reference_engine.torch._core import Tensor

__all__ = ["UnpackedDualTensor", "dual_level", "enter_dual_level", "exit_dual_level", "make_dual",
           "unpack_dual"]

UnpackedDualTensor = namedtuple("UnpackedDualTensor", ["primal", "tangent"])


def enter_dual_level() -> int:
    """Open the dual level (nested ones are refused, as torch refuses them)."""
    if dual.is_open():
        raise TORCH.error("forward_ad_nested")
    return dual.open_level()


def exit_dual_level(*, level: Optional[int] = None) -> None:
    dual.close_level()


class dual_level:  # noqa: N801 - torch's name
    """``with dual_level():`` — dual tensors made inside lose their tangents on leaving."""

    def __enter__(self) -> int:
        return enter_dual_level()

    def __exit__(self, *exc_info: object) -> None:
        exit_dual_level()


def make_dual(tensor: Tensor, tangent: Tensor, *, level: Optional[int] = None) -> Tensor:
    """A view of ``tensor`` carrying ``tangent`` (a copy of it in the primal's layout when its
    own differs, as torch copies a transposed tangent)."""
    if not dual.is_open():
        raise TORCH.error("forward_ad_no_level")
    if tuple(tangent.shape) != tuple(tensor.shape):
        raise TORCH.error("forward_ad_size", size=list(tensor.shape), tangent_size=list(tangent.shape))
    out = tensor.view_as(tensor)
    same_layout = tangent._data.strides == tensor._data.strides and tangent._data.dtype == tensor._data.dtype
    dual.set_tangent(out, tangent if same_layout else tangent.to(tensor.dtype).contiguous().clone())
    return out


def unpack_dual(tensor: Tensor, *, level: Optional[int] = None) -> Any:
    """``(primal, tangent)``: the primal a view without the tangent (the tensor itself outside
    a level), the tangent None where there is none."""
    tangent = dual.tangent_of(tensor)
    if tangent is None:
        return UnpackedDualTensor(tensor, None)
    primal = tensor.view_as(tensor)
    dual.set_tangent(primal, None)
    return UnpackedDualTensor(primal, tangent)


__getattr__ = module_getattr("torch.autograd.forward_ad")
