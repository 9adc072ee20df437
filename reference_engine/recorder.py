"""The recorder: run a rule's forward and, when recording, attach a graph node to the result.

``apply`` is the one place an operation becomes part of the graph: it computes the forward
(float16 / bfloat16 operands in float32, rounded back), makes the result a view of its input
where the rule is a view (with torch's memory probes for expanded tensors), checks views whose
base changed since, and records a ``Node`` with the tensors its rules will read, saved as the
dialect's policy says. The operations (``reference_engine.ops``) validate arguments and call it.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any, Callable, Iterator, NamedTuple, Optional, Sequence

import numpy as np

from reference_engine import devices, fp_errors, grad_mode, step_noise
from reference_engine import rule as R
from reference_engine.dtypes import _Reduced, is_floating, is_reduced
from reference_engine.graph import (
    SAVED_TENSORS_HOOKS,
    UNLINKED_WHILE_PACKING,
    Node,
    SavedTensor,
    node_base_name,
)

if TYPE_CHECKING:
    from reference_engine.dialects.policy import Policy
    from reference_engine.tensor import Tensor

_EMPTY: dict[str, Any] = {}


_TENSOR: list[type] = []


def bind_tensor_class(cls: type) -> None:
    """Called once by ``reference_engine.tensor``: the base class operations recognise."""
    _TENSOR.append(cls)


def tensor_type() -> type:
    return _TENSOR[0]


# called with (rule, inputs, attrs, result) after every op while one is registered: forward-mode
# AD's tangent propagation (``reference_engine.dual``)
OP_OBSERVERS: list[Callable[[R.Rule, Sequence[Tensor], dict[str, Any], Tensor], None]] = []


def apply(rule: R.Rule, inputs: Sequence[Tensor], attrs: dict[str, Any] = _EMPTY,
          arrays: Optional[Sequence[np.ndarray]] = None) -> Tensor:
    """Run ``rule``'s forward on ``inputs`` and, when recording, attach a node to the result."""
    out = _recorded(rule, inputs, attrs, arrays)
    if step_noise.active():
        _carry_step_noise(rule, inputs, attrs, arrays, out)
    if OP_OBSERVERS:
        for observe in list(OP_OBSERVERS):
            observe(rule, inputs, attrs, out)
    return out


def _carry_step_noise(rule: R.Rule, inputs: Sequence[Tensor], attrs: dict[str, Any],
                      arrays: Optional[Sequence[np.ndarray]], out: Tensor) -> None:
    """Note how far the noise an optimizer's step amplified moves ``out`` (a view: the same
    view of its base's shifts; see ``reference_engine.step_noise``)."""
    keys = [t._data for t in inputs]
    if rule.view:
        step_noise.carry_view(lambda a: run_forward(rule, [a, *keys[1:]], attrs), keys[0], out._data)
        return

    def forward(wide: Sequence[np.ndarray]) -> np.ndarray:
        token = fp_errors.ignored()
        try:
            return run_forward(rule, wide, attrs)
        finally:
            fp_errors.restore(token)
    step_noise.carry(forward, keys if arrays is None else arrays, keys, out._data)


def _recorded(rule: R.Rule, inputs: Sequence[Tensor], attrs: dict[str, Any],
              arrays: Optional[Sequence[np.ndarray]]) -> Tensor:
    if arrays is None:
        arrays = [t._data for t in inputs]
    policy = inputs[0]._policy
    if not grad_mode._State.enabled and not rule.view:
        # nothing to record, and no view to track: a gradient computed in a plain backward pass
        out = type(inputs[0])._from_array(_compute(rule, arrays, attrs, policy))
        out._device = devices.of_result(rule.op, inputs)
        return out
    if rule.view:  # views compute nothing
        data = run_forward(rule, arrays, attrs)
        if type(data) is not np.ndarray:
            data = np.asarray(data)
        data = policy.view_layout(rule.op, arrays[0], data)
    else:
        data = _compute(rule, arrays, attrs, policy)
    out = type(inputs[0])._from_array(data)
    out._device = devices.of_result(rule.op, inputs)
    if rule.view and not (rule.op == "expand" and out._policy.expand_copies):
        source = inputs[0]
        probe = _memory_probe(rule, attrs, source, data.shape)
        if probe is None or isinstance(probe, tuple) or source._probe is None or \
                np.may_share_memory(probe, probe_of(source)):
            out._counter = source._counter
            out._view_base = source._view_base if source._view_base is not None else source
            out._probe = probe
            out._no_grad_view = source._no_grad_view  # a view of such a view is refused alike
            out._untracked_view = source._untracked_view
            if source._split_piece is not None:  # ... as is a view of a piece of split
                out._split_piece = (out._counter.value, 0, "")  # named by its own node
        # else: a reshape that cannot view an expanded tensor copies it, in torch as in numpy
    if inputs[0]._inference and not grad_mode._State.inference and \
            all(t._inference for t in inputs):
        # torch: inference tensors have no autograd; an op on nothing else records nothing,
        # outside inference_mode too (its result is a normal tensor that requires no grad)
        return out
    if not grad_mode._State.enabled:
        if out._view_base is not None and out._policy.no_grad_views_require_grad:
            if inputs[0]._requires_grad:
                out._requires_grad = True
                out._no_grad_view = (out._counter.value,)  # the version it was made at
            else:
                out._untracked_view = (out._counter.value,)  # the version it was made at
        return out
    for t in inputs:
        if t._view_base is not None and t._grad_fn is not None:
            t._refresh_view_node()
        if t._no_grad_view or t._untracked_view:
            check_no_grad_view(t)
        if t._split_piece is not None:
            check_split_piece(t)
    flags = rule.differentiable * len(inputs) if rule.variadic else rule.differentiable
    unlinked = [t for t in inputs if t._accumulator is None] \
        if SAVED_TENSORS_HOOKS and policy.packs_before_linking else ()
    # a tensor that no longer requires grad (paddle: stop_gradient set on a non-leaf) gets no edge
    edges = tuple([(t._grad_fn or t._edge()) if diff and t._requires_grad else None
                   for t, diff in zip(inputs, flags)])
    needed = tuple([edge is not None for edge in edges])
    if True not in needed and not any(t._no_grad_view for t in inputs):
        return out
    node = Node(rule, attrs, edges, tuple([(t._data.shape, t._data.dtype) for t in inputs]), policy)
    node.out_dtype = data.dtype
    out._grad_fn = node
    out._requires_grad = True
    if rule.view and out._view_base is not None and policy.regenerated_view_node:
        node.made_at = out._counter.value
    scalar = attrs.get("scalar")
    plan = rule.plans.get((id(policy), needed, scalar))
    if plan is None:
        plan = _saved_plan(rule, policy, needed, scalar)
    if type(plan) is _OrderedPerCall:  # the order it unpacks them in reads the call's attributes
        plan = plan.entries(rule, policy, attrs)
    if unlinked:
        with _packed_before_linking(unlinked):
            _save(node, plan, inputs, out, attrs, rule, policy)
    else:
        _save(node, plan, inputs, out, attrs, rule, policy)
    return out


@contextlib.contextmanager
def _packed_before_linking(unlinked: Sequence[Tensor]) -> Iterator[None]:
    """While the saved tensors are packed: the accumulation nodes linking ``unlinked`` made do
    not show yet (``graph.UNLINKED_WHILE_PACKING``)."""
    made = {id(t._accumulator) for t in unlinked if t._accumulator is not None}
    UNLINKED_WHILE_PACKING.update(made)
    try:
        yield
    finally:
        UNLINKED_WHILE_PACKING.difference_update(made)


def _save(node: Node, plan: Sequence[SavedEntry], inputs: Sequence[Tensor], out: Tensor,
          attrs: dict[str, Any], rule: R.Rule, policy: Any) -> None:
    """Save what ``plan`` names for ``node``'s backward."""
    for name, source, checked, hooked in plan:
        if source == "result":
            node.saved[name] = SavedTensor(out)
        elif source == "result-copy":
            # the kernel saves the operands and computes the result again: a copy, unchecked
            node.saved[name] = SavedTensor(graph_copy(out), checked=False)
        elif source == "attr":
            node.saved[name] = SavedTensor(attrs[name])
        else:
            if inputs[source]._inference:
                raise policy.error("inference_saved")
            saved = inputs[source]
            if rule.op in policy.contiguous_copy_kernels and not _STRIDED_KERNEL and \
                    saved._view_base is not None and not row_major(saved._data):
                saved = graph_copy(saved)  # the kernel's contiguous copy, which writes miss
            node.saved[name] = SavedTensor(saved, checked, hooked=hooked)


# One saved tensor of a node: its name, where it comes from ("result", "result-copy", "attr" or
# the input's position), whether its version is checked, and whether saved-tensor hooks see it.
SavedEntry = tuple[str, Any, bool, bool]


class _OrderedPerCall(NamedTuple):
    """A save plan whose order reads the call's attributes (torch's matmul): the names, ordered
    per call."""

    names: frozenset[str]
    linked: frozenset[str]

    def entries(self, rule: R.Rule, policy: Any, attrs: dict[str, Any]) -> tuple[SavedEntry, ...]:
        return tuple(_saved_entry(rule, policy, name, self.linked, attrs.get("scalar"))
                     for name in policy.saved_order(rule, attrs, self.names))


def _saved_plan(rule: R.Rule, policy: Any, needed: tuple[bool, ...],
                scalar: Optional[str]) -> tuple[SavedEntry, ...] | _OrderedPerCall:
    """What a node of ``rule`` saves when the inputs in ``needed`` require grad (``scalar``:
    which operand was a Python number), in the order it unpacks them. The same for every node
    of that kind, so worked out once."""
    names, linked = _saved_names(rule, policy, needed, scalar)
    plan: tuple[SavedEntry, ...] | _OrderedPerCall
    if len(names) > 1 and policy.saved_order_reads_attrs(rule):
        plan = _OrderedPerCall(names, linked)
    else:
        ordered = policy.saved_order(rule, _EMPTY, names) if len(names) > 1 else list(names)
        plan = tuple(_saved_entry(rule, policy, name, linked, scalar) for name in ordered)
    rule.plans[(id(policy), needed, scalar)] = plan
    return plan


def _saved_entry(rule: R.Rule, policy: Any, name: str, linked: frozenset[str],
                 scalar: Optional[str]) -> SavedEntry:
    if name == "result":
        return (name, "result-copy" if rule.op in policy.recomputes_result else "result", True, True)
    if name not in rule.inputs:
        return (name, "attr", True, True)
    index = rule.inputs.index(name)
    # a Python number the op was given is no tensor to the framework: no hooks see it
    number = scalar == ("left", "right")[index] if index < 2 else False
    # one kept for the graph only (torch's links) is no saved tensor: no hooks see it
    return (name, index, name not in linked, not number and name not in linked)


def _saved_names(rule: R.Rule, policy: Any, needed: tuple[bool, ...],
                 scalar: Optional[str]) -> tuple[frozenset[str], frozenset[str]]:
    """What a node of ``rule`` saves when the inputs in ``needed`` require grad, and which of
    those are kept for the graph only, not version-checked."""
    names = rule.saved_names(needed)
    if rule.op in policy.kernels_save_result and scalar != "right":
        names = names | {"result"}  # the kernel's grad reads it too: saved and version-checked
    if rule.op in policy.kernels_save_inputs:  # ... or reads its input (and recomputes)
        names = names | {n for n, need in zip(rule.inputs, needed) if need}
    linked: frozenset[str] = frozenset()
    if rule.op in policy.zero_derivative_links and scalar is None:
        # read by the links only: a saved tensor of paddle's kernel (version-checked), kept for
        # the graph only in torch
        linked = frozenset(n for n, need in zip(rule.inputs, needed) if need) - names
        names = names | linked
        if policy.links_read_saved_tensors:
            linked = frozenset()
    return names, linked


def _compute(rule: R.Rule, arrays: Sequence[np.ndarray], attrs: dict[str, Any],
             policy: Policy) -> np.ndarray:
    """The forward of an op that computes (not a view), floating-point errors as values, in the
    memory layout the dialect's kernels write."""
    token = fp_errors.ignored()
    try:
        if _Reduced.seen and any(is_reduced(a.dtype) for a in arrays):
            data = _reduced_forward(rule, arrays, attrs)
        else:
            data = run_forward(rule, arrays, attrs)
    finally:
        fp_errors.restore(token)
    if type(data) is not np.ndarray:
        return np.asarray(data)
    if policy.computed_results_row_major and not data.flags.c_contiguous and \
            not any(np.may_share_memory(data, a) for a in arrays):  # (an output slot's piece)
        return np.ascontiguousarray(data)
    return policy.computed_layout(rule.op, arrays, data)


def run_forward(rule: R.Rule, arrays: Sequence[np.ndarray], attrs: dict[str, Any]) -> np.ndarray:
    """``rule``'s numpy forward on the input arrays and the call's attributes it takes."""
    if rule.forward_attrs:
        return rule.forward(*arrays, **{k: attrs[k] for k in rule.forward_attrs})
    return rule.forward(*arrays)


def _reduced_forward(rule: R.Rule, arrays: Sequence[np.ndarray], attrs: dict[str, Any]) -> np.ndarray:
    """``rule``'s forward on float16 / bfloat16 operands as the frameworks' CPU kernels run it:
    computed in float32, the result rounded to the operands' precision (a cast keeps its own
    target dtype)."""
    reduced = next(a.dtype for a in arrays if is_reduced(a.dtype))
    wide = [a.astype(np.float32) if is_reduced(a.dtype) else a for a in arrays]
    data = np.asarray(run_forward(rule, wide, attrs))
    if rule.op == "cast" or not is_floating(data.dtype):
        return data.astype(attrs["dtype"]) if rule.op == "cast" else data
    return data.astype(attrs.get("dtype") or reduced)


def row_major(a: np.ndarray) -> bool:
    """Whether ``a``'s strides are exactly row-major, dimensions of size 1 included (paddle's
    test: a transposed column is strided though it is one row)."""
    expected = a.itemsize
    for size, stride in zip(reversed(a.shape), reversed(a.strides)):
        if stride != expected:
            return False
        expected *= size
    return True


def row_major_strides(shape: Sequence[int], itemsize: int) -> tuple[int, ...]:
    """The byte strides of a row-major array of ``shape`` (a dimension of size 0 counts as 1)."""
    strides, step = [], itemsize
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


_STRIDED_KERNEL: list[bool] = []  # non-empty: the kernel running reads strided inputs as they are


@contextlib.contextmanager
def strided_kernel() -> Iterator[None]:
    """Record an op whose rule stands for a kernel of another name that has a strided form (so
    saves a strided input itself, not a contiguous copy: paddle's ``square`` is ``pow``)."""
    _STRIDED_KERNEL.append(True)
    try:
        yield
    finally:
        _STRIDED_KERNEL.pop()


def graph_copy(t: Tensor) -> Tensor:
    """A copy of ``t``'s values in the same place of the graph (its node or accumulator), with a
    version counter of its own: what a framework saves when it saves a copy it made."""
    copy = type(t)._from_array(t._data.copy())
    copy._requires_grad, copy._grad_fn, copy._device = t._requires_grad, t._grad_fn, t._device
    copy._accumulator = t._accumulator_node() if t._grad_fn is None and t._requires_grad else None
    return copy


def _memory_probe(rule: R.Rule, attrs: dict[str, Any], source: Tensor,
                  shape: tuple[int, ...]) -> Any:
    """A tiny array laid out as the view's memory is, for views of expanded tensors: expand
    broadcasts (stride 0), and every later view op runs its numpy forward on the probe, so
    whether several elements share memory follows exactly, as it does in torch. Made when
    first needed: expand records how to make it."""
    if rule.op == "expand":
        return (source, shape)
    if source._probe is None:
        return None
    return rule.forward(probe_of(source), **{k: attrs[k] for k in rule.forward_attrs})


def probe_of(t: Tensor) -> Optional[np.ndarray]:
    """The tensor's memory probe (see ``_memory_probe``), made now if it was deferred."""
    probe = t._probe
    if isinstance(probe, tuple):
        source, shape = probe
        base = probe_of(source)
        probe = t._probe = np.broadcast_to(
            base if base is not None else np.empty(source._data.shape, np.int8), shape)
    return probe


def overlaps_itself(t: Tensor, index: Any = None) -> bool:
    """Whether some of the tensor's elements (those at ``index``) share memory: a view of an
    expanded tensor."""
    probe = probe_of(t)
    if probe is None:
        return False
    region = probe if index is None else np.asarray(probe[index])
    return any(st == 0 and n > 1 for st, n in zip(region.strides, region.shape))


def partially_overlaps(written: np.ndarray, operand: np.ndarray) -> bool:
    """torch's partial overlap: two dense arrays in one buffer whose memory ranges meet but which
    are not the same elements in the same order (``x.div_(x.t())``, ``x.add_(x[0])``). Arrays
    with gaps or repeats are too hard to tell, and pass, as in torch."""
    if written.size == 0 or operand.size == 0 or not (_dense(written) and _dense(operand)):
        return False
    start_w, start_o = (a.__array_interface__["data"][0] for a in (written, operand))
    end_w, end_o = start_w + written.nbytes, start_o + operand.nbytes
    if (start_w, end_w) == (start_o, end_o):
        return written.strides != operand.strides
    return start_w < end_o and start_o < end_w


def _dense(array: np.ndarray) -> bool:
    """Its elements fill a block of memory once each, in some order of its dimensions."""
    expected = array.itemsize
    for stride, size in sorted((s, n) for s, n in zip(array.strides, array.shape) if n != 1):
        if stride != expected:
            return False
        expected *= size
    return True


def check_no_grad_view(t: Tensor) -> None:
    """torch rebuilds the history of a view whose base was written to in place since; a view
    made without recording of a tensor that requires grad cannot be rebuilt, so using it (or
    reading its grad_fn or is_leaf) fails."""
    t._follow_base()
    if t._no_grad_view and t._no_grad_view[0] != t._counter.value:
        raise t._policy.error("no_grad_view_base_modified")


def check_split_piece(t: Tensor) -> None:
    """torch rebuilds the history of a view whose base was written to in place since; a piece
    of split / unbind cannot be rebuilt, so using it (or reading its grad_fn) fails."""
    version, index, name = t._split_piece  # type: ignore[misc]
    if t._counter.value != version and t._grad_fn is not None:
        raise t._policy.error("split_view_base_modified", index=index,
                              name=name or node_base_name(t._grad_fn))
