"""The case vocabulary: every operation a case may use, with its fields, and the case's keys.

The step kinds are declared in ``conformance.corpus.step_kinds``; this table is the ops' (with
the op registry's entries), the feature buckets the coverage command counts and the names a
case may not bind. Names are neutral between torch and paddle: ``dim`` is
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
