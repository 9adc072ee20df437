"""``paddle.incubate.autograd``: derivatives of a function at a point, as paddle 3.3.1 computes
them. The inputs are separated from the caller's graph (detached copies that take part in
differentiation), every product is taken with ``paddle.grad(create_graph=True)``, and
``jvp`` uses the double-backward trick. ``Jacobian`` and ``Hessian`` flatten the inputs and
outputs (after a leading batch axis with ``is_batched``) and compute their matrix on first
indexing."""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

from reference_engine.framework_names import module_getattr
from reference_engine.paddle import _core as paddle

__all__ = ["Hessian", "Jacobian", "jvp", "vjp"]



def _listed(xs: Any) -> list[Any]:
    return list(xs) if isinstance(xs, (list, tuple)) else [xs]


def _separate(xs: Any) -> Any:
    """Detached copies of the inputs that do not stop gradient, in the caller's structure."""
    def one(x: Any) -> Any:
        copy = x.detach()
        copy.stop_gradient = False
        return copy

    return tuple(one(x) for x in xs) if isinstance(xs, (list, tuple)) else one(xs)


def _call(func: Callable[..., Any], xs: Any) -> Any:
    return func(*xs) if isinstance(xs, tuple) else func(xs)


def _grads(ys: Any, xs: Any, v: Any) -> Any:
    """``paddle.grad(ys, xs, v, create_graph=True)``, zeros where an input is unused, in the
    structure of ``xs``."""
    found = paddle.grad(_listed(ys), _listed(xs), None if v is None else _listed(v),
                        create_graph=True, allow_unused=True)
    found = [paddle.zeros_like(x) if g is None else g for g, x in zip(found, _listed(xs))]
    return tuple(found) if isinstance(xs, (list, tuple)) else found[0]


def vjp(func: Callable[..., Any], xs: Any, v: Any = None) -> tuple[Any, Any]:
    """The function's value and ``v``ᵀ·J (``v`` defaults to ones)."""
    xs = _separate(xs)
    ys = _call(func, xs)
    return ys, _grads(ys, xs, v)


def jvp(func: Callable[..., Any], xs: Any, v: Any = None) -> tuple[Any, Any]:
    """The function's value and J·``v`` (``v`` defaults to ones), by differentiating the
    vector-Jacobian product with respect to its (zero) cotangent."""
    xs = _separate(xs)
    ys = _call(func, xs)
    cotangents = tuple(paddle.zeros_like(y) for y in _listed(ys))
    for c in cotangents:
        c.stop_gradient = False
    xs_grads = _grads(ys, xs, list(cotangents))
    if v is None:
        v = tuple(paddle.ones_like(x) for x in _listed(xs))
    products = _grads(xs_grads, cotangents, v)
    return ys, (products if isinstance(ys, (list, tuple)) else products[0])


class Jacobian:
    """The Jacobian of ``func`` at ``xs``: (outputs, inputs) with every output and input
    flattened and concatenated, or (batch, outputs, inputs) with ``is_batched``."""

    def __init__(self, func: Callable[..., Any], xs: Any, is_batched: bool = False) -> None:
        self._xs = _separate(xs)
        self._ys = _call(func, self._xs)
        self._batched = is_batched
        self._full: Optional[Any] = None

    def _flat(self, tensors: Sequence[Any]) -> Any:
        if self._batched:
            return paddle.concat([t.reshape([t.shape[0], -1]) for t in tensors], axis=1)
        return paddle.concat([t.reshape([-1]) for t in tensors])

    def _outputs(self) -> Any:
        return self._flat(_listed(self._ys))

    def _matrix(self) -> Any:
        if self._full is None:
            ys, xs = self._outputs(), _listed(self._xs)
            count = ys.shape[1] if self._batched else ys.shape[0]
            rows = [self._flat(_listed(_grads(ys[:, m].sum() if self._batched else ys[m], xs, None)))
                    for m in range(count)]
            self._full = paddle.stack(rows, axis=1 if self._batched else 0)
        return self._full

    @property
    def shape(self) -> tuple[int, ...]:
        """A tuple of ints (where ``Tensor.shape`` is a paddle.Size), as paddle 3.3.1 gives it."""
        return tuple(int(n) for n in self._matrix().shape)

    def __getitem__(self, index: Any) -> Any:
        return self._matrix()[index]


class Hessian(Jacobian):
    """The Hessian of a scalar (per batch) ``func`` at ``xs``: the Jacobian of its gradient."""

    def _outputs(self) -> Any:
        ys = self._ys.sum() if self._batched else self._ys
        return self._flat(_listed(_grads(ys, self._xs, None)))

__getattr__ = module_getattr("paddle.incubate.autograd")
