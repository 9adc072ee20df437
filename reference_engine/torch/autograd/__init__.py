"""``torch.autograd``: ``backward`` and ``grad`` with torch 2.13's signatures, ``Function``, and
the submodules programs import (``forward_ad``, ``function``, ``functional``, ``graph``,
``gradcheck``)."""

from reference_engine.framework_names import module_getattr
from reference_engine.torch.autograd import _core, forward_ad, function, functional, graph
from reference_engine.torch.autograd._core import *  # noqa: F403
from reference_engine.torch.autograd.gradcheck import gradcheck, gradgradcheck

__all__ = [*_core.__all__, "forward_ad", "function", "functional", "graph", "gradcheck", "gradgradcheck"]

__getattr__ = module_getattr("torch.autograd")
