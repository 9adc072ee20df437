"""What torch 2.13's ``matmul`` saves of its operands, for the backward's version checks.

``torch.matmul`` is not one kernel: it reshapes its operands and calls ``dot``, ``mv``, ``mm``
or ``bmm``, and the backward saves those reshaped operands. A reshape that can view the
operand is a view (torch names it ``AsStrided`` once the operand was written in place, with the
view's shape); one that cannot is a copy, which later writes never reach. The layouts below
were measured on torch 2.13.0 for every pair of ranks 1-4, with and without size-1 batch dims.
"""

from __future__ import annotations

from typing import Union

import numpy as np

# an operand saved as itself (None), as a view of this shape, or as a copy ("copy")
Layout = Union[None, tuple[int, ...], str]


def saved_layouts(a: np.ndarray, b: np.ndarray) -> tuple[Layout, Layout]:
    """How torch saves ``a`` and ``b`` for ``matmul(a, b)``."""
    na, nb = a.ndim, b.ndim
    if na <= 2 and nb <= 2:
        return ((1,) + a.shape if (na, nb) == (1, 2) else None), None
    if na == nb == 3 and (a.shape[0] == 1) != (b.shape[0] == 1):
        # a 3-d operand with a batch of one is squeezed to a matrix, and the product folded
        a, b = (a[0], b) if a.shape[0] == 1 else (a, b[0])
        folded_a, folded_b = saved_layouts(a, b)
        return (a.shape if folded_a is None else folded_a), (b.shape if folded_b is None else
                                                             folded_b)
    if nb <= 2:  # the larger operand folded into a matrix: (..., n, k) -> (-1, k)
        return _reshaped(a, (-1, a.shape[-1])), None
    if na <= 2:  # folded the other way round: b's transpose, and a's transpose when a matrix
        return (a.T.shape if na == 2 else None), _reshaped(np.swapaxes(b, -1, -2),
                                                           (-1, b.shape[-2]))
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    size = int(np.prod(batch))
    return tuple(_reshaped(np.broadcast_to(t, batch + t.shape[-2:]), (size,) + t.shape[-2:])
                 for t in (a, b))


def unpacked_first(a_shape: tuple[int, ...], b_shape: tuple[int, ...]) -> str:
    """Which operand's saved form torch unpacks first: the kernel's own names in alphabetical
    order (``dot(self, tensor)``, ``mv(self, vec)``, ``mm(self, mat2)``, ``bmm(self, mat2)``),
    after the fold that may swap the operands."""
    na, nb = len(a_shape), len(b_shape)
    if na == nb == 3 and (a_shape[0] == 1) != (b_shape[0] == 1):
        na, nb = (2, 3) if a_shape[0] == 1 else (3, 2)
    if na <= 2 and nb >= 3:  # b's transpose is the kernel's self, a its vec or mat2
        return "b" if na == 1 else "a"
    return "a" if nb == 1 else "b"


def reaches_b_first(a_shape: tuple[int, ...], b_shape: tuple[int, ...]) -> bool:
    """Whether ``b``'s leaf accumulates before ``a``'s when both are leaves: the operand that
    reaches the kernel without a reshape of its own (or whose reshape was recorded last) runs
    first. Measured on torch 2.13.0 for every pair of ranks 1-4, with and without size-1 batch
    dims: ``a`` first for a dot, ``mv``, ``mm`` and a vector or matrix times a batch, and for a
    batch times a batch of one of rank 3; ``b`` first otherwise."""
    na, nb = len(a_shape), len(b_shape)
    if na == nb == 3 and b_shape[0] == 1 and a_shape[0] != 1:
        return False
    return not (na <= 2 and (na, nb) != (1, 2))


def transposes_result(a_shape: tuple[int, ...], b_shape: tuple[int, ...]) -> bool:
    """Whether torch folds ``b``'s transpose and so copies the product back (``CloneBackward0``)."""
    na, nb = len(a_shape), len(b_shape)
    if na == nb == 3 and a_shape[0] == 1 and b_shape[0] != 1:
        return True
    return na == 2 and nb >= 3


def _reshaped(array: np.ndarray, shape: tuple[int, ...]) -> Layout:
    """The view's shape when ``array`` reshapes without copying (numpy and torch share the
    rule), else "copy"."""
    reshaped = np.reshape(array, shape)
    return reshaped.shape if np.may_share_memory(reshaped, array) else "copy"
