"""Semantics policies: the answers the shared core asks for wherever torch and paddle differ.

The core (tensor, ops, engine, autograd) never branches on the dialect; it calls a method of the
tensor class's policy. :class:`Policy` holds the behaviour both frameworks share; each dialect
subclasses it and overrides only what its framework does differently.
"""

from __future__ import annotations

import functools
import warnings
from typing import TYPE_CHECKING, Any, Callable, Iterable, Optional, Sequence

import numpy as np

from reference_engine import devices, fp_errors, recorder, rounding
from reference_engine import ops as F
from reference_engine.graph import Node, SavedTensor, node_base_name, shown_node
from reference_engine.messages import type_name

if TYPE_CHECKING:
    from reference_engine.rules import Rule
    from reference_engine.tensor import Tensor

# the kinds of dtype by rank in promotion (bool < integer < floating); "V": bfloat16 (``ml_dtypes``)
DTYPE_CATEGORY = {"b": 0, "i": 1, "u": 1, "f": 2, "V": 2}


class Policy:
    """Behaviour shared by both frameworks; dialect policies override the differences."""

    dialect = "neutral"
    errors: dict[str, tuple[type[Exception], str]] = {}
    warning_texts: dict[str, tuple[type[Warning], str]] = {}
    default_float = np.dtype(np.float32)
    accumulate_node_name = "AccumulateGrad"
    leaf_hooks_apply_to_grad = True
    accumulate_only_into_requires_grad = True
    accumulate_in_place = True
    # ops whose backward kernel reads an input or result that it does not differentiate: the
    # gradient stays connected to it (with a zero derivative), as recorded by ``ops.link``
    zero_derivative_links: frozenset[str] = frozenset()
    recomputes_result: frozenset[str] = frozenset()  # paddle: kernels that save no output
    kernels_save_result: frozenset[str] = frozenset()  # kernels that save their output always
    kernels_save_inputs: frozenset[str] = frozenset()  # paddle: ... their input, not their output
    integer_casts_record = True  # torch: a cast to an integer or bool dtype records nothing
    links_read_saved_tensors = False       # paddle: the kernel behind a link reads its operand
    zero_derivative_link_max_order: Optional[int] = None  # kernels of higher orders read nothing
    links_at_second_order: frozenset[str] = frozenset()  # ... except in these ops' derivatives
    links_with_a_constant: frozenset[str] = frozenset()  # a constant operand: link the gradient
    # nodes whose kernel links a gradient with a constant operand, by name: paddle.bmm's
    # (BmmGradNode), where paddle.matmul's on the same operands does not
    links_with_a_constant_nodes: frozenset[str] = frozenset()
    # paddle: a gradient summed back over leading dimensions only is one sum without keepdim
    # (torch: a sum that keeps them, then a view)
    sums_leading_dims_away = False
    retained_grads_accumulate = True
    array_operands_are_tensors = False  # paddle: ``ndarray * tensor`` takes the array as a tensor
    # torch: a saved input (not the node's own output) that was detach_()ed cannot be used
    refuses_saved_inputs_detached_in_place = False
    refuses_bool_negation = False          # torch: no `-` on bool tensors
    refuses_bool_abs = False               # torch: no abs kernel for bool
    refuses_overlapping_writes = False     # torch: no in-place write into an expanded tensor
    refuses_writes_to_leaf_views = False   # torch: no in-place write into a view of a leaf
    refuses_leaves_moved_into_graph = False  # torch: no accumulating into a leaf now written to
    no_grad_views_require_grad = False     # torch: a view made under no_grad still requires grad
    expand_copies = False                  # paddle: expand makes a new tensor, not a view
    # the several-output ops whose pieces view the input (share its memory and version
    # counter): torch's split / chunk / unbind, paddle's unbind (its split copies)
    split_ops_making_views: frozenset[str] = frozenset()
    split_views_refuse_rebuild = False     # torch: a piece may not be used once its base changed
    # torch: a reshape that must copy (a transposed input) clones and views the copy
    # (UnsafeViewBackward0), a new tensor; paddle's shares the input's version counter all the
    # same (measured)
    reshape_copies_are_new = False
    # how often a matmul kind writes its own result in place (torch's vector @ matrix squeezes
    # it with squeeze_: version 1)
    matmul_result_writes: dict[str, int] = {}
    refuses_detaching_views = False        # torch: no detach_() of a view
    # paddle: a tensor needing no grad, written in place with one that does, collects in its
    # .grad the gradient that reaches its value before the write
    written_leaves_collect_gradients = False
    # paddle: ``x[i] = y`` under no_grad with y requiring grad makes x a leaf requiring grad
    unrecorded_setitem_takes_flag = False
    # paddle: an in-place shape method (unsqueeze_) on a leaf that requires grad changes its
    # shape before refusing it
    restrided_leaf_changes_first = False
    # paddle: ``x.add_(y)`` with y of a wider float dtype gives x that dtype (torch casts back)
    in_place_takes_promoted_dtype = False
    refuses_writes_to_split_views = False  # torch: ... and may not be written in place
    prod_grad_divides = False              # paddle: prod's gradient is g * result / x (nan at 0)
    leaky_relu_passes_at_zero = False      # paddle: leaky_relu's gradient at 0 is the gradient
    # ops whose gradient is recorded as one node (torch: tanh, sigmoid; paddle: silu)
    fused_gradients: frozenset[str] = frozenset()
    # fused gradient rules whose own derivative the framework composes from primitive ops,
    # recorded as first-order ops (paddle's log_double_grad: divide, multiply, conj, scale)
    composite_derivatives: frozenset[str] = frozenset()
    # paddle: a saved leaf keeps its node, so what a create_graph pass computes from it still
    # reaches the leaf after its stop_gradient was set (torch: only a saved view of a leaf)
    saved_leaves_keep_their_node = False
    masks_by_multiplying = False           # paddle: maximum's kernel keeps a nan gradient
    uint8_indices_are_masks = False        # torch: a uint8 index tensor reads as a mask (warned)
    # torch: a p-norm's gradient is 0 at zeros (p < 1) and shared among ties (p = inf)
    norm_grad_masks_zeros = True
    # torch: the hooks on the outputs of a node with several run together, as the node runs
    output_hooks_run_at_node = False
    packs_before_linking = False  # paddle: see graph.UNLINKED_WHILE_PACKING
    # paddle: one output of several has no node of its own; its hooks run as the node that made
    # it runs (their results unused), though its gradient passes on at once
    slot_hooks_run_at_owner = False
    # paddle: kernels with no strided form run on a contiguous copy of a strided input (a
    # transposed view), which is what their node saves: later writes to the view are not seen
    contiguous_copy_kernels: frozenset[str] = frozenset()
    # paddle: every kernel that computes writes its result in row-major order (torch, like
    # numpy, keeps the layout of a strided input: a reshape of the result may have to copy)
    computed_results_row_major = False
    # paddle: a gradient reaching a node is cast to the dtype its output had when recorded (an
    # in-place write may have widened the tensor since)
    gradients_cast_to_recorded_dtype = False
    # paddle: in-place ops that save a copy of the tensor they write, outside the graph (a
    # second derivative does not reach the tensor's history through it)
    in_place_saves_detached_copies: frozenset[str] = frozenset()
    next_functions_numbered = True  # torch: (node, output number) pairs; paddle: the nodes
    number_operands_listed = True   # paddle: a tensor-and-number op lists the tensor alone
    # the order ready nodes run in: torch's ready queue runs the most recently recorded node
    # first; paddle's is first in, first out, with leaf accumulations put at its front
    ready_first_in_first_out = False
    # torch: softplus' and elu's double backward put the threshold (0) on the other side
    double_backward_thresholds_inclusive = False
    hooks_run_on_unneeded_nodes = False    # torch: backward(inputs=...) still runs a root's hooks
    roots_share_a_start = False            # torch: several roots hang off a start node of its own
    # torch: a custom function's None is an undefined gradient that still runs the nodes below
    # (hooks see None, saved tensors are checked and freed, custom backwards see zeros)
    undefined_gradients_flow = False
    # paddle: a PyLayer's backward is handed the gradient as it arrived; hooks on its output run
    # (and what they return is retained) but do not change it
    custom_backward_skips_hook_results = False
    # custom functions (torch's autograd.Function, paddle's PyLayer): what they save is
    # version-checked (paddle: not); running a freed node is refused (paddle); an output marked
    # non-differentiable keeps its node (paddle)
    custom_saved_checked = True
    custom_refuses_second_backward = False
    custom_non_differentiable_keeps_node = False
    backward_runs_input_nodes = False      # torch: backward(inputs=...) runs a non-leaf input's node
    # paddle: ops whose gradient kernel hands on a view of the gradient it was handed (a
    # retained gradient of their output shares its memory with what the kernels below write)
    gradient_views: frozenset[str] = frozenset()
    own_memory_gradients: frozenset[str] = frozenset()  # backward kernels whose outputs own their memory
    # torch: atan2's derivative is 0 where x² + y² is 0 (paddle's divides by it)
    atan2_grad_zero_at_origin = False
    basic_index_by_components = False  # torch: see rule_helpers.basic_index_grad
    # how remainder's divisor gradient rounds a / b: torch's floor division ("floor"), or
    # paddle's floor of the divided quotient ("floor_of_quotient")
    remainder_grad_quotient = "floor"
    floor_division_records = False  # torch: a // b is a node (without derivative); paddle's stops gradient
    erfinv_saturates = False  # paddle: erfinv outside [-1, 1] is ±inf (torch: NaN)
    pow_exponent_grad_multiplies = False  # torch: see rule_helpers.pow_grad_exponent
    # torch: list ops whose backward computes every entry's gradient once one is needed (its
    # codegen checks the list's range): a node's post hook sees them all, constants' included
    hooks_see_every_list_gradient: frozenset[str] = frozenset()
    # paddle: ops whose backward kernel computes every input's gradient when a pass needs one
    # (their inputs are one list): the nodes below all run
    gradients_to_every_input: frozenset[str] = frozenset()
    # torch: max/min's gradient over a reduced dimension of size one is still divided by the
    # count of entries equal to the extremum (paddle's kernel skips the division there)
    ties_divide_single_entries = False
    all_ties_share_placed = False  # torch: max()/min()'s share written into zeros (CPU)
    # torch: a view written in place without recording gets a node made anew (its name)
    regenerated_view_node: Optional[str] = None
    # torch: a recorded write through a view gives its base a node of its own (CopySlices), and
    # the view a node made anew over it
    writes_through_views_rebase_the_base = False
    # how a float sum adds its terms: "pairwise" (numpy's order) or "cascade" (torch's CPU
    # kernel, reference_engine.cascade_sum: a float32 loss to the bit)
    summation = "pairwise"
    promotes_by_casting = False            # paddle: mixed dtypes cast first (a node, a new tensor)
    kernels_copy_gradients = False         # paddle: a kernel's output is a new tensor, never its input
    # torch casts what a custom function's backward returns to its input's dtype; paddle hands a
    # PyLayer's gradient on as it is (the leaf's accumulation decides)
    custom_gradients_cast_to_input_dtype = True
    hooks_record = False                   # paddle runs tensor hooks with recording on
    retain_in_hook_order = False           # paddle's retain_grads is a hook, run in registration order
    clamp_needs_a_bound = True             # torch.clamp(x) refuses; paddle.clip(x) is the identity
    softmax_floor: Optional[float] = None  # paddle: softmax clips x - max(x) from below at -64
    # how softmax and log_softmax compute: torch's CPU kernels bit for bit ("torch",
    # ``kernel_order``), or the exponentials times the inverse of their sum (paddle's, "inverse")
    softmax_kernel = "torch"
    fast_float32_tanh = False  # paddle: float32 tanh is Eigen's rational approximation
    operand_labels = (("input", 1), ("other", 2))  # how argument errors name a binary op's operands

    # --- errors and warnings --------------------------------------------------------------

    def error(self, kind: str, **fields: Any) -> Exception:
        """The framework's exception for ``kind``, its message filled from ``fields``."""
        cls, template = self.errors[kind]
        return cls(template.format(**fields))

    def index_error(self, shape: tuple[int, ...], index: Any, exc: IndexError) -> Exception:
        """The framework's error for an index numpy refused (``exc``) on a tensor of ``shape``."""
        return self.error("index", detail=str(exc).replace("axis", "dimension"))

    def out_of_range_integer(self, value: int, dtype: np.dtype) -> int:
        """A Python int beyond ``dtype``'s range, as the dialect converts it for an operation
        with a tensor of that dtype. torch wraps it around (beyond int64, Python's conversion
        refuses it); paddle's conversion through a double gives the dtype's minimum (x86)."""
        if not -2 ** 63 <= value < 2 ** 64:
            raise OverflowError("int too big to convert")
        bits = np.dtype(dtype).itemsize * 8
        wrapped = value % (1 << bits)
        signed = np.dtype(dtype).kind == "i"
        return wrapped - (1 << bits) if signed and wrapped >= 1 << (bits - 1) else wrapped

    def warn(self, kind: str, stacklevel: int = 3, **fields: Any) -> None:
        category, text = self.warning_texts[kind]
        warnings.warn(text.format(**fields) if fields else text, category, stacklevel=stacklevel)

    def warn_anomaly(self, node: Node) -> None:
        """torch's anomaly mode names the failing node in a warning before raising (followed by
        the forward call's traceback, which the reference engine does not record)."""
        warnings.warn(f"Error detected in {node.name()}. Traceback of forward call that caused "
                      "the error:\n(not recorded by the reference engine)", UserWarning,
                      stacklevel=4)

    # --- dtypes ---------------------------------------------------------------------------

    def is_integral(self, x: Any) -> bool:
        if isinstance(x, (bool, int, np.integer)):
            return True
        data = getattr(x, "_data", None)
        return data is not None and data.dtype.kind in "biu"

    # --- custom functions -------------------------------------------------------------------

    def node_class_path(self, node: Any) -> str:
        """What a node's repr names as its class: torch's own node classes by name, a custom
        function's node class by its module's path too (measured on torch 2.13:
        ``<torch.autograd.function.ExpBackward object at 0x…>``)."""
        name = node.name().split("::")[-1]
        rule = getattr(node, "rule", None)  # (an AccumulateGrad has none)
        return f"torch.autograd.function.{name}" if rule is not None and rule.op == "custom" else name

    def custom_node_name(self, cls: type) -> str:
        """The node name of a custom function class."""
        raise NotImplementedError

    def custom_gradients(self, name: str, returned: tuple[Any, ...], args: tuple[Any, ...],
                         positions: list[int], needed: tuple[bool, ...] = ()) -> list[Any]:
        """The gradient of each tensor argument from what a custom backward ``returned``, or the
        framework's error for a wrong count, shape or position."""
        raise NotImplementedError

    def custom_output_grad(self, grad: Tensor) -> Tensor:
        """The gradient a custom backward is handed, from the one that reached its node."""
        return grad

    def user_callback(self, fn: Callable[..., Any], node_name: Optional[str] = None) -> Callable[..., Any]:
        """``fn``, a program's code the backward pass calls (a tensor hook, a custom backward
        named ``node_name``, an unpack hook), as the framework calls it: torch lets what it
        raises through unchanged."""
        return fn

    def outer_node_saves_nothing(self, node: Node) -> bool:
        """Whether the framework computes this node's op as several nodes of which the one that
        makes the result saves nothing (torch's matmul of a vector and a matrix ends in a
        squeeze): running that node alone checks and frees nothing."""
        return False

    def tensor_hook(self, hook: Callable[[Any], Any]) -> Callable[[Any], Any]:
        """A program's tensor hook as the backward pass calls it (with the framework's checks of
        what it returns)."""
        return self.user_callback(hook)

    def result_dtype(self, *operands: Any, op: Optional[str] = None) -> np.dtype:
        """Type promotion by category: dimensioned tensors, then 0-d tensors, then numbers
        (``op``: the operation promoting, where a dialect's rule depends on it).

        A lower-priority operand changes the result only when its category (bool < integer <
        floating) is higher, as in torch's ``result_type``.
        """
        first = getattr(operands[0], "_data", None)
        if first is not None and all(getattr(x, "_data", None) is not None
                                     and x._data.dtype == first.dtype for x in operands[1:]):
            return first.dtype
        tensors: list[np.dtype] = []
        zero_dim: list[np.dtype] = []
        numbers: list[np.dtype] = []
        for x in operands:
            data = getattr(x, "_data", None)
            if data is not None:
                (tensors if data.ndim else zero_dim).append(data.dtype)
            elif isinstance(x, (bool, np.bool_)):
                numbers.append(np.dtype(np.bool_))
            elif isinstance(x, (int, np.integer)):
                numbers.append(np.dtype(np.int64))
            else:
                numbers.append(self.default_float)
        result: Optional[np.dtype] = None
        for group, is_number in ((tensors, False), (zero_dim, False), (numbers, True)):
            if not group:
                continue
            candidate = _promote(group)
            if is_number:
                candidate = self._default_of(candidate)
            if result is None or DTYPE_CATEGORY[candidate.kind] > DTYPE_CATEGORY[result.kind]:
                result = candidate
        assert result is not None, "type promotion needs at least one operand"
        return result

    def _default_of(self, dtype: np.dtype) -> np.dtype:
        return {"b": np.dtype(np.bool_), "f": self.default_float, "V": self.default_float}.get(dtype.kind,
                                                                     np.dtype(np.int64))

    def check_bool_operands(self, op: str, a: Any, b: Any) -> None:
        """Refuse ``op`` of two booleans (a tensor and a tensor or a Python bool) where the
        framework has no kernel for bool."""

    def check_list_dtypes(self, fn: str, tensors: Sequence[Tensor]) -> None:
        """Refuse ``cat`` / ``stack`` of tensors of different dtypes where the framework does
        (torch promotes them)."""

    def check_product_dtypes(self, a: np.dtype, b: np.dtype, a_shape: tuple[int, ...],
                             b_shape: tuple[int, ...], device: Optional[str] = None) -> None:
        """Refuse a matrix product of operands of different dtypes, as the framework's kernel
        for its form (dot, matrix-vector, matrix, batched) does."""

    def cast_gradient(self, grad: Tensor, dtype: np.dtype) -> Tensor:
        return F.cast(grad, dtype)

    def widened_seed(self, node: Node, seed: Tensor) -> Tensor:
        """A seed of another dtype than ``node`` recorded for its output (a write widened the
        root since, ``gradients_cast_to_recorded_dtype``), as the root's hooks and retained
        gradient see it: cast to the recorded dtype."""
        return F.cast(seed, node.out_dtype)

    def kernel_gradient(self, node: Node, grad: Any) -> Any:
        """The gradient ``node``'s kernel computes with, from the one its hooks left (a seed
        ``widened_seed`` handed on as it was may still be wider than the node's output)."""
        return grad

    def casts_input_gradient(self, node: Node, index: int, grad: Tensor) -> bool:
        """Whether the gradient ``node`` computed for input ``index`` from ``grad`` is cast to
        the input's dtype, where it has another (as torch's engine casts every one)."""
        return True

    def cast_passed_gradient(self, grad: Tensor, dtype: np.dtype) -> Tensor:
        """A gradient a node passes on, cast to the dtype recorded for the node it reaches
        (``gradients_cast_to_recorded_dtype``: that node's output was written since, to a
        wider dtype)."""
        return F.cast(grad, dtype)

    # --- saved tensors and graph lifetime -------------------------------------------------

    def recovered(self, saved: Tensor, unpacked: Any) -> Any:
        """What a backward reads for a saved tensor whose unpack hook returned ``unpacked``."""
        return unpacked

    def saved_attribute(self, node: Node, name: str) -> Any:
        """``node._saved_<name>``: the dialects without such attributes have none."""
        raise AttributeError(f"{node.name()!r} object has no attribute '_saved_{name}'")

    def unpack_saved(self, node: Node) -> dict[str, Tensor]:
        """The node's saved tensors, after checking none was modified in place since."""
        out = {}
        for name, slot in node.saved.items():
            if slot.unpack is not None:
                out[name] = _in_place_of(self.recovered(slot.tensor, slot.unpack(slot.packed)),
                                         slot)
                continue
            tensor = slot.tensor
            if slot.origin is not None and tensor._grad_fn is None and \
                    self.refuses_saved_inputs_detached_in_place and not _is_output(name, slot, node):
                # torch reads a saved input's node from the tensor itself, which detach_ cleared
                raise self.error("saved_detached_in_place")
            if slot.version is not None and tensor._counter.value != slot.version:
                output = _is_output(name, slot, node)
                tensor._follow_base()
                if tensor._no_grad_view:  # torch rebuilds the view's history first, and refuses
                    raise self.error("no_grad_view_base_modified")
                if tensor._split_piece is not None:  # ... and cannot for a piece of split
                    recorder.check_split_piece(tensor)
                # torch names a saved output (a custom function's too) by the node that made
                # it, a saved input by what made it now (the in-place op that changed it)
                origin = slot.origin if output else tensor._grad_fn
                raise self.version_error(tensor, origin, slot.version, slot.view_shape,
                                         slot.origin is not None or slot.leaf_node is not None)
            if slot.leaf_node is not None and not tensor._requires_grad:
                tensor = _still_recorded(tensor, slot.leaf_node)
            elif self.saved_leaves_keep_their_node and slot.origin is None and \
                    not slot.required_grad and tensor._requires_grad:
                tensor = _never_recorded(tensor)
            out[name] = tensor
        return out

    def version_error(self, tensor: Tensor, origin: Optional[Node], expected: int,
                      view_shape: Optional[tuple[int, ...]] = None, recorded: bool = True) -> Exception:
        """The error for a saved tensor written since (``view_shape``: the framework saved a view
        of it of that shape; ``recorded``: the tensor took part in the graph when saved)."""
        raise NotImplementedError

    def saved_order(self, rule: Rule, attrs: dict[str, Any], names: Iterable[str]) -> list[str]:
        """The order a node unpacks (and so version-checks) its saved tensors: inputs first."""
        def key(name: str) -> tuple[int, str]:
            if name in rule.inputs:
                return (rule.inputs.index(name), name)
            return (len(rule.inputs) + (name != "result"), name)
        return sorted(names, key=key)

    def empty_list_error(self, fn: str) -> Exception:
        """The framework's error for ``cat`` / ``stack`` of no tensors."""
        raise NotImplementedError

    def list_function_name(self, fn: str) -> str:
        """The name the framework's errors give ``cat`` / ``stack``."""
        return fn

    def saved_order_reads_attrs(self, rule: Rule) -> bool:
        """Whether ``saved_order`` for nodes of ``rule`` depends on the call's attributes (if
        not, the recorder orders once per kind of node)."""
        return False

    def matmul_saved_layouts(self, a: np.ndarray, b: np.ndarray) -> tuple[Any, Any]:
        """How matmul saves its operands: as themselves (None), as a view of a shape, or as a
        copy ("copy"); see :mod:`reference_engine.dialects.torch_matmul`."""
        return None, None

    def links_operands(self, node: Node) -> bool:
        """Whether running ``node`` keeps each gradient connected to the operand it is for
        (``zero_derivative_links``): the kernel reads every operand, so the other operands the
        gradient is computed from stay linked to it with a zero derivative."""
        if node.rule.op not in self.zero_derivative_links or "scalar" in node.attrs:
            return False
        limit = self.zero_derivative_link_max_order
        return (limit is None or node.order <= limit
                or (node.order == 2 and node.origin in self.links_at_second_order))

    def alias_gradients(self, node: Node, grad: Tensor, out: list[Optional[Tensor]]) -> None:
        """What ``node``'s kernels do to the memory of the gradient they were handed (paddle's
        in-place backward kernels write into it, see ``gradient_views``): nothing here."""

    def sum_buffered(self, have: Tensor, grad: Tensor) -> Tensor:
        """Two gradients for one tensor, met in a pass: their sum."""
        return self.sum_gradients(have, grad)

    def operand_links(self, node: Node, needed: Sequence[bool]) -> Optional[str]:
        """How a node that links its gradients through its operands (every operand
        differentiable, ``needed``: the inputs this pass differentiates) links them: "recorded"
        (the zeros it sends an operand have a node), "unrecorded" (none) or None (not at all)."""
        return "recorded"

    def check_runnable(self, node: Node, create_graph: bool, accumulate: bool = True,
                       needed: Optional[Sequence[bool]] = None) -> None:
        """Raise if ``node`` cannot run: freed by an earlier pass, or not differentiable again.
        ``accumulate``: the pass is a ``backward`` (not a ``grad``); ``needed``: the inputs
        the pass differentiates, where known."""
        if node.released_saved:
            raise self.error("freed", name=node.name())

    def check_kernel(self, node: Node, needed: Sequence[bool]) -> None:
        """Raise what the framework's backward kernel of ``node`` refuses, computing the
        gradients of the inputs ``needed`` marks (after its saved tensors were checked)."""

    def check_before_hooks(self, node: Node) -> None:
        """Raise what the framework checks of ``node`` before its tensor hooks run (torch:
        nothing; its hooks run first, then the node finds what it saved freed)."""

    def missing_output_gradient(self, node: Node) -> Optional[str]:
        """What the hooks of a node's outputs that no gradient reached see when it runs:
        "none" (they are handed None), "zeros" (the kernel fills in zeros), "refused" (the
        kernel crashes: the pass raises the policy's ``partial_pass_crash``) or None (nothing)."""
        return None

    def gradient_node_name(self, node: Node, index: int) -> Optional[str]:
        """The name of the node input ``index``'s gradient comes from when running ``node``
        records, where the framework names it after the gradient kernel (None: the composing
        op's own name)."""
        return None

    def gradient_node_made(self, node: Node, made: Node) -> None:
        """``made`` is the node a recording run of ``node`` made a gradient from (a hook for
        what the framework's node of that kernel remembers of ``node``): nothing here."""

    def filled_gradient(self, zeros: Tensor) -> Tensor:
        """A gradient a kernel filled in with zeros, as hooks see it."""
        return zeros

    def release(self, node: Node) -> None:
        node.release()

    def derivative_order(self, rule: Any) -> Sequence[int]:
        """The order a node's derivative formulas run in, by input position: as the inputs."""
        return range(len(rule.inputs))

    def reaches_last_input_first(self, node: Node) -> bool:
        """Whether the framework's kernel for ``node`` is several nodes, whose chain to the last
        input runs before the chain to the first: its leaves then accumulate in that order."""
        return False

    # --- .grad ----------------------------------------------------------------------------

    def node_name(self, rule: Any, attrs: dict[str, Any]) -> str:
        """The framework's class name for a node of ``rule`` with these attributes: an op with
        several overloads (``squeeze()``, ``squeeze(dim)``, ``squeeze(dims)``) records which ran."""
        if "overload" in attrs:
            return rule.node_name.rstrip("0123456789") + str(attrs["overload"])
        return rule.node_name

    def check_gradient_sum(self, have: Tensor, grad: Tensor) -> None:
        """Raise if the framework cannot add these two gradient contributions."""

    def sum_gradients(self, have: Tensor, grad: Tensor) -> Tensor:
        """Add two gradient contributions for the same tensor."""
        self.check_gradient_sum(have, grad)
        return F.add(have, grad)

    def computed_layout(self, op: str, operands: Sequence[np.ndarray],
                        result: np.ndarray) -> np.ndarray:
        """The result ``op`` computed, laid out in memory as the framework's kernel writes it
        (as numpy wrote it, by default)."""
        return result

    def view_layout(self, op: str, source: np.ndarray, view: np.ndarray) -> np.ndarray:
        """The view ``op`` made of ``source``, strided as the framework strides it (numpy's
        strides, by default)."""
        return view

    def write_drops_leaf_hooks(self, node: Node) -> bool:
        """Whether an in-place write recorded as ``node`` drops the hooks of the leaf it moves
        into the graph."""
        return False

    def accumulate(self, leaf: Tensor, grad: Tensor, create_graph: bool) -> None:
        """Add ``grad`` into a leaf's ``.grad``: a copy first, then in place (out of place when
        ``create_graph``, so the sum is differentiable)."""
        if self.accumulate_only_into_requires_grad and not leaf._requires_grad:
            return
        if leaf._grad_fn is not None and self.refuses_leaves_moved_into_graph:
            # the leaf was written in place by a recorded op after the graph was built
            raise self.error("leaf_moved_into_graph")
        if leaf._grad is None:
            leaf._grad = self.first_recorded_grad(grad) if create_graph else plain_copy(grad)
        elif create_graph or not self.accumulate_in_place:
            leaf._grad = self.sum_gradients(leaf._grad, grad)
        else:
            self.check_gradient_sum(leaf._grad, grad)
            token = fp_errors.ignored()  # inf - inf is nan here, as in the frameworks
            try:
                np.add(leaf._grad._data, grad._data, out=leaf._grad._data, casting="unsafe")
            finally:
                fp_errors.restore(token)
            leaf._grad._counter.value += 1

    def first_recorded_grad(self, grad: Tensor) -> Tensor:
        """What a leaf's first ``.grad`` is in a create_graph pass: the gradient itself."""
        return grad

    def hook_input(self, grad: Tensor) -> Tensor:
        """The gradient a tensor hook is handed."""
        return grad

    def leaf_hook_input(self, leaf: Tensor, grad: Tensor) -> Tensor:
        """The gradient a leaf's tensor hook is handed, as it reaches the leaf's accumulation."""
        return self.hook_input(grad)

    def hook_result(self, handed: Tensor, returned: Tensor) -> Tensor:
        """What a tensor hook returned, as the pass goes on with it."""
        return returned

    def retain(self, tensor: Tensor, grad: Tensor, create_graph: bool) -> None:
        """Add ``grad`` into a non-leaf's retained ``.grad`` (out of place); None (no gradient
        reached this output of its node) leaves it as it is."""
        if grad is None:
            return
        if tensor._grad is None or not self.retained_grads_accumulate:
            tensor._grad = F.clone(grad) if create_graph else plain_copy(grad)
        else:
            tensor._grad = self.sum_gradients(tensor._grad, grad)

    # --- in-place operations --------------------------------------------------------------

    def sign_gradient(self, grad: Tensor) -> Tensor:
        """sign's derivative: zeros of the gradient's shape (torch's, unrecorded)."""
        return F.zeros_like(grad)

    def efficient_zeros(self, like: Tensor) -> Tensor:
        """The zero gradient of a derivative that is zero everywhere (torch's sgn): plain
        zeros here."""
        return F.zeros_like(like)

    def is_zero_tensor(self, tensor: Tensor) -> bool:
        """Whether ``tensor`` is torch's lazily-zero ZeroTensor (never here)."""
        return False

    def mark_zero_tensor(self, tensor: Tensor) -> None:
        """Make ``tensor`` (zeros) a ZeroTensor where the framework has them: nothing here."""

    def check_in_place(self, tensor: Tensor, op: str, attrs: dict[str, Any],
                       others: Sequence[Any] = ()) -> None:
        """Refuse an in-place ``op`` (with ``attrs``: setitem's index; ``others``: its operands)
        the framework refuses."""
        from reference_engine import grad_mode

        if self.is_zero_tensor(tensor):
            raise self.error("zero_tensor_immutable")

        base = tensor._view_base
        for view in (tensor, *(o for o in others if hasattr(o, "_follow_base"))):
            view._follow_base()  # (an operand that is a view made without recording, too)
        if grad_mode.is_grad_enabled() and (tensor._no_grad_view or tensor._untracked_view):
            tracked = bool(tensor._no_grad_view)
            if tracked or any(getattr(o, "_requires_grad", False) for o in others):
                view = node_base_name(tensor._grad_fn)
                if tracked and op == "setitem":  # written through the view its index makes
                    indexed = index_view_name(attrs["index"], tensor._data.shape)
                    if indexed:  # making it checks the base first (torch's view of a view)
                        recorder.check_no_grad_view(tensor)
                    view = indexed or view
                if view:  # made with recording, from a view made without
                    raise self.error("view_of_no_grad_view_in_place", name=view)
                raise self.error("no_grad_view_in_place")
        if grad_mode.is_grad_enabled() and self.refuses_writes_to_split_views:
            of = F.split_output_of(tensor)
            if of is not None:
                raise self.error("split_view_in_place", index=of[1],
                                 name=of[0].name().removesuffix("Backward0"))
        if grad_mode.is_grad_enabled() and base is not None and base._grad_fn is None \
                and tensor._grad_fn is not None and self.refuses_writes_to_leaf_views:
            raise self.error("leaf_view_in_place")
        if self.refuses_overlapping_writes and op != "fill" and \
                not devices.writes_number_as_fill(tensor, op, attrs) and recorder.overlaps_itself(
                tensor, attrs.get("index") if op == "setitem" else None):
            raise self.error("overlapping_in_place")
        if grad_mode.is_grad_enabled() and tensor._grad_fn is None and tensor._requires_grad:
            # torch writes an item through a view of the tensor
            raise self.error("leaf_view_in_place" if op == "setitem" else "leaf_in_place",
                             name=tensor._name or "")
        if grad_mode.is_grad_enabled():
            for other in others:  # then autograd reads the operands' nodes
                if getattr(other, "_no_grad_view", None) or getattr(other, "_untracked_view", None):
                    recorder.check_no_grad_view(other)
        if self.refuses_overlapping_writes and tensor._probe is None:  # the kernel's own check
            written = tensor._data
            if op == "setitem" and index_view_name(attrs["index"], written.shape):
                written = written[attrs["index"]]  # a basic index writes through a view
            if any(isinstance(o, recorder.tensor_type()) and o._probe is None
                   and recorder.partially_overlaps(written, o._data) for o in others):
                raise self.error("partially_overlapping_in_place")
        if op != "setitem":
            self.check_in_place_shape(tensor, others)

    def check_in_place_shape(self, tensor: Tensor, others: Sequence[Any]) -> None:
        """Refuse a write whose operands broadcast the written tensor to a larger shape (shapes
        that do not broadcast at all are the op's own error)."""
        shape = tensor._data.shape
        try:
            broadcast = np.broadcast_shapes(shape, *[o._data.shape for o in others
                                                     if isinstance(o, recorder.tensor_type())])
        except ValueError:
            return
        if broadcast != shape:
            raise self.error("in_place_broadcast", shape=list(shape), broadcast=list(broadcast))

    def check_in_place_written(self, tensor: Tensor, op: str) -> None:
        """Checks a framework makes after an in-place op has written its values: torch writes
        into an inference tensor outside inference mode, then refuses."""
        from reference_engine import grad_mode

        if tensor._inference and not grad_mode._State.inference:
            raise self.error("inference_in_place")

    def check_in_place_dtype(self, tensor: Tensor, result: Tensor) -> None:
        if not np.can_cast(result._data.dtype, tensor._data.dtype, casting="same_kind"):
            raise self.error("in_place_cast", got=self.dtype_name(result._data.dtype),
                             want=self.dtype_name(tensor._data.dtype))

    def dtype_name(self, dtype: np.dtype) -> str:
        return str(dtype)

    def format_tensor(self, tensor: Tensor) -> str:
        raise NotImplementedError

    def not_tensor(self, fn: str, value: Any, index: int = 0) -> Exception:
        """The framework's error for ``value``, not a tensor, as operand ``index`` of ``fn``."""
        arg, position = self.operand_labels[index]
        name = type_name(value)
        return self.error("tensor_argument", fn=fn, arg=arg, position=position, type_name=name,
                          got="None" if value is None else name)

    def refused_operand(self, operator: str, other: Any) -> Any:
        """What an operator method (``__add__``) does with an operand that is neither a number
        nor a tensor: torch hands it back to Python, which tries the other side."""
        return NotImplemented

    def tensor_function(self, fn: Callable[..., Any], name: str, tensors: int = 1) -> Callable[..., Any]:
        """``fn`` as a module-level function of the dialect whose first ``tensors`` operands (1
        or 2; positional, or by the dialect's argument names) must be tensors, or the
        framework's own error names the function and the operand."""
        assert tensors in (1, 2), tensors
        labels = self.operand_labels[:tensors]

        def operands(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
            """The arguments with operands given by name moved into place, each checked."""
            if len(args) < tensors:
                args = args + tuple(kwargs.pop(arg) for arg, _ in labels[len(args):] if arg in kwargs)
            for index, value in enumerate(args[:tensors]):
                if not isinstance(value, recorder.tensor_type()):
                    raise self.not_tensor(name, value, index)
            return args

        @functools.wraps(fn)
        def checked(*args: Any, **kwargs: Any) -> Any:
            base = recorder.tensor_type()
            if len(args) < tensors or not isinstance(args[0], base) or (
                    tensors > 1 and not isinstance(args[1], base)):
                args = operands(args, kwargs)
            return fn(*args, **kwargs)
        return checked


def _promote(dtypes: list[np.dtype]) -> np.dtype:
    """Promote within the highest category only: int64 with float32 gives float32, as in torch."""
    top = max(DTYPE_CATEGORY[d.kind] for d in dtypes)
    return np.result_type(*(d for d in dtypes if DTYPE_CATEGORY[d.kind] == top))


def _in_place_of(unpacked: Any, slot: SavedTensor) -> Any:
    """What a saved-tensor unpack hook returned, in the graph where the saved tensor was when
    it was saved: both frameworks make a tensor of its values with that tensor's node (or a
    leaf's accumulation node), so derivatives through it reach what the saved tensor reached."""
    saved = slot.tensor
    # (a parameter's unpacked stand-in is a plain tensor of the facade, as what the hook returns)
    recorded = slot.origin is not None or saved._requires_grad
    if not isinstance(unpacked, recorder.tensor_type()) or not recorded:
        return unpacked
    out = type(unpacked)._from_array(unpacked._data)
    out._device = unpacked._device
    out._requires_grad = True
    out._grad_fn = slot.origin
    out._accumulator = saved._accumulator_node() if slot.origin is None else None
    return out


def plain_copy(grad: Tensor) -> Tensor:
    """A new tensor holding a copy of the values: no view, no history, its own version (and
    the rounding scale of the values it copies)."""
    out = type(grad)._from_array(grad._data.copy())
    out._device = grad._device
    rounding.note(out, [grad])
    return out


def index_view_name(index: Any, shape: tuple[int, ...]) -> str:
    """The node of the last view torch's indexing makes for ``index`` on a tensor of ``shape``
    (``Select`` for an integer, ``Slice`` for a slice that is not the whole dimension,
    ``Unsqueeze`` for None), or "" when it makes none (only whole slices, '...' or lists)."""
    items = list(index) if isinstance(index, tuple) else [index]
    at = next((i for i, item in enumerate(items) if item is Ellipsis), None)
    if at is not None:
        used = sum(1 for item in items if item is not None and item is not Ellipsis)
        items[at:at + 1] = [slice(None)] * (len(shape) - used)
    name, dim = "", 0
    for item in items:
        if item is None:
            name = "Unsqueeze"
            continue
        if isinstance(item, (int, np.integer)) and not isinstance(item, bool):
            name = "Select"
        elif isinstance(item, slice) and dim < len(shape) and \
                range(*item.indices(shape[dim])) != range(shape[dim]):
            name = "Slice"
        dim += 1
    return name


def _still_recorded(tensor: Tensor, leaf_node: Node) -> Tensor:
    """A saved view of a leaf that has stopped requiring grad: the view was recorded while the
    leaf required it, so what is computed from it still is (torch's matmul of a vector)."""
    stand_in = type(tensor)._from_array(tensor._data)
    stand_in._requires_grad = True
    stand_in._accumulator = leaf_node
    return stand_in


def _never_recorded(tensor: Tensor) -> Tensor:
    """paddle: a saved leaf that required no grad when saved and requires it now is restored
    as it was saved, so what a create_graph pass computes from it does not reach it."""
    return type(tensor)._from_array(tensor._data)


def _is_output(name: str, slot: SavedTensor, node: Node) -> bool:
    """Whether a saved tensor is an output of the node that saved it (not one of its inputs)."""
    return name == "result" or shown_node(slot.origin) is node
