"""torch's in-place shape methods: ``unsqueeze_``, ``squeeze_``, ``t_``, ``transpose_``,
``swapdims_`` and ``swapaxes_`` (``Tensor._restrided_in_place``), each shown under torch's node
for the in-place form (``UnsqueezeBackward1``, ``SqueezeBackward3``/``4``/``5``, ``TBackward1``,
``TransposeBackward1``)."""

from __future__ import annotations

import builtins
from typing import Any

from reference_engine import ops as F
from reference_engine.tensor import Tensor


def unsqueeze_(self: Tensor, dim: builtins.int) -> Tensor:
    return self._restrided_in_place("unsqueeze_", lambda t: F.unsqueeze(t, dim), "UnsqueezeBackward1")


def squeeze_(self: Tensor, dim: Any = None) -> Tensor:
    name = "SqueezeBackward3" if dim is None else \
        "SqueezeBackward4" if isinstance(dim, builtins.int) else "SqueezeBackward5"
    return self._restrided_in_place("squeeze_", lambda t: t.squeeze(dim), name)


def t_(self: Tensor) -> Tensor:
    return self._restrided_in_place("t_", lambda t: F.t(t, "t_"), "TBackward1")


def transpose_(self: Tensor, dim0: builtins.int, dim1: builtins.int) -> Tensor:
    return self._restrided_in_place("transpose_", lambda t: F.transpose(t, dim0, dim1), "TransposeBackward1")


TENSOR_METHODS = {"unsqueeze_": unsqueeze_, "squeeze_": squeeze_, "t_": t_, "transpose_": transpose_,
                  "swapdims_": transpose_, "swapaxes_": transpose_}
