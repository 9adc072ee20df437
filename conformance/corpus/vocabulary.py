"""The case vocabulary: every step kind and every operation a case may use, with their fields.

This table is the single definition the loader validates against, the interpreter dispatches on
and ``cases/schema.json`` documents. Names are neutral between torch and paddle: ``dim`` is
torch's ``dim`` and paddle's ``axis``; ``requires_grad`` is ``not stop_gradient``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from conformance.corpus.field_types import (  # noqa: F401 - the vocabulary's names for them
    ARGS,
    BOOL,
    BOOL_OR_NULL,
    DIMS,
    DTYPE,
    INDEX,
    INT,
    INTS,
    KWARGS,
    NAME,
    NAME_OR_NAMES,
    NAMES,
    NAMES_OR_NULLS,
    NUMBER,
    NUMBER_OR_NAME,
    SEEDS,
    STEPS,
    TEXT,
    VALUE,
)
from conformance.corpus.op_registry import REGISTRY

FORMAT_VERSION = 1
DIALECTS = ("torch", "paddle")
DTYPES = ("float32", "float64", "int64", "int32", "bool")



@dataclass(frozen=True)
class OpSpec:
    """An operation: how many tensor operands it takes and which keyword arguments."""

    operands: int | str                    # a count, or "list" for cat/stack
    kwargs: dict[str, str] = field(default_factory=dict)
    scalar_operands: bool = False          # operands may be numbers (add, mul, pow, …)
    differentiable: bool = True
    saves: bool = False                    # its backward reads an operand or its result
    several: bool = False                  # it returns several tensors: ``let`` names a list
    special: str = ""                      # the points where its derivative is not smooth


_ELEMENTWISE = ("exp", "log", "sqrt", "abs", "sin", "cos", "tanh", "sigmoid", "relu", "neg",
                "clone", "detach")
_SAVING_ELEMENTWISE = {"exp", "log", "sqrt", "abs", "sin", "cos", "tanh", "sigmoid", "relu"}
_BINARY = ("add", "sub", "mul", "div", "pow", "maximum", "minimum")
_SAVING_BINARY = {"mul", "div", "pow", "maximum", "minimum"}
_REDUCE = {"dim": DIMS, "keepdim": BOOL}
_TIES = "ties at the extremum"

OPS: dict[str, OpSpec] = {
    **{name: OpSpec(1, saves=name in _SAVING_ELEMENTWISE, differentiable=name != "detach")
       for name in _ELEMENTWISE},
    **{name: OpSpec(2, scalar_operands=True, saves=name in _SAVING_BINARY) for name in _BINARY},
    "gt": OpSpec(2, scalar_operands=True, differentiable=False),
    "lt": OpSpec(2, scalar_operands=True, differentiable=False),
    "matmul": OpSpec(2, saves=True),
    "mm": OpSpec(2, saves=True),  # torch.mm / paddle.mm: two matrices
    "sum": OpSpec(1, _REDUCE), "mean": OpSpec(1, _REDUCE),
    # one dimension (torch's prod takes no list); torch's gradient is exact at zeros, paddle's
    # divides by the input
    "prod": OpSpec(1, {"dim": INT, "keepdim": BOOL}, saves=True,
                   special="a zero element (paddle's gradient is nan there)"),
    "max": OpSpec(1, _REDUCE, saves=True, special=_TIES),
    "min": OpSpec(1, _REDUCE, saves=True, special=_TIES),
    "amax": OpSpec(1, _REDUCE, saves=True, special=_TIES),
    "amin": OpSpec(1, _REDUCE, saves=True, special=_TIES),
    "clamp": OpSpec(1, {"min": NUMBER_OR_NAME, "max": NUMBER_OR_NAME}, saves=True,
                    special="values at the bounds"),
    "where": OpSpec(3, scalar_operands=True, saves=True),
    "softmax": OpSpec(1, {"dim": INT}, saves=True), "log_softmax": OpSpec(1, {"dim": INT}, saves=True),
    "reshape": OpSpec(1, {"shape": INTS}),
    "transpose": OpSpec(1, {"dim0": INT, "dim1": INT}),
    "permute": OpSpec(1, {"dims": INTS}),
    "squeeze": OpSpec(1, {"dim": DIMS}),
    "unsqueeze": OpSpec(1, {"dim": INT}),
    "expand": OpSpec(1, {"shape": INTS}),
    "getitem": OpSpec(1, {"index": INDEX}),
    "cat": OpSpec("list", {"dim": INT}), "stack": OpSpec("list", {"dim": INT}),
    "cast": OpSpec(1, {"dtype": DTYPE}),
    # pieces along ``dim``: of the listed sizes (``sections``), ``chunks`` of them (torch's
    # chunk; paddle's needs them equal), or of ``size`` each (torch's split by size)
    "split": OpSpec(1, {"sections": INTS, "chunks": INT, "size": INT, "dim": INT}, several=True),
    "unbind": OpSpec(1, {"dim": INT}, several=True),
}
# The ops whose whole feature matrix (op x feature cells, op x state pairs, special-point
# buckets) the default corpus (generator 4) reaches. The registry's ops are reached by
# generator 5 (backward, second order, special points: tests/test_op_registry.py); they join
# the matrix, with their special-point buckets, when it reaches every cell of theirs too.
MATRIX_OPS = frozenset(OPS)
OPS.update({op.name: OpSpec(op.operands, dict(op.kwargs), saves=op.saves, special=op.special)
            for op in REGISTRY})
for _name, _special in (("maximum", _TIES), ("minimum", _TIES), ("abs", "zero"), ("relu", "zero"),
                        ("sqrt", "zero"), ("pow", "a zero base"), ("log", "zero and below")):
    OPS[_name] = replace(OPS[_name], special=_special)

IN_PLACE_OPS: dict[str, OpSpec] = {
    "add": OpSpec(1, scalar_operands=True), "sub": OpSpec(1, scalar_operands=True),
    "mul": OpSpec(1, scalar_operands=True), "div": OpSpec(1, scalar_operands=True),
    "zero": OpSpec(0), "fill": OpSpec(0, {"value": NUMBER}), "detach": OpSpec(0),
    "exp": OpSpec(0),  # exp_: its derivative reads what it wrote
    "setitem": OpSpec(1, {"index": INDEX}, scalar_operands=True),
}


@dataclass(frozen=True)
class StepSpec:
    """A step kind: the key that names it, its required and optional fields with their types."""

    key: str
    required: dict[str, str]
    optional: dict[str, str] = field(default_factory=dict)
    binds: tuple[str, ...] = ()            # fields whose value(s) are new names


_AUTOGRAD_COMMON = {"seeds": SEEDS, "retain_graph": BOOL_OR_NULL, "create_graph": BOOL}

STEPS_BY_KEY: dict[str, StepSpec] = {s.key: s for s in (
    # ``constructor``: torch.tensor / paddle.to_tensor (the default), torch.Tensor(data)
    # (float32), torch.autograd.Variable, or a parameter (torch.nn.Parameter,
    # paddle.create_parameter with the values assigned)
    StepSpec("leaf", {"leaf": NAME, "value": VALUE},
             {"dtype": DTYPE, "requires_grad": BOOL, "constructor": TEXT}, binds=("leaf",)),
    # an op with several results (split, unbind) binds a list of names, one per result
    StepSpec("let", {"let": NAME_OR_NAMES, "op": TEXT, "args": ARGS}, {"kwargs": KWARGS},
             binds=("let",)),
    StepSpec("backward", {"backward": NAME_OR_NAMES},
             {**_AUTOGRAD_COMMON, "inputs": NAMES, "api": TEXT}),
    StepSpec("grad", {"grad": NAME_OR_NAMES, "wrt": NAMES},
             {**_AUTOGRAD_COMMON, "into": NAMES, "allow_unused": BOOL_OR_NULL,
              "materialize_grads": BOOL, "no_grad_vars": NAMES, "only_inputs": BOOL},
             binds=("into",)),
    # ``to`` (with observe "equal"): whether the two tensors have the same shape and values
    # (torch's ``Tensor.equal``, paddle's ``equal_all``)
    StepSpec("observe", {"observe": TEXT, "of": NAME}, {"to": NAME}),
    StepSpec("clear_grad", {"clear_grad": NAME}, {"to": TEXT}),
    StepSpec("retain_grad", {"retain_grad": NAME}),
    StepSpec("set_requires_grad", {"set_requires_grad": NAME, "value": BOOL}),
    StepSpec("no_grad", {"no_grad": STEPS}),
    StepSpec("enable_grad", {"enable_grad": STEPS}),
    StepSpec("set_grad_enabled", {"set_grad_enabled": BOOL, "steps": STEPS}),
    # a tensor hook: returns the gradient times ``scale``, or None without one; with ``record``
    # it records each gradient it is handed
    StepSpec("hook", {"hook": NAME}, {"scale": NUMBER, "record": BOOL, "handle": NAME},
             binds=("handle",)),
    # bind a tensor's current .grad (a tensor or None) to a name, to look at after later steps
    StepSpec("hold_grad", {"hold_grad": NAME, "as": NAME}, binds=("as",)),
    # assign a tensor to another's .grad (torch keeps the tensor, paddle copies its values)
    StepSpec("set_grad", {"set_grad": NAME, "from": NAME}),
    StepSpec("remove_hook", {"remove_hook": NAME}),
    StepSpec("inplace", {"inplace": NAME, "op": TEXT}, {"args": ARGS, "kwargs": KWARGS}),
    # a custom function (torch.autograd.Function, paddle.autograd.PyLayer) written as data: its
    # forward runs ``forward`` with ``inputs`` bound to the arguments and returns ``output``,
    # saving ``save`` for the backward (save_for_backward); its backward runs ``derivative``
    # with the saved names and ``output_grad`` bound and returns ``input_grads`` (null for None;
    # as many as the program says, so a wrong count reaches the framework's error). Each body
    # sees only its own names. The context's flags: ``dirty`` (ctx.mark_dirty: forward names
    # it wrote in place), ``non_differentiable`` (ctx.mark_non_differentiable of the output),
    # ``materialize_grads`` (ctx.set_materialize_grads) and ``once_differentiable`` (the
    # backward so decorated).
    # A list of ``output`` names returns several tensors: ``output_grad`` then names one
    # gradient per output, and ``apply`` binds a list ``into``.
    StepSpec("function", {"function": NAME, "inputs": NAMES, "forward": STEPS,
                          "output": NAME_OR_NAMES, "output_grad": NAME_OR_NAMES,
                          "derivative": STEPS, "input_grads": NAMES_OR_NULLS},
             {"save": NAMES, "dirty": NAMES, "non_differentiable": BOOL,
              "materialize_grads": BOOL, "once_differentiable": BOOL}, binds=("function",)),
    # a saved_tensors_hooks block: every tensor a node made inside saves is handed to a pack
    # hook (recorded with ``record``) and kept; its backward gets it back times ``scale``
    StepSpec("saved_tensors_hooks", {"saved_tensors_hooks": STEPS}, {"scale": NUMBER, "record": BOOL}),
    # torch's inference_mode block: tensors made inside are inference tensors
    StepSpec("inference_mode", {"inference_mode": STEPS}),
    # a hook on the node that made a tensor (torch's grad_fn.register_prehook / register_hook):
    # it scales what the node is handed ("pre") or returns ("post"), or returns None without a
    # scale; with ``record`` it records what it is handed
    StepSpec("node_hook", {"node_hook": NAME, "kind": TEXT},
             {"scale": NUMBER, "record": BOOL, "handle": NAME}, binds=("handle",)),
    # torch's register_post_accumulate_grad_hook: after a leaf's .grad is accumulated, records
    # it (``record``) and scales it in place (``scale``)
    StepSpec("post_accumulate_hook", {"post_accumulate_hook": NAME},
             {"scale": NUMBER, "record": BOOL, "handle": NAME}, binds=("handle",)),
    # an optimizer over leaves or parameters (torch.optim.SGD / SGD with momentum / Adam,
    # paddle.optimizer.SGD / Momentum / Adam), then its step and its zero_grad (torch:
    # set_to_none; paddle: clear_grad's set_to_zero), or a module's (torch: Module.zero_grad;
    # paddle: Layer.clear_gradients)
    StepSpec("optimizer", {"optimizer": NAME, "kind": TEXT, "params": NAMES, "lr": NUMBER},
             {"momentum": NUMBER}, binds=("optimizer",)),
    StepSpec("optimizer_step", {"optimizer_step": NAME}),
    StepSpec("zero_grad", {"zero_grad": NAME}, {"to": TEXT}),
    # a module (torch.nn.Linear, paddle.nn.Linear) with the given values: ``weight`` is
    # (out_features, in_features), as torch holds it (paddle holds its transpose), and
    # ``bias`` is left out for none; ``params`` binds its parameters, in parameters() order
    StepSpec("module", {"module": NAME, "kind": TEXT, "weight": VALUE},
             {"bias": VALUE, "params": NAMES}, binds=("module", "params")),
    # call a module on tensors, binding what it returns
    StepSpec("call", {"call": NAME, "args": NAMES, "into": NAME}, binds=("into",)),
    # a plain function written as data (for the functional APIs): ``body`` with ``inputs``
    # bound, returning ``output``
    StepSpec("def", {"def": NAME, "inputs": NAMES, "body": STEPS, "output": NAME},
             binds=("def",)),
    # a higher-order API on a ``def`` at the tensors ``at``: torch.autograd.functional's
    # jacobian / hessian / vjp / jvp / hvp / vhp (``v``: their vectors), paddle.autograd's
    # jacobian / hessian (on the function's output, read out in full); the result is recorded
    # (paddle's ``batch_axis``: the first axis of ``at`` and of the output is a batch)
    StepSpec("functional", {"functional": TEXT, "of": NAME, "at": NAMES},
             {"v": NAMES, "create_graph": BOOL, "strict": BOOL, "batch_axis": INT}),
    # call a custom function (``Function.apply``), binding its output to ``into``
    StepSpec("apply", {"apply": NAME, "args": NAMES, "into": NAME_OR_NAMES}, binds=("into",)),
)}

# grad_array: the gradient as a numpy array (torch's .grad.numpy(), paddle's .gradient());
# equal: whether ``of`` equals ``to`` (shape and values)
OBSERVABLES = ("value", "grad", "flags", "grad_array", "equal")
CLEAR_TO = ("none", "zeros")
BACKWARD_APIS = ("function", "method")

# Steps that hold other steps, by the field that holds them.
BLOCKS = {"no_grad": "no_grad", "enable_grad": "enable_grad", "set_grad_enabled": "steps",
          "inference_mode": "inference_mode", "saved_tensors_hooks": "saved_tensors_hooks"}
NODE_HOOK_KINDS = ("pre", "post")
OPTIMIZER_KINDS = ("sgd", "momentum", "adam")
MODULE_KINDS = ("linear",)
# linspace: torch.linspace / paddle.linspace from the value's first to last element, as many
# as it has (the value must be evenly spaced)
LEAF_CONSTRUCTORS = ("tensor", "Tensor", "Variable", "Parameter", "linspace")
FUNCTIONAL_APIS = ("jacobian", "hessian", "vjp", "jvp", "hvp", "vhp")

# What each dialect has no API for, as (step kind, field), or (step kind, "") for the whole
# step: the adapters refuse these steps.
DIALECT_LACKS: dict[str, frozenset[tuple[str, str]]] = {
    "torch": frozenset({("grad", "no_grad_vars"), ("functional", "batch_axis")}),
    "paddle": frozenset({("backward", "create_graph"), ("backward", "inputs"),
                         ("grad", "materialize_grads"), ("inference_mode", ""),
                         ("node_hook", ""), ("post_accumulate_hook", ""),
                         ("function", "dirty"), ("function", "once_differentiable"),
                         ("functional", "v"), ("functional", "create_graph"),
                         ("functional", "strict")}),
}

# The features every op is reached with, counted per op by ``autograd-oracle coverage``.
OP_FEATURES = ("backward", "grad", "create_graph order >= 2", "in-place on a saved tensor",
               "under no_grad", "hooked", "at a special point")

# Feature buckets the coverage command counts (per dialect).
BUCKETS = (
    "seed:implicit-scalar", "seed:explicit", "seed:none-entry", "seed:wrong-shape",
    "seed:wrong-count", "seed:other-dtype",
    "accumulation", "clearing", "retain_graph", "allow_unused", "materialize_grads",
    "no_grad_input", "create_graph", "higher_order", "error_path",
    "hook", "grad_mode", "detach", "inplace", "seed:named", "custom_function", "node_hook",
    "inference_mode", "saved_tensors_hooks", "optimizer", "functional", "module",
    *(f"special:{op}" for op, spec in OPS.items() if spec.special and op in MATRIX_OPS),
)
# buckets a dialect cannot have: their steps are ones it has no API for
UNAVAILABLE_BUCKETS = {"torch": frozenset(), "paddle": frozenset({"materialize_grads", "node_hook",
                                                                    "inference_mode"})}
# Names a case may not bind: the repro programs use them for themselves (the framework modules,
# their helpers, the custom function's context), and a step binding one would change what the
# program's own lines mean.
RESERVED_NAMES = ("torch", "paddle", "np", "print", "tuple", "result", "parameter", "linspace",
                  "swap_dims", "ctx")
CASE_KEYS = {"id": TEXT, "about": TEXT, "dialects": "list of dialect names", "steps": STEPS,
             "expect": "list of expectations", "tags": "list of bucket names"}
REQUIRED_CASE_KEYS = ("id", "about", "steps")
EXPECT_KEYS = {"step": INT, "dialect": TEXT, "value": VALUE, "error": TEXT, "none": BOOL}
