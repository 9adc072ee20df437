"""The core Tensor: a numpy array plus the autograd state both frameworks keep on a tensor.

The state is the same in both dialects — whether the tensor takes part in differentiation, its
accumulated gradient, the node that made it, a version counter for in-place checks, retained
gradients and hooks. What a dialect calls these (``requires_grad`` or ``stop_gradient``) and how
its methods are spelled lives in the dialect's facade, which subclasses this class and names its
:class:`~reference_engine.dialects.policy.Policy`.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Optional

import numpy as np

from reference_engine import dual, grad_mode, recorder, rng, step_noise
from reference_engine import ops as F
from reference_engine import rule_helpers as H
from reference_engine import rules as R
from reference_engine.graph import AccumulateGrad, Hook, Node, RemovableHandle
from reference_engine.messages import not_supported

if TYPE_CHECKING:
    from reference_engine.dialects.policy import Policy


class VersionCounter:
    """Counts in-place changes of one storage; shared by a tensor, its views and detached twins."""

    __slots__ = ("value", "twins")

    def __init__(self) -> None:
        self.value = 0
        # paddle: the tensors detach made of one another, which are one tensor (its dtype
        # too), weakly held
        self.twins: Optional[list[weakref.ref[Tensor]]] = None


def _operator(op: Any, name: str, reflected: bool = False) -> Any:
    """The operator method ``name`` computing ``op(self, other)`` (``op(other, self)`` when
    ``reflected``). Another kind of operand is the dialect's to refuse: torch hands it back to
    Python (``NotImplemented``), paddle raises its own TypeError."""
    def method(self: Tensor, other: Any) -> Any:
        if reflected:
            other = self._left_operand(other)
        if not _is_operand(other):
            return self._policy.refused_operand(name, other)
        return op(other, self) if reflected else op(self, other)

    method.__name__ = name
    return method


def in_place_method(name: str, function: Callable[..., Tensor]) -> Callable[..., Tensor]:
    """``Tensor.<name>_``: ``function`` of the tensor's values before the write (and the call's
    other arguments) written into it, its node the function's, its version grown."""
    def method(self: Tensor, *args: Any, **kwargs: Any) -> Tensor:
        operands = [a for a in (*args, *kwargs.values()) if isinstance(a, Tensor)]
        return self._in_place_composed(name, lambda old: function(old, *args, **kwargs), *operands)
    method.__name__ = f"{name}_"
    return method


class Tensor:
    """An n-dimensional array with autograd state. Dialect facades subclass it."""

    _policy: ClassVar[Policy]
    _size_type: ClassVar[type] = tuple  # the dialect's Size class
    _dtype_objects: ClassVar[dict[np.dtype, Any]] = {}  # numpy dtype -> the dialect's dtype
    # numpy scalars and arrays on the left of an operator defer to the tensor's reflected
    # operator, as torch and paddle do: ``np.float64(2.0) * t`` is a tensor that keeps autograd,
    # not an array that silently drops it
    __array_ufunc__ = None
    __slots__ = ("_data", "_requires_grad", "_grad", "_grad_fn", "_counter", "_retains_grad",
                 "_accumulator", "_name", "_no_grad_view", "_untracked_view", "_view_base", "_probe",
                 "_split_piece", "_shares_gradient_buffer",
                 "_inference", "_device", "__weakref__")

    @classmethod
    def _from_array(cls, data: np.ndarray) -> Tensor:
        """Wrap an array without copying or checking (the engine's internal constructor)."""
        t = object.__new__(cls)
        t._data = data
        t._requires_grad = False
        t._grad = None
        t._grad_fn = None
        t._counter = VersionCounter()
        t._retains_grad = False
        t._accumulator = None
        t._name = None
        # torch: a view made without recording of a tensor requiring grad, (its version then,)
        t._no_grad_view: Optional[tuple[int]] = None
        # torch: a view made without recording of one needing no grad: (the version it was made
        # at,), or True once it stays untracked
        t._untracked_view: bool | tuple[int] = False
        t._view_base: Optional[Tensor] = None  # the tensor this one is a view of (its root)
        t._probe: Optional[np.ndarray] = None  # its memory layout, for views of expanded tensors
        # torch: a view that is one output of split / unbind: (the version it was made at, its
        # output number, the node's name), to refuse it once its base has been written to
        t._split_piece: Optional[tuple[int, int, str]] = None
        t._inference = grad_mode._State.inference  # torch: made inside inference_mode
        t._device: Optional[str] = None  # see reference_engine.devices: None goes with any device
        # paddle: a gradient whose memory a retained gradient shares (``Policy.alias_gradients``)
        t._shares_gradient_buffer = False
        return t

    # --- graph plumbing -------------------------------------------------------------------

    def _edge(self) -> Optional[Node]:
        """The node a gradient for this tensor flows into, or None when none flows."""
        if self._view_base is not None:
            self._refresh_view_node()
        if self._grad_fn is not None:
            return self._grad_fn
        if self._requires_grad and not self._no_grad_view:
            return self._accumulator_node()
        return None

    def _refresh_view_node(self) -> None:
        """torch makes a view's node anew (``AsStridedBackward0``) when it finds the view's
        version moved on since its node was made, as by a write without recording to the view,
        its base or another view of it: graphs recorded before keep the old node. Only where the
        view's node leads straight to its base as it is now (a write with recording moves the
        base to a node of its own, which this engine does not rebuild a view over)."""
        node = self._grad_fn
        if node is None or node.made_at is None or node.made_at == self._counter.value:
            return
        base = self._view_base
        if node.edges and base is not None and node.edges[0] is base._edge():
            # a retained gradient moves to the new node, other hooks stay on the old (torch)
            self._rebase(node.regenerated(self._policy.regenerated_view_node, self._counter.value))
            return
        index = None if base is None else H.positions_in(base._data, self._data)
        if index is None or self._split_piece is not None:
            node.made_at = None  # (torch refuses to remake a view of a piece of split)
            return
        base_edge = base._edge()  # None: the base requires grad no more, and nothing flows
        # read anew from the base as it is now, by where its elements lie (as_strided): the
        # nodes of the views between, and their hooks, are passed by
        self._rebase(self._strided_from(base, base_edge, index))

    def _strided_from(self, base: Tensor, base_edge: Optional[Node],
                      index: tuple[Any, ...]) -> Node:
        """torch's AsStridedBackward0 for this view over ``base_edge``, the base's node now."""
        node = Node(R.RULES["as_strided"], {"index": index, "in_shape": base._data.shape},
                    (base_edge,), ((base._data.shape, base._data.dtype),), self._policy)
        node.made_at = self._counter.value
        return node

    def _follow_base(self) -> None:
        """torch: a view made without recording requires grad while its base does. Once the
        base no longer does, the view is an untracked one (kept so from then on). An untracked
        view whose base was written to with recording since (so it requires grad now) is a
        view made without recording of a tensor that requires grad, already out of date."""
        base = self._view_base
        if self._no_grad_view and self._grad_fn is None and base is not None \
                and not base._requires_grad:
            self._requires_grad = False
            self._no_grad_view = None
            self._untracked_view = True
        elif isinstance(self._untracked_view, tuple) and base is not None and base._requires_grad \
                and self._untracked_view[0] != self._counter.value:
            self._requires_grad = True
            self._no_grad_view, self._untracked_view = self._untracked_view, False

    def _accumulator_node(self) -> AccumulateGrad:
        if self._accumulator is None:
            self._accumulator = AccumulateGrad(self)
        return self._accumulator

    def _hook_owner(self) -> Node:
        return self._grad_fn if self._grad_fn is not None else self._accumulator_node()

    def _register_hook(self, hook: Hook) -> RemovableHandle:
        if not self._requires_grad:
            raise self._policy.error("hook_no_grad")
        return RemovableHandle(self._hook_owner().pre_hooks, self._policy.tensor_hook(hook))

    def _retain_grad(self) -> None:
        if self._grad_fn is None or self._retains_grad:
            return
        self._retains_grad = True
        if self._policy.retain_in_hook_order:  # a hook like any other, where it was registered
            policy = self._policy
            RemovableHandle(self._grad_fn.pre_hooks,
                            lambda g: policy.retain(self, g, grad_mode.is_grad_enabled()))
        else:
            self._grad_fn.retained = self

    def _detached(self) -> Tensor:
        out = type(self)._from_array(self._data)
        out._counter = self._counter
        out._probe = self._probe
        out._device = self._device
        if self._policy.is_zero_tensor(self):
            self._policy.mark_zero_tensor(out)
        if self._policy.in_place_takes_promoted_dtype:
            twins = [t for t in self._counter.twins or () if t() is not None]
            self._counter.twins = twins + [weakref.ref(self), weakref.ref(out)]
        return out

    def _detach_in_place(self) -> Tensor:
        self._grad_fn = None
        self._accumulator = None  # paddle's leaf shows no accumulation node after it
        self._requires_grad = False
        self._retains_grad = False
        return self

    # --- in-place operations --------------------------------------------------------------

    def _drawn_in_place(self, distribution: str, *parameters: Any, generator: Any = None) -> Tensor:
        """Draws of ``distribution`` ("normal", "uniform") written in place, the node named after
        it, by ``generator`` or the dialect's default one (torch: its own draws; paddle: numpy's)."""
        draw = getattr(generator or rng.generator(self._policy.dialect), distribution)
        values = draw(*parameters, self._data.shape, self._data.dtype, self._data)
        return self._in_place("fill", value=values, api=distribution)

    def _in_place(self, op: str, *others: Any, **attrs: Any) -> Tensor:
        """Apply an operation in place: the data changes, the history is extended, the version grows."""
        return self._write(op, others, attrs, None)

    def _in_place_composed(self, op: str, compute: Callable[[Tensor], Tensor], *others: Any) -> Tensor:
        """Write ``compute(old)``, a composition of the tensor's values before the write (with
        ``others``, its tensor operands), into the tensor as an in-place ``op`` does."""
        return self._write(op, others, {}, compute)

    def _write(self, op: str, others: tuple[Any, ...], attrs: dict[str, Any],
               compute: Optional[Callable[[Tensor], Tensor]]) -> Tensor:
        self._policy.check_in_place(self, op, attrs, others)
        old = type(self)._from_array(self._data.copy())
        old._requires_grad, old._grad_fn, old._accumulator, old._device = (
            self._requires_grad, self._grad_fn, self._accumulator, self._device)
        noisy = step_noise.active()
        if noisy:
            step_noise.note(old._data, step_noise.of(self._data))
        if dual.is_open():  # forward-mode AD: the write carries the tangent forward
            dual.set_tangent(old, dual.tangent_of(self))
        if self._policy.written_leaves_collect_gradients and self._grad_fn is None and \
                not self._requires_grad and grad_mode._State.enabled and \
                any(getattr(o, "_requires_grad", False) for o in others):
            # paddle: the tensor the write starts from stays the node's input, and collects
            # in its .grad the gradient that reaches it there
            old._requires_grad, old._accumulator = True, self._accumulator_node()
        if compute is not None:
            result = compute(old)
        elif op in ("add", "sub", "mul", "div", "pow"):  # a number operand is an attribute
            if self._policy.in_place_takes_promoted_dtype:
                self._promote_written(old, others)
            result = getattr(F, op)(old, *others)
            if op in self._policy.in_place_saves_detached_copies and result._grad_fn is not None:
                _save_detached(result._grad_fn, old)
        else:
            operands = [F._coerce(o, type(self), self._data.dtype) for o in others]
            if op == "setitem" and self._policy.promotes_by_casting:
                # paddle casts a value of another dtype first: a node of its own, recorded
                operands = [o if o._data.dtype == self._data.dtype else F.cast(o, self._data.dtype)
                            for o in operands]
            result = recorder.apply(R.RULES[op], (old, *operands),
                                    {**F.dialect_attrs(op, self._policy), **attrs})
        self._policy.check_in_place_dtype(self, result)
        if op == "setitem":  # only the indexed elements: others may share their memory
            index = attrs["index"]
            self._data[index] = result._data[index]
        elif result._data.dtype != self._data.dtype and self._policy.in_place_takes_promoted_dtype:
            written, self._data = self._data, result._data.copy()
            for ref in self._counter.twins or ():
                twin = ref()
                if twin is not None and twin._data is written:  # paddle: one tensor
                    twin._data = self._data
        else:
            np.copyto(self._data, result._data, casting="unsafe")
        if noisy:
            step_noise.note(self._data, step_noise.of(result._data))
        self._policy.check_in_place_written(self, op)
        self._counter.value += 1
        # (a value of another dtype is cast first, without recording: that copy takes no flag)
        if op == "setitem" and self._policy.unrecorded_setitem_takes_flag and \
                not grad_mode._State.enabled and any(
                    getattr(o, "_requires_grad", False) and o._data.dtype == self._data.dtype
                    for o in others):
            self._requires_grad = True  # paddle: a leaf that requires grad from then on
        if result._grad_fn is not None:
            self._rebase_written(result._grad_fn)
            slot = result._grad_fn.saved.get("result")
            if slot is not None and slot.tensor is result:
                # what it wrote is this tensor, saved at the version the write gave it
                slot.tensor = self
                slot.version = None if slot.version is None else self._counter.value
        if dual.is_open():
            dual.set_tangent(self, dual.tangent_of(result))
        return self

    def _restrided_in_place(self, method: str, view: Callable[[Tensor], Tensor],
                            node_name: Optional[str] = None) -> Tensor:
        """An in-place shape method (``unsqueeze_``, ``t_``…): the tensor takes the shape and
        strides of ``view(self)`` over its own memory. No value is written, but its version
        grows and, where grad mode records it, its node becomes the view's (shown as
        ``node_name`` where the framework names the in-place form apart); its hooks and
        retained gradient stay with its old node, as both frameworks keep them. A leaf that
        requires grad is refused (paddle first changes its shape); a view that requires grad
        is not modelled (torch regenerates every view of its base as an as_strided one)."""
        leaf = grad_mode.is_grad_enabled() and self._grad_fn is None and self._requires_grad
        if leaf and not self._policy.restrided_leaf_changes_first:
            raise self._policy.error("leaf_in_place", name=self._name or "")
        if self._view_base is not None and self._requires_grad:
            raise not_supported(f"Tensor.{method} of a view that requires grad", self._policy.dialect)
        made = view(self)
        self._data = made._data
        if leaf:
            raise self._policy.error("leaf_in_place", name=self._name or "")
        self._counter.value += 1
        node = made._grad_fn
        if grad_mode.is_grad_enabled() and node is not None and node is not self._grad_fn:
            if node_name is not None:
                node.label = node_name
            self._grad_fn = node
        return self

    def _promote_written(self, old: Tensor, others: tuple[Any, ...]) -> None:
        """paddle: a write of floating operands of a wider dtype (a 0-d one too) casts the
        written tensor to it first, without recording (``old``, its values before the write,
        takes the dtype); a strided view takes it too, and its kernel refuses the mismatch."""
        dtypes = [self._data.dtype] + [o._data.dtype for o in others if isinstance(o, Tensor)]
        if any(d.kind != "f" for d in dtypes):
            return  # mixed kinds are the op's own error
        target = np.result_type(*dtypes)
        if target == self._data.dtype:
            return
        if self._view_base is not None and not recorder.row_major(self._data):
            # paddle takes the view to the wider dtype first: what it then reads is its old
            # memory taken as the wider type (undefined; the reference keeps the values)
            want, self._data = self._data.dtype, self._data.astype(target)
            raise self._policy.error("dtype_container", want=want, have=target)
        old._data = old._data.astype(target)

    def _rebase_written(self, node: Node) -> None:
        """After a recorded in-place write, whose node is ``node``. torch: a write through a
        view gives the base a CopySlices node (running ``node`` on the view's part of the
        base's gradient) and the view a node read anew from it."""
        base = self._view_base
        index = None
        if base is not None and self._policy.writes_through_views_rebase_the_base:
            index = H.positions_in(base._data, self._data)
        if index is None:
            if self._grad_fn is None and self._accumulator is not None and \
                    self._policy.write_drops_leaf_hooks(node):
                self._accumulator.pre_hooks.clear()
            self._rebase(node)
            return
        edges = (base._edge(), *node.edges[1:])
        copy = Node(R.RULES["copy_slices"], {"fn": node, "index": index}, edges,
                    ((base._data.shape, base._data.dtype), *node.input_meta[1:]), self._policy)
        copy.saved = node.saved  # a pass frees what the write's node saved with it
        base._rebase(copy)
        self._rebase(self._strided_from(base, copy, index))

    def _rebase(self, node: Node) -> None:
        """After an in-place write: ``node`` computes this tensor from now on."""
        if self._grad_fn is not None and self._grad_fn.retained is self:
            # the retained gradient follows the tensor to its new node; its other hooks
            # stay on the old one, as torch keeps them
            self._grad_fn.retained = None
            node.retained = self
        self._grad_fn = node
        self._requires_grad = True

    # --- the public methods both dialects spell the same way --------------------------------

    def register_hook(self, hook: Hook) -> RemovableHandle:
        """Call ``hook(grad)`` when a gradient for this tensor is computed; it may replace it."""
        return self._register_hook(hook)

    def detach(self) -> Tensor:
        """A new leaf sharing this tensor's data, outside the graph."""
        return self._detached()

    def detach_(self) -> Tensor:
        """Make this tensor a leaf outside the graph, in place (torch: not a view)."""
        if self._view_base is not None and self._policy.refuses_detaching_views:
            raise self._policy.error("detach_view")
        return self._detach_in_place()

    @property
    def shape(self) -> Any:
        return self._size_type(self._data.shape)

    @property
    def dtype(self) -> Any:
        return self._dtype_objects[self._data.dtype]

    def dim(self) -> int:
        return self._data.ndim

    @property
    def is_leaf(self) -> bool:
        return self._grad_fn is None

    matmul = F.matmul
    abs = F.abs
    tanh = F.tanh
    reciprocal = F.reciprocal
    clone = F.clone
    # and a method for each elementwise function of the rule table (``x.exp()``), set below

    @property
    def ndim(self) -> int:
        return self._data.ndim

    def numel(self) -> int:
        return int(self._data.size)

    def item(self) -> Any:
        if self._data.size != 1:
            raise self._policy.error("item", numel=self._data.size)
        return self._data.reshape(()).item()

    def tolist(self) -> Any:
        return self._data.tolist()

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise self._policy.error("len_0d")
        return self._data.shape[0]

    def __float__(self) -> float:
        return float(self.item())

    def __int__(self) -> int:
        return int(self.item())

    def __bool__(self) -> bool:
        return bool(self.item())

    def _left_operand(self, other: Any) -> Any:
        """A numpy array on the left of an operator: a tensor of its values where the dialect
        takes arrays as operands (paddle), else left as it is (torch refuses it)."""
        if isinstance(other, np.ndarray) and self._policy.array_operands_are_tensors:
            return type(self)._from_array(np.array(other))
        return other

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return self._data if dtype is None else self._data.astype(dtype)

    # --- operators ------------------------------------------------------------------------

    # binary operators: a number or a tensor on either side (see ``_operator``)
    __add__ = _operator(lambda a, b: F.add(a, b), "__add__")
    __radd__ = _operator(lambda a, b: F.add(a, b), "__radd__", reflected=True)
    __sub__ = _operator(lambda a, b: F.sub(a, b), "__sub__")
    __rsub__ = _operator(lambda a, b: F.sub(a, b), "__rsub__", reflected=True)
    __mul__ = _operator(lambda a, b: F.mul(a, b), "__mul__")
    __rmul__ = _operator(lambda a, b: F.mul(a, b), "__rmul__", reflected=True)
    __truediv__ = _operator(lambda a, b: F.div(a, b), "__truediv__")
    __rtruediv__ = _operator(lambda a, b: F.div(a, b), "__rtruediv__", reflected=True)
    __pow__ = _operator(lambda a, b: F.pow(a, b), "__pow__")
    __rpow__ = _operator(lambda a, b: F.pow(a, b), "__rpow__", reflected=True)
    __mod__ = _operator(lambda a, b: F.remainder(a, b), "__mod__")
    __rmod__ = _operator(lambda a, b: F.remainder(a, b), "__rmod__", reflected=True)
    __floordiv__ = _operator(lambda a, b: F.floor_divide(a, b), "__floordiv__")
    __rfloordiv__ = _operator(lambda a, b: F.floor_divide(a, b), "__rfloordiv__", reflected=True)
    __matmul__ = _operator(lambda a, b: F.matmul(a, b), "__matmul__")
    __rmatmul__ = _operator(lambda a, b: F.matmul(a, b), "__rmatmul__", reflected=True)

    def __neg__(self) -> Tensor:
        return F.neg(self)

    def __pos__(self) -> Tensor:
        return self

    def __abs__(self) -> Tensor:
        return F.abs(self)

    def __eq__(self, other: Any) -> Tensor:  # type: ignore[override]
        return F.eq(self, other)

    def __and__(self, other: Any) -> Tensor:
        return F.bitwise(np.bitwise_and, self, other)

    def __or__(self, other: Any) -> Tensor:
        return F.bitwise(np.bitwise_or, self, other)

    def __xor__(self, other: Any) -> Tensor:
        return F.bitwise(np.bitwise_xor, self, other)

    __rand__, __ror__, __rxor__ = __and__, __or__, __xor__

    def __invert__(self) -> Tensor:
        return F.bitwise(np.invert, self)

    def __ne__(self, other: Any) -> Tensor:  # type: ignore[override]
        return F.ne(self, other)

    def __lt__(self, other: Any) -> Tensor:
        return F.lt(self, other)

    def __le__(self, other: Any) -> Tensor:
        return F.le(self, other)

    def __gt__(self, other: Any) -> Tensor:
        return F.gt(self, other)

    def __ge__(self, other: Any) -> Tensor:
        return F.ge(self, other)

    __hash__ = object.__hash__

    def __getitem__(self, index: Any) -> Tensor:
        return F.getitem(self, index)

    def __setitem__(self, index: Any, value: Any) -> None:
        attrs: dict[str, Any] = {"index": F._normalize_index(self, index)}
        if not isinstance(value, Tensor):
            attrs["scalar"] = "right"  # a number: paddle runs its own kernel (set_value)
        self._in_place("setitem", value, **attrs)

    def __repr__(self) -> str:
        return self._policy.format_tensor(self)

    def __format__(self, spec: str) -> str:
        """A 0-d tensor formats as its number (``f"{loss}"`` is ``5.0`` in both frameworks)."""
        if self._data.ndim == 0:
            return format(self._data.item(), spec)
        return repr(self)


recorder.bind_tensor_class(Tensor)


for _op in R.elementwise_functions():
    setattr(Tensor, _op, getattr(F, _op))


def _is_operand(x: Any) -> bool:
    return isinstance(x, (Tensor, bool, int, float, np.number))


def _save_detached(node: Node, written: Tensor) -> None:
    """What ``node`` saved of ``written`` becomes a copy of its values outside the graph."""
    for slot in node.saved.values():
        if slot.tensor is written:
            slot.tensor = type(written)._from_array(written._data)
