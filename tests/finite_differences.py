"""Central finite differences in float64, and the first/second-order checks built on them.

Shared by the torch-dialect and paddle-dialect derivative tests. A dialect is described by a
:class:`Dialect`: how to make a float64 leaf or constant, how to take gradients, how to turn
off recording and how to read a tensor back as numpy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

EPS = 1e-6
RTOL, ATOL = 1e-3, 1e-5


@dataclass(frozen=True)
class Dialect:
    leaf: Callable[[np.ndarray], Any]
    const: Callable[[np.ndarray], Any]
    grad: Callable[..., list[Any]]  # (output, inputs, create_graph) -> grads, None where unused
    no_grad: Callable[[], Any]
    numpy: Callable[[Any], np.ndarray]
    requires_grad: Callable[[Any], bool]


def numeric_gradients(f: Callable[[list[np.ndarray]], float], arrays: list[np.ndarray],
                      eps: float) -> list[np.ndarray]:
    """d f / d arrays[i] by central differences, element by element."""
    grads = []
    for i, x in enumerate(arrays):
        g = np.zeros_like(x)
        for idx in np.ndindex(x.shape):
            shifted = [a.copy() for a in arrays]
            shifted[i][idx] = x[idx] + eps
            up = f(shifted)
            shifted[i][idx] = x[idx] - eps
            g[idx] = (up - f(shifted)) / (2 * eps)
        grads.append(g)
    return grads


def cotangent(d: Dialect, fn: Callable[..., Any], arrays: list[np.ndarray]) -> np.ndarray:
    with d.no_grad():
        shape = d.numpy(fn(*[d.const(a) for a in arrays])).shape
    return np.random.default_rng(7).uniform(0.5, 1.5, size=shape)


def first_gradients(d: Dialect, fn: Callable[..., Any], arrays: list[np.ndarray], w: np.ndarray,
                    create_graph: bool = False) -> tuple[list[Any], list[Any]]:
    """The leaves and ``grad(sum(fn(leaves) * w), leaves)``, zeros where a leaf is unused."""
    leaves = [d.leaf(a) for a in arrays]
    total = (fn(*leaves) * d.const(w)).sum()
    grads = d.grad(total, leaves, create_graph)
    zeros = [d.const(np.zeros_like(a)) for a in arrays]
    return leaves, [z if g is None else g for g, z in zip(grads, zeros)]


def check_first_order(d: Dialect, fn: Callable[..., Any], arrays: list[np.ndarray],
                      eps: float = EPS) -> None:
    w = cotangent(d, fn, arrays)

    def value(xs: list[np.ndarray]) -> float:
        with d.no_grad():
            out = fn(*[d.const(x) for x in xs])
        return float((d.numpy(out) * w).sum())

    _, analytic = first_gradients(d, fn, arrays, w)
    for got, want in zip(analytic, numeric_gradients(value, arrays, eps)):
        np.testing.assert_allclose(d.numpy(got), want, rtol=RTOL, atol=ATOL)


def check_second_order(d: Dialect, fn: Callable[..., Any], arrays: list[np.ndarray],
                       eps: float = EPS) -> None:
    """The derivative of ``<first gradient, v>`` against finite differences of it."""
    w = cotangent(d, fn, arrays)
    v = [np.random.default_rng(11).uniform(0.5, 1.5, size=a.shape) for a in arrays]

    def first_dot_v(xs: list[np.ndarray]) -> float:
        _, grads = first_gradients(d, fn, xs, w)
        return float(sum((d.numpy(g) * vi).sum() for g, vi in zip(grads, v)))

    leaves, grads = first_gradients(d, fn, arrays, w, create_graph=True)
    total = sum((g * d.const(vi)).sum() for g, vi in zip(grads, v))
    if d.requires_grad(total):
        second = d.grad(total, leaves, False)
        analytic = [np.zeros_like(a) if s is None else d.numpy(s) for s, a in zip(second, arrays)]
    else:  # a linear op: its first derivative is constant
        analytic = [np.zeros_like(a) for a in arrays]
    for got, want in zip(analytic, numeric_gradients(first_dot_v, arrays, eps)):
        np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL)


def rules_reached(d: Dialect, fn: Callable[..., Any], arrays: list[np.ndarray]) -> set[str]:
    """The table rules a case records, in its forward and in its first-order gradients."""
    def walk(t: Any, ops: set[str]) -> None:
        seen, stack = set(), [getattr(t, "_grad_fn", None)]
        while stack:
            node = stack.pop()
            if node is None or id(node) in seen:
                continue
            seen.add(id(node))
            if hasattr(node, "rule"):
                ops.add(node.rule.op)
            stack.extend(node.edges)

    reached: set[str] = set()
    w = cotangent(d, fn, arrays)
    leaves = [d.leaf(a) for a in arrays]
    out = fn(*leaves)
    walk(out, reached)
    for g in d.grad((out * d.const(w)).sum(), leaves, True):
        if g is not None:
            walk(g, reached)
    return reached
