"""``paddle.autograd``: ``backward`` with paddle 3.3.1's signature, and ``PyLayer``."""

from __future__ import annotations

from typing import Any, Callable, Optional

from reference_engine import custom_function, graph
from reference_engine.dialects.paddle_policy import PADDLE
from reference_engine.framework_names import module_getattr
from reference_engine.paddle import _core as paddle

__all__ = ["Hessian", "Jacobian", "PyLayer", "PyLayerContext", "backward", "enable_grad", "grad", "hessian",
           "is_grad_enabled", "jacobian", "no_grad", "saved_tensors_hooks", "set_grad_enabled"]

grad = paddle.grad  # paddle.autograd.grad is paddle.grad
# and the grad modes are paddle's own
no_grad, enable_grad, set_grad_enabled, is_grad_enabled = (
    paddle.no_grad, paddle.enable_grad, paddle.set_grad_enabled, paddle.is_grad_enabled)


def backward(tensors: Any, grad_tensors: Any = None, retain_graph: bool = False) -> None:
    """Accumulate the gradients of ``tensors`` into the leaves; frees the graph unless retained."""
    PADDLE.backward(tensors, grad_tensors, retain_graph)


class PyLayerContext(custom_function.FunctionContext):
    """paddle's ``ctx``: ``saved_tensor()`` is a method; saved tensors are not version-checked."""

    def saved_tensor(self) -> tuple[Any, ...]:
        return self._saved()

    def mark_not_inplace(self, *tensors: Any) -> None:
        """Outputs that are inputs returned as they are: paddle then returns a new tensor."""


class PyLayer:
    """``paddle.autograd.PyLayer``: subclass it with static ``forward(ctx, ...)`` and
    ``backward(ctx, ...)``, then call ``apply``."""

    @staticmethod
    def forward(ctx: Any, *args: Any, **kwargs: Any) -> Any:
        raise PADDLE.error("pylayer_no_forward")

    @staticmethod
    def backward(ctx: Any, *args: Any) -> Any:
        raise PADDLE.error("pylayer_no_backward")

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        return custom_function.apply(cls, args, kwargs, PADDLE, PyLayerContext)


class saved_tensors_hooks(graph.saved_tensors_hooks):  # noqa: N801 - paddle's name
    """``paddle.autograd.saved_tensors_hooks``: as torch's, except that what ``unpack_hook``
    raises in the backward pass comes out as paddle's "(External)" error and leaves recording
    off (``PaddlePolicy.unpack_hook``)."""

    def __init__(self, pack_hook: Callable[[Any], Any], unpack_hook: Callable[[Any], Any]) -> None:
        super().__init__(pack_hook, PADDLE.unpack_hook(unpack_hook))


class Jacobian:
    """What ``paddle.autograd.jacobian`` returns: ``shape`` and indexing, as paddle 3.3.1 gives
    them (a 0-D side drops out of the shape; a batch axis leads). Rows are computed with
    ``paddle.grad(create_graph=True)`` on first use, so results do not stop gradient."""

    def __init__(self, ys: Any, xs: Any, batched: bool) -> None:
        # paddle checks xs first without a batch axis, ys first with one
        low, high = (1, 2) if batched else (0, 1)
        for name, t in ((("ys", ys), ("xs", xs)) if batched else (("xs", xs), ("ys", ys))):
            if not low <= len(t.shape) <= high:
                raise PADDLE.error("jacobian_ndim", name=name, low=low, high=high, batched=batched,
                                   ndim=len(t.shape))
        self._ys, self._xs, self._batched = ys, xs, batched
        self.shape = ([*xs.shape[0:1], *ys.shape[1:2], *xs.shape[1:2]] if batched
                      else [*ys.shape[0:1], *xs.shape[0:1]])
        self._full: Any = None

    def _matrix(self) -> Any:
        """The whole Jacobian: (len(ys), len(xs)), or (batch, m, n) with a batch axis."""
        if self._full is None:
            ys, xs = self._ys, self._xs
            if self._batched:
                ys = ys.reshape([ys.shape[0], -1])
                rows = [_row(ys[:, m].sum(), xs).reshape([xs.shape[0], -1])
                        for m in range(ys.shape[1])]
                self._full = paddle.stack(rows, axis=1)
            else:
                flat = ys.reshape([-1])
                self._full = paddle.stack([_row(flat[m], xs).reshape([-1])
                                           for m in range(flat.shape[0])])
        return self._full

    def __getitem__(self, index: Any) -> Any:
        if not self._batched:
            if not self.shape:
                raise PADDLE.error("jacobian_0d_index")
            if len(self.shape) == 1:
                index = (0, index) if not self._ys.shape else (index, 0)
        elif len(self.shape) == 1:
            index = (index, 0, 0)
        elif len(self.shape) == 2:
            if isinstance(index, slice):
                index = (index, slice(None))
            else:
                index = (index[0], 0, index[1]) if len(self._ys.shape) == 1 else \
                    (index[0], index[1], 0)
        return self._matrix()[index]


class Hessian(Jacobian):
    """What ``paddle.autograd.hessian`` returns: the Jacobian of the gradient."""


def _row(y: Any, xs: Any) -> Any:
    """The gradient of one output with respect to ``xs`` (zeros where it does not depend)."""
    (found,) = paddle.grad(y, xs, create_graph=True, allow_unused=True)
    return paddle.zeros_like(xs) if found is None else found


def _nested(make: Any, ys: Any, xs: Any) -> Any:
    """One object per (ys, xs) pair, nested as paddle nests sequences (ys outer)."""
    ys_seq, xs_seq = isinstance(ys, (list, tuple)), isinstance(xs, (list, tuple))
    rows = [[make(y, x) for x in (xs if xs_seq else [xs])] for y in (ys if ys_seq else [ys])]
    inner = [tuple(r) if xs_seq else r[0] for r in rows]
    return tuple(inner) if ys_seq else inner[0]


def jacobian(ys: Any, xs: Any, batch_axis: Optional[int] = None) -> Any:
    """``paddle.autograd.jacobian``: the Jacobian of computed ``ys`` with respect to ``xs``."""
    if batch_axis not in (None, 0):
        raise PADDLE.error("jacobian_batch_axis", batch_axis=batch_axis)
    return _nested(lambda y, x: Jacobian(y, x, batch_axis == 0), ys, xs)


def hessian(ys: Any, xs: Any, batch_axis: Optional[int] = None) -> Any:
    """``paddle.autograd.hessian``: the Jacobian of the gradient of a scalar (per batch) ``ys``,
    with paddle's checks in paddle's order (``ys[0]`` of a 0-D ``ys`` is its index error)."""
    if batch_axis is None:
        if ys.size > 1:
            raise PADDLE.error("hessian_not_scalar", size=ys.size)
    elif isinstance(batch_axis, int):
        if ys[0].size > 1:
            raise PADDLE.error("hessian_batch_not_scalar", size=ys.size)
        if batch_axis != 0:
            raise PADDLE.error("hessian_batch_axis")
    else:
        raise PADDLE.error("hessian_batch_axis_type", type=type(batch_axis))
    xs_list = list(xs) if isinstance(xs, (list, tuple)) else [xs]
    grads = list(paddle.grad(ys, xs_list, create_graph=True))

    def make(g: Any, x: Any) -> Hessian:
        h = Hessian.__new__(Hessian)
        Jacobian.__init__(h, g, x, batch_axis == 0)
        return h

    return _nested(make, grads if isinstance(xs, (list, tuple)) else grads[0], xs)

__getattr__ = module_getattr("paddle.autograd")
