"""Custom differentiable functions: torch's ``autograd.Function`` and paddle's ``PyLayer``.

A custom function is a forward and a backward written by the user. ``apply`` runs the forward
without recording, then gives the result one node whose rule calls the user's backward (a
variadic rule: one call yields every input's gradient). What the context saved lives in the
node's saved tensors, so version checks and freeing after a backward are the engine's own. The
two dialects differ in names, in how many gradients backward must return and in their errors;
the dialect's policy answers for them (``Policy.custom_*``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from reference_engine import dual, engine, grad_mode, recorder
from reference_engine import ops as F
from reference_engine.graph import SavedTensor
from reference_engine.messages import not_supported
from reference_engine.rules import Rule

if TYPE_CHECKING:
    from reference_engine.dialects.policy import Policy
    from reference_engine.graph import Node


class FunctionContext:
    """``ctx``: what forward leaves for backward."""

    def __init__(self, needs_input_grad: tuple[bool, ...]) -> None:
        self.needs_input_grad = needs_input_grad
        self.materialize_grads = True
        self._to_save: tuple[Any, ...] = ()
        self._non_differentiable: list[Any] = []
        self._dirty: list[Any] = []
        self._node: Optional[Node] = None

    def save_for_backward(self, *tensors: Any) -> None:
        self._to_save = tensors

    def save_for_forward(self, *tensors: Any) -> None:
        """What ``jvp`` reads as ``saved_tensors`` (forward-mode AD)."""
        self._for_forward = tensors

    def mark_non_differentiable(self, *tensors: Any) -> None:
        self._non_differentiable.extend(tensors)

    def set_materialize_grads(self, value: bool) -> None:
        """Off, backward is handed None where an undefined gradient reached the node (torch:
        below another custom function's None); on, zeros."""
        self.materialize_grads = bool(value)

    def _saved(self) -> tuple[Any, ...]:
        """The saved tensors as backward sees them, version-checked (torch) when it reads them;
        inside ``jvp``, those saved for it."""
        if getattr(self, "_in_jvp", False):
            return tuple(getattr(self, "_for_forward", ()))
        node = self._node
        if node is None:
            return tuple(self._to_save)
        if node.released:  # torch: even a function that saved nothing, once freed
            raise node.policy.error("freed", name=node.name())
        unpacked = node.policy.unpack_saved(node)
        return tuple(unpacked.get(f"saved{i}") for i in range(len(self._to_save)))


def _given(*arrays: Any, output: Any) -> Any:
    """A custom node's forward: the user's forward already computed its output."""
    return output


def _backward(g: Any, function: Any) -> list[Any]:
    return function(g)


_RULES: dict[tuple[int, str], Rule] = {}


def _rule(cls: type, policy: Policy) -> Rule:
    key = (id(cls), policy.custom_node_name(cls))
    if key not in _RULES:
        _RULES[key] = Rule("custom", key[1], _given, (_backward,), variadic=True)
    return _RULES[key]


def apply(cls: Any, args: tuple[Any, ...], kwargs: dict[str, Any], policy: Policy,
          context: type[FunctionContext], separate_setup: bool = False) -> Any:
    """``Function.apply`` / ``PyLayer.apply``: forward without recording, one node for the
    results; ``context`` is the dialect's ``ctx`` class. A forward that returns a tuple (or
    list) of tensors gives each its own output slot of that node (see :func:`ops.output_slot`);
    backward is then handed one gradient per output. Where inputs carry tangents (forward-mode
    AD), the outputs' come from the function's ``jvp``, not from the ops of its forward."""
    tensor_type = recorder.tensor_type()
    if not dual.is_open() or all(dual.tangent_of(a) is None for a in args):
        return _apply(cls, args, kwargs, policy, context, separate_setup)[0]
    tangents = [None if not isinstance(a, tensor_type) else
                F.zeros_like(a) if dual.tangent_of(a) is None else dual.tangent_of(a) for a in args]
    with dual.suspended():
        out, ctx = _apply(cls, args, kwargs, policy, context, separate_setup)
        ctx._in_jvp = True
        try:
            pushed = cls.jvp(ctx, *tangents)
        finally:
            ctx._in_jvp = False
    several = isinstance(out, (tuple, list))
    pushed = tuple(pushed) if isinstance(pushed, (tuple, list)) else (pushed,)
    for o, t in zip(tuple(out) if several else (out,), pushed):
        dual.set_tangent(o, t)
    return out


def _apply(cls: Any, args: tuple[Any, ...], kwargs: dict[str, Any], policy: Policy,
           context: type[FunctionContext], separate_setup: bool) -> tuple[Any, FunctionContext]:
    """``apply`` without forward-mode AD: the results, and the ``ctx`` forward filled in."""
    tensor_type = recorder.tensor_type()
    positions = [i for i, a in enumerate(args) if isinstance(a, tensor_type)]
    ctx = context(tuple(isinstance(a, tensor_type) and a._requires_grad for a in args))
    with grad_mode.no_grad():
        if separate_setup:
            out = cls.forward(*args, **kwargs)
            cls.setup_context(ctx, args, out)
        else:
            out = cls.forward(ctx, *args, **kwargs)
    several = isinstance(out, (tuple, list))
    outputs: tuple[Any, ...] = tuple(out) if several else (out,)
    if not outputs or not all(isinstance(o, tensor_type) for o in outputs):
        raise not_supported(f"a custom function's forward returning {type(out).__name__} ("
                            f"{cls.__name__}.forward): it returns a tensor or a tuple of tensors")
    differentiable = [not any(t is o for t in ctx._non_differentiable) for o in outputs]
    if ctx._dirty:
        _check_dirty(ctx._dirty, outputs, differentiable)
    if not grad_mode.is_grad_enabled() or not any(ctx.needs_input_grad):
        return out, ctx
    name = policy.custom_node_name(cls)

    def run_backward(grad: Any) -> list[Any]:
        handed = list(grad) if several else [grad]
        for i, g in enumerate(handed):
            if g is None or g is engine.UNDEFINED:  # none reached this output
                handed[i] = F.zeros_like(outputs[i]) if ctx.materialize_grads else None
            else:
                handed[i] = policy.custom_output_grad(g)
        returned = policy.user_callback(cls.backward, name)(ctx, *handed)
        returned = returned if isinstance(returned, tuple) else (returned,)
        needed = ctx._node.attrs.get("needed", ()) if ctx._node is not None else ()
        grads = policy.custom_gradients(name, returned, args, positions, needed)
        if ctx._node is not None:  # what a hook on the node sees: every gradient returned
            ctx._node.attrs["returned"] = tuple(grads)
        return grads

    inputs = [args[i] for i in positions]
    first = recorder.apply(_rule(cls, policy), inputs,
                    {"output": outputs[0]._data, "function": run_backward})
    first._device = outputs[0]._device
    node = first._grad_fn
    if node is None:
        return out, ctx
    results = [first] if not several else [F.output_slot(node, o._data, i, len(outputs), o)
                                            for i, o in enumerate(outputs)]
    for i, (o, result) in enumerate(zip(outputs, results)):
        if not differentiable[i]:
            result._requires_grad = False
            if not policy.custom_non_differentiable_keeps_node:
                result._grad_fn = None
                if any(a is o for a in args):  # torch returns a detached alias of the input
                    result._counter = o._counter
        elif ctx._dirty and any(t is o for t in ctx._dirty):
            # the input written in place is the output: its history moves to the node
            o._rebase(result._grad_fn)
            results[i] = o
    ctx._node = node
    for i, t in enumerate(ctx._to_save):
        if t is None:
            continue
        # a saved output is the tensor apply returns
        kept = next((r for o, r in zip(outputs, results) if t is o), t)
        node.saved[f"saved{i}"] = SavedTensor(kept, checked=policy.custom_saved_checked)
    if policy.custom_refuses_second_backward:
        node.attrs["refuses_second_backward"] = True
    return (type(out)(results) if several else results[0]), ctx


def _check_dirty(dirty: list[Any], outputs: tuple[Any, ...], differentiable: list[bool]) -> None:
    """torch: a tensor marked dirty was written in place, so its version grows (counted before
    the checks, measured); it must be an output (the input a forward modified is returned)
    and, when differentiable, no leaf that requires grad."""
    for t in dict.fromkeys(dirty):
        if t._view_base is not None:
            raise not_supported("a view marked dirty by a custom function (its base is not rewritten)")
        t._counter.value += 1
    for t in dict.fromkeys(dirty):
        for o, diff in zip(outputs, differentiable):
            if t is o and diff and grad_mode.is_grad_enabled() and t._grad_fn is None \
                    and t._requires_grad:
                raise t._policy.error("dirty_leaf")
    if any(all(t is not o for o in outputs) for t in dirty):
        raise outputs[0]._policy.error("dirty_not_returned")
