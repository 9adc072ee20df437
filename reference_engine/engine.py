"""The backward run: seed the roots, visit nodes in dependency order, apply the rules.

One function serves ``backward`` and ``grad`` of both dialects. It only walks the graph; every
point where torch and paddle differ — whether a freed node may run again, what accumulating into
``.grad`` means, whether leaf hooks touch captured gradients — is asked of the policy.
"""

from __future__ import annotations

import collections
import contextlib
import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence

import numpy as np

from reference_engine import grad_mode, rounding
from reference_engine import ops as F
from reference_engine.dtypes import is_floating
from reference_engine.graph import AccumulateGrad, Node, derivative_of, recording_pass

if TYPE_CHECKING:
    from reference_engine.dialects.policy import Policy
    from reference_engine.tensor import Tensor


def topological_order(roots: Sequence[Node], cut: frozenset[int] = frozenset()) -> list[Node]:
    """Every node reachable from ``roots`` (not through ``cut``), each before the nodes it feeds."""
    seen: set[int] = set(cut)
    postorder: list[Node] = []
    for root in roots:
        if id(root) in seen:
            continue
        seen.add(id(root))
        stack: list[tuple[Node, int]] = [(root, 0)]
        while stack:
            node, i = stack[-1]
            edges = node.edges
            while i < len(edges) and (edges[i] is None or id(edges[i]) in seen):
                i += 1
            if i == len(edges):
                stack.pop()
                postorder.append(node)
                continue
            stack[-1] = (node, i + 1)
            child = edges[i]
            seen.add(id(child))
            stack.append((child, 0))
    postorder.reverse()
    return postorder


def _dependencies(roots: Sequence[Node], cut: frozenset[int]) -> tuple[list[Node], dict[int, int]]:
    """The nodes reachable from ``roots`` and, for each, how many of their edges lead into it."""
    deps: dict[int, int] = {}
    nodes: list[Node] = []
    seen = set(cut)
    for root in roots:
        if id(root) not in seen:
            seen.add(id(root))
            nodes.append(root)
    stack = list(nodes)
    while stack:
        for edge in stack.pop().edges:
            if edge is None:
                continue
            key = id(edge)
            if key in cut:
                continue
            deps[key] = deps.get(key, 0) + 1
            if key not in seen:
                seen.add(key)
                nodes.append(edge)
                stack.append(edge)
    return nodes, deps


_LEAF_PRIORITY = 1 << 62  # every leaf accumulation's: above any recorded node's


def _priority(node: Node) -> int:
    """torch's ready-queue priority: a node's sequence number; AccumulateGrad's is the largest
    number there is, the same for every leaf."""
    return _LEAF_PRIORITY if type(node) is AccumulateGrad else node.sequence_nr


class _LatestFirst:
    """torch's ready queue: a ``std::priority_queue`` popping the highest priority, the most
    recently recorded node, leaf accumulations first. Leaf accumulations tie, so which of them
    runs first is what libstdc++'s heap algorithms make of the order they were pushed in: they
    are emulated step for step."""

    def __init__(self, start: Sequence[Node]) -> None:
        self._heap: list[tuple[int, Node]] = []
        for node in start:
            self.push(node)

    def __bool__(self) -> bool:
        return bool(self._heap)

    def push(self, node: Node) -> None:
        self._heap.append((_priority(node), node))
        self._sift_up(len(self._heap) - 1, 0, self._heap[-1])

    def pop(self) -> Node:
        heap = self._heap
        top, last = heap[0], heap.pop()
        if heap:  # std::pop_heap: the last element fills the hole the top leaves
            self._adjust(0, len(heap), last)
        return top[1]

    def _sift_up(self, hole: int, top: int, value: tuple[int, Node]) -> None:
        """``std::__push_heap``: strictly lower parents move down."""
        heap = self._heap
        parent = (hole - 1) // 2
        while hole > top and heap[parent][0] < value[0]:
            heap[hole] = heap[parent]
            hole = parent
            parent = (hole - 1) // 2
        heap[hole] = value

    def _adjust(self, hole: int, length: int, value: tuple[int, Node]) -> None:
        """``std::__adjust_heap``: the hole goes down to a leaf along the larger children (the
        left one on a tie), then ``value`` sifts up from there."""
        heap, top, child = self._heap, hole, hole
        while child < (length - 1) // 2:
            child = 2 * (child + 1)
            if heap[child][0] < heap[child - 1][0]:
                child -= 1
            heap[hole] = heap[child]
            hole = child
        if length % 2 == 0 and child == (length - 2) // 2:
            child = 2 * (child + 1)
            heap[hole] = heap[child - 1]
            hole = child - 1
        self._sift_up(hole, top, value)


class _FirstInFirstOut:
    """paddle's ready queue (``egr::RunBackward``): first in, first out, a leaf accumulation put
    at the front; the start nodes in the order they are given."""

    def __init__(self, start: Sequence[Node]) -> None:
        self._queue = collections.deque(start)

    def __bool__(self) -> bool:
        return bool(self._queue)

    def push(self, node: Node) -> None:
        if type(node) is AccumulateGrad:
            self._queue.appendleft(node)
        else:
            self._queue.append(node)

    def pop(self) -> Node:
        return self._queue.popleft()

    def accumulation_first(self) -> bool:
        """Whether the next node is a leaf accumulation (which paddle puts at the front)."""
        return bool(self._queue) and type(self._queue[0]) is AccumulateGrad


class _DerivativesFirst:
    """paddle's ready queue in a pass through derivatives: the derivative nodes most recently
    recorded first (paddle's fused kernel for a derivative is several nodes here, so first in,
    first out over them would not follow paddle's order), and the forward's nodes they reach
    first in, first out once no derivative node is ready, as paddle runs them (one node here
    each, its order measured by which retained gradient and hook comes first); a leaf
    accumulation made ready runs next, before any derivative node (measured: a derivative node
    that fails leaves the leaf's gradient written when the leaf was ready before it)."""

    def __init__(self, start: Sequence[Node]) -> None:
        self._derivatives = _LatestFirst([n for n in start if n.in_derivative])
        self._forward = _FirstInFirstOut([n for n in start if not n.in_derivative])

    def __bool__(self) -> bool:
        return bool(self._derivatives) or bool(self._forward)

    def push(self, node: Node) -> None:
        (self._derivatives if node.in_derivative else self._forward).push(node)

    def pop(self) -> Node:
        if self._derivatives and not self._forward.accumulation_first():
            return self._derivatives.pop()
        return self._forward.pop()


def _in_input_order(node: Node, made_ready: list[Node]) -> list[Node]:
    """The nodes ``node`` made ready, in the order paddle's fused derivative kernel hands its
    gradients on: the input order of the node whose derivative ``node`` is part of (the ones it
    does not lead to keep their place, after them)."""
    source = node.derivative_source
    if source is None:
        return made_ready
    place = {id(edge): i for i, edge in reversed(list(enumerate(source.edges))) if edge is not None}
    return sorted(made_ready, key=lambda n: place.get(id(n), len(place)))


def _needed_nodes(order: list[Node], targets: set[int],
                  whole_ops: frozenset[str] = frozenset()) -> set[int]:
    """Nodes from which some target node can be reached (targets included). A needed node of
    ``whole_ops`` (``Policy.gradients_to_every_input``) hands every input its gradient: a node
    it reaches that leads to no target runs too, and hands all of its inputs theirs."""
    needed: set[int] = set()
    for node in reversed(order):
        if id(node) in targets or any(e is not None and id(e) in needed for e in node.edges):
            needed.add(id(node))
    if whole_ops:
        reached: set[int] = set()
        for node in order:  # the outputs' side first
            if id(node) in reached or (id(node) in needed and type(node) is not AccumulateGrad
                                       and node.rule.op in whole_ops):
                reached.update(id(e) for e in node.edges if e is not None and id(e) not in needed)
        needed |= reached
    return needed


def _owners_of_captured_outputs(inputs: Sequence[Tensor]) -> set[int]:
    """torch captures an input that is one output of a node with several at that node: the
    node is evaluated once the gradients of its outputs arrived, running every output's hooks
    (None where nothing arrived) before the capture, though its own derivative never runs. The
    pass needs those nodes as it needs its inputs."""
    needed: set[int] = set()
    for t in inputs:
        node = t._edge()
        rule = getattr(node, "rule", None)
        if rule is None or rule.op != "output_slot":
            continue
        needed.add(id(node.attrs["of"]))
    return needed


class _Undefined:
    """torch's undefined gradient: what reaches a node below a custom function's None."""

    def __repr__(self) -> str:
        return "UNDEFINED"


UNDEFINED: Any = _Undefined()


def _accumulate_buffer(policy: Policy, buffers: dict[int, Any], node: Node, grad: Any,
                       seed: bool = False) -> None:
    if policy.gradients_cast_to_recorded_dtype and grad is not UNDEFINED and \
            type(grad) is not list and node.out_dtype is not None and \
            grad._data.dtype != node.out_dtype:
        grad = policy.widened_seed(node, grad) if seed else policy.cast_passed_gradient(grad, node.out_dtype)
    key = id(node)
    have = buffers.get(key)
    if have is None or have is UNDEFINED:
        buffers[key] = grad
    elif grad is not UNDEFINED:
        buffers[key] = policy.sum_buffered(have, grad)
        rounding.note(buffers[key], (have, grad))


# the buffers of the passes running (a hook may run a pass inside another), innermost last
_RUNNING_BUFFERS: list[dict[int, Any]] = []


class RunningPass:
    """What code running inside a backward pass (a hook) may ask of it: which pass it is, and
    whether the pass will run a node (torch's ``_current_graph_task_id`` and
    ``_will_engine_execute_node``, which ``register_multi_grad_hook`` counts with)."""

    def __init__(self, nodes: Sequence[Node], wanted: Optional[set[int]], accumulates: bool) -> None:
        self.number = next(_pass_numbers)
        self.accumulates = accumulates  # backward; grad (which writes no .grad) when False
        self._nodes, self._wanted = nodes, wanted

    @functools.cached_property
    def _reachable(self) -> frozenset[int]:
        return frozenset(id(n) for n in self._nodes)

    def will_execute(self, node: Optional[Node]) -> bool:
        return node is not None and id(node) in self._reachable and (
            self._wanted is None or id(node) in self._wanted)


_RUNNING_PASSES: list[RunningPass] = []
_pass_numbers = iter(range(1, 1 << 62))


def running_pass() -> Optional[RunningPass]:
    """The innermost backward pass running now, or None outside any."""
    return _RUNNING_PASSES[-1] if _RUNNING_PASSES else None


def held_by_another_node(grad: Tensor) -> bool:
    """Whether the running pass still holds ``grad`` for a node yet to run (torch's
    AccumulateGrad steals only a gradient nothing else holds)."""
    return bool(_RUNNING_BUFFERS) and any(held is grad for held in _RUNNING_BUFFERS[-1].values())


def _accumulate_leaf(policy: Policy, leaf: Tensor, grad: Tensor, create_graph: bool) -> None:
    """Accumulate into the leaf's .grad, noting the scale of what the sum came from."""
    before = leaf._grad
    policy.accumulate(leaf, grad, create_graph)
    rounding.note(leaf._grad, (grad,) if before is None else (before, grad))


def _send(policy: Policy, buffers: dict[int, Any], node: Node, edge: Node, grad: Any) -> None:
    """Add ``grad`` from ``node`` into ``edge``'s buffer: an output slot of a custom function
    with several outputs adds it at its place in the function's list of output gradients."""
    if node.rule.op != "output_slot":
        _accumulate_buffer(policy, buffers, edge, grad)
        return
    slots = buffers.setdefault(id(edge), [None] * edge.attrs["outputs"])
    index, have = node.attrs["slot"], slots[node.attrs["slot"]]
    if have is None or have is UNDEFINED:
        slots[index] = grad
    elif grad is not UNDEFINED:
        slots[index] = policy.sum_gradients(have, grad)


def _pass_on(policy: Policy, buffers: dict[int, Any], node: Node, grads: Sequence[Any],
             wanted: Optional[set[int]], cut_nodes: frozenset[int]) -> None:
    """Add what the node computed to the buffers of the nodes below; in torch a custom
    function's None for an input it needs passes on as an undefined gradient."""
    undefined_below = policy.undefined_gradients_flow and node.rule.op == "custom"
    into_slots = node.rule.op == "output_slot"
    for edge, g in zip(node.edges, grads):
        if edge is None or id(edge) in cut_nodes:
            continue
        if g is not None:
            if into_slots:
                _send(policy, buffers, node, edge, g)
            else:
                _accumulate_buffer(policy, buffers, edge, g)
        elif undefined_below and (wanted is None or id(edge) in wanted):
            _send(policy, buffers, node, edge, UNDEFINED)


def _run_undefined(policy: Policy, node: Node, hooks: bool = True, accumulate: bool = True) -> bool:
    """A node an undefined gradient reached, as torch runs it: its hooks are handed None (unless
    they run later, with its function's), its saved tensors are checked (and freed after the
    step, by ``run_backward``). Returns whether its backward runs (a custom function's does,
    with zeros); otherwise every input it needs gets an undefined gradient. A leaf moved into
    the graph refuses even an undefined gradient, after its hooks ran."""
    for hook in list(node.pre_hooks.values()) if hooks else ():
        hook(None)
    if accumulate and type(node) is AccumulateGrad and node.variable._grad_fn is not None and \
            policy.refuses_leaves_moved_into_graph:
        raise policy.error("leaf_moved_into_graph")
    if node.node_hooks:
        _run_node_hooks(node, "pre", (None,))
    if type(node) is AccumulateGrad:
        return False
    if node.rule.op == "custom":
        return True
    policy.check_runnable(node, False, True)
    policy.unpack_saved(node)
    return False


def _run_hooks(policy: Policy, node: Node, grad: Tensor) -> tuple[Tensor, Tensor]:
    """The node's tensor hooks in registration order, each handed what the previous returned.
    Returns the gradient the first hook was handed and the one the last returned."""
    if not node.pre_hooks:
        return grad, grad
    with _hook_mode(policy):
        grad = handed = policy.leaf_hook_input(node.variable, grad) if type(node) is AccumulateGrad \
            else policy.hook_input(grad)
        for hook in list(node.pre_hooks.values()):
            grad = _call_hook(policy, hook, grad)
    return handed, grad


def _hook_mode(policy: Policy) -> contextlib.AbstractContextManager[Any]:
    """The grad mode tensor hooks run in (paddle records what they compute)."""
    return grad_mode.set_grad_enabled(True) if policy.hooks_record else contextlib.nullcontext()


def _call_hook(policy: Policy, hook: Callable[[Any], Any], grad: Tensor) -> Tensor:
    """What a tensor hook makes of ``grad``: what it returned, else ``grad``."""
    replaced = hook(grad)
    if replaced is None:
        return grad
    result = policy.hook_result(grad, replaced)
    rounding.note_hook_result(result, grad)
    return result


def _run_output_hooks(policy: Policy, node: Node, grads: list[Any], create_graph: bool,
                      targets: dict[int, list[int]]) -> None:
    """torch: the tensor hooks of every output of a node with several run as the node runs, in
    the order they were registered, each handed its output's gradient (None where none or an
    undefined one arrived, which a hook may not replace); then the retained gradients. (An
    output that is an input of the pass and was reached ran its own.)"""
    slots = [(i, ref()) for i, ref in enumerate(node.attrs.get("slot_nodes", ()))]
    slots = [(i, slot) for i, slot in slots if slot is not None
             and (id(slot) not in targets or grads[i] is None)]
    hooks = sorted((key, i, hook) for i, slot in slots for key, hook in slot.pre_hooks.items())
    for _, i, hook in hooks:
        handed = None if grads[i] is None or grads[i] is UNDEFINED else policy.hook_input(grads[i])
        replaced = hook(handed)
        if replaced is not None:
            if handed is None:
                raise policy.error("hook_replaced_none")
            grads[i] = policy.hook_result(handed, replaced)
    for i, slot in slots:
        if slot.retained is not None and grads[i] is not None and grads[i] is not UNDEFINED:
            policy.retain(slot.retained, grads[i], create_graph)


def _missing_outputs(policy: Policy, node: Node, grads: list[Any], hooks: bool = True) -> set[int]:
    """The outputs of a node with several that no gradient reached, as the node runs: torch
    hands their tensor hooks None (a hook may not replace it); paddle's split kernels fill in
    zeros, which the outputs' hooks and retained gradients see and the node adds up (their
    hooks run here unless ``hooks`` is False). Returns the outputs filled in."""
    kind = policy.missing_output_gradient(node)
    filled: set[int] = set()
    for index, slot_ref in enumerate(node.attrs.get("slot_nodes", ())):
        slot = slot_ref()
        if slot is None or grads[index] is not None:  # an undefined one ran its hooks on arrival
            continue
        if kind == "refused":  # the framework's kernel crashes without it (the policy says why)
            raise policy.error("partial_pass_crash", name=node.name())
        if kind == "none":
            for hook in list(slot.pre_hooks.values()):
                if hook(None) is not None:
                    raise policy.error("hook_replaced_none")
        elif kind == "zeros":
            like = next((g for g in grads if g is not None and g is not UNDEFINED), None)
            if like is not None:
                shape, dtype = slot.input_meta[0]
                zeros = type(like)._from_array(np.zeros(shape, dtype))
                zeros._device = like._device
                zeros = policy.filled_gradient(zeros)
                grads[index] = _run_hooks(policy, slot, zeros)[1] if hooks else zeros
                filled.add(index)
    return filled


def _slot_hooks_at_owner(policy: Policy, node: Node, grads: list[Any], filled: set[int]) -> None:
    """paddle: the hooks of a node's outputs run as the node runs, in the order they were
    registered, each output's handed what its previous hook returned. A filled-in zero is what
    its hooks return; what they return for a gradient that arrived goes unused."""
    slots = [(i, ref()) for i, ref in enumerate(node.attrs.get("slot_nodes", ()))]
    slots = [(i, slot) for i, slot in slots
             if slot is not None and grads[i] is not None and grads[i] is not UNDEFINED]
    hooks = sorted((key, i, hook) for i, slot in slots for key, hook in slot.pre_hooks.items())
    if not hooks:
        return
    with _hook_mode(policy):
        current = {i: policy.hook_input(grads[i]) for i, _ in slots}
        for _, i, hook in hooks:
            current[i] = _call_hook(policy, hook, current[i])
    for i in filled:
        grads[i] = current.get(i, grads[i])


def _label_gradient_nodes(policy: Policy, node: Node, grads: Sequence[Any]) -> None:
    """Name the node each gradient a recording run of ``node`` made comes from after the
    gradient kernel, where the framework fuses that derivative into one node."""
    for index, g in enumerate(grads):
        made = getattr(g, "_grad_fn", None)
        if made is None or made.origin != node.origin or made.order != node.order + 1:
            continue
        label = policy.gradient_node_name(node, index)
        if label is not None:
            made.label = label
        policy.gradient_node_made(node, made)


def _check_nan(policy: Policy, node: Node, grads: Sequence[Any]) -> None:
    """torch's anomaly detection: a backward function that returned nan fails, naming itself."""
    for index, g in enumerate(grads):
        if g is not None and is_floating(g._data.dtype) and np.isnan(g._data).any():
            policy.warn_anomaly(node)
            raise policy.error("anomaly_nan", name=node.name(), index=index)


def _run_node_hooks(node: Node, kind: str, grads: tuple[Any, ...], *extra: Any) -> tuple[Any, ...]:
    """The node's own hooks of ``kind`` in registration order; a tuple one returns replaces
    ``grads`` for the next."""
    for hook in list(node.hooks(kind).values()):
        replaced = hook(grads, *extra)
        if replaced is not None:
            grads = tuple(replaced)
    return grads


def _run_pre_hooks(node: Node, outputs: tuple[Any, ...]) -> tuple[Any, ...]:
    """The node's pre hooks, handed its output gradients (None for an undefined one, which
    stays undefined unless a hook returns a tensor for it)."""
    replaced = _run_node_hooks(node, "pre", tuple(None if g is UNDEFINED else g for g in outputs))
    return tuple(o if r is None and o is UNDEFINED else r for o, r in zip(outputs, replaced))


def _run_post_hooks(policy: Policy, node: Node, grads: list[Any], outputs: tuple[Any, ...]) -> None:
    """The node's post hooks, handed the gradients it computed for the inputs it lists and the
    ones it was handed (None for an undefined one); what they return replaces ``grads``. A
    custom function's node shows what its backward returned, a gradient for an input that
    needs none included; so does a list op's whose kernel computes every list entry's
    gradient once one is needed (``Policy.hooks_see_every_list_gradient``)."""
    if not node.node_hooks:
        return
    listed = node.listed()
    shown = node.attrs.get("returned") if node.rule.op == "custom" else None
    if shown is None and node.rule.op in policy.hooks_see_every_list_gradient and \
            any(g is not None for g in grads) and outputs[0] is not None:
        computed = _call_rule(node.rule.vjps[0], outputs[0], node, _NOTHING_SAVED, node.rule.uses[0], None)
        needed = [g is not None for g in grads]
        seen = _run_node_hooks(node, "post", tuple(g if need else computed[i] for i, (g, need) in
                                                  enumerate(zip(grads, needed))), outputs)
        for i, (g, need) in enumerate(zip(seen, needed)):
            if need:  # (what a hook returns for an input the pass does not need goes nowhere)
                grads[i] = g
        return
    handed = tuple(None if g is UNDEFINED else g for g in outputs)
    seen = _run_node_hooks(node, "post", shown if shown is not None
                           else tuple(grads[i] for i in listed), handed)
    for i, g in zip(listed, seen):
        grads[i] = g


def _call_rule(vjp: Any, grad: Any, node: Node, saved: dict[str, Tensor], uses: tuple[str, ...],
               linked_operand: Optional[str], unrecorded_links: bool = False) -> Any:
    """One derivative rule, handed the saved tensors and attributes it names (an attribute the
    call did not set takes the rule's default). With ``linked_operand``, the framework's kernel
    reads that operand: the other operands it multiplies the gradient by stay connected to it,
    with a zero derivative (``unrecorded_links``: zeros without a node)."""
    attrs = node.attrs
    if not uses:
        return vjp(grad)
    args = {n: saved[n] if n in saved else attrs[n] for n in uses if n in saved or n in attrs}
    if linked_operand is not None:
        inputs, operand = node.rule.inputs, saved[linked_operand]
        args = {n: F.link(v, operand, unrecorded_links) if n in inputs and n != linked_operand
                else v for n, v in args.items()}
    return vjp(grad, **args)


def _input_grads(policy: Policy, node: Node, grad: Tensor,
                 wanted: Optional[set[int]]) -> list[Optional[Tensor]]:
    """Apply the node's rules for the inputs whose gradient is wanted, each gradient summed to
    its input's shape and cast to its dtype."""
    needed = _needed(node, wanted)
    if node.rule.op == "copy_slices":
        return _copy_slices_grads(policy, node, grad, needed)
    return _needed_input_grads(policy, node, grad, needed)


def _needed(node: Node, wanted: Optional[set[int]]) -> list[bool]:
    """Which of ``node``'s inputs the pass needs a gradient for (``wanted``: the edges that
    lead to what it computes, None: every edge)."""
    if wanted is None:
        return [e is not None for e in node.edges]
    return [e is not None and id(e) in wanted for e in node.edges]


def _needed_input_grads(policy: Policy, node: Node, grad: Tensor,
                        needed: list[bool]) -> list[Optional[Tensor]]:
    """``_input_grads`` for the inputs ``needed`` marks."""
    rule, edges = node.rule, node.edges
    saved = policy.unpack_saved(node) if node.saved else _NOTHING_SAVED
    policy.check_kernel(node, needed)

    links = rule.op in policy.zero_derivative_links and policy.links_operands(node)

    # with every operand differentiable, each gradient is linked through the other operands
    # (``Policy.operand_links``: its zeros recorded or not, or no link); with a constant among
    # them, to its own operand only (see ``Policy.links_operands``)
    through = policy.operand_links(node, needed) if links and None not in edges else None
    through_operands = through is not None

    if rule.reads_needed or rule.op == "custom":  # a kernel told which inputs the pass needs
        node.attrs = {**node.attrs, "needed": tuple(needed)}  # (a node may share its attrs)
    if rule.variadic:
        grads = _call_rule(rule.vjps[0], grad, node, saved, rule.uses[0], None) if True in needed \
            else [None] * len(needed)
    else:
        grads = [None] * len(needed)
        # the order the formulas run in is the order their recorded nodes are numbered in, which
        # decides the order a later pass through them runs (and sums) in
        for i in policy.derivative_order(rule):
            if needed[i]:
                grads[i] = _call_rule(rule.vjps[i], grad, node, saved, rule.uses[i],
                                      rule.inputs[i] if through_operands else None, through == "unrecorded")
    # an identity rule (clone, add) runs a kernel: a new tensor, recorded when the gradient
    # requires grad without a node of its own
    copies = policy.kernels_copy_gradients and rule.op != "output_slot"
    linked_alone = links and not through_operands and (
        rule.op in policy.links_with_a_constant or node.name() in policy.links_with_a_constant_nodes)
    out: list[Optional[Tensor]] = [None] * len(needed)
    for i, (g, meta) in enumerate(zip(grads, node.input_meta)):
        if g is None or not needed[i]:
            continue
        if g is grad and copies:
            if not grad_mode._State.enabled:
                copy = type(g)._from_array(g._data)
                copy._device = g._device
                g = copy
            elif g._requires_grad and g._grad_fn is None:
                g = F.clone(g)
        if linked_alone:
            g = F.link(g, saved[rule.inputs[i]], unrecorded=True)
        data = g._data
        if data.shape != meta[0]:
            g = F.sum_to_shape(g, meta[0])
            data = g._data
        if data.dtype != meta[1] and (
                rule.op != "custom" or policy.custom_gradients_cast_to_input_dtype) and \
                policy.casts_input_gradient(node, i, grad):
            g = policy.cast_gradient(g, meta[1])
        out[i] = g
    if rule.op in policy.gradient_views or rule.op in policy.own_memory_gradients or \
            getattr(grad, "_shares_gradient_buffer", False):
        policy.alias_gradients(node, grad, out)
    return out


def _copy_slices_grads(policy: Policy, node: Node, grad: Tensor,
                       needed: list[bool]) -> list[Optional[Tensor]]:
    """torch's CopySlices, the node of a base one of its views was written through: the
    write's node (``fn``) runs on the view's part of the base's gradient; the base's gradient
    is the incoming one with that part replaced by what ``fn`` gives its first input, and fn's
    other inputs get what it gives them."""
    fn, index = node.attrs["fn"], node.attrs["index"]
    result = F.clone(grad)
    inner = _needed_input_grads(policy, fn, F.getitem(result, index), needed)
    if needed[0] and inner[0] is not None:
        result = F.index_put(result, index, inner[0])
    return [result if needed[0] and inner[0] is not None else None, *inner[1:]]


_NOTHING_SAVED: dict[str, Any] = {}

# ops whose nodes the backward run handles apart: custom functions' backward and the output
# slots of functions with several outputs
_OWN_HANDLING = frozenset({"custom", "output_slot"})


def _own_buffer(grad: Tensor) -> Tensor:
    """torch's AsStridedBackward0 copies the gradient into zeros of its own (one write, so
    version 1): the leaf below never holds the seed's memory, as a plain view's node hands it on."""
    fresh = type(grad)._from_array(grad._data.copy())
    fresh._counter.value = 1
    rounding.note(fresh, (grad,))
    return fresh


def _run_rules(policy: Policy, node: Node, grad: Any, wanted: Optional[set[int]],
               create_graph: bool, accumulate: bool) -> list[Optional[Tensor]]:
    """Check that ``node`` can run and apply its rules to ``grad`` (recording them, as part of
    its derivative, in a create_graph pass)."""
    policy.check_runnable(node, create_graph, accumulate, _needed(node, wanted))
    grad = policy.kernel_gradient(node, grad)
    factor = rounding.saved_factor(node)  # (before the rules run: a pass may free what they read)
    if create_graph:
        with derivative_of(node, composite=node.rule.op in policy.composite_derivatives):
            grads = _input_grads(policy, node, grad, wanted)
        _label_gradient_nodes(policy, node, grads)
    else:
        grads = _input_grads(policy, node, grad, wanted)
        if node.label is not None and node.label == policy.regenerated_view_node:
            grads = [g if getattr(g, "_data", None) is None else _own_buffer(g) for g in grads]
    if grad_mode._State.anomaly:
        _check_nan(policy, node, grads)
    rounding.note_rule_outputs(grads, grad, factor)
    return grads


@dataclass
class _Pass:
    """One backward pass's state, and what one step of it does with a node."""

    policy: Policy
    buffers: dict[int, Any]
    targets: dict[int, list[int]]
    wanted: Optional[set[int]]
    captured: list[Optional[Tensor]]
    cut_nodes: frozenset[int]
    create_graph: bool
    accumulate: bool
    plain_pass: bool  # no captured inputs, no wanted subset
    capture_owners: frozenset[int] = frozenset()  # nodes that capture one of their outputs

    def step(self, node: Node, grad: Any) -> Optional[Node]:
        """Run ``node`` on the gradient that reached it. Returns the node whose saved tensors the
        step used (``run_backward`` frees them unless the graph is retained), or None."""
        policy, wanted, targets = self.policy, self.wanted, self.targets
        if self.plain_pass and type(grad) is not list and grad is not UNDEFINED and \
                not node.pre_hooks and node.retained is None and node.node_hooks is None:
            # the common case, without hooks, retained gradients, custom functions or inputs
            if type(node) is AccumulateGrad:
                if self.accumulate:
                    _accumulate_leaf(policy, node.variable, grad, self.create_graph)
                return None
            if node.rule.op not in _OWN_HANDLING:
                grads = _run_rules(policy, node, grad, None, self.create_graph, self.accumulate)
                _pass_on(policy, self.buffers, node, grads, None, self.cut_nodes)
                return node
        if isinstance(grad, list) and node.rule.op in F.SPLIT_OPS and all(
                g is None or g is UNDEFINED for g in grad):
            _run_output_hooks(policy, node, grad, self.create_graph, targets)
            grad = UNDEFINED  # only undefined gradients reached the pieces: so is the input's
        deferred = policy.output_hooks_run_at_node and type(node) is not AccumulateGrad and \
            node.rule.op == "output_slot" and (
                id(node) not in targets or id(node.attrs["of"]) in self.capture_owners)
        if grad is UNDEFINED:
            return self._undefined(node, deferred)
        is_leaf = type(node) is AccumulateGrad
        if wanted is not None and id(node) not in wanted:
            # a node the inputs do not need still has its hooks run on what reached it (the
            # node of several outputs, each output's: None where nothing reached it)
            if not is_leaf and policy.hooks_run_on_unneeded_nodes:
                if node.rule.op == "output_slot" and policy.output_hooks_run_at_node:
                    self._run_slot_hooks(node, grad)
                    return None
                grad = _run_hooks(policy, node, grad)[1]
                if node.retained is not None:
                    policy.retain(node.retained, grad, self.create_graph)
            return None
        if isinstance(grad, list):
            if policy.output_hooks_run_at_node and id(node) in self.capture_owners:
                _run_output_hooks(policy, node, grad, self.create_graph, {})
                self._capture_outputs(node, grad)
            elif policy.output_hooks_run_at_node:
                _run_output_hooks(policy, node, grad, self.create_graph, targets)
            elif policy.slot_hooks_run_at_owner:
                _slot_hooks_at_owner(policy, node, grad, _missing_outputs(policy, node, grad, False))
            else:
                _missing_outputs(policy, node, grad)
        if not is_leaf:
            policy.check_before_hooks(node)
        handed = hooked = grad
        # a deferred output slot's hooks run with its node's others (``_run_output_hooks``),
        # or as its node runs (``slot_hooks_run_at_owner``)
        at_owner = policy.slot_hooks_run_at_owner and not is_leaf and node.rule.op == "output_slot"
        if not deferred and not at_owner and (
                not is_leaf or self.accumulate or policy.leaf_hooks_apply_to_grad):
            handed, hooked = _run_hooks(policy, node, grad)
        if node.retained is not None and not deferred:
            policy.retain(node.retained, hooked, self.create_graph)
        skips = not is_leaf and node.rule.op in ("custom", "output_slot") and \
            policy.custom_backward_skips_hook_results
        grad = handed if skips else hooked
        # a custom function with several outputs gets a list: one gradient per output
        outputs = tuple(grad) if isinstance(grad, list) else (grad,)
        input_only = not is_leaf and wanted is not None and \
            not any(e is not None and id(e) in wanted for e in node.edges)
        if node.node_hooks and not (input_only and not self.accumulate
                                    and policy.backward_runs_input_nodes):
            # (torch.autograd.grad runs only the tensor hooks of a node it needs for nothing
            # but a capture)
            outputs = _run_pre_hooks(node, outputs)
            grad = list(outputs) if isinstance(grad, list) else outputs[0]
        for index in () if deferred else targets.get(id(node), ()):
            self.captured[index] = grad
        if is_leaf:
            if self.accumulate:
                _accumulate_leaf(policy, node.variable, grad, self.create_graph)
                if node.node_hooks:
                    for hook in list(node.hooks("post_accumulate").values()):
                        hook(node.variable)
            return None
        if input_only:
            return self._input_node(node, grad, outputs)
        grads = _run_rules(policy, node, grad, wanted, self.create_graph, self.accumulate)
        _run_post_hooks(policy, node, grads, outputs)
        _pass_on(policy, self.buffers, node, grads, wanted, self.cut_nodes)
        return node

    def _undefined(self, node: Node, deferred: bool) -> Optional[Node]:
        """A node only an undefined gradient reached (torch's None)."""
        wanted = self.wanted
        if wanted is not None and id(node) not in wanted:
            return None
        if not _run_undefined(self.policy, node, hooks=not deferred, accumulate=self.accumulate):
            if type(node) is AccumulateGrad:
                # torch runs the leaf's node: its post-accumulate hooks see .grad unchanged
                if self.accumulate and node.node_hooks:
                    for hook in list(node.hooks("post_accumulate").values()):
                        hook(node.variable)
                return None
            if node.node_hooks:
                _run_node_hooks(node, "post", (None,) * len(node.listed()), (None,))
            for edge in node.edges:
                if edge is not None and id(edge) not in self.cut_nodes and (
                        wanted is None or id(edge) in wanted):
                    _send(self.policy, self.buffers, node, edge, UNDEFINED)
            return node
        # a custom function runs its backward (which materializes the gradient)
        grads = _input_grads(self.policy, node, None, wanted)
        _run_post_hooks(self.policy, node, grads, (None,))
        _pass_on(self.policy, self.buffers, node, grads, wanted, self.cut_nodes)
        return node

    def _capture_outputs(self, node: Node, grads: list[Any]) -> None:
        """Capture the outputs of ``node`` that are inputs of the pass, as their hooks left
        their gradients (torch captures at the node, after every output's hooks)."""
        for i, ref in enumerate(node.attrs.get("slot_nodes", ())):
            slot = ref()
            for index in self.targets.get(id(slot), ()) if slot is not None else ():
                self.captured[index] = None if grads[i] is UNDEFINED else grads[i]

    def _run_slot_hooks(self, slot_node: Node, grad: Any) -> Node:
        """Run the output hooks of the node one of whose outputs ``slot_node`` is, as torch runs
        a node of several outputs: ``grad`` for that output, None for the others. Returns that
        node."""
        slot, node = slot_node.attrs["slot"], slot_node.attrs["of"]
        handed: list[Any] = [None] * node.attrs["outputs"]
        handed[slot] = grad
        _run_output_hooks(self.policy, node, handed, self.create_graph, self.targets)
        return node

    def _input_node(self, node: Node, grad: Any, outputs: tuple[Any, ...]) -> Optional[Node]:
        """A node none of whose inputs the pass needs: torch's backward runs a non-leaf input's
        own node (checking and freeing what it saved), computing nothing but a custom
        function's backward; what it computes goes nowhere, and its post hooks see None for
        each input (a custom function's: what its backward returned). For one output of a node
        with several, that node: the other outputs' hooks see None."""
        policy = self.policy
        if not (self.accumulate and id(node) in self.targets and policy.backward_runs_input_nodes):
            return None
        if policy.outer_node_saves_nothing(node):
            return None  # the framework's own node here is a view of a product: nothing to check
        if node.rule.op == "output_slot" and policy.output_hooks_run_at_node:
            node = self._run_slot_hooks(node, grad)
        if node.rule.op == "custom":
            _run_rules(policy, node, grad, None, self.create_graph, self.accumulate)
        else:
            policy.check_runnable(node, self.create_graph, self.accumulate)
            policy.unpack_saved(node)
        if node.node_hooks:
            returned = node.attrs.get("returned") if node.rule.op == "custom" else None
            _run_node_hooks(node, "post", returned if returned is not None
                            else (None,) * len(node.listed()), outputs)
        return node


def run_backward(policy: Policy, roots: Sequence[Tensor], seeds: Sequence[Tensor], *,
                 retain_graph: bool, create_graph: bool,
                 inputs: Optional[Sequence[Tensor]] = None,
                 accumulate: bool = True,
                 cut: Sequence[Tensor] = ()) -> list[Optional[Tensor]]:
    """Run one backward pass and return the gradients captured for ``inputs``.

    ``accumulate=True`` is ``backward``: leaves (all, or only ``inputs``) accumulate into
    ``.grad``. ``accumulate=False`` is ``grad``: nothing is written, the gradients arriving at
    ``inputs`` are returned (``None`` where none arrived). No gradient flows through the
    tensors in ``cut`` (paddle's ``no_grad_vars``).
    """
    cut_nodes = frozenset(id(n) for n in (t._edge() for t in cut) if n is not None)
    root_nodes = [t._edge() for t in roots]
    nodes, deps = _dependencies([n for n in root_nodes if n is not None], cut_nodes)
    buffers: dict[int, Any] = {}
    targets: dict[int, list[int]] = {}
    if inputs is not None:
        for i, t in enumerate(inputs):
            node = t._edge() or t._accumulator  # a leaf that stopped requiring grad since
            if node is not None:
                targets.setdefault(id(node), []).append(i)
    wanted = None
    owners: set[int] = set()
    if inputs is not None:
        order = topological_order([n for n in root_nodes if n is not None], cut_nodes)
        owners = _owners_of_captured_outputs(inputs) if policy.output_hooks_run_at_node else set()
        wanted = _needed_nodes(order, set(targets) | owners, policy.gradients_to_every_input)
    captured: list[Optional[Tensor]] = [None] * (len(inputs) if inputs is not None else 0)

    state = _Pass(policy, buffers, targets, wanted, captured, cut_nodes, create_graph, accumulate,
                  plain_pass=inputs is None, capture_owners=frozenset(owners))
    start = [n for n in nodes if id(n) not in deps]  # the roots, in the order given
    # paddle's fused kernel for a derivative is several nodes here, so first in, first out
    # over them would not follow paddle's order: a pass through derivatives runs the most
    # recently recorded first, which agrees with paddle where measured
    if policy.ready_first_in_first_out and inputs is not None and all(n.order == 1 for n in nodes):
        # paddle.grad starts from a hash set of the roots' nodes, whose order varies from
        # run to run (measured): most often the reverse of the order they were added in
        start.reverse()
    ready: _LatestFirst | _FirstInFirstOut | _DerivativesFirst
    if not policy.ready_first_in_first_out:
        ready = _LatestFirst(start)
    elif all(n.order == 1 for n in nodes):
        ready = _FirstInFirstOut(start)
    else:
        ready = _DerivativesFirst(start)

    def visit(node: Node) -> None:
        """Run ``node``, then queue the nodes it made ready (paddle has no node of its own for
        one output of several, so that output's node runs at once, passing its gradient on)."""
        made_ready = []
        for edge in node.edges:
            if edge is not None:
                left = deps.get(id(edge))
                if left == 1:
                    del deps[id(edge)]
                    made_ready.append(edge)
                elif left is not None:
                    deps[id(edge)] = left - 1
        if len(made_ready) > 1 and policy.reaches_last_input_first(node):
            made_ready.reverse()
        elif len(made_ready) > 1 and type(ready) is _DerivativesFirst:
            made_ready = _in_input_order(node, made_ready)
        grad = buffers.pop(id(node), None)
        if grad is not None:
            ran = state.step(node, grad)
            if ran is not None and not retain_graph:
                policy.release(ran)  # the one place a pass frees what a node saved
        for edge in made_ready:
            if policy.ready_first_in_first_out and type(edge) is not AccumulateGrad and \
                    edge.rule.op == "output_slot":
                visit(edge)
            else:
                ready.push(edge)

    recording, grad_mode._State.enabled = grad_mode._State.enabled, bool(create_graph)
    _RUNNING_BUFFERS.append(buffers)
    _RUNNING_PASSES.append(RunningPass(nodes, wanted, accumulate))
    try:
        # torch starts several roots from a node of its own, which hands a gradient only to the
        # roots the inputs need (one root is the start itself: it runs, its hooks too)
        skips_unneeded = wanted is not None and len(root_nodes) > 1 and policy.roots_share_a_start
        for node, seed in zip(root_nodes, seeds):
            if node is not None and id(node) not in cut_nodes and not (
                    skips_unneeded and id(node) not in wanted):
                _accumulate_buffer(policy, buffers, node, seed, seed=True)
        with recording_pass() if create_graph else contextlib.nullcontext():
            while ready:
                visit(ready.pop())
    except BaseException as error:
        if getattr(error, "leaves_recording_off", False):  # (a dialect's failed kernel, see its policy)
            recording = False
        raise
    finally:
        grad_mode._State.enabled = recording
        _RUNNING_BUFFERS.pop()
        _RUNNING_PASSES.pop()
    return captured
