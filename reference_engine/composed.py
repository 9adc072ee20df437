"""Differentiable functions composed from the core's operations, shared by both dialects.

Each one is built from ops that have rules in the derivative table, so it needs no rule of its
own and differentiates to any order; where the framework computes the function with one kernel,
the dialect's facade names the last node after that kernel (:func:`named`), so ``grad_fn``
reads as the framework's. Index arguments arrive normalised (non-negative, in range).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Callable, Sequence

import numpy as np

from reference_engine import activations
from reference_engine import ops as F
from reference_engine.messages import not_supported

if TYPE_CHECKING:
    from reference_engine.tensor import Tensor


def named(out: Tensor, node_name: str, *inputs: Tensor) -> Tensor:
    """Show ``out``'s node as the framework's kernel ``node_name``: nothing if none was
    recorded, or if ``out`` came back with the node of one of ``inputs`` (an op that found
    nothing to do)."""
    node = out._grad_fn
    if node is not None and all(node is not t._grad_fn for t in inputs):
        node.label = node_name
    return out


def _reindexed(a: Tensor, positions: Sequence[np.ndarray]) -> Tensor:
    """A copy of ``a`` with each dimension's entries taken in the order ``positions`` lists."""
    return F.getitem(a, np.ix_(*positions))


def flip(a: Tensor, dims: Sequence[int]) -> Tensor:
    """The entries in reverse order along ``dims`` (a copy, as in both frameworks)."""
    if a._data.ndim == 0:
        return F.clone(a)
    return _reindexed(a, [np.arange(n)[::-1] if d in dims else np.arange(n)
                          for d, n in enumerate(a._data.shape)])


def dims_list(a: Tensor, dims: Any) -> list[int]:
    """One dimension or several, as a list of non-negative ones (the dialect's error if out of
    range)."""
    dims = [dims] if isinstance(dims, (int, np.integer)) else list(dims)
    return [F.normalize_dim(type(a), d, a._data.ndim) for d in dims]


def roll(a: Tensor, shifts: Any, dims: Any) -> Tensor:
    """Entries moved ``shifts`` places along ``dims``, wrapping around; without dims, over the
    flattened tensor and back in its shape."""
    shifts = [shifts] if isinstance(shifts, (int, np.integer)) else list(shifts)
    if dims is None:
        flat = F.reshape(a, (-1,))
        return F.reshape(roll(flat, [sum(shifts)], [0]), a._data.shape)
    dims = dims_list(a, dims)
    if len(dims) != len(shifts):
        raise a._policy.error("roll_dims", shifts=len(shifts), dims=len(dims))
    moves = dict.fromkeys(range(a._data.ndim), 0)
    for shift, d in zip(shifts, dims):
        moves[d] += shift
    return _reindexed(a, [np.roll(np.arange(n), moves[d]) for d, n in enumerate(a._data.shape)])


def triangle(a: Tensor, diagonal: int, lower: bool) -> Tensor:
    """``tril`` (``lower``) or ``triu`` of the last two dimensions: zeros on the other side of
    ``diagonal``; the gradient is the same triangle of the incoming one."""
    rows, cols = a._data.shape[-2:]
    keep = np.tril(np.ones((rows, cols), bool), diagonal) if lower else \
        np.triu(np.ones((rows, cols), bool), diagonal)
    return F.masked_fill(a, ~keep, 0)


def _diagonal_positions(rows: int, cols: int, offset: int) -> tuple[np.ndarray, np.ndarray]:
    first_row, first_col = max(-offset, 0), max(offset, 0)
    length = max(0, min(rows - first_row, cols - first_col))
    steps = np.arange(length)
    return steps + first_row, steps + first_col


def diagonal(a: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """The diagonal of the (``dim1``, ``dim2``) planes, as the last dimension."""
    others = [d for d in range(a._data.ndim) if d not in (dim1, dim2)]
    planes = F.permute(a, (*others, dim1, dim2)) if others or dim1 > dim2 else a
    rows, cols = _diagonal_positions(a._data.shape[dim1], a._data.shape[dim2], offset)
    return F.getitem(planes, (Ellipsis, rows, cols))


def diagonal_matrix(v: Tensor, offset: int = 0, padding: float = 0) -> Tensor:
    """A square matrix with ``v`` on its ``offset`` diagonal and ``padding`` elsewhere."""
    size = v._data.shape[0] + abs(offset)
    rows, cols = _diagonal_positions(size, size, offset)
    out = F.index_backward(v, (size, size), (rows, cols))
    if padding:
        off_diagonal = np.ones((size, size), bool)
        off_diagonal[rows, cols] = False
        out = F.masked_fill(out, off_diagonal, padding)
    return out


def diff(a: Tensor, n: int, dim: int, prepend: Any = None, append: Any = None) -> Tensor:
    """The ``n``-th forward difference along ``dim``: ``a[1:] - a[:-1]``, ``n`` times (each a
    subtraction), after joining ``prepend`` and ``append`` to ``a`` along ``dim``."""
    d = F.normalize_dim(type(a), dim, a._data.ndim)
    parts = [p for p in (prepend, a, append) if p is not None]
    out = F.cat(parts, d) if len(parts) > 1 else a
    lead = (slice(None),) * d
    for _ in range(n):
        out = F.sub(F.getitem(out, lead + (slice(1, None),)), F.getitem(out, lead + (slice(None, -1),)))
    return out


def outer(a: Tensor, b: Tensor) -> Tensor:
    """``a[i] * b[j]``: a column times a row, as both frameworks compute it."""
    return F.mul(F.reshape(a, (-1, 1)), b)


def logsumexp(a: Tensor, dims: Sequence[int], keepdim: bool) -> Tensor:
    """``log(sum(exp(a)))`` over ``dims``, shifted by the maximum (a constant; an infinite one
    counts as 0) so that large entries do not overflow."""
    a = F._floating(a)
    dims = tuple(dims) if a._data.ndim else ()  # a 0-d tensor's one "dim" holds no axis
    shift = np.amax(a._data, axis=dims, keepdims=True) if a._data.size else \
        np.zeros([1 if d in dims else n for d, n in enumerate(a._data.shape)], a._data.dtype)
    shift = np.where(np.isinf(shift), 0, shift).astype(a._data.dtype)
    shift_tensor = F.constant_like(a, shift)
    out = F.add(F.log(F.sum(F.exp(F.sub(a, shift_tensor)), dims, True)), shift_tensor)
    return out if keepdim else F.squeeze(out, dims)


def lerp(start: Tensor, end: Tensor, weight: Any) -> Tensor:
    """``start + weight * (end - start)``; ``weight`` a number or a tensor."""
    return F.add(start, F.mul(weight, F.sub(end, start)))


def hypot(a: Tensor, b: Tensor) -> Tensor:
    """``sqrt(a**2 + b**2)``."""
    return F.sqrt(F.add(F.pow(a, 2), F.pow(b, 2)))


def logaddexp(a: Tensor, b: Tensor) -> Tensor:
    """``log(exp(a) + exp(b))`` as ``log1p(exp(-|a - b|)) + max(a, b)`` (paddle's composition;
    torch's kernel computes the same value)."""
    return F.add(F.log1p(F.exp(F.neg(F.abs(F.sub(a, b))))), F.maximum(a, b))


def reduced(loss: Tensor, reduction: str) -> Tensor:
    """A loss's elementwise values reduced as ``reduction`` says ("mean", "sum" or "none")."""
    if reduction == "mean":
        return F.mean(loss)
    if reduction == "sum":
        return F.sum(loss)
    if reduction == "none":
        return loss
    raise loss._policy.error("reduction", reduction=reduction)


def l1_loss(a: Tensor, b: Tensor, reduction: str) -> Tensor:
    return reduced(F.abs(F.sub(a, b)), reduction)


def huber_terms(a: Tensor, b: Tensor, delta: float) -> Tensor:
    """Each element's Huber loss: ``0.5 * d²`` where ``|d| < delta``, else
    ``delta * (|d| - delta / 2)`` (``d = a - b``; the two agree at ``|d| = delta``)."""
    difference = F.sub(a, b)
    size = F.abs(difference)
    quadratic = F.mul(F.mul(difference, difference), 0.5)
    inside = F.constant_like(size, size._data < delta)
    return F.where(inside, quadratic, F.mul(F.sub(size, 0.5 * delta), delta))


def logits_loss_with_pos_weight(logits: Tensor, target: Tensor, pos_weight: Any) -> Tensor:
    """Each element's binary cross-entropy of ``logits`` with its positive term scaled by
    ``pos_weight``: ``(1 - y)·x - (1 + (pw - 1)·y)·log_sigmoid(x)``, as torch composes it (paddle's
    kernel computes the same). log_sigmoid keeps the derivative at ``x = 0`` (``-0.5·scale``
    there), where a form through ``|x|`` and ``max(-x, 0)`` has kinks."""
    scale = F.add(F.mul(F.sub(pos_weight, 1), target), 1)
    return F.sub(F.mul(F.rsub(target, 1), logits), F.mul(activations.log_sigmoid(logits), scale))


def add_all(tensors: Sequence[Tensor]) -> Tensor:
    """The elementwise sum of the tensors, left to right."""
    return functools.reduce(F.add, tensors[1:], tensors[0]) if len(tensors) > 1 \
        else F.clone(tensors[0])


def sorted_positions(a: Tensor, dim: int, descending: bool) -> np.ndarray:
    """Each entry's position in ``a`` along ``dim`` once sorted; equal entries keep their order."""
    data = a._data if a._data.ndim else a._data.reshape(1)
    order = np.argsort(-data if descending else data, axis=dim, kind="stable")
    return order if a._data.ndim else order.reshape(())


def top(a: Tensor, k: int, dim: int, largest: bool) -> tuple[Tensor, Tensor]:
    """The ``k`` largest (or smallest) entries along ``dim`` in order, and their positions."""
    positions = np.take(sorted_positions(a, dim, largest), np.arange(k), axis=dim)
    return take_along(a, dim, positions), F.constant_like(a, positions.astype(np.int64))


def take_along(a: Tensor, dim: int, positions: np.ndarray) -> Tensor:
    """The entries of ``a`` at ``positions`` along ``dim`` (a gather)."""
    return F.gather(a, dim, positions.astype(np.int64))


def elementwise_test(test: Callable[[np.ndarray], np.ndarray]) -> Callable[..., Tensor]:
    """A function of a tensor that applies the numpy predicate ``test`` (``np.isnan``): a bool
    tensor outside any graph. Extra arguments (paddle's ``name``) are ignored."""
    def tested(x: Tensor, *_: Any, **__: Any) -> Tensor:
        return type(x)._from_array(np.asarray(test(x._data)))
    tested.__name__ = tested.__qualname__ = test.__name__
    return tested


def einsum(equation: str, operands: Sequence[Tensor]) -> tuple[Tensor, bool]:
    """Einstein summation, composed: each operand's repeated letters taken as diagonals, its
    dimensions permuted into one order (the output's letters, then the summed ones) and
    broadcast, the product taken, the summed letters reduced. Returns the result and whether
    the equation contracts anything (for the node's name)."""
    lhs, arrow, rhs = equation.replace(" ", "").partition("->")
    specs = lhs.split(",")
    if "..." in equation:
        raise not_supported("einsum with an ellipsis")
    if len(specs) != len(operands):
        raise operands[0]._policy.error("einsum_operands", operands=len(operands), segments=len(specs),
                                        relation="more" if len(operands) > len(specs) else "fewer")
    letters = "".join(specs)
    if not arrow:
        rhs = "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    order = list(rhs) + [c for c in dict.fromkeys(letters) if c not in rhs]
    sizes: dict[str, int] = {}
    aligned = []
    for spec, t in zip(specs, operands):
        spec = list(spec)
        while len(set(spec)) < len(spec):  # a repeated letter: its diagonal
            first = next(c for c in spec if spec.count(c) > 1)
            p, q = (i for i, c in enumerate(spec) if c == first)
            t = diagonal(t, 0, p, q)
            spec = [c for i, c in enumerate(spec) if i not in (p, q)] + [first]
        sizes.update({c: n for c, n in zip(spec, t._data.shape) if n != 1 or c not in sizes})
        present = [c for c in order if c in spec]
        t = F.permute(t, [spec.index(c) for c in present]) if present != spec else t
        aligned.append(F.reshape(t, [t._data.shape[present.index(c)] if c in spec else 1 for c in order]))
    out = aligned[0]
    for t in aligned[1:]:
        out = F.mul(out, t)
    summed = tuple(range(len(rhs), len(order)))
    if summed:
        out = F.sum(out, summed)
    if len(aligned) == 1 and out._data.shape != tuple(sizes[c] for c in rhs):
        out = F.expand(out, [sizes[c] for c in rhs])
    return out, bool(summed)


def kron(a: Tensor, b: Tensor) -> Tensor:
    """Every product of an element of ``a`` with an element of ``b``, in blocks: the two
    interleaved by a broadcast product, then viewed in the joined shape."""
    ndim = max(a._data.ndim, b._data.ndim)
    a = F.reshape(a, (1,) * (ndim - a._data.ndim) + a._data.shape)
    b = F.reshape(b, (1,) * (ndim - b._data.ndim) + b._data.shape)
    spread_a = F.reshape(a, tuple(v for n in a._data.shape for v in (n, 1)))
    spread_b = F.reshape(b, tuple(v for n in b._data.shape for v in (1, n)))
    product = F.mul(spread_a, spread_b)
    return F.reshape(product, tuple(x * y for x, y in zip(a._data.shape, b._data.shape)))


def logcumsumexp(a: Tensor, dim: int) -> Tensor:
    """``log(cumsum(exp(a)))`` along ``dim``, shifted by the maximum (a constant; an infinite
    one counts as 0) so that large entries do not overflow; a 0-d tensor as one element."""
    if a._data.ndim == 0:
        return F.reshape(logcumsumexp(F.reshape(a, (1,)), 0), ())
    d = dim % a._data.ndim
    if a._data.size == 0:
        return F.mul(a, 1.0)
    shift = np.amax(a._data, axis=d, keepdims=True)
    shift_tensor = F.constant_like(a, np.where(np.isinf(shift), 0, shift).astype(a._data.dtype))
    return F.add(F.log(F.cumsum(F.exp(F.sub(a, shift_tensor)), d)), shift_tensor)


def running_extreme(a: Tensor, dim: int, better: Callable[[Any, Any], Any]) -> tuple[Tensor, np.ndarray]:
    """The running best along ``dim`` (``better(new, best)``: ``np.greater_equal`` for a
    maximum) and its index, a later equal entry or a NaN taking over as both frameworks'
    kernels do: the values gathered at those indices (their gradient goes there), and the
    indices."""
    values = np.moveaxis(np.array(a._data, copy=True), dim, -1)
    indices = np.zeros(values.shape, np.int64)
    best, where = values[..., 0].copy(), np.zeros(values.shape[:-1], np.int64)
    for i in range(values.shape[-1]):
        column = values[..., i]
        take = np.isnan(column) | (~np.isnan(best) & better(column, best)) if i else np.ones(best.shape, bool)
        best, where = np.where(take, column, best), np.where(take, i, where)
        indices[..., i] = where
    index = np.moveaxis(indices, -1, dim)
    return (F.gather(a, dim, index) if a._data.ndim else F.clone(a)), index
