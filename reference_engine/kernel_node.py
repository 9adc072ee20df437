"""A function composed from the core's ops, shown as the one node of the framework's fused kernel.

Some framework kernels compute a whole composite in one call and record one node for it (torch's
CPU LSTM layer, ``MkldnnRnnLayerBackward0``): its outputs' ``grad_fn`` is that node, with one
edge per input, and it saves its inputs and outputs (a write into one refuses the backward; a
second backward through it finds them freed). :func:`one_node` gives a composed function that
shape: the composite runs recorded over private leaves standing for the inputs, and the node's
rule differentiates that private graph; a backward that records (``create_graph``) runs the
composite again over the inputs themselves and differentiates that, so that higher derivatives
reach them.
"""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

from reference_engine import engine, grad_mode, recorder
from reference_engine import ops as F
from reference_engine.graph import SavedTensor
from reference_engine.rules import Rule
from reference_engine.tensor import Tensor

__all__ = ["one_node"]

_RULES: dict[str, Rule] = {}


def _given(*arrays: Any, output: Any, function: Any) -> Any:
    """The node's forward: the composite already computed its outputs."""
    return output


def _backward(g: Any, function: Any) -> list[Any]:
    return function(g)


def _rule(name: str) -> Rule:
    if name not in _RULES:
        _RULES[name] = Rule("kernel_node", name, _given, (_backward,), variadic=True)
    return _RULES[name]


def one_node(name: str, inputs: Sequence[Tensor],
             composite: Callable[..., Sequence[Tensor]]) -> tuple[Tensor, ...]:
    """``composite(*inputs)``'s outputs, one node named ``name`` for all of them whose edges are
    ``inputs`` (in order; one that needs no gradient is an empty edge)."""
    if not grad_mode.is_grad_enabled() or not any(t._requires_grad for t in inputs):
        return tuple(composite(*inputs))
    private = [_stand_in(t) for t in inputs]
    outputs = tuple(composite(*private))
    policy = inputs[0]._policy
    wanted = [i for i, p in enumerate(private) if p._requires_grad]

    def run_backward(grad: Any) -> list[Optional[Tensor]]:
        handed = list(grad) if len(outputs) > 1 else [grad]
        # a backward that records differentiates the composite run again over the inputs
        # themselves, so that its gradients depend on them (to any order)
        recording = grad_mode.is_grad_enabled()
        sources, over = (tuple(composite(*inputs)), inputs) if recording else (outputs, private)
        pairs = [(o, g) for o, g in zip(sources, handed)
                 if g is not None and g is not engine.UNDEFINED and o._grad_fn is not None]
        grads: list[Optional[Tensor]] = [None] * len(inputs)
        if not pairs:
            return grads
        found = engine.run_backward(policy, [o for o, _ in pairs], [g for _, g in pairs],
                                    inputs=[over[i] for i in wanted], accumulate=False,
                                    create_graph=recording, retain_graph=True)
        for i, g in zip(wanted, found):
            grads[i] = g
        return grads

    first = recorder.apply(_rule(name), list(inputs),
                           {"output": outputs[0]._data, "function": run_backward})
    node = first._grad_fn
    results = [first] if len(outputs) == 1 else [
        F.output_slot(node, o._data, i, len(outputs), o) for i, o in enumerate(outputs)]
    for i, t in enumerate((*inputs, *results)):
        node.saved[f"saved{i}"] = SavedTensor(t)
    return tuple(results)


def _stand_in(t: Tensor) -> Tensor:
    """A leaf of ``t``'s values (the same memory) that requires grad as ``t`` does."""
    leaf = type(t)._from_array(t._data)
    leaf._requires_grad = t._requires_grad
    leaf._device = t._device
    return leaf
