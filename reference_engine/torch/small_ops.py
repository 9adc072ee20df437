"""torch's small aliases and compositions everyday code reaches for: the named arithmetic
methods (``multiply``, ``true_divide`` …), ``concatenate``, ``hstack`` / ``vstack``,
``movedim`` / ``moveaxis`` / ``swapaxes``, ``unflatten``, ``addcmul`` / ``addcdiv`` (each one
node, as torch records it), and the storage facts ``element_size`` / ``nbytes`` /
``itemsize``, and the older names of ``torch.linalg`` functions (``inverse``, ``det``,
``slogdet``, ``logdet``). Functions here are also Tensor methods."""

from __future__ import annotations

import builtins
from typing import Any, Sequence

import numpy as np

from reference_engine import composed as C
from reference_engine import ops as F
from reference_engine.torch import extras, linalg, return_types
from reference_engine.torch._core import Tensor

__all__ = ["addcdiv", "addcmul", "bitwise_and", "bitwise_not", "bitwise_or", "bitwise_xor", "concatenate",
           "det", "diff", "hstack", "inverse", "logdet", "movedim", "moveaxis", "slogdet", "swapaxes",
           "true_divide", "vstack"]


def diff(input: Tensor, n: builtins.int = 1, dim: builtins.int = -1, prepend: Any = None,  # noqa: A002
         append: Any = None) -> Tensor:
    """With ``n`` 0 a copy of ``input`` (CopyBackwards), ``prepend`` and ``append`` ignored."""
    if n == 0:
        return C.named(F.clone(input), "torch::autograd::CopyBackwards", input)
    return C.diff(input, n, dim, prepend, append)


def true_divide(input: Tensor, other: Any) -> Tensor:  # noqa: A002
    return F.div(input, other)


def concatenate(tensors: Sequence[Tensor], dim: builtins.int = 0, axis: Any = None) -> Tensor:
    return F.cat(list(tensors), dim if axis is None else axis)


def hstack(tensors: Sequence[Tensor]) -> Tensor:
    """Along the second dimension (the first, for vectors)."""
    return F.cat(list(tensors), 0 if tensors[0].dim() == 1 else 1)


def vstack(tensors: Sequence[Tensor]) -> Tensor:
    """Along the first dimension, vectors as rows."""
    return F.cat([t if t.dim() > 1 else F.unsqueeze(t, 0) for t in tensors], 0)


def movedim(input: Tensor, source: Any, destination: Any) -> Tensor:  # noqa: A002
    """The dimensions ``source`` moved to ``destination``, the others in order (PermuteBackward0)."""
    n = input.dim()
    sources = [s % n for s in ([source] if isinstance(source, int) else source)]
    targets = [d % n for d in ([destination] if isinstance(destination, int) else destination)]
    rest = iter(d for d in range(n) if d not in sources)
    placed = dict(zip(targets, sources))
    return F.permute(input, [placed[i] if i in placed else next(rest) for i in range(n)])


moveaxis = movedim


def swapaxes(input: Tensor, axis0: builtins.int, axis1: builtins.int) -> Tensor:  # noqa: A002
    return F.transpose(input, axis0, axis1)


def addcmul(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Any = 1) -> Tensor:  # noqa: A002
    """``input + value * tensor1 * tensor2`` (AddcmulBackward0)."""
    return C.named(F.add(input, F.mul(F.mul(tensor1, tensor2), value)), "AddcmulBackward0", input)


def addcdiv(input: Tensor, tensor1: Tensor, tensor2: Tensor, *, value: Any = 1) -> Tensor:  # noqa: A002
    """``input + value * tensor1 / tensor2`` (AddcdivBackward0)."""
    return C.named(F.add(input, F.mul(F.div(tensor1, tensor2), value)), "AddcdivBackward0", input)


def _unflatten(self: Tensor, dim: builtins.int, sizes: Sequence[builtins.int]) -> Tensor:
    d = dim % self.dim()
    return F.reshape(self, (*self.shape[:d], *sizes, *self.shape[d + 1:]))


def inverse(input: Tensor) -> Tensor:  # noqa: A002
    """``torch.linalg.inv`` by its older name."""
    return linalg.inv(input)


def det(input: Tensor) -> Tensor:  # noqa: A002
    """``torch.linalg.det`` by its older name."""
    return linalg.det(input)


def slogdet(input: Tensor) -> Any:  # noqa: A002
    """``torch.linalg.slogdet``, its result named ``torch.return_types.slogdet``."""
    return return_types.slogdet(*linalg.slogdet(input))


def logdet(input: Tensor) -> Tensor:  # noqa: A002
    """``log det``: slogdet's logabsdet where the sign is not -1, NaN where it is (torch's
    composition, a WhereBackward0 over the slogdet node)."""
    sign, logabsdet = linalg.slogdet(input)
    nan = F.constant_like(logabsdet, np.full(logabsdet.shape, np.nan, logabsdet._data.dtype))
    return F.where(F.constant_like(sign, sign._data == -1), nan, logabsdet)


def bitwise_and(input: Tensor, other: Any) -> Tensor:  # noqa: A002
    """``input & other`` of integer or boolean tensors (logical for booleans)."""
    return F.bitwise(np.bitwise_and, input, other)


def bitwise_or(input: Tensor, other: Any) -> Tensor:  # noqa: A002
    return F.bitwise(np.bitwise_or, input, other)


def bitwise_xor(input: Tensor, other: Any) -> Tensor:  # noqa: A002
    return F.bitwise(np.bitwise_xor, input, other)


def bitwise_not(input: Tensor) -> Tensor:  # noqa: A002
    """``~input``: each bit flipped (``not`` for booleans)."""
    return F.bitwise(np.invert, input)


TENSOR_METHODS = {
    **{name: globals()[name] for name in ("addcdiv", "addcmul", "bitwise_and", "bitwise_not", "bitwise_or",
                                          "bitwise_xor", "det", "diff", "inverse", "logdet", "movedim",
                                          "moveaxis", "slogdet", "swapaxes", "true_divide")},
    "nonzero": lambda self, *, as_tuple=False: extras.nonzero(self, as_tuple=as_tuple),
    "argwhere": lambda self: extras.nonzero(self), "sgn": lambda self: F.sgn(self),
    "multiply": lambda self, other: F.mul(self, other), "subtract": lambda self, other, alpha=1: (
        F.sub(self, other) if alpha == 1 else F.scaled("sub", self, other, alpha)),
    "divide": lambda self, other: F.div(self, other), "unflatten": _unflatten,
    "element_size": lambda self: self._data.itemsize, "itemsize": property(lambda self: self._data.itemsize),
    "nbytes": property(lambda self: self._data.nbytes),
}
