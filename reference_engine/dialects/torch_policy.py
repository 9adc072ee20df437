"""Torch 2.13's answers to the core's questions, and its ``backward`` / ``grad`` argument rules.

The argument handling mirrors ``torch/autograd/__init__.py`` (``_make_grads``,
``_tensor_or_tensors_to_tuple``) and the checks of the C++ engine, in the same order, so that
the first error a program meets is torch's first error.
"""

from __future__ import annotations

import functools
import weakref
from typing import TYPE_CHECKING, Any, Callable, Iterable, Optional, Sequence

import numpy as np

from reference_engine import devices, dual, engine, recorder
from reference_engine import ops as F
from reference_engine import rules as R
from reference_engine.dialects import torch_layout, torch_matmul
from reference_engine.dialects.policy import Policy, node_base_name, plain_copy
from reference_engine.dtypes import is_floating
from reference_engine.formatting import tensor_body, with_suffixes
from reference_engine.graph import Node
from reference_engine.identity_map import IdentityMap
from reference_engine.messages import TORCH_ERRORS, TORCH_WARNINGS

if TYPE_CHECKING:
    from reference_engine.tensor import Tensor

TENSOR_TYPE_NAMES = {"float32": "FloatTensor", "float64": "DoubleTensor", "int64": "LongTensor",
                     "int32": "IntTensor", "bool": "BoolTensor", "float16": "HalfTensor",
                     "int16": "ShortTensor", "int8": "CharTensor", "uint8": "ByteTensor"}
C_TYPE_NAMES = {"float32": "float", "float64": "double", "int64": "long int", "int32": "int",
                "bool": "bool", "float16": "c10::Half", "bfloat16": "c10::BFloat16"}
SCALAR_TYPE_NAMES = {"float32": "Float", "float64": "Double", "int64": "Long", "int32": "Int",
                     "bool": "Bool", "float16": "Half", "int16": "Short", "int8": "Char",
                     "uint8": "Byte", "bfloat16": "BFloat16"}


def tensor_type_name(tensor: Tensor) -> str:
    """The tensor's legacy type as torch's messages and ``Tensor.type()`` name it:
    ``torch.FloatTensor``, ``torch.cuda.FloatTensor`` on a CUDA device."""
    dtype = str(tensor._data.dtype)
    if dtype == "bool":
        return "CPUBoolType"
    device = devices.device_type(tensor._device or devices.CPU)
    where = "" if device == devices.CPU else device + "."
    return f"torch.{where}{TENSOR_TYPE_NAMES.get(dtype, dtype)}"


# in-place fills torch names after the API that wrote them
_FILL_NODES = {"zero": "ZeroBackward0", "normal": "NormalBackward0", "uniform": "UniformBackward0",
               "exponential": "ExponentialBackward0"}
# activations whose in-place kernel is a node of its own (it saves the result)
_IN_PLACE_KERNELS = {"elu": "EluBackward1", "leaky_relu": "LeakyReluBackward1",
                     "threshold": "ThresholdBackward1"}
_FULL = slice(None)
_BASIC_INDEX_NODES = {type(None): "UnsqueezeBackward0", int: "SelectBackward0",
                      slice: "SliceBackward0"}


def _index_put(attrs: dict[str, Any]) -> bool:
    """Whether a setitem is index_put_ (advanced indices), not a copy into a view."""
    return F._index_kind(attrs["index"]) == "index"


def _basic_index_node(index: Any) -> str:
    """The node a basic index records: torch applies it one component at a time (None an
    unsqueeze, an integer a select, a slice a slice), skipping ``...`` and, in a tuple, ``:``;
    the last one applied names the node, and with none applied it is an alias."""
    if not isinstance(index, tuple):
        return "AliasBackward0" if index is Ellipsis else \
            _BASIC_INDEX_NODES[int if isinstance(index, (int, np.integer)) else type(index)]
    applied = [p for p in index if p is not Ellipsis and p != _FULL]
    if not applied:
        return "AliasBackward0"
    last = applied[-1]
    return _BASIC_INDEX_NODES[int if isinstance(last, (int, np.integer)) else type(last)]


# what torch's derivative formulas call the reference's inputs
_TORCH_SAVED_NAMES = {"a": "self", "b": "other", "low": "min", "high": "max", "c": "condition"}
_REFERENCE_SAVED_NAMES = {torch_name: name for name, torch_name in _TORCH_SAVED_NAMES.items()}
_MATMUL_OPS = frozenset({"dot", "mv", "mm", "vm", "bmm"})
# the order torch's node runs each op's formulas in, by input position, where it is not the
# inputs' (torch's names sorted: (self, other) -> other first; where's (condition, self, other);
# addmm's (self, mat1, mat2); clamp's (self, min, max) with min and max one formula)
DERIVATIVE_ORDERS: dict[str, tuple[int, ...]] = {
    **{op: (1, 0) for op in ("add", "sub", "add_scaled", "sub_scaled", "mul", "div", "div_rounded", "pow",
                             "copysign", "fmax", "fmin", "fmod", "remainder", "xlogy", "maximum", "minimum",
                             "logaddexp2", "cross", "mm", "bmm", "heaviside", "floor_divide")},
    "where": (2, 1, 0), "addmm": (1, 2, 0), "addmm_scaled": (1, 2, 0), "clamp_tensor": (1, 2, 0)}
_ELEMENTWISE_FUNCTIONS = frozenset(R.elementwise_functions())
_PRODUCTS_VIEWED_BACK = frozenset({"vm", "bmm"})
_OUTPUTS = frozenset({"result", "indices"})

def _expandable(target: tuple[int, ...], shape: tuple[int, ...]) -> bool:
    """Whether a gradient of ``shape`` sums back to ``target`` (torch's "compatible")."""
    if len(shape) < len(target):
        return False
    return all(t in (s, 1) for t, s in zip(target[::-1], shape[::-1]))


# torch's ZeroTensors (``TorchPolicy.efficient_zeros``): a property of the tensor object
ZERO_TENSORS: weakref.WeakValueDictionary[int, Tensor] = weakref.WeakValueDictionary()


# the seeds callers gave backward, by the array owning their memory
GIVEN_SEEDS: IdentityMap[weakref.ref[Tensor]] = IdentityMap()


def memory_owner(data: np.ndarray) -> Any:
    """The object owning the memory an array views (through as_strided's wrappers too)."""
    owner: Any = data
    while getattr(owner, "base", None) is not None:
        owner = owner.base
    return owner


def _seed_viewed_by(grad: Tensor) -> Optional[Tensor]:
    """The given seed whose memory ``grad`` is a view of (not the seed itself), or None."""
    ref = GIVEN_SEEDS.get(memory_owner(grad._data))
    seed = ref() if ref is not None else None
    if seed is None or grad._data is seed._data or not np.shares_memory(grad._data, seed._data):
        return None
    return seed


class TorchPolicy(Policy):
    """PyTorch 2.13 semantics."""

    dialect = "torch"
    errors = TORCH_ERRORS
    integer_casts_record = False
    accumulate_node_name = "torch::autograd::AccumulateGrad"  # its repr shows AccumulateGrad
    summation = "cascade"
    warning_texts = TORCH_WARNINGS
    uint8_indices_are_masks = True
    warned_backward_create_graph = False
    warned_list_of_arrays = False
    no_grad_views_require_grad = True
    refuses_overlapping_writes = True
    refuses_bool_negation = True
    refuses_bool_abs = True
    hooks_run_on_unneeded_nodes = True
    roots_share_a_start = True
    undefined_gradients_flow = True
    backward_runs_input_nodes = True
    regenerated_view_node = "AsStridedBackward0"
    writes_through_views_rebase_the_base = True
    ties_divide_single_entries = True
    all_ties_share_placed = True
    refuses_writes_to_leaf_views = True
    refuses_saved_inputs_detached_in_place = True
    split_ops_making_views = frozenset({"split", "split_with_sizes", "unbind"})
    split_views_refuse_rebuild = True
    reshape_copies_are_new = True
    refuses_detaching_views = True
    matmul_result_writes = {"vm": 1}  # measured for every rank pair 1-3: only 1-d @ 2-d
    hooks_see_every_list_gradient = frozenset({"cat", "stack"})  # measured on 2.13.0
    atan2_grad_zero_at_origin = True  # measured on 2.13.0
    pow_exponent_grad_multiplies = True  # measured on 2.13.0
    floor_division_records = True  # measured on 2.13.0
    basic_index_by_components = True  # measured on 2.13.0
    double_backward_thresholds_inclusive = True
    output_hooks_run_at_node = True
    # PowBackward1 / PowBackward2 (a tensor exponent) save their result whichever input needs a
    # gradient: a write into it fails a later backward even when only the base requires grad
    kernels_save_result = frozenset({"pow"})
    fused_gradients = frozenset({"tanh", "sigmoid", "softmax", "log_softmax"})
    refuses_writes_to_split_views = True
    refuses_leaves_moved_into_graph = True
    # threshold_backward, sgn, leaky_relu_backward
    zero_derivative_links = frozenset({"relu", "abs", "leaky_relu", "nll_loss"})

    def efficient_zeros(self, like: Tensor) -> Tensor:
        """torch's ``_efficientzerotensor``: zeros without memory (sgn's derivative), which
        refuse numpy(), tolist() and in-place writes, accumulation into them included."""
        zeros = F.zeros_like(like)
        self.mark_zero_tensor(zeros)
        return zeros

    def is_zero_tensor(self, tensor: Tensor) -> bool:
        return ZERO_TENSORS.get(id(tensor)) is tensor

    def mark_zero_tensor(self, tensor: Tensor) -> None:
        ZERO_TENSORS[id(tensor)] = tensor

    def view_layout(self, op: str, source: np.ndarray, view: np.ndarray) -> np.ndarray:
        """A view reshape makes has the strides torch's ``computeStride`` gives it."""
        if op != "reshape" or view.size == 0 or not np.shares_memory(source, view):
            return view
        strides = torch_layout.view_strides(source.shape, torch_layout.elements(source),
                                            view.shape)
        if strides is None or strides == torch_layout.elements(view):
            return view
        return np.lib.stride_tricks.as_strided(view, view.shape,
                                               [st * view.itemsize for st in strides],
                                               writeable=view.flags.writeable)

    def computed_layout(self, op: str, operands: Sequence[np.ndarray],
                        result: np.ndarray) -> np.ndarray:
        """An elementwise kernel's result in the layout TensorIterator gives it."""
        if result.ndim < 2 or result.size < 2 or \
                any(np.may_share_memory(result, a) for a in operands):
            return result
        if op in torch_layout.PRESERVING:
            return torch_layout.like(operands[0], result)
        if op in torch_layout.CONTIGUOUS:
            return torch_layout.laid_out(result, torch_layout.contiguous_strides(result.shape))
        if op not in torch_layout.ELEMENTWISE and op not in _ELEMENTWISE_FUNCTIONS:
            return result
        strides = torch_layout.elementwise_strides(
            result.shape, [(a.shape, torch_layout.elements(a)) for a in operands])
        return torch_layout.laid_out(result, strides)

    def accumulate(self, leaf: Tensor, grad: Tensor, create_graph: bool) -> None:
        """A first ZeroTensor gradient becomes the leaf's ``.grad`` as it is; adding a later
        one into it in place is refused. A first gradient that is a view of a seed the caller
        gave (what a view's backward makes of it) becomes the ``.grad`` as it is too, sharing
        the seed's memory and version, where its strides fit the leaf's layout and no other
        node of the pass still holds it: AccumulateGrad steals a gradient nothing else holds."""
        first = leaf._grad is None
        if first and not create_graph and not engine.held_by_another_node(grad) and not (
                self.accumulate_only_into_requires_grad and not leaf._requires_grad):
            seed = _seed_viewed_by(grad)
            if seed is not None and torch_layout.obeys_layout_contract(grad._data, leaf._data):
                if leaf._grad_fn is not None:
                    raise self.error("leaf_moved_into_graph")
                stolen = type(grad)._from_array(grad._data)
                stolen._counter = seed._counter
                leaf._grad = stolen
                return
        if not first and not create_graph and self.is_zero_tensor(leaf._grad) and \
                (leaf._requires_grad or not self.accumulate_only_into_requires_grad):
            raise self.error("zero_tensor_immutable")
        super().accumulate(leaf, grad, create_graph)
        if first and leaf._grad is not None and self.is_zero_tensor(grad):
            self.mark_zero_tensor(leaf._grad)
        if first and leaf._grad is not None and not create_graph and grad._counter.value and \
                not engine.held_by_another_node(grad):
            # a stolen gradient a node wrote in place (AsStridedBackward0's buffer) keeps its version
            leaf._grad._counter.value = grad._counter.value

    def first_recorded_grad(self, grad: Tensor) -> Tensor:
        """AccumulateGrad deep-copies a first gradient in a create_graph pass: a new tensor (no
        view of another), recorded as ``CopyBackwards`` where the gradient requires grad."""
        if not grad._requires_grad:
            return plain_copy(grad)
        return recorder.apply(R.RULES["grad_copy"], (grad,))

    def node_name(self, rule: Any, attrs: dict[str, Any]) -> str:
        if attrs.get("api") in _FILL_NODES:
            return _FILL_NODES[attrs["api"]]
        if attrs.get("api") == "in_place" and rule.op in _IN_PLACE_KERNELS:
            return _IN_PLACE_KERNELS[rule.op]
        if rule.op == "setitem" and _index_put(attrs):
            return "IndexPutBackward0"
        if rule.op == "bmm" and torch_matmul.transposes_result(attrs["a_shape"], attrs["b_shape"]):
            return "CloneBackward0"
        if rule.op == "getitem_slice":
            return _basic_index_node(attrs["index"])
        return super().node_name(rule, attrs)

    def write_drops_leaf_hooks(self, node: Node) -> bool:
        """A leaf's hooks live on the tensor, and a write that gives the tensor itself a node
        drops them; a write through a view (``x[0] = v`` is a view's copy_) gives the base
        CopySlices and keeps them, and its old accumulation node runs them."""
        return not (node.rule.op == "setitem" and not _index_put(node.attrs))

    def saved_order(self, rule: Any, attrs: dict[str, Any], names: Iterable[str]) -> list[str]:
        """torch's generated nodes unpack their saved inputs in alphabetical order of their own
        names for them (``other`` before ``self``), then their saved outputs."""
        if rule.op in _MATMUL_OPS:
            first = torch_matmul.unpacked_first(attrs["a_shape"], attrs["b_shape"])
            return sorted(names, key=lambda name: (name != first, name))
        return sorted(names, key=lambda name: (name in _OUTPUTS, _TORCH_SAVED_NAMES.get(name, name)))

    def saved_attribute(self, node: Any, name: str) -> Any:
        """``grad_fn._saved_self``, ``_saved_other``, ``_saved_result``: the tensor the node saved
        under that name (checked for in-place writes as a backward would), None for an input it
        did not need to save, the freed error once a pass released it."""
        reference_name = _REFERENCE_SAVED_NAMES.get(name, name)
        tensors = set(node.rule.inputs) | _OUTPUTS
        if reference_name in node.saved:
            return self.unpack_saved(node)[reference_name]
        if reference_name in tensors and node.released_saved:
            raise self.error("freed", name=node.name())
        if reference_name in node.rule.inputs:
            return None
        return super().saved_attribute(node, name)

    def empty_list_error(self, fn: str) -> Exception:
        return self.error(fn + "_empty")

    def saved_order_reads_attrs(self, rule: Any) -> bool:
        return rule.op in _MATMUL_OPS

    def derivative_order(self, rule: Any) -> Sequence[int]:
        """torch's generated nodes run their formulas in the alphabetical order of the inputs'
        names in derivatives.yaml (torchgen sorts them): ``other`` before ``self``, ``mat1``
        before ``mat2`` before ``self`` (measured: in a create_graph pass through ``x / y``,
        ``y``'s formula records first)."""
        return DERIVATIVE_ORDERS.get(rule.op) or range(len(rule.inputs))

    def reaches_last_input_first(self, node: Node) -> bool:
        return node.rule.op in _MATMUL_OPS and torch_matmul.reaches_b_first(
            node.attrs["a_shape"], node.attrs["b_shape"])

    def matmul_saved_layouts(self, a: np.ndarray, b: np.ndarray) -> tuple[Any, Any]:
        return torch_matmul.saved_layouts(a, b)

    def version_error(self, tensor: Tensor, origin: Optional[Node], expected: int,
                      view_shape: Optional[tuple[int, ...]] = None, recorded: bool = True) -> Exception:
        name = node_base_name(origin) if origin is not None else None
        now = tensor._grad_fn
        # a saved view of a tensor that took no part in the graph, and has no node since, has
        # none to name; one whose base a recorded write gave a node, or that requires grad
        # since, is made anew
        regenerated = (view_shape is not None and (recorded or now is not None
                                                   or tensor._requires_grad)) or (
            tensor._no_grad_view if origin is None else (
            origin.rule.view and tensor._view_base is not None and now is not None
            and (origin is now or now.label == self.regenerated_view_node)))
        if regenerated:  # torch makes a view a new node once its base was written to
            name = "AsStrided"
        index = origin.attrs["slot"] if origin is not None and origin.rule.op == "output_slot" else 0
        where = f", which is output {index} of {name}," if name else ""
        return self.error("version", type_name=tensor_type_name(tensor),
                          shape=list(view_shape or tensor._data.shape), origin=where,
                          version=tensor._counter.value, expected=expected)

    def dtype_name(self, dtype: np.dtype) -> str:
        return SCALAR_TYPE_NAMES.get(str(dtype), str(dtype))

    def check_product_dtypes(self, a: np.dtype, b: np.dtype, a_shape: tuple[int, ...],
                             b_shape: tuple[int, ...], device: Optional[str] = None) -> None:
        """The kernel matmul runs names the mismatch: dot, addmv (a matrix, or a folded batch,
        times a vector), mm (a vector or a folded batch times a matrix) or bmm; mm words it
        otherwise off the CPU."""
        if a == b:
            return
        name = self.dtype_name
        if len(a_shape) == 1 and len(b_shape) == 1:
            raise self.error("dot_dtype", a=name(a), b=name(b))
        if len(b_shape) == 1:
            raise self.error("addmv_dtype", vec=name(b), mat=name(a))
        if len(b_shape) == 2:
            kind = "mm_dtype" if device in (None, devices.CPU) else "mm_dtype_device"
            raise self.error(kind, a=C_TYPE_NAMES.get(str(a), str(a)),
                             b=C_TYPE_NAMES.get(str(b), str(b)))
        raise self.error("bmm_dtype", a=name(a), b=name(b))

    # --- custom functions -------------------------------------------------------------------

    # the kernels whose backward torch 2.13 does not differentiate, by the origin their
    # composition records under (``graph.as_kernel``): the create_graph pass records their
    # derivative, running it is refused (measured: "the derivative for '_cdist_backward' is not
    # implemented.")
    once_differentiable_kernels = {"cdist_kernel": "_cdist_backward"}

    def check_runnable(self, node: Node, create_graph: bool, accumulate: bool = True,
                       needed: Optional[Sequence[bool]] = None) -> None:
        super().check_runnable(node, create_graph, accumulate, needed)
        if node.order >= 2 and node.origin in self.once_differentiable_kernels:
            raise self.error("derivative_not_implemented", name=self.once_differentiable_kernels[node.origin])

    def custom_node_name(self, cls: type) -> str:
        return f"{cls.__name__}Backward"

    def custom_gradients(self, name: str, returned: tuple[Any, ...], args: tuple[Any, ...],
                         positions: list[int], needed: tuple[bool, ...] = ()) -> list[Any]:
        """One gradient per forward argument; None for a non-tensor; shapes checked. Extra
        results are dropped when they are all None."""
        if len(returned) > len(args) and all(g is None for g in returned[len(args):]):
            returned = returned[:len(args)]
        if len(returned) != len(args):
            raise self.error("function_gradient_count", name=name, expected=len(args), got=len(returned))
        tensor_type = recorder.tensor_type()
        for i, g in enumerate(returned):
            if g is not None and i not in positions:
                raise self.error("function_gradient_not_tensor", name=name, position=i + 1)
            if isinstance(g, tensor_type) and i in positions:
                want = args[i]._data.shape
                if not _expandable(want, g._data.shape):
                    raise self.error("function_gradient_shape", name=name, index=i,
                                     got=list(g._data.shape), expected=list(want))
        return [returned[i] for i in positions]

    def outer_node_saves_nothing(self, node: Node) -> bool:
        """torch's matmul of a vector and a matrix is an mm viewed back (``SqueezeBackward4``),
        of batches a bmm or mv viewed back (``UnsafeViewBackward0``) or copied
        (``CloneBackward0``): the node that makes the result saves nothing (measured)."""
        return node.rule.op in _PRODUCTS_VIEWED_BACK

    def tensor_hook(self, hook: Callable[[Any], Any]) -> Callable[[Any], Any]:
        """torch checks what a tensor hook returns against what it was handed: the same tensor
        type (dtype and device) and size."""
        name = getattr(hook, "__name__", type(hook).__name__)
        policy = self

        @functools.wraps(hook)
        def checked(grad: Any) -> Any:
            out = hook(grad)
            if isinstance(out, recorder.tensor_type()) and isinstance(grad, recorder.tensor_type()):
                was, got = tensor_type_name(grad), tensor_type_name(out)
                if was != got:
                    raise policy.error("hook_changed_type", name=name, was=was, got=got)
                if out._data.shape != grad._data.shape:
                    raise policy.error("hook_changed_size", name=name)
            return out
        return checked

    def format_tensor(self, tensor: Tensor) -> str:
        data = tensor._data
        prefix = "tensor("
        suffixes = []
        meta = tensor._device == devices.META  # (no data to show: its size instead)
        if tensor._device not in (None, devices.CPU):
            suffixes.append(f"device='{tensor._device}'")
        if meta or (data.size == 0 and data.ndim != 1):
            suffixes.append(f"size={tuple(data.shape)}")
        # the default float dtype goes without saying; int64 and bool too, where an element
        # shows which (an empty tensor shows none)
        implied = (self.default_float,) if data.size == 0 else (self.default_float, np.int64, np.bool_)
        if data.dtype not in implied:
            suffixes.append(f"dtype=torch.{data.dtype}")
        if tensor._grad_fn is not None:
            # the class name: torch::autograd::CopySlices prints as CopySlices
            suffixes.append(f"grad_fn=<{tensor._grad_fn.name().rpartition('::')[2]}>")
        elif tensor._requires_grad:
            suffixes.append("requires_grad=True")
        tangent = dual.tangent_of(tensor)
        if tangent is not None:
            suffixes.append(f"tangent={self.format_tensor(tangent)}")
        if meta:
            return f"{prefix}..., {', '.join(suffixes)})"
        return with_suffixes(prefix + tensor_body(data, len(prefix)), suffixes, len(prefix))

    # --- torch.autograd.backward / grad argument rules --------------------------------------

    def outputs_and_seeds(self, tensors: Any, grads: Any) -> tuple[list[Tensor], list[Any]]:
        """``_tensor_or_tensors_to_tuple`` and ``_make_grads``, then the engine's root checks."""
        base = recorder.tensor_type()
        outputs = [tensors] if isinstance(tensors, base) else list(tensors)
        if grads is None:
            grads = [None] * len(outputs)
        elif isinstance(grads, base):
            grads = [grads]
        else:
            try:
                grads = list(grads)
            except TypeError:
                raise self.error("not_iterable", type_name=type(grads).__name__) from None
        seeds: list[Any] = []
        for i, (out, grad) in enumerate(zip(outputs, grads)):
            if isinstance(grad, base):
                if grad._data.shape != out._data.shape:
                    raise self.error("seed_shape", index=i, grad_shape=torch_size(grad._data.shape),
                                     out_shape=torch_size(out._data.shape))
                devices.check_seed(out, grad, i, self)
                seeds.append(F.cast(grad, out._data.dtype))
                GIVEN_SEEDS[memory_owner(grad._data)] = weakref.ref(grad)
            elif grad is None:
                if out._requires_grad:
                    if out._data.size != 1:
                        raise self.error("implicit_seed")
                    if not is_floating(out._data.dtype):
                        raise self.error("implicit_seed_dtype", dtype=f"torch.{out._data.dtype}")
                    seeds.append(F.ones_like(out))
                else:
                    seeds.append(None)
            else:
                raise self.error("seed_type", type_name=type(grad).__name__)
        if len(seeds) != len(outputs):
            raise self.error("seed_count", tensors=len(outputs), grads=len(seeds))
        for i, out in enumerate(outputs):
            if not out._requires_grad:
                raise self.error("output_no_grad", index=i)
        return outputs, seeds

    def backward(self, tensors: Any, grad_tensors: Any = None, retain_graph: Optional[bool] = None,
                 create_graph: bool = False, inputs: Any = None) -> None:
        """``torch.autograd.backward``."""
        base = recorder.tensor_type()
        if inputs is not None:
            inputs = [inputs] if isinstance(inputs, base) else list(inputs)
            if not inputs:
                raise self.error("backward_inputs_empty")
        outputs, seeds = self.outputs_and_seeds(tensors, grad_tensors)
        if inputs is not None:
            for t in inputs:
                if not t._requires_grad:
                    raise self.error("retain_no_grad")
                t._retain_grad()
        if create_graph and not TorchPolicy.warned_backward_create_graph:
            TorchPolicy.warned_backward_create_graph = True  # torch warns once per process
            self.warn("backward_create_graph", stacklevel=4)
        engine.run_backward(self, outputs, seeds, inputs=inputs, create_graph=create_graph,
                            retain_graph=create_graph if retain_graph is None else retain_graph)

    def grad(self, outputs: Any, inputs: Any, grad_outputs: Any = None,
             retain_graph: Optional[bool] = None, create_graph: bool = False,
             only_inputs: bool = True, allow_unused: Optional[bool] = None,
             is_grads_batched: bool = False, materialize_grads: bool = False
             ) -> tuple[Optional[Tensor], ...]:
        """``torch.autograd.grad``."""
        base = recorder.tensor_type()
        if materialize_grads and allow_unused is False:
            raise self.error("materialize_unused")
        if allow_unused is None:
            allow_unused = materialize_grads
        inputs = [inputs] if isinstance(inputs, base) else list(inputs)
        if not only_inputs:
            self.warn("only_inputs", stacklevel=4)
        if is_grads_batched:
            return self._batched_grad(outputs, inputs, grad_outputs, retain_graph, create_graph,
                                      allow_unused, materialize_grads)
        outs, seeds = self.outputs_and_seeds(outputs, grad_outputs)
        if not inputs:
            raise self.error("grad_inputs_empty")
        for t in inputs:
            if not t._requires_grad:
                raise self.error("input_no_grad")
        captured = engine.run_backward(self, outs, seeds, inputs=inputs, accumulate=False,
                                       create_graph=create_graph,
                                       retain_graph=create_graph if retain_graph is None
                                       else retain_graph)
        result: list[Optional[Tensor]] = []
        for i, (g, t) in enumerate(zip(captured, inputs)):
            if g is None and not allow_unused:
                raise self.error("unused_input", index=i)
            if g is None and materialize_grads:
                g = F.zeros_like(t)
                g._requires_grad = create_graph
            result.append(g)
        return tuple(result)


    def _batched_grad(self, outputs: Any, inputs: list[Tensor], grad_outputs: Any,
                      retain_graph: Optional[bool], create_graph: bool, allow_unused: bool,
                      materialize_grads: bool) -> tuple[Optional[Tensor], ...]:
        """``grad(..., is_grads_batched=True)``: each seed's first dimension is a batch, and
        each gradient is the stack of the passes over it (torch vmaps the backward; the values
        are those of one pass per batch entry)."""
        base = recorder.tensor_type()
        seeds = [grad_outputs] if isinstance(grad_outputs, base) else list(grad_outputs)
        count = seeds[0]._data.shape[0]
        passes = []
        for k in range(count):
            keep = True if k < count - 1 else retain_graph
            passes.append(self.grad(outputs, inputs, [s[k] for s in seeds], retain_graph=keep,
                                    create_graph=create_graph, allow_unused=allow_unused,
                                    materialize_grads=materialize_grads))
        return tuple(None if column[0] is None else F.stack(list(column), 0) for column in zip(*passes))


def torch_size(shape: Sequence[int]) -> str:
    return f"torch.Size({list(shape)})"


TORCH = TorchPolicy()
