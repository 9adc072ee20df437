"""Graph nodes: what an operation records so that its derivative can be run later.

A :class:`Node` holds its derivative rule, the non-tensor attributes of the call, one edge per
input (the input's own node, or ``None`` when no gradient flows there) and the tensors its rule
needs, as :class:`SavedTensor` slots that are released after a backward pass without
``retain_graph``. A leaf that requires grad is reached through its :class:`AccumulateGrad`
node, as in PyTorch, so the backward run treats leaves and operations alike.
"""

from __future__ import annotations

import contextlib
import itertools
import re
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional

from reference_engine import grad_mode

if TYPE_CHECKING:
    from reference_engine.dialects.policy import Policy
    from reference_engine.rules import Rule
    from reference_engine.tensor import Tensor

_sequence = itertools.count()

Hook = Callable[["Tensor"], Optional["Tensor"]]


# (origin, order, the node whose derivative is being recorded) of the nodes recorded now
_creation: list[tuple[Optional[str], int, Optional[Node]]] = []
# how many create_graph passes are recording now: what they record outside a node's derivative
# (a sum of two gradients, a hook's ops) is of order 1 and still no node of the forward's
_passes_recording = [0]


@contextlib.contextmanager
def recording_pass() -> Iterator[None]:
    """Mark the nodes recorded inside as made by a create_graph pass (``Node.in_derivative``)."""
    _passes_recording[0] += 1
    try:
        yield
    finally:
        _passes_recording[0] -= 1


class derivative_of:  # noqa: N801 - used as a context manager
    """Mark the nodes recorded inside as part of ``node``'s derivative (create_graph passes).
    ``composite``: the framework composes that derivative from its primitive ops (paddle's
    log_double_grad), so what is recorded are first-order nodes of those ops, each with its own
    gradient kernels, and no part of ``node``'s derivative."""

    def __init__(self, node: Node, composite: bool = False) -> None:
        self.entry = (None, 1, None) if composite else (node.origin, node.order + 1, node)

    def __enter__(self) -> None:
        _creation.append(self.entry)

    def __exit__(self, *exc_info: object) -> None:
        _creation.pop()


class as_kernel:  # noqa: N801 - used as a context manager
    """The first-order nodes recorded inside stand for one framework kernel, ``name``: their
    origin, which the dialect's policy asks about (paddle kernels without a double grad). Inside
    a create_graph pass the derivative's origin stays."""

    def __init__(self, name: str) -> None:
        self.entry = (name, 1, None)
        self.pushed = False

    def __enter__(self) -> None:
        self.pushed = not _creation
        if self.pushed:
            _creation.append(self.entry)

    def __exit__(self, *exc_info: object) -> None:
        if self.pushed:
            _creation.pop()


# (pack, unpack) pairs of the ``saved_tensors_hooks`` blocks open now, innermost last
SAVED_TENSORS_HOOKS: list[tuple[Callable[[Any], Any], Callable[[Any], Any]]] = []
# the error messages of the ``disable_saved_tensors_hooks`` blocks open now, innermost last
HOOKS_DISABLED: list[str] = []
# paddle packs a node's saved tensors before it links the node to its inputs: the accumulation
# nodes (by id) that linking makes for the op being recorded, not there yet while a pack hook runs
UNLINKED_WHILE_PACKING: set[int] = set()


class saved_tensors_hooks:  # noqa: N801 - the frameworks' name
    """Within the block, every tensor a node saves is handed to ``pack_hook`` and what it
    returns is kept; the backward gets ``unpack_hook(kept)`` instead of the tensor (and checks
    no version). torch's ``autograd.graph.saved_tensors_hooks`` and paddle's
    ``autograd.saved_tensors_hooks`` behave alike."""

    def __init__(self, pack_hook: Callable[[Any], Any], unpack_hook: Callable[[Any], Any]) -> None:
        self.pair = (pack_hook, unpack_hook)

    def __enter__(self) -> saved_tensors_hooks:
        if HOOKS_DISABLED:
            raise RuntimeError(HOOKS_DISABLED[-1])
        SAVED_TENSORS_HOOKS.append(self.pair)
        return self

    def __exit__(self, *exc_info: object) -> None:
        SAVED_TENSORS_HOOKS.remove(self.pair)


def current_derivative_order() -> int:
    """The derivative order of the nodes being recorded now (1 outside a create_graph pass)."""
    return _creation[-1][1] if _creation else 1


def _origin(op: str, attrs: dict[str, Any]) -> str:
    """The forward op a node's derivatives belong to: the API that ran it, and which side was a
    number (``div:right`` is a tensor divided by a number, which has kernels of its own), or a
    vector (``bmm:vector-batched``)."""
    origin = attrs.get("api", op)
    if attrs.get("scalar"):
        return f"{origin}:{attrs['scalar']}"
    if op == "bmm" and len(attrs["a_shape"]) == 1:
        return "bmm:vector-batched"  # a vector times a batch of matrices
    return origin


class SavedTensor:
    """A tensor kept for the backward pass, with the version it had when it was saved
    (``checked=False``: kept for the graph only, so no version check; ``view_shape``: the
    framework saved a view of it of this shape, which its version error shows)."""

    __slots__ = ("tensor", "version", "origin", "view_shape", "leaf_node", "packed", "unpack",
                 "dtype", "required_grad")

    def __init__(self, tensor: Tensor, checked: bool = True,
                 view_shape: Optional[tuple[int, ...]] = None, hooked: bool = True) -> None:
        self.tensor = tensor
        self.dtype = tensor._data.dtype  # paddle: a write may change it since (see unpack_saved)
        self.packed: Any = None
        self.unpack: Optional[Callable[[Any], Any]] = None
        if SAVED_TENSORS_HOOKS and hooked:
            # torch's saved_tensors_hooks: what the pair packs is kept (the hooks are off while
            # pack runs); what unpack returns is the user's, so no version is checked
            pair = SAVED_TENSORS_HOOKS.pop()
            try:
                with grad_mode.no_grad():  # both frameworks pack with recording off
                    self.packed = pair[0](tensor)
            finally:
                SAVED_TENSORS_HOOKS.append(pair)
            self.unpack = pair[1]
            checked = False
        self.version = tensor._counter.value if checked else None
        self.origin = tensor._grad_fn
        self.required_grad = tensor._requires_grad
        self.view_shape = view_shape
        # a view of a leaf that requires grad is recorded: it keeps the leaf's node even if
        # the leaf stops requiring grad later (paddle: any saved leaf, whose TensorWrapper keeps
        # the leaf's node; and a leaf saved while it required none is restored without one)
        self.leaf_node = tensor._accumulator_node() if (
            view_shape is not None or tensor._policy.saved_leaves_keep_their_node) and \
            tensor._grad_fn is None and tensor._requires_grad else None


class Node:
    """One recorded operation: its rule, edges to its inputs' nodes and its saved tensors."""

    __slots__ = ("rule", "attrs", "edges", "input_meta", "saved", "released", "released_saved",
                 "pre_hooks", "retained", "sequence_nr", "policy", "_origin", "order", "node_hooks",
                 "label", "made_at", "out_dtype", "derivative_source", "in_derivative", "__weakref__")

    def __init__(self, rule: Rule, attrs: dict[str, Any], edges: tuple[Optional[Node], ...],
                 input_meta: tuple[tuple[tuple[int, ...], Any], ...], policy: Policy) -> None:
        self.policy = policy
        self.rule = rule
        # A node recorded while a create_graph pass runs node N belongs to N's derivative:
        # it keeps N's forward op (or the API that ran it) as its origin and is one order higher.
        # A first-order node's origin is named when first asked for (most never are).
        # (and the node whose derivative it is part of: paddle's fused derivative kernel hands
        # its gradients on in that node's input order)
        self._origin, self.order, self.derivative_source = _creation[-1] if _creation else (None, 1, None)
        self.in_derivative = self.order > 1 or _passes_recording[0] > 0
        self.attrs = attrs
        self.edges = edges
        self.input_meta = input_meta
        self.out_dtype: Any = None  # its output's dtype when recorded (see ``recorder.apply``)
        self.saved: dict[str, SavedTensor] = {}
        self.released = False
        self.released_saved = False
        self.pre_hooks: dict[int, Hook] = {}
        self.retained: Optional[Tensor] = None
        self.sequence_nr = next(_sequence)
        # hooks on the node itself (torch's register_prehook / register_hook), and a leaf's
        # post-accumulate hooks, by kind; None until the first is registered
        self.node_hooks: Optional[dict[str, dict[int, Callable[..., Any]]]] = None
        # the name of the gradient kernel this node stands for, where the framework fuses the
        # derivative it ends into one node (``Policy.gradient_node_name``)
        self.label: Optional[str] = None
        # a view's node, where the framework makes it anew once the view's version moves on:
        # the version the view had when this node was made (``Tensor._refresh_view_node``)
        self.made_at: Optional[int] = None

    @property
    def origin(self) -> str:
        """The forward op this node's derivatives belong to (see ``_origin``)."""
        if self._origin is None:
            self._origin = _origin(self.rule.op, self.attrs)
        return self._origin

    def name(self) -> str:
        """The framework's name of this node's class (``MulBackward0``, ``MultiplyGradNode``)."""
        if self.label is not None:
            return self.label
        return self.policy.node_name(self.rule, self.attrs)

    def __getattr__(self, attribute: str) -> Any:
        """torch's ``grad_fn._saved_self`` and the like: what the node saved, by the name the
        framework's derivative formula gives it (the dialect's policy answers)."""
        if attribute.startswith("_saved_"):
            return self.policy.saved_attribute(self, attribute[len("_saved_"):])
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {attribute!r}")

    def regenerated(self, label: str, made_at: int) -> Node:
        """A fresh node computing what this one does (same rule, attributes, edges and saved
        tensors) under another name: torch's node for a view written in place without recording,
        made anew from its base (``AsStridedBackward0``). Graphs recorded before hold the old
        node, so a backward over them does not reach the new one."""
        node = Node(self.rule, self.attrs, self.edges, self.input_meta, self.policy)
        node.saved = dict(self.saved)
        node.label, node.made_at = label, made_at
        return node

    def hooks(self, kind: str) -> dict[int, Callable[..., Any]]:
        """This node's hooks of ``kind`` ("pre", "post" or "post_accumulate")."""
        if self.node_hooks is None:
            self.node_hooks = {}
        return self.node_hooks.setdefault(kind, {})

    def register_prehook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """``hook(grad_outputs)`` before the node runs; a tuple it returns replaces them."""
        return RemovableHandle(self.hooks("pre"), hook)

    def register_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """``hook(grad_inputs, grad_outputs)`` after the node ran; a tuple it returns replaces
        the gradients it sends on."""
        return RemovableHandle(self.hooks("post"), hook)

    @property
    def next_functions(self) -> Any:
        """torch: a tuple of (node, output number) per listed input; paddle: a list of the
        nodes. An output slot shows its function's node."""
        shown = tuple(_shown(self.edges[i]) for i in self.listed())
        if self.policy.next_functions_numbered:
            return shown
        return [node for node, _ in shown]

    def listed(self) -> tuple[int, ...]:
        """The positions of the inputs the node lists (not where's condition; in paddle, not
        the number of a tensor-and-number op, which its scale kernel takes as an attribute)."""
        listed = self.rule.listed if self.rule.unlisted else tuple(range(len(self.edges)))
        scalar = self.attrs.get("scalar")
        if scalar is not None and not self.policy.number_operands_listed:
            number = 1 if scalar == "right" else 0
            return tuple(i for i in listed if i != number)
        return listed

    def release(self) -> None:
        """Drop the saved tensors and remember that this node has been run and freed."""
        self.released_saved = self.released_saved or bool(self.saved) or self.rule.holds_state
        self.saved.clear()
        self.released = True

    def __repr__(self) -> str:
        return f"<{self.policy.node_class_path(self)} object at {id(self):#x}>"


def shown_node(node: Optional[Node]) -> Optional[Node]:
    """The node a program sees: a custom function's node for one of its output slots, of the
    class the framework's node has (``type(y.grad_fn).__name__`` is ``MulBackward0``)."""
    if _is_slot(node):
        node = node.attrs["of"]  # type: ignore[union-attr]
    if type(node) is Node:
        node.__class__ = _node_class(node.policy.node_class_path(node))
    return node


def _shown(node: Optional[Node]) -> tuple[Optional[Node], int]:
    if _is_slot(node):
        return shown_node(node), node.attrs["slot"]  # type: ignore[union-attr]
    return shown_node(node), 0


# a class of Node per name the frameworks give their node classes, made when first shown
_NODE_CLASSES: dict[str, type] = {}


def _node_class(path: str) -> type:
    cls = _NODE_CLASSES.get(path)
    if cls is None:
        module, _, name = path.rpartition(".")
        cls = _NODE_CLASSES[path] = type(name, (Node,), {"__slots__": (),
                                                         "__module__": module or "builtins"})
    return cls


def _is_slot(node: Optional[Node]) -> bool:
    return node is not None and type(node) is not AccumulateGrad and node.rule.op == "output_slot"


class AccumulateGrad(Node):
    """The node that ends every path into a leaf: it adds the arriving gradient to ``.grad``."""

    __slots__ = ("variable",)

    def __init__(self, variable: Tensor) -> None:
        self.variable = variable
        self.policy = variable._policy
        self._origin, self.order, self.derivative_source = "accumulate", 1, None
        self.in_derivative = False
        self.attrs = {}
        self.edges = ()
        self.input_meta = ()
        self.out_dtype = None  # the leaf's accumulation casts as its policy says
        self.saved = {}
        self.released = False
        self.released_saved = False
        self.pre_hooks = {}
        self.retained = None
        self.sequence_nr = next(_sequence)
        self.node_hooks = None

    def listed(self) -> tuple[int, ...]:
        return ()

    def name(self) -> str:
        return self.policy.accumulate_node_name


class RemovableHandle:
    """Returned by ``register_hook``; ``remove()`` takes the hook off again."""

    _ids = itertools.count()

    def __init__(self, hooks: dict[int, Hook], hook: Hook) -> None:
        self._hooks = hooks
        self.id = next(self._ids)
        hooks[self.id] = hook

    def remove(self) -> None:
        self._hooks.pop(self.id, None)

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.remove()


def node_base_name(node: Optional[Node]) -> str:
    """How torch names a node in its version error: ``MulBackward0`` → ``Mul``,
    ``PowBackward1`` → ``Pow1``; a node outside the generated ones keeps its full name."""
    if node is None:
        return ""
    name = node.name()
    return name if "::" in name else re.sub(r"Backward0$", "", name).replace("Backward", "")
