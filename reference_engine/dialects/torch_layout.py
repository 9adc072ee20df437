"""torch's memory layouts, where they differ from numpy's: the strides of what its elementwise
kernels write (TensorIterator), of the views reshape makes (``computeStride``), and its
gradient layout contract.

They differ mostly in dimensions of size 1, whose strides numpy sets its own way. torch's
overlap check for in-place writes compares strides, size-one dimensions' too, and
``Tensor.stride()`` shows them, so the reference lays results out as torch does. Strides here are
in elements unless named ``..._bytes``.
"""

from __future__ import annotations

from typing import Callable, Optional, Sequence

import numpy as np

# ops whose torch kernels are TensorIterator loops: the output takes the layout of the operands
# (a Python number among them is a 0-d operand, as torch wraps it); the rule table's elementwise
# functions (``Rule.elementwise_function``) are too
ELEMENTWISE = frozenset({
    "abs", "add", "add_scaled", "ceil", "clamp", "clamp_tensor", "compare", "div", "elu",
    "elu_backward", "floor", "gelu", "gelu_backward", "leaky_relu", "leaky_relu_backward",
    "maximum", "minimum", "mul", "neg", "pow", "pow_scalar", "reciprocal", "relu", "relu_backward",
    "round", "rsub", "sgn", "sigmoid", "sigmoid_backward", "sign", "silu", "silu_backward",
    "softplus", "softplus_backward", "sub", "sub_scaled", "tanh", "tanh_backward", "where"})
# ops whose kernel writes into a fresh empty tensor it resizes (``pow(Scalar, Tensor)``'s
# pow_out), and the reductions and scans (their outputs allocated contiguous, measured: a mean,
# sum, norm or cumsum of a permuted tensor is contiguous): a contiguous result, whatever the
# operands' layout
CONTIGUOUS = frozenset({"rpow", "sum", "mean", "prod", "amax", "amin", "max_dim", "min_dim", "std", "var",
                        "norm2", "norm_p", "cumsum", "cumprod"})
# ops that make a tensor like their input (``memory_format=torch.preserve_format``)
PRESERVING = frozenset({"clone", "cast"})


def contiguous_strides(shape: Sequence[int]) -> tuple[int, ...]:
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def is_contiguous(shape: Sequence[int], strides: Sequence[int]) -> bool:
    """torch's test, which ignores the strides of dimensions of size 1."""
    if 0 in shape:
        return True
    expected = 1
    for size, stride in zip(reversed(shape), reversed(strides)):
        if size != 1:
            if stride != expected:
                return False
            expected *= size
    return True


def is_non_overlapping_and_dense(shape: Sequence[int], strides: Sequence[int]) -> bool:
    """Whether the elements fill a block of memory once each, in some order of the dims."""
    expected = 1
    for stride, size in sorted((st, sz) for sz, st in zip(shape, strides) if sz != 1):
        if stride != expected:
            return False
        expected *= size
    return True


def compare_by_strides(stride_lists: Sequence[Sequence[int]], shape: Sequence[int], dim0: int,
                       dim1: int) -> int:
    """TensorIterator's ``should_swap`` over its operands' strides: 1 when ``dim0`` goes after
    ``dim1``, -1 before, 0 undecided (a zero stride skips an operand; equal strides put the
    larger dimension after)."""
    for strides in stride_lists:
        s0, s1 = strides[dim0], strides[dim1]
        if s0 == 0 or s1 == 0:
            continue
        if s0 != s1:
            return -1 if s0 < s1 else 1
        if shape[dim0] > shape[dim1]:
            return 1
    return 0


def reorder_dimensions(dims: list[int], should_swap: Callable[[int, int], int]) -> list[int]:
    """TensorIterator's ``reorder_dimensions``: an insertion sort by ``should_swap`` that leaves
    undecided pairs in place."""
    dims = list(dims)
    for i in range(1, len(dims)):
        j = i
        for k in range(i - 1, -1, -1):
            comparison = should_swap(dims[k], dims[j])
            if comparison > 0:
                dims[k], dims[j] = dims[j], dims[k]
                j = k
            elif comparison < 0:
                break
    return dims


def elementwise_strides(shape: Sequence[int],
                        operands: Sequence[tuple[Sequence[int], Sequence[int]]]) -> tuple[int, ...]:
    """The strides TensorIterator gives the output of ``shape`` for operands of these shapes
    and strides: contiguous, or the operands' own strides, when all have the output's shape
    (its fast set-up); otherwise the dimensions ordered by the operands' strides, innermost
    first, ties going to the smaller dimension (``reorder_dimensions``)."""
    ndim = len(shape)
    if all(tuple(s) == tuple(shape) for s, _ in operands):
        if all(is_contiguous(s, st) for s, st in operands):
            return contiguous_strides(shape)
        first = tuple(operands[0][1])
        if all(is_non_overlapping_and_dense(s, st) and tuple(st) == first for s, st in operands):
            return first
    aligned = []
    for op_shape, op_strides in operands:
        offset = ndim - len(op_shape)
        aligned.append([0] * offset + [
            0 if size == 1 and shape[offset + i] != 1 else op_strides[i]
            for i, size in enumerate(op_shape)])

    perm = reorder_dimensions(list(range(ndim - 1, -1, -1)),  # innermost first
                              lambda d0, d1: compare_by_strides(aligned, shape, d0, d1))
    if perm == list(range(ndim - 1, -1, -1)):
        return contiguous_strides(shape)
    strides, step = [0] * ndim, 1
    for dim in perm:
        strides[dim] = step
        step *= shape[dim]
    return tuple(strides)


def elements(a: np.ndarray) -> tuple[int, ...]:
    return tuple(st // a.itemsize for st in a.strides)


def preserved_strides(source: np.ndarray) -> tuple[int, ...]:
    """The strides of a tensor made like ``source`` (clone, ``to``, the ``*_like`` functions):
    its own where it is non-overlapping and dense, else its dimensions' order, densely."""
    strides = elements(source)
    if is_non_overlapping_and_dense(source.shape, strides):
        return strides
    return elementwise_strides(source.shape, [(source.shape, strides), ((), ())])


def like(source: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``values`` (of ``source``'s shape) laid out as torch makes a tensor like ``source``."""
    return laid_out(values, preserved_strides(source)) if values.ndim > 1 else values


def laid_out(data: np.ndarray, strides: Sequence[int]) -> np.ndarray:
    """``data``'s values in new memory with these (dense) strides."""
    if tuple(strides) == elements(data):
        return data
    memory = np.empty(data.size, data.dtype)
    out = np.lib.stride_tricks.as_strided(memory, data.shape,
                                          [s * data.itemsize for s in strides])
    out[...] = data
    return out


def view_strides(shape: Sequence[int], strides: Sequence[int],
                 new_shape: Sequence[int]) -> Optional[tuple[int, ...]]:
    """torch's ``computeStride``: the strides of a view of ``new_shape`` on memory of ``shape``
    and ``strides``, or None where no view has that shape. Each chunk of dimensions contiguous
    with each other is split anew; a new dimension of size 1 is strided as the elements of the
    chunk that follow it."""
    if not shape:
        return (1,) * len(new_shape)
    new = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    chunk_base, tensor_numel, view_numel = strides[-1], 1, 1
    for tensor_d in range(len(shape) - 1, -1, -1):
        tensor_numel *= shape[tensor_d]
        if tensor_d == 0 or (shape[tensor_d - 1] != 1
                             and strides[tensor_d - 1] != tensor_numel * chunk_base):
            while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
                new[view_d] = view_numel * chunk_base
                view_numel *= new_shape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if tensor_d > 0:
                chunk_base, tensor_numel, view_numel = strides[tensor_d - 1], 1, 1
    return tuple(new) if view_d == -1 else None


def obeys_layout_contract(grad: np.ndarray, leaf: np.ndarray) -> bool:
    """torch's gradient layout contract: for a leaf that is non-overlapping and dense, the
    gradient's strides are the leaf's in every dimension of size other than 1 (and not 0 in
    those of size 1); for any other leaf, the gradient is contiguous."""
    if grad.shape != leaf.shape or grad.dtype != leaf.dtype:
        return False
    if not is_non_overlapping_and_dense(leaf.shape, elements(leaf)):
        return is_contiguous(grad.shape, elements(grad))
    return all((g != 0) if size == 1 else g == s
               for size, g, s in zip(grad.shape, grad.strides, leaf.strides))
