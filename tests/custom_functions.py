"""Custom-function classes for the tests, built from plain functions: the same recipe serves
``torch.autograd.Function`` and ``paddle.autograd.PyLayer`` (and their reference twins). The
class name matters: both frameworks name nodes and errors after it."""

from __future__ import annotations

from typing import Any, Callable


def custom(base: type, name: str, forward: Callable[..., Any],
           backward: Callable[..., Any]) -> type:
    """A subclass of ``base`` named ``name`` with static ``forward(ctx, ...)`` and
    ``backward(ctx, ...)``."""
    return type(name, (base,), {"forward": staticmethod(forward),
                                "backward": staticmethod(backward)})


def _marked_non_differentiable(ctx: Any, x: Any) -> Any:
    out = x * 2
    ctx.mark_non_differentiable(out)
    return out


def _unmaterialized(ctx: Any, x: Any) -> Any:
    ctx.set_materialize_grads(False)
    return x * 3


def context_flag_functions(base: type) -> tuple[type, type]:
    """Two functions whose forward sets a context flag: one marks its output
    non-differentiable, one turns off materialized gradients."""
    return (custom(base, "NonDifferentiable", _marked_non_differentiable, lambda ctx, g: g),
            custom(base, "Unmaterialized", _unmaterialized, lambda ctx, g: g * 3))


def tripled_in_place(base: type, name: str, finish: Callable[[Any, Any], Any]) -> type:
    """torch: a forward that triples its input in place and marks it dirty, then returns
    ``finish(ctx, x)``; its backward reads what was saved, if anything."""
    def forward(ctx: Any, x: Any) -> Any:
        x.mul_(3)
        ctx.mark_dirty(x)
        return finish(ctx, x)

    def backward(ctx: Any, g: Any) -> Any:
        return g * 3 + sum(t.sum() * 0 for t in ctx.saved_tensors)

    return custom(base, name, forward, backward)


def two_output_functions(base: type, saved: Callable[[Any], Any],
                         positive_of: Callable[[Any], Any]) -> tuple[type, type, list[Any]]:
    """``Two`` returns ``x * y`` and ``x + y`` (saving both inputs, read back by ``saved``);
    ``Split`` returns ``x * 3`` and a mask marked non-differentiable, with materialized
    gradients off; and the list of what ``Split``'s backward was handed for the mask."""
    def two_forward(ctx: Any, x: Any, y: Any) -> Any:
        ctx.save_for_backward(x, y)
        return x * y, x + y

    def two_backward(ctx: Any, ga: Any, gb: Any) -> Any:
        x, y = saved(ctx)
        return ga * y + gb, ga * x + gb

    def split_forward(ctx: Any, x: Any) -> Any:
        positive = positive_of(x)
        ctx.mark_non_differentiable(positive)
        ctx.set_materialize_grads(False)
        return x * 3, positive

    handed: list[Any] = []
    return (custom(base, "Two", two_forward, two_backward),
            custom(base, "Split", split_forward, lambda ctx, g, gi: handed.append(gi) or g * 3),
            handed)


def raising(error: Exception) -> Callable[..., Any]:
    """A function of any arguments that raises ``error``: a hook, a backward or an unpack hook
    that fails."""
    def raise_it(*_: Any) -> Any:
        raise error
    return raise_it
