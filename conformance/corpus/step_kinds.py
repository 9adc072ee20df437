"""The step kinds: one declarative entry per kind of step a case may hold.

An entry is everything the project knows about a kind outside running it: its fields and their
types, what its fields name (tensors bound earlier, or an object a kind of step made), the
values a field may take, the names it binds, the steps it holds (a block run in place, or bodies
that are programs of their own), the grad mode inside its block, what each dialect has no API
for, whether its observations come later (hooks) and whether the tensors' state is worth
recording after it, plus a check for what the fields cannot say. From the entries come:

- the loader's validation (``conformance.corpus.loader``: one routine for every kind, and the
  entry's ``check`` for the rest);
- ``cases/schema.json`` (``conformance.corpus.case_schema``; a test keeps the file equal);
- what the walker, the coverage counts, the state-pair model, the judge and the shrinker read
  (``BLOCKS``, ``BODIES``, ``DIALECT_LACKS``, ``DEFERRED``, ``STATE_AFTER``).

What a kind does when it runs, and the repro line it prints for it, is its action in
``conformance.run.step_actions`` (one class per kind, the two side by side). Adding a step kind
is an entry here, an action there, and the adapters' call where a dialect needs one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Optional, Protocol

from conformance.corpus.field_types import (
    ARGS,
    BOOL,
    BOOL_OR_NULL,
    DTYPE,
    INT,
    KWARGS,
    NAME,
    NAME_OR_NAMES,
    NAMES,
    NAMES_OR_NULLS,
    NUMBER,
    SEEDS,
    STEPS,
    TEXT,
    VALUE,
)
from conformance.corpus.vocabulary import IN_PLACE_OPS, OPS, OpSpec


class Checker(Protocol):
    """What an entry's ``check`` may ask of the loader's checker (``_CaseChecker``)."""

    functions: dict[str, int]

    def fail(self, message: str, step: Optional[str] = None, field: Optional[str] = None) -> None: ...
    def use(self, name: Any, step: str, field: str) -> None: ...
    def check_steps(self, steps: Any, prefix: str = "") -> None: ...
    def check_operands(self, spec: OpSpec, args: list[Any], kwargs: dict[str, Any], op: str,
                       where: str) -> None: ...
    def scope(self, bound: list[tuple[str, str]], where: str) -> Any: ...


Check = Callable[[Checker, dict[str, Any], str], None]


@dataclass(frozen=True)
class StepKind:
    """One kind of step (see the module's docstring). ``key`` is the field that names it."""

    key: str
    required: Mapping[str, str]
    optional: Mapping[str, str] = field(default_factory=dict)
    about: str = ""
    binds: tuple[str, ...] = ()            # fields whose value(s) are new names
    uses: tuple[str, ...] = ()             # fields naming tensors (or values) bound earlier
    choices: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)  # field -> its values
    nouns: Mapping[str, str] = field(default_factory=dict)  # field -> what its value is called
    refers: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # field -> kinds that make it
    block: str = ""                        # the field of steps run in place, in the same scope
    grad_mode: Optional[bool | str] = None  # inside the block: off, on, or the field that says
    bodies: tuple[str, ...] = ()           # fields of steps that are programs of their own
    lacks: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # dialect -> fields ("": all)
    deferred: bool = False                 # registers a hook: its observations come later
    state_after: bool = False              # runs autograd: record every tensor's state after it
    check: Optional[Check] = None          # what the fields and their types cannot say
    schema: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # stricter fragments

    @property
    def fields(self) -> dict[str, str]:
        return {**self.required, **self.optional}

    @property
    def makes_object(self) -> bool:
        """Whether the name it binds at its key is an object other than a tensor."""
        return self.key in _MAKERS


# kinds whose key binds an object other than a tensor, and what a step that names one calls it
_MAKERS = {"function": "a function", "def": "a function", "optimizer": "an optimizer",
           "module": "a module"}


def describe_object(kind: str) -> str:
    """How an error names the object a kind of step makes."""
    return _MAKERS.get(kind, "a tensor")


# --- what the fields cannot say ------------------------------------------------------------

def _as_list(v: Any) -> list[Any]:
    return v if isinstance(v, list) else [v]


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _check_leaf(c: Checker, step: dict[str, Any], where: str) -> None:
    if step.get("constructor") == "Tensor" and step.get("dtype", "float32") != "float32":
        c.fail("torch.Tensor(data) makes float32: leave 'dtype' out or say float32", where, "dtype")
    if step.get("constructor") != "linspace":
        return
    # a linspace leaf's value is what linspace makes: a list of numbers, evenly spaced from its
    # first to its last, in a float dtype
    if not step.get("dtype", "float32").startswith("float"):
        c.fail("linspace makes floating-point values: say float32 or float64", where, "dtype")
    value = step["value"]
    if not (isinstance(value, list) and value and all(_is_number(v) for v in value)):
        c.fail("a linspace leaf's value is a flat list of numbers", where, "value")
    step_size = (value[-1] - value[0]) / max(len(value) - 1, 1)
    if any(abs(v - (value[0] + step_size * i)) > 1e-9 + 1e-6 * abs(v) for i, v in enumerate(value)):
        c.fail("a linspace leaf's value must be evenly spaced from its first element to its last",
               where, "value")


def _check_let(c: Checker, step: dict[str, Any], where: str) -> None:
    op = step["op"]
    if op not in OPS:
        c.fail(f"unknown op '{op}'", where, "op")
    spec = OPS[op]
    if spec.several != isinstance(step["let"], list):
        c.fail(f"'{op}' returns several tensors: name them in a list" if spec.several
               else f"'{op}' returns one tensor: name it", where, "let")
    c.check_operands(spec, step.get("args", []), step.get("kwargs", {}), op, where)
    if op == "split" and sum(k in step.get("kwargs", {}) for k in ("sections", "chunks", "size")) != 1:
        c.fail("'split' takes one of 'sections', 'chunks' and 'size'", where, "kwargs")


def _check_inplace(c: Checker, step: dict[str, Any], where: str) -> None:
    op = step["op"]
    if op not in IN_PLACE_OPS:
        c.fail(f"unknown in-place op '{op}'; known: {', '.join(IN_PLACE_OPS)}", where, "op")
    c.check_operands(IN_PLACE_OPS[op], step.get("args", []), step.get("kwargs", {}), op, where)


def _check_grad(c: Checker, step: dict[str, Any], where: str) -> None:
    if "into" in step and len(step["into"]) != len(step["wrt"]):
        c.fail("'into' names one result per entry of 'wrt'", where, "into")


def _check_observe(c: Checker, step: dict[str, Any], where: str) -> None:
    if (step["observe"] == "equal") != ("to" in step):
        c.fail("'to' names the tensor an 'equal' observation compares with, and only that", where, "to")


def _check_function(c: Checker, step: dict[str, Any], where: str) -> None:
    """Each body is checked with only its own names bound: the forward's inputs, then the
    saved names and the output's gradient."""
    outputs, output_grads = _as_list(step["output"]), _as_list(step["output_grad"])
    if not outputs or len(output_grads) != len(outputs) or \
            isinstance(step["output"], list) != isinstance(step["output_grad"], list):
        c.fail(f"one gradient name per output: {len(outputs)} output(s), {len(output_grads)} "
               "gradient name(s), both names or both lists", where, "output_grad")
    with c.scope([(name, "inputs") for name in step["inputs"]], where):
        c.check_steps(step["forward"], f"{where}.forward.")
        for name in outputs:
            c.use(name, where, "output")
        for held in ("save", "dirty"):
            for name in step.get(held, []):
                c.use(name, where, held)
    saved = [(name, "save") for name in step.get("save", [])]
    with c.scope([*saved, *((n, "output_grad") for n in output_grads)], where):
        c.check_steps(step["derivative"], f"{where}.derivative.")
        for name in step["input_grads"]:
            if name is not None:
                c.use(name, where, "input_grads")
    c.functions[step["function"]] = len(outputs) if isinstance(step["output"], list) else 0


def _check_apply(c: Checker, step: dict[str, Any], where: str) -> None:
    several = c.functions[step["apply"]]
    into = step["into"]
    if (len(into) if isinstance(into, list) else 0) != several:
        c.fail(f"'{step['apply']}' returns "
               + (f"{several} outputs: 'into' lists {several} names" if several
                  else "one tensor: 'into' is one name"), where, "into")


def _check_def(c: Checker, step: dict[str, Any], where: str) -> None:
    with c.scope([(name, "inputs") for name in step["inputs"]], where):
        c.check_steps(step["body"], f"{where}.body.")
        c.use(step["output"], where, "output")


def _check_optimizer(c: Checker, step: dict[str, Any], where: str) -> None:
    if "momentum" in step and step["kind"] != "momentum":
        c.fail("only a 'momentum' optimizer takes a momentum", where, "momentum")


def _check_module(c: Checker, step: dict[str, Any], where: str) -> None:
    weight = step["weight"]
    if not (isinstance(weight, list) and weight and all(
            isinstance(row, list) and row and len(row) == len(weight[0])
            and all(_is_number(v) for v in row) for row in weight)):
        c.fail("a Linear weight is a non-empty (out_features, in_features) list of rows", where,
               "weight")
    bias = step.get("bias")
    if bias is not None and not (isinstance(bias, list) and len(bias) == len(weight)
                                 and all(_is_number(v) for v in bias)):
        c.fail(f"a Linear bias is a list of out_features ({len(weight)}) numbers", where, "bias")
    count = 1 if bias is None else 2
    if "params" in step and len(step["params"]) != count:
        c.fail(f"this Linear has {count} parameter(s) (weight{', bias' * (count - 1)})", where,
               "params")


# --- the entries ---------------------------------------------------------------------------

_AUTOGRAD_COMMON = {"seeds": SEEDS, "retain_graph": BOOL_OR_NULL, "create_graph": BOOL}
_HOOK_OPTIONS = {"scale": NUMBER, "record": BOOL, "handle": NAME}
CLEAR_TO = ("none", "zeros")
_CLEARED_TO = {"to": CLEAR_TO}
_NAME_LIST_MIN_1 = {"oneOf": [{"$ref": "#/$defs/name"},
                              {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/name"}}]}
_TORCH_ONLY = {"paddle": ("",)}

STEP_KINDS: tuple[StepKind, ...] = (
    StepKind("leaf", {"leaf": NAME, "value": VALUE},
             {"dtype": DTYPE, "requires_grad": BOOL, "constructor": TEXT}, binds=("leaf",),
             about="a tensor made from data. 'constructor': torch.tensor / paddle.to_tensor "
                   "(the default), torch.Tensor(data) (float32), torch.autograd.Variable, a "
                   "parameter (torch.nn.Parameter, paddle.create_parameter with the values "
                   "assigned), or linspace (torch.linspace / paddle.linspace from the value's "
                   "first to last element, as many as it has: the value is evenly spaced)",
             choices={"constructor": ("tensor", "Tensor", "Variable", "Parameter", "linspace")},
             nouns={"constructor": "constructor"}, check=_check_leaf),
    StepKind("let", {"let": NAME_OR_NAMES, "op": TEXT, "args": ARGS}, {"kwargs": KWARGS},
             binds=("let",), check=_check_let,
             about="an op on tensors and numbers; an op with several results (split, unbind) "
                   "binds a list of names, one per result",
             schema={"op": {"enum": sorted(OPS)}}),
    StepKind("backward", {"backward": NAME_OR_NAMES},
             {**_AUTOGRAD_COMMON, "inputs": NAMES, "api": TEXT}, uses=("backward", "inputs"),
             choices={"api": ("function", "method")}, nouns={"api": "backward api"},
             lacks={"paddle": ("create_graph", "inputs")}, state_after=True,
             about="backward from the tensors: torch.autograd.backward / paddle.autograd."
                   "backward ('api': function), or the first tensor's .backward() ('method')"),
    StepKind("grad", {"grad": NAME_OR_NAMES, "wrt": NAMES},
             {**_AUTOGRAD_COMMON, "into": NAMES, "allow_unused": BOOL_OR_NULL,
              "materialize_grads": BOOL, "no_grad_vars": NAMES, "only_inputs": BOOL},
             binds=("into",), uses=("grad", "wrt", "no_grad_vars"), check=_check_grad,
             lacks={"torch": ("no_grad_vars",), "paddle": ("materialize_grads",)},
             state_after=True,
             about="the gradients of the tensors with respect to 'wrt' (torch.autograd.grad, "
                   "paddle.grad), recorded and bound to 'into'"),
    StepKind("observe", {"observe": TEXT, "of": NAME}, {"to": NAME}, uses=("of", "to"),
             choices={"observe": ("value", "grad", "flags", "grad_array", "equal")},
             nouns={"observe": "observable"}, check=_check_observe,
             about="record what a program could print of a tensor: its value, its .grad, its "
                   "flags, its gradient as a numpy array (torch's .grad.numpy(), paddle's "
                   ".gradient()), or with 'to' whether the two tensors have the same shape and "
                   "values (torch's Tensor.equal, paddle's equal_all)"),
    StepKind("clear_grad", {"clear_grad": NAME}, {"to": TEXT}, uses=("clear_grad",),
             choices=_CLEARED_TO, nouns={"to": "'to' value"},
             about="clear the tensor's .grad: to None (torch: .grad = None; paddle: "
                   "clear_gradient(False)) or to zeros"),
    StepKind("retain_grad", {"retain_grad": NAME}, uses=("retain_grad",),
             about="keep the non-leaf's gradient in its .grad (retain_grad / retain_grads)"),
    StepKind("set_requires_grad", {"set_requires_grad": NAME, "value": BOOL},
             uses=("set_requires_grad",),
             about="torch's requires_grad_(value), paddle's stop_gradient = not value"),
    StepKind("no_grad", {"no_grad": STEPS}, block="no_grad", grad_mode=False,
             about="steps run under no_grad"),
    StepKind("enable_grad", {"enable_grad": STEPS}, block="enable_grad", grad_mode=True,
             about="steps run under enable_grad"),
    StepKind("set_grad_enabled", {"set_grad_enabled": BOOL, "steps": STEPS}, block="steps",
             grad_mode="set_grad_enabled", about="steps run under set_grad_enabled(mode)"),
    StepKind("hook", {"hook": NAME}, _HOOK_OPTIONS, binds=("handle",), uses=("hook",),
             deferred=True,
             about="a tensor hook returning the gradient times 'scale' (None without one); "
                   "'record' makes it record each gradient it is handed"),
    StepKind("hold_grad", {"hold_grad": NAME, "as": NAME}, binds=("as",), uses=("hold_grad",),
             about="bind the tensor's current .grad (a tensor or None) to a name, to look at "
                   "after later steps"),
    StepKind("set_grad", {"set_grad": NAME, "from": NAME}, uses=("set_grad", "from"),
             about="assign the tensor 'from' to the .grad of 'set_grad' (torch keeps the "
                   "tensor itself, paddle copies its values)"),
    StepKind("remove_hook", {"remove_hook": NAME}, uses=("remove_hook",),
             about="remove a hook by the handle its step bound"),
    StepKind("inplace", {"inplace": NAME, "op": TEXT}, {"args": ARGS, "kwargs": KWARGS},
             uses=("inplace",), check=_check_inplace,
             about="an in-place op on the tensor (add_, mul_, zero_, fill_, exp_, an indexed "
                   "write, ...)",
             schema={"op": {"enum": sorted(IN_PLACE_OPS)}}),
    StepKind("function", {"function": NAME, "inputs": NAMES, "forward": STEPS,
                          "output": NAME_OR_NAMES, "output_grad": NAME_OR_NAMES,
                          "derivative": STEPS, "input_grads": NAMES_OR_NULLS},
             {"save": NAMES, "dirty": NAMES, "non_differentiable": BOOL,
              "materialize_grads": BOOL, "once_differentiable": BOOL},
             binds=("function",), bodies=("forward", "derivative"), check=_check_function,
             lacks={"paddle": ("dirty", "once_differentiable")},
             schema={"output": _NAME_LIST_MIN_1, "output_grad": _NAME_LIST_MIN_1},
             about="a custom function (torch.autograd.Function, paddle.autograd.PyLayer): its "
                   "forward runs 'forward' with 'inputs' bound and returns 'output', saving "
                   "'save' (save_for_backward); its backward runs 'derivative' with the saved "
                   "names and 'output_grad' bound and returns 'input_grads' (null: None; as many "
                   "as the program says, so a wrong count reaches the framework's error). Each "
                   "body sees only its own names. The context's flags: 'dirty' (mark_dirty), "
                   "'non_differentiable' (mark_non_differentiable of the output), "
                   "'materialize_grads' (set_materialize_grads), 'once_differentiable'. A list "
                   "of outputs takes one gradient name each, and 'apply' binds a list"),
    StepKind("apply", {"apply": NAME, "args": NAMES, "into": NAME_OR_NAMES}, binds=("into",),
             uses=("args",), refers={"apply": ("function",)}, check=_check_apply,
             schema={"into": _NAME_LIST_MIN_1},
             about="call a custom function defined by an earlier step (Function.apply), binding "
                   "its output to 'into'"),
    StepKind("saved_tensors_hooks", {"saved_tensors_hooks": STEPS},
             {"scale": NUMBER, "record": BOOL}, block="saved_tensors_hooks",
             about="a saved_tensors_hooks block: every tensor a node made inside saves is handed "
                   "to a pack hook (recorded with 'record') and kept; its backward gets it back "
                   "times 'scale'"),
    StepKind("inference_mode", {"inference_mode": STEPS}, block="inference_mode",
             grad_mode=False, lacks=_TORCH_ONLY,
             about="torch's inference_mode block: tensors made inside are inference tensors"),
    StepKind("node_hook", {"node_hook": NAME, "kind": TEXT}, _HOOK_OPTIONS, binds=("handle",),
             uses=("node_hook",), choices={"kind": ("pre", "post")},
             nouns={"kind": "node hook kind"}, lacks=_TORCH_ONLY, deferred=True,
             about="a hook on the node that made the tensor (torch's grad_fn.register_prehook "
                   "for 'pre', register_hook for 'post'): it scales what the node is handed or "
                   "returns, or returns None without a scale; 'record' records what it is handed"),
    StepKind("post_accumulate_hook", {"post_accumulate_hook": NAME}, _HOOK_OPTIONS,
             binds=("handle",), uses=("post_accumulate_hook",), lacks=_TORCH_ONLY, deferred=True,
             about="torch's register_post_accumulate_grad_hook: after the leaf's .grad is "
                   "accumulated, records it ('record') and scales it in place ('scale')"),
    StepKind("optimizer", {"optimizer": NAME, "kind": TEXT, "params": NAMES, "lr": NUMBER},
             {"momentum": NUMBER}, binds=("optimizer",), uses=("params",),
             choices={"kind": ("sgd", "momentum", "adam")}, nouns={"kind": "optimizer"},
             check=_check_optimizer,
             about="an optimizer over leaves or parameters: torch.optim.SGD / SGD with momentum "
                   "/ Adam, paddle.optimizer.SGD / Momentum / Adam ('momentum': the momentum "
                   "factor, default 0.9)"),
    StepKind("optimizer_step", {"optimizer_step": NAME}, refers={"optimizer_step": ("optimizer",)},
             state_after=True, about="the optimizer's step()"),
    StepKind("zero_grad", {"zero_grad": NAME}, {"to": TEXT},
             refers={"zero_grad": ("optimizer", "module")}, choices=_CLEARED_TO, nouns={"to": "'to' value"},
             about="an optimizer's zero_grad (torch: set_to_none = to == 'none'; paddle: "
                   "clear_grad(set_to_zero = to == 'zeros')) or a module's (torch "
                   "Module.zero_grad, paddle Layer.clear_gradients)"),
    StepKind("module", {"module": NAME, "kind": TEXT, "weight": VALUE},
             {"bias": VALUE, "params": NAMES}, binds=("module", "params"),
             choices={"kind": ("linear",)}, nouns={"kind": "module"}, check=_check_module,
             schema={"weight": {"type": "array", "minItems": 1, "items": {
                         "type": "array", "minItems": 1, "items": {"type": "number"}}},
                     "bias": {"type": "array", "minItems": 1, "items": {"type": "number"}},
                     "params": {"type": "array", "items": {"$ref": "#/$defs/name"}, "maxItems": 2}},
             about="a module (torch.nn.Linear, paddle.nn.Linear) with the given values: "
                   "'weight' is (out_features, in_features) as torch holds it (paddle holds its "
                   "transpose), 'bias' left out for none; 'params' binds its parameters in "
                   "parameters() order"),
    StepKind("call", {"call": NAME, "args": NAMES, "into": NAME}, binds=("into",), uses=("args",),
             refers={"call": ("module",)},
             about="call a module on tensors, binding what it returns to 'into'"),
    StepKind("def", {"def": NAME, "inputs": NAMES, "body": STEPS, "output": NAME},
             binds=("def",), bodies=("body",), check=_check_def,
             about="a plain function written as data (for the functional APIs): 'body' with "
                   "'inputs' bound, returning 'output'"),
    StepKind("functional", {"functional": TEXT, "of": NAME, "at": NAMES},
             {"v": NAMES, "create_graph": BOOL, "strict": BOOL, "batch_axis": INT},
             uses=("at", "v"), refers={"of": ("def",)},
             choices={"functional": ("jacobian", "hessian", "vjp", "jvp", "hvp", "vhp")},
             nouns={"functional": "functional API"}, state_after=True,
             lacks={"torch": ("batch_axis",), "paddle": ("v", "create_graph", "strict")},
             about="a higher-order API on a def at the tensors 'at': torch.autograd.functional's "
                   "jacobian / hessian / vjp / jvp / hvp / vhp ('v': their vectors), "
                   "paddle.autograd's jacobian / hessian (on the function's output, read out in "
                   "full); the result is recorded ('batch_axis', paddle's: the first axis of "
                   "'at' and of the output is a batch)"),
)
STEPS_BY_KEY: dict[str, StepKind] = {kind.key: kind for kind in STEP_KINDS}

# Steps that hold other steps run in place, by the field that holds them.
BLOCKS: dict[str, str] = {k.key: k.block for k in STEP_KINDS if k.block}
# Steps that hold programs of their own (a custom function's bodies, a def's).
BODIES: dict[str, tuple[str, ...]] = {k.key: k.bodies for k in STEP_KINDS if k.bodies}
# What each dialect has no API for, as (step kind, field), or (step kind, "") for the whole
# step: the adapters refuse these steps.
DIALECT_LACKS: dict[str, frozenset[tuple[str, str]]] = {
    dialect: frozenset((k.key, f) for k in STEP_KINDS for f in k.lacks.get(dialect, ()))
    for dialect in ("torch", "paddle")}
# Steps that register a hook: what it records is observed when an autograd step runs it.
DEFERRED: tuple[str, ...] = tuple(k.key for k in STEP_KINDS if k.deferred)
# Steps after which the state of every named tensor is recorded.
STATE_AFTER: tuple[str, ...] = tuple(k.key for k in STEP_KINDS if k.state_after)
# The values of the enumerated fields the rest of the project names.
OBSERVABLES = STEPS_BY_KEY["observe"].choices["observe"]
BACKWARD_APIS = STEPS_BY_KEY["backward"].choices["api"]
NODE_HOOK_KINDS = STEPS_BY_KEY["node_hook"].choices["kind"]
OPTIMIZER_KINDS = STEPS_BY_KEY["optimizer"].choices["kind"]
MODULE_KINDS = STEPS_BY_KEY["module"].choices["kind"]
LEAF_CONSTRUCTORS = STEPS_BY_KEY["leaf"].choices["constructor"]
FUNCTIONAL_APIS = STEPS_BY_KEY["functional"].choices["functional"]


def kind_of(step: dict[str, Any]) -> str:
    """The kind of a validated step ('' for something that is not one)."""
    return next((k for k in step if k in STEPS_BY_KEY), "")


def block_mode(step: dict[str, Any], enclosing: bool) -> bool:
    """Whether gradients are recorded inside a block step, given the mode around it."""
    mode = STEPS_BY_KEY[kind_of(step)].grad_mode
    if mode is None:
        return enclosing
    return bool(step[mode]) if isinstance(mode, str) else mode


def choice_problem(kind: StepKind, key: str, value: Any) -> Optional[str]:
    """Why ``value`` is not one of the values ``kind`` allows at ``key`` (None when it is)."""
    allowed = kind.choices[key]
    if value in allowed:
        return None
    return f"unknown {kind.nouns.get(key, key)} '{value}'; expected one of {', '.join(allowed)}"
