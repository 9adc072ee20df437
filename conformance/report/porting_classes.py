"""The porting guide's table: every torch ↔ paddle difference the corpus shows, by root cause.

One entry per class, keyed by a stable id: its topic, a plain title, a one-sentence explanation,
what to write "when porting", the finding causes it explains (``conformance.judge.causes``, each
queried by a ``Match``; the first class with a matching one wins, so the more specific ones come
first), the rows of the measured semantics table it is, and a pair of programs: the
``original`` in one framework and its ``rewrite`` in the other, which prints the same
(``tests/test_porting_guide.py`` runs both). A step one framework has no API for is in
``NO_COUNTERPART`` instead, once.

The programs are Python files ruff checks like the rest of the code:
``porting_programs/<dialect>/<key>.py`` (the key's dashes as underscores).

Programs print plain Python values (lists, booleans, exception class names), never a framework's
tensor repr, so the two frameworks' outputs compare as text.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

from conformance.judge.cause_match import ANY_ERROR, Match
from conformance.judge.causes import Cause

TOPICS = {
    "seeds": ("Seed gradients",
              "What `backward` and `grad` use as the gradient of the outputs when you give none, "
              "or give one of the wrong shape, count or type."),
    "accumulation": ("Accumulation, clearing and the .grad field",
                     "How `.grad` is filled, what it holds afterwards, and what clearing it does."),
    "retain_graph": ("retain_graph and freed graphs",
                     "What a backward pass frees, and which second pass fails."),
    "unused": ("allow_unused and inputs the outputs do not depend on",
               "Inputs that are not in the graph, do not require grad, or appear twice."),
    "create_graph": ("create_graph and higher order",
                     "Gradients that are themselves differentiable, and their flags."),
    "hooks": ("Hooks and retain_grad",
              "Which hooks run, what they receive, and how retained gradients behave."),
    "modes": ("Grad modes, views and detach",
              "no_grad, views made under it, and detaching."),
    "inplace": ("In-place operations and versions",
                "Writing into tensors the graph uses, and the version checks that catch it."),
    "custom": ("Custom functions (autograd.Function / PyLayer)",
               "What a custom backward must return, and the flags of its outputs."),
    "functional": ("The functional API",
                   "`torch.autograd.functional` and `paddle.autograd`'s jacobian and hessian."),
    "modules": ("Optimizers and modules", "Parameters of layers and what optimizers see."),
    "ops": ("Operations and dtypes", "Operations that accept or refuse different inputs."),
    "errors": ("Errors", "Both frameworks refuse the program, with another exception class or "
                         "for another reason first: code that catches one must catch the other."),
}


DIALECTS = ("torch", "paddle")


def porting_program(key: str, dialect: str) -> str:
    """The text of an entry's program in ``dialect``."""
    name = key.replace("-", "_") + ".py"
    return (resources.files("conformance.report") / "porting_programs" / dialect / name).read_text(
        encoding="utf-8")


class _Pair:
    """An entry's two programs: ``original`` in its source dialect, ``rewrite`` in the other."""

    key: str

    @property
    def source_dialect(self) -> str:
        raise NotImplementedError

    @property
    def original(self) -> str:
        return porting_program(self.key, self.source_dialect)

    @property
    def rewrite(self) -> str:
        return porting_program(self.key, next(d for d in DIALECTS if d != self.source_dialect))


@dataclass(frozen=True)
class PortingClass(_Pair):
    """One root cause of torch ↔ paddle differences, with what to write instead."""

    key: str
    topic: str
    title: str
    explanation: str
    porting: str
    explains: tuple[Match, ...]
    source: str = "torch"          # the dialect of ``original``; ``rewrite`` is the other
    documented: tuple[str, ...] = ()  # rows of the measured semantics table (``SEMANTICS_ROWS``)

    @property
    def source_dialect(self) -> str:
        return self.source

    def explains_cause(self, cause: Cause) -> bool:
        """Whether one of the class's matches matches ``cause``."""
        return any(m.matches(cause) for m in self.explains)


@dataclass(frozen=True)
class NoCounterpart(_Pair):
    """An API one framework has and the other lacks: listed once, with what to use instead."""

    key: str
    dialect: str                   # the framework that has it
    api: str
    lacked: tuple[str, str]        # its ``(step kind, field)`` in ``DIALECT_LACKS``
    instead: str
    documented: tuple[str, ...] = ()

    @property
    def source_dialect(self) -> str:
        return self.dialect


# The documented differences of the measured semantics table (a row each): every one is some
# class's or some missing API's ``documented``.
SEMANTICS_ROWS = (
    "Seed gradients: no seed, non-scalar output",
    "Seed gradients: None entry in a seed list",
    "Seed gradients: seed of wrong shape",
    "Seed gradients: seed not a tensor",
    "Seed gradients: seed count ≠ outputs",
    "Seed gradients: same tensor twice in outputs",
    "Seed gradients: same tensor twice in grad inputs",
    "retain_graph: torch frees only nodes that saved tensors; paddle's backward frees every node",
    "retain_graph: paddle.grad runs on a copy of the graph and frees nothing",
    "retain_graph: the second pass's error (RuntimeError / SystemError)",
    "create_graph: flags of returned gradients (torch: only when they depend on an input)",
    "create_graph: backward(create_graph=True) is torch only",
    "Unused: grad input not in the graph, allow_unused False",
    "Unused: materialize_grads=True",
    "Unused: grad input that does not require grad",
    "Unused: output that does not require grad",
    "Unused: grad(y, []) / grad([], x)",
    "Unused: backward inputs=[…] (torch only)",
    "Unused: no_grad_vars (paddle only)",
    "Unused: only_inputs=False",
    "Accumulation: torch updates the same .grad object in place; paddle hands out a new wrapper",
    "Accumulation: non-leaf .grad after backward (torch warns)",
    "Accumulation: retain_grad() / retain_grads()",
    "Accumulation: clearing (None in torch, zeros with clear_grad in paddle)",
    "Accumulation: x.grad's flag",
    "Accumulation: changing the flag after the forward",
    "Accumulation: torch refuses to change a non-leaf's flag",
    "Accumulation: leaf grad_fn (None / GradNodeAccumulation)",
    "dtypes: integer tensors requiring grad",
    "Hooks: leaf hook and grad()",
    "In-place: in-place on a leaf requiring grad",
    "In-place: saved tensor modified in place",
)


# Where a gradient is printed: a retained or held .grad, a hook's argument, a custom backward's.
GRADIENT_PLACES = ({"step": "observe", "detail": "grad"}, {"step": "observe", "detail": "value"},
                   {"step": "hook"}, {"body": "derivative"})
# A step's own observation: at the top level, of no special tensor, not run by an autograd step.
OWN_OBSERVATION = {"step": "observe", "body": "", "role": "", "within": ""}
# The flags paddle sets where torch does not (sides read torch first).
PADDLE_REQUIRES_GRAD = {"requires_grad": (False, True)}
PADDLE_GRAD_FN = {"has_grad_fn": (False, True)}
PADDLE_GRAD_FLAGS = {**PADDLE_REQUIRES_GRAD, **PADDLE_GRAD_FN}


# The order is the matching order: a finding takes the first class with a matching pattern.
CLASSES: tuple[PortingClass, ...] = (
    # --- seeds -------------------------------------------------------------------------------
    PortingClass(
        key="implicit-seed", topic="seeds",
        title="paddle fills a missing seed with ones for an output of any shape; torch only for "
              "one-element outputs",
        explanation="Without a gradient for a non-scalar output (no seed, or None in a seed list) "
                    "torch raises 'grad can be implicitly created only for scalar outputs', while "
                    "paddle uses ones of the output's shape.",
        porting="In torch, pass the ones paddle fills in: `y.backward(torch.ones_like(y))`, "
                "`torch.autograd.grad(y, x, torch.ones_like(y))`, a `torch.ones_like(y)` for each "
                "None entry.",
        explains=(Match(torch="error:implicit-seed"),),
        source="paddle",
        documented=("Seed gradients: no seed, non-scalar output",
                    "Seed gradients: None entry in a seed list")),
    PortingClass(
        key="seed-shape-error", topic="seeds",
        title="A seed of the wrong shape: torch raises RuntimeError, paddle's Tensor.backward "
              "AssertionError, and paddle's other APIs take it",
        explanation="torch refuses a seed whose shape is not the output's ('Mismatch in shape'); "
                    "paddle's Tensor.backward refuses it with AssertionError ('Tensor shape not "
                    "match'), while paddle.autograd.backward and paddle.grad do not check (a [1] "
                    "seed for a 0-d output is taken).",
        porting="Give seeds the output's shape (`g.reshape(y.shape)`) in both; code that catches "
                "the error must catch AssertionError in paddle.",
        explains=(
            Match(aspect="raised", category="seed-shape", raised=("RuntimeError", "AssertionError")),
            Match(torch="error:seed-shape"),
        ),
        documented=("Seed gradients: seed of wrong shape",)),
    PortingClass(
        key="seed-count", topic="seeds",
        title="The number of seeds must match the outputs in paddle; torch ignores extra seeds",
        explanation="With more seeds than outputs torch uses the first ones and paddle raises "
                    "AssertionError; with fewer, torch raises RuntimeError ('got 2 tensors and 1 "
                    "gradients') and paddle AssertionError ('The length of grad_tensors must be "
                    "equal to tensors').",
        porting="In paddle, pass exactly one seed per output (drop the ones torch ignored), and "
                "catch AssertionError where torch code catches RuntimeError.",
        explains=(
            Match(aspect="raised", category="seed-count"),
            Match(paddle="error:seed-count"),
            Match(torch="error:seed-count"),
        ),
        documented=("Seed gradients: seed count ≠ outputs",)),
    PortingClass(
        key="seed-type", topic="seeds",
        title="A seed that is not a tensor: torch raises TypeError, paddle AssertionError",
        explanation="A number or a list as a seed is refused by both: torch with TypeError "
                    "'gradients can be either Tensors or None', paddle with AssertionError.",
        porting="Wrap the seed in a tensor (`paddle.to_tensor(2.0)`) or catch AssertionError in "
                "paddle where torch code catches TypeError.",
        explains=(Match(aspect="raised", category="seed-type"), Match(torch="error:seed-type")),
        documented=("Seed gradients: seed not a tensor",)),
    # --- accumulation ------------------------------------------------------------------------
    PortingClass(
        key="grad-is-the-seed", topic="accumulation",
        title="paddle's .grad can be the seed tensor itself, with that tensor's grad_fn",
        explanation="Where the gradient reaching a leaf is the seed unchanged (a backward on the "
                    "leaf itself), paddle stores the seed tensor you passed as .grad, sharing its "
                    "storage and node; torch's .grad is a new tensor without a grad_fn.",
        porting="In paddle, copy before keeping or writing it: `g = x.grad.clone().detach()`; "
                "never write into a seed you will read as .grad.",
        explains=tuple(Match(**where, flags=PADDLE_GRAD_FLAGS) for where in GRADIENT_PLACES),
        documented=("Accumulation: torch updates the same .grad object in place; paddle hands "
                    "out a new wrapper",)),
    PortingClass(
        key="grad-flag", topic="accumulation",
        title="paddle's .grad, and the gradients hooks receive, have stop_gradient=False; torch's "
              "do not require grad",
        explanation="After backward torch's x.grad.requires_grad is False; paddle's "
                    "x.grad.stop_gradient is False, so the gradient reads as one that requires "
                    "grad (the same holds for the gradient a tensor hook is given).",
        porting="In paddle, detach the gradient before using it as data: `g = x.grad.detach()`; "
                "do not test `x.grad.stop_gradient` to learn whether a graph was built.",
        explains=(
            *(Match(**where, flags=PADDLE_REQUIRES_GRAD) for where in GRADIENT_PLACES),
            Match(step="saved_tensors_hooks", flags={"requires_grad": (True, False)}),
        ),
        documented=("Accumulation: x.grad's flag",)),
    PortingClass(
        key="leaf-grad-fn", topic="accumulation",
        title="paddle's tensors made by to_tensor have a grad_fn (GradNodeAccumulation); torch's "
              "leaves have none",
        explanation="`x.grad_fn` is None for every torch leaf, but a GradNodeAccumulation node for "
                    "a paddle tensor from to_tensor, whether or not it requires grad (a hook "
                    "handed such a seed sees its node too), so `grad_fn is None` does not tell "
                    "a leaf in paddle.",
        porting="In paddle, test `x.is_leaf` instead of `x.grad_fn is None`.",
        explains=(
            Match(step="observe", detail="flags", flags=PADDLE_GRAD_FN),
            Match(step="observe", detail="value", flags=PADDLE_GRAD_FN),
            Match(step="saved_tensors_hooks", flags=PADDLE_GRAD_FN),
            Match(step="hook", flags=PADDLE_GRAD_FN),
        ),
        documented=("Accumulation: leaf grad_fn (None / GradNodeAccumulation)",)),
    PortingClass(
        key="non-leaf-grad-warning", topic="accumulation",
        title="Reading .grad of a non-leaf warns in torch; paddle returns None silently",
        explanation="Both return None for a non-leaf that did not retain its gradient; torch "
                    "also raises a UserWarning ('The .grad attribute of a Tensor that is not a "
                    "leaf Tensor is being accessed').",
        porting="Nothing to change in paddle; in torch, call `y.retain_grad()` before backward "
                "if you read `y.grad`, or check `y.is_leaf` first.",
        explains=(Match(aspect="warnings", torch="warning:non-leaf-grad-access", paddle="nothing"),),
        source="paddle",
        documented=("Accumulation: non-leaf .grad after backward (torch warns)",)),
    PortingClass(
        key="gradient-method-deprecated", topic="accumulation",
        title="paddle's Tensor.gradient() warns that it is deprecated",
        explanation="`x.gradient()` (the .grad as a numpy array) still works in paddle 3.3.1 but "
                    "raises a VisibleDeprecationWarning; torch's counterpart is "
                    "`x.grad.numpy()`.",
        porting="In paddle, write `x.grad.numpy()`, as in torch.",
        explains=(
            Match(step="observe", detail="grad_array", aspect="warnings", torch="nothing",
                  paddle="warning:deprecated"),
        ),
    ),
    PortingClass(
        key="held-grad", topic="accumulation",
        title="A reference to .grad kept across clearing or accumulation sees other values",
        explanation="torch accumulates into the same .grad tensor in place and `x.grad = None` "
                    "leaves a kept reference alone; paddle's clear_grad() writes zeros into the "
                    "storage a kept reference shares, and its `x.grad = None` empties it.",
        porting="Keep a copy, not a reference: `held = x.grad.clone()` in both frameworks.",
        explains=(
            Match(step="observe", detail="value", role="a held .grad", within=""),
            Match(step="observe", detail="value", role="an assigned .grad", within=""),
        ),
        documented=("Accumulation: clearing (None in torch, zeros with clear_grad in paddle)",)),
    PortingClass(
        key="retained-grad-overwritten", topic="hooks",
        title="A retained non-leaf gradient accumulates across backward calls in torch; paddle "
              "keeps only the last",
        explanation="After two backward passes through y, torch's y.grad (retain_grad) is the sum "
                    "of both, like a leaf's; paddle's (retain_grads) holds the second pass's "
                    "gradient only.",
        porting="In paddle, add the passes yourself: keep `total = y.grad.clone()` after the "
                "first and add each later `y.grad`.",
        explains=(Match(**OWN_OBSERVATION, detail="grad", aspect="values"),),
        documented=("Accumulation: retain_grad() / retain_grads()",)),
    PortingClass(
        key="flag-after-forward", topic="accumulation",
        title="Turning requires_grad off after the forward: torch stops accumulating into the "
              "leaf, paddle still accumulates",
        explanation="`x.requires_grad_(False)` after the graph was built makes torch leave x.grad "
                    "None; paddle's `x.stop_gradient = True` does not change the recorded graph, "
                    "so x.grad is filled.",
        porting="In paddle, leave the tensor out of the backward instead: compute with "
                "`x.detach()`, or clear its gradient after the backward.",
        explains=(Match(step="observe", detail="grad", torch="none", paddle="tensor"),),
        documented=("Accumulation: changing the flag after the forward",)),
    PortingClass(
        key="non-leaf-flag", topic="accumulation",
        title="torch refuses to change requires_grad of a non-leaf; paddle changes stop_gradient",
        explanation="`y.requires_grad_(False)` on a tensor an op made raises RuntimeError in "
                    "torch ('you can only change requires_grad flags of leaf variables'); paddle "
                    "sets `y.stop_gradient = True`.",
        porting="In torch, take `y = y.detach()` where paddle code sets a non-leaf's "
                "stop_gradient.",
        explains=(
            Match(step="set_requires_grad", torch="error:non-leaf-flag"),
            Match(step="observe", detail="flags", flags={"requires_grad": (True, False)}),
        ),
        source="paddle",
        documented=("Accumulation: torch refuses to change a non-leaf's flag",)),
    # --- retain_graph ------------------------------------------------------------------------
    PortingClass(
        key="grad-frees-nothing", topic="retain_graph",
        title="paddle.grad frees nothing: a second pass after it works in paddle and fails in "
              "torch",
        explanation="torch's autograd.grad frees the saved tensors it used, like backward; "
                    "paddle.grad runs on a copy of the graph, so a later grad or backward through "
                    "the same graph succeeds.",
        porting="In torch, pass `retain_graph=True` to every grad call that paddle code follows "
                "with another pass.",
        explains=(Match(torch="error:freed-graph"),),
        source="paddle",
        documented=("retain_graph: paddle.grad runs on a copy of the graph and frees nothing",)),
    PortingClass(
        key="backward-frees-every-node", topic="retain_graph",
        title="paddle's backward frees every node it ran; torch frees only saved tensors, so a "
              "graph that saved none runs again",
        explanation="A second backward through `(x + 1).sum()` works in torch (nothing was saved "
                    "to free) and raises SystemError in paddle ('The TensorWrappers of … do not "
                    "exist').",
        porting="In paddle, pass `retain_graph=True` to the first backward whenever the graph is "
                "run again, saved tensors or not.",
        explains=(Match(paddle="error:freed-graph"),),
        documented=("retain_graph: torch frees only nodes that saved tensors; paddle's backward "
                    "frees every node",)),
    PortingClass(
        key="freed-graph-error", topic="retain_graph",
        title="A second pass through a freed graph: torch raises RuntimeError, paddle SystemError",
        explanation="Both refuse to run a graph a backward already freed: torch with RuntimeError "
                    "'Trying to backward through the graph a second time', paddle with "
                    "SystemError '(Fatal) The TensorWrappers of … do not exist'.",
        porting="Pass `retain_graph=True` to the first pass; code that catches the error must "
                "catch SystemError in paddle.",
        explains=(Match(aspect="raised", category="freed-graph"),),
        documented=("retain_graph: the second pass's error (RuntimeError / SystemError)",)),
    # --- unused inputs -----------------------------------------------------------------------
    PortingClass(
        key="unused-input-error", topic="unused",
        title="An input the outputs do not depend on: torch raises RuntimeError, paddle "
              "ValueError",
        explanation="Without allow_unused both refuse an input that is not in the graph: torch "
                    "with RuntimeError ('appears to not have been used in the graph'), paddle "
                    "with ValueError ('does not appear in the backward graph').",
        porting="Pass `allow_unused=True` and test for None, in both; code that catches the "
                "error must catch ValueError in paddle.",
        explains=(Match(aspect="raised", category="unused-input"),),
        documented=("Unused: grad input not in the graph, allow_unused False",)),
    PortingClass(
        key="check-order", topic="errors",
        title="A call with two faults: torch and paddle report different ones",
        explanation="torch and paddle check an input outside the graph, a saved tensor written in "
                    "place, a duplicate input and a custom backward's result in different orders, "
                    "so the same faulty call raises another error (and another class) in each.",
        porting="Fix every fault; code that inspects the error must accept either framework's "
                "class and message (catch `(RuntimeError, ValueError)` in paddle).",
        explains=(
            Match(torch="error:unused-input", paddle=ANY_ERROR),
            Match(torch="error:version-counter", paddle=ANY_ERROR),
        ),
    ),
    PortingClass(
        key="input-no-grad", topic="unused",
        title="grad() with respect to a tensor that does not require grad: torch refuses, paddle "
              "treats it as unused",
        explanation="torch raises 'One of the differentiated Tensors does not require grad' even "
                    "with allow_unused; paddle gives None with allow_unused and its unused-input "
                    "ValueError without.",
        porting="In torch, leave such tensors out of the inputs (or give them requires_grad) and "
                "put None in their place yourself.",
        explains=(Match(torch="error:input-no-grad"), Match(aspect="raised", category="input-no-grad")),
        source="paddle",
        documented=("Unused: grad input that does not require grad",)),
    PortingClass(
        key="output-no-grad-backward", topic="unused",
        title="backward on an output that does not require grad: torch raises, paddle does "
              "nothing",
        explanation="torch raises 'element 0 of tensors does not require grad and does not have "
                    "a grad_fn'; paddle's backward returns silently and no .grad changes.",
        porting="In torch, skip the call when `not y.requires_grad` where paddle code relies on "
                "the silent no-op.",
        explains=(Match(step="backward", torch="error:output-no-grad", paddle="nothing"),),
        source="paddle",
        documented=("Unused: output that does not require grad",)),
    PortingClass(
        key="output-no-grad-grad", topic="unused",
        title="grad() of an output that does not require grad: torch raises, paddle returns None "
              "(with allow_unused) or its unused-input error",
        explanation="A derivative that is constant (the gradient of a linear function, taken with "
                    "create_graph) has no graph: differentiating it again raises in torch even "
                    "with allow_unused, and gives None in paddle.",
        porting="In torch, check `g.requires_grad` (or `g.grad_fn`) before differentiating a "
                "gradient again, and use None (zeros) when it is False.",
        explains=(Match(step="grad", torch="error:output-no-grad"),),
        source="paddle",
        documented=("Unused: output that does not require grad",
                    "create_graph: flags of returned gradients (torch: only when they depend on an "
                    "input)")),
    PortingClass(
        key="duplicates", topic="unused",
        title="The same tensor twice among grad's inputs or backward's outputs: torch allows it, "
              "paddle refuses",
        explanation="torch gives each listed copy its gradient (and adds the seeds of a repeated "
                    "output); paddle raises AlreadyExists ('inputs contain duplicate tensor') or "
                    "an AssertionError for backward's tensors.",
        porting="In paddle, list each tensor once and copy its result: "
                "`g, = paddle.grad([y], [x]); gx1 = gx2 = g`.",
        explains=(Match(paddle="error:duplicate"),),
        documented=("Seed gradients: same tensor twice in outputs",
                    "Seed gradients: same tensor twice in grad inputs")),
    PortingClass(
        key="empty-list", topic="unused",
        title="grad() with no inputs or no outputs: torch raises RuntimeError, paddle "
              "AssertionError",
        explanation="Both refuse an empty list: torch with RuntimeError ('`inputs` argument to "
                    "`grad()` cannot be empty'), paddle with AssertionError ('inputs cannot be "
                    "empty').",
        porting="Check for an empty list before the call; code that catches the error must "
                "catch AssertionError in paddle.",
        explains=(Match(aspect="raised", category="empty-list"), Match(torch="error:empty-list")),
        documented=("Unused: grad(y, []) / grad([], x)",)),
    PortingClass(
        key="only-inputs", topic="unused",
        title="only_inputs: torch warns that it is deprecated and ignores it; paddle refuses "
              "False",
        explanation="torch raises a FutureWarning for any only_inputs and computes as if it were "
                    "True; paddle accepts only_inputs=True silently and raises AssertionError "
                    "('only_inputs=False is not supported yet') for False.",
        porting="Leave only_inputs out, in both frameworks: it changes nothing in torch and "
                "cannot be False in paddle.",
        explains=(
            Match(step="grad", aspect="warnings", torch="warning:only-inputs", paddle="nothing"),
            Match(torch=("list", "warning:only-inputs"), paddle="error:only-inputs"),
        ),
        documented=("Unused: only_inputs=False",)),
    PortingClass(
        key="unreached-output-hook", topic="hooks",
        title="A hook on an output no gradient reaches: torch calls it with None, paddle with "
              "zeros (or not at all)",
        explanation="For a piece of a multi-output op (unbind, split, max's indices) that the loss "
                    "does not use, torch runs its hook with None; paddle runs it with a zero "
                    "tensor, or does not run it.",
        porting="In hooks, treat None and all-zero gradients alike: `if g is None or not "
                "g.any(): …`.",
        explains=(
            Match(step="hook", torch="none", paddle="tensor"),
            Match(step="hook", torch="none", paddle="nothing"),
        ),
    ),
    # --- create_graph ------------------------------------------------------------------------
    PortingClass(
        key="create-graph-flags", topic="create_graph",
        title="With create_graph, paddle's gradients always require grad; torch's only when they "
              "depend on an input",
        explanation="paddle.grad(…, create_graph=True) returns gradients with stop_gradient=False "
                    "and a grad_fn even when they are constant (the derivative of a linear "
                    "function); torch's constant gradients do not require grad and have no "
                    "grad_fn.",
        porting="Do not infer from the flag whether a gradient is constant; in torch, expect "
                "`requires_grad=False` for the derivative of a linear function.",
        explains=(
            Match(step="grad", in_results=True, flags=PADDLE_REQUIRES_GRAD, more_flags=True),
            Match(step="observe", detail="flags", flags={**PADDLE_GRAD_FLAGS, "is_leaf": (True, False)}),
        ),
        source="paddle",
        documented=("create_graph: flags of returned gradients (torch: only when they depend on an "
                    "input)",)),
    PortingClass(
        key="create-graph-leaf-gradient", topic="create_graph",
        title="With create_graph, a gradient that is an input's own seed has a grad_fn in torch "
              "and none in paddle",
        explanation="torch records the copy it makes of a gradient passed through unchanged, so "
                    "the result has a grad_fn; paddle returns a tensor that requires grad without "
                    "one.",
        porting="Test `requires_grad` (torch) / `not stop_gradient` (paddle), not `grad_fn`, to "
                "learn whether a create_graph gradient can be differentiated.",
        explains=(Match(step="grad", in_results=True, flags={"has_grad_fn": (True, False)}),),
    ),
    PortingClass(
        key="no-double-grad", topic="create_graph",
        title="paddle has no higher-order kernel for some ops that torch differentiates to any "
              "order",
        explanation="paddle 3.3.1 raises \"doesn't have any grad op\" for the second derivative of "
                    "softmax, log_softmax, max/min and elementwise pow, past the second for "
                    "divide and sqrt and past the third for sin, cos, sigmoid and pow with a "
                    "number exponent.",
        porting="In paddle, write the op from ones that have the kernels (`exp(x) / "
                "exp(x).sum()` for softmax, `exp(y * log(x))` for `x ** y`) before taking higher "
                "derivatives.",
        explains=(Match(paddle="error:no-double-grad"),),
    ),
    PortingClass(
        key="second-order-zeros-in-paddle", topic="create_graph",
        title="Higher order: paddle's backward kernels connect inputs torch's do not (zeros for "
              "None, hooks that run)",
        explanation="paddle's multiply, divide and matmul backward kernels read both operands, so "
                    "differentiating a gradient again reaches an input torch's graph does not "
                    "connect: paddle returns zeros where torch says the input is unused (None), "
                    "and runs the hooks it passes on the way.",
        porting="Treat None and zeros alike when reading such gradients: "
                "`g = torch.zeros_like(x) if g is None else g` in torch.",
        explains=(
            Match(step="grad", in_results=True, torch="none", paddle="tensor"),
            Match(step="hook", within="grad", torch="nothing", paddle="tensor"),
        ),
        source="paddle",
    ),
    PortingClass(
        key="second-order-zeros-in-torch", topic="create_graph",
        title="An input reached only through relu's or abs's backward: torch's gradient is "
              "zeros, paddle's None",
        explanation="torch's relu and abs backward kernels read their input, so a gradient of "
                    "their gradient is zeros; paddle's do not connect it, and say the input is "
                    "unused (None).",
        porting="Treat None and zeros alike: `g = paddle.zeros_like(x) if g is None else g` in "
                "paddle. (torch's zeros here are a storage-less zero tensor: `h.tolist()` "
                "refuses it, `(h + 0).tolist()` works.)",
        explains=(
            Match(step="grad", in_results=True, torch="tensor", paddle="none"),
            Match(step="observe", detail="grad", torch="tensor", paddle="none"),
        ),
    ),
    # --- hooks -------------------------------------------------------------------------------
    PortingClass(
        key="leaf-hook-in-grad", topic="hooks",
        title="paddle.grad does not run hooks registered on a leaf; torch.autograd.grad does",
        explanation="A hook on a leaf input runs, and changes the returned gradient, in torch's "
                    "grad(); paddle's grad() neither calls it nor applies its result (backward "
                    "runs it in both).",
        porting="In paddle, apply the hook to the result yourself: `g = hook(paddle.grad([y], "
                "[x])[0])`.",
        explains=(
            Match(step="hook", within="grad", torch="tensor", paddle="nothing"),
            Match(step="hook", aspect="more in torch", torch="tensor"),
            Match(step="grad", in_results=True, aspect="values"),
        ),
        documented=("Hooks: leaf hook and grad()",)),
    PortingClass(
        key="saved-tensors-hooks", topic="hooks",
        title="saved_tensors_hooks see the tensors each framework's kernels save, and those are "
              "not the same",
        explanation="A pack hook is called for every tensor an op saves for its backward; torch "
                    "and paddle kernels save different tensors (an input or the output, a "
                    "broadcast copy), so the hooks see other tensors, shapes and counts.",
        porting="Do not depend on which tensors are packed: make pack/unpack hooks work on any "
                "tensor (the identity, a copy, an offload), in both frameworks.",
        explains=(
            Match(step="saved_tensors_hooks", aspect="shape"),
            Match(step="saved_tensors_hooks", aspect="values"),
            Match(step="saved_tensors_hooks", aspect="kinds"),
        ),
    ),
    PortingClass(
        key="unpacked-view-layout", topic="hooks",
        title="paddle reads an unpacked saved view with the view's own offset and strides",
        explanation="When a saved tensor is a view (a piece of unbind past the first, a slice, a "
                    "transpose), paddle keeps its offset and strides and reads them from the "
                    "memory the unpack hook returned: a new tensor is too small for the offset "
                    "(an InvalidArgument error) or is read in the wrong order; torch uses the "
                    "unpacked tensor as it is.",
        porting="In paddle, have the op save a tensor of its own (apply it to `view.clone()`), or "
                "let the unpack hook return the packed tensor itself.",
        explains=(Match(paddle="error:unpacked-view-layout"),),
    ),
    PortingClass(
        key="view-remade-without-grad", topic="hooks",
        title="A view of a leaf that stopped requiring grad and was then written: torch's "
              "backward through it reaches nothing, paddle's reaches the leaf's hook",
        explanation="torch makes a view's node anew once its base was written, from the base as "
                    "it is then: a base that requires grad no more has no node, so nothing "
                    "flows and the leaf's hook does not run; paddle's view keeps its node and "
                    "runs the hook.",
        porting="In paddle, detach such a view (or leave out the backward through it): in torch "
                "it reaches nothing.",
        explains=(Match(step="hook", within="backward", torch="nothing", paddle="tensor"),),
    ),
    PortingClass(
        key="function-output-hook", topic="hooks",
        title="A hook on a custom function's output: torch applies it before the function's "
              "backward, paddle does not",
        explanation="torch runs a tensor hook on the output of an autograd.Function before "
                    "calling the function's backward with the hooked gradient; paddle calls the "
                    "PyLayer's backward with the unhooked gradient.",
        porting="In paddle, apply the hook inside the PyLayer's backward (scale the incoming "
                "gradient there).",
        explains=(Match(body="derivative", aspect="values"),),
    ),
    PortingClass(
        key="retain-grad-no-grad", topic="hooks",
        title="retain_grad on a tensor that does not require grad: torch raises, paddle's "
              "retain_grads does nothing",
        explanation="torch raises RuntimeError \"can't retain_grad on Tensor that has "
                    "requires_grad=False\"; paddle's retain_grads() returns and .grad stays None.",
        porting="In torch, call retain_grad() only when `t.requires_grad`.",
        explains=(Match(step="retain_grad", torch="error:retain-no-grad"),),
        source="paddle",
        documented=("Accumulation: retain_grad() / retain_grads()",)),
    # --- modes, views, in-place --------------------------------------------------------------
    PortingClass(
        key="no-grad-view-in-place", topic="modes",
        title="Writing in place into a view made under no_grad: torch refuses once grad mode is "
              "on, paddle allows it",
        explanation="torch raises 'A view was created in no_grad mode and is being modified "
                    "inplace with grad mode enabled'; paddle writes through to the base.",
        porting="In torch, do the write under `torch.no_grad()` too, or make the view outside "
                "no_grad.",
        explains=(Match(torch="error:no-grad-view-in-place"),),
        source="paddle",
    ),
    PortingClass(
        key="detach-view", topic="modes",
        title="detach_() on a view: torch refuses, paddle detaches it",
        explanation="torch raises \"Can't detach views in-place. Use detach() instead\"; paddle's "
                    "detach_() detaches the view.",
        porting="Use `v = v.detach()` in both frameworks.",
        explains=(Match(torch="error:detach-view"),),
        source="paddle",
    ),
    PortingClass(
        key="leaf-in-place-error", topic="inplace",
        title="In-place on a leaf that requires grad: torch raises RuntimeError, paddle "
              "ValueError",
        explanation="Both refuse: torch with RuntimeError ('a leaf Variable that requires grad is "
                    "being used in an in-place operation') and the leaf unchanged, paddle with "
                    "ValueError ('Leaf Var … that doesn't stop gradient can't use inplace "
                    "strategy') after it has written the new values into the leaf.",
        porting="Write into leaves under `no_grad()` in both; in paddle, test `x.is_leaf and not "
                "x.stop_gradient` before writing instead of catching the error, which comes too "
                "late.",
        explains=(Match(aspect="raised", category="leaf-in-place"),),
        documented=("In-place: in-place on a leaf requiring grad",)),
    PortingClass(
        key="leaf-moved-into-graph", topic="inplace",
        title="A recorded in-place write into a leaf after requires_grad_(False): torch refuses "
              "the next backward that reaches the leaf, paddle still fills its .grad",
        explanation="Writing a tensor that requires grad into a leaf whose flag was turned off "
                    "gives the leaf a grad_fn. A backward that reaches the leaf's old "
                    "accumulation node then fails in torch ('leaf variable has been moved into "
                    "the graph interior', and the hooks registered on the leaf before run "
                    "nowhere); paddle accumulates into the tensor's .grad as before.",
        porting="Write into the leaf under `no_grad()` in both (the write is then not recorded), "
                "and clear paddle's gradient of a tensor it should not fill.",
        explains=(Match(torch="error:leaf-moved-into-graph", paddle="nothing"),),
    ),
    PortingClass(
        key="leaf-view-in-place", topic="inplace",
        title="In-place on a view of a leaf that requires grad: torch refuses, paddle writes",
        explanation="torch refuses writes into a view of such a leaf ('a view of a leaf Variable "
                    "that requires grad is being used in an in-place operation'); paddle refuses "
                    "only the leaf itself.",
        porting="In torch, write under `torch.no_grad()` or into a clone.",
        explains=(Match(torch="error:leaf-in-place"),),
        source="paddle",
    ),
    PortingClass(
        key="partial-overlap", topic="inplace",
        title="torch refuses an in-place write whose operand is the written memory in another "
              "layout; paddle writes it",
        explanation="torch checks the operands of an in-place op: one that lies in the written "
                    "tensor's memory with other strides (a transposed view, or a reshape whose "
                    "dimensions of size 1 are strided otherwise) raises 'some elements of the "
                    "input tensor and the written-to tensor refer to a single memory location'; "
                    "paddle checks nothing and reads the operand as the kernel goes.",
        porting="In torch, clone the operand that shares the written memory: "
                "`y.add_(x.clone())`.",
        explains=(Match(torch="error:partial-overlap-write"),),
        source="paddle",
    ),
    PortingClass(
        key="expand-copies", topic="inplace",
        title="expand is a view in torch and a copy in paddle: a write through it reaches the "
              "input only in torch",
        explanation="torch's expand shares the input's storage, so zero_() on the expanded "
                    "tensor (under no_grad) zeroes the input too, and with grad on torch refuses "
                    "such writes ('more than one element of the written-to tensor refers to a "
                    "single memory location'); paddle's expand copies, so the input keeps its "
                    "values and the write is allowed.",
        porting="In paddle, write into the input itself where torch code writes through an "
                "expanded view; in torch, write into `x.expand(…).clone()` where paddle code "
                "writes into its copy.",
        explains=(
            Match(torch="error:overlapping-write"),
            Match(**OWN_OBSERVATION, detail="value", aspect="values"),
            Match(step="hook", aspect="values"),
        ),
    ),
    PortingClass(
        key="multi-view-in-place", topic="inplace",
        title="In-place into a piece of split/unbind: torch refuses, paddle writes",
        explanation="torch refuses to modify in place an output of a function that returns "
                    "several views ('This view is the output of a function that returns multiple "
                    "views'); paddle allows it.",
        porting="In torch, clone the piece before writing: `b = b.clone()`.",
        explains=(Match(torch="error:multi-view-in-place"),),
        source="paddle",
    ),
    PortingClass(
        key="torch-checks-versions", topic="inplace",
        title="A saved tensor written in place: torch's backward refuses where paddle's computes "
              "with the new values",
        explanation="torch checks the version of every tensor a backward reads (a custom "
                    "function's save_for_backward, an op's saved input or output, a tensor "
                    "detached in place) and raises 'modified by an inplace operation'; paddle does "
                    "not check some of them (a PyLayer's saved tensors among them) and computes "
                    "with what the tensor holds now.",
        porting="In paddle, nothing stops the write: do not write into a tensor a backward will "
                "read, or compare `t.inplace_version` with its value at save time yourself.",
        explains=(Match(torch="error:version-counter"), Match(torch="error:saved-detached")),
        documented=("In-place: saved tensor modified in place",)),
    PortingClass(
        key="paddle-checks-versions", topic="inplace",
        title="A tensor written in place after an op used it: paddle's backward refuses where "
              "torch's goes on",
        explanation="Where paddle's kernel saved a tensor torch's does not need (an operand of "
                    "add, a broadcast input), paddle raises '(PermissionDenied) … has been "
                    "modified by an inplace operation' and torch computes.",
        porting="In paddle, write into a clone instead of a tensor the graph uses.",
        explains=(Match(paddle="error:version-counter"),),
        documented=("In-place: saved tensor modified in place",)),
    PortingClass(
        key="version-error-node", topic="inplace",
        title="Both refuse a tensor written in place, but paddle at an earlier node: hooks torch "
              "runs before the error do not run in paddle",
        explanation="paddle's kernels save operands torch's do not need (both operands of a "
                    "multiply, whether or not they require grad), so its version check fires at "
                    "the first node that used the tensor; torch's fires at the node that saved "
                    "it, after the hooks between have run.",
        porting="Check the version yourself before calling backward (`t._version` in torch, "
                "`t.inplace_version` in paddle), so no hook runs on a graph that will be refused.",
        explains=(Match(aspect="node", category="version-counter"),),
        source="paddle",
    ),
    # --- custom functions --------------------------------------------------------------------
    PortingClass(
        key="custom-gradient-count", topic="custom",
        title="A custom backward returning the wrong number of gradients: torch raises "
              "RuntimeError, paddle ValueError",
        explanation="Both refuse a backward that returns more or fewer gradients than forward "
                    "took inputs: torch with RuntimeError ('returned an incorrect number of "
                    "gradients'), paddle with ValueError ('The number of outputs of "
                    "`PyLayer.backward` should be …').",
        porting="Return exactly one gradient per forward input (None for the others) in both; "
                "torch also accepts extra trailing Nones, paddle does not.",
        explains=(
            Match(aspect="raised", category="custom-gradient-count"),
            Match(torch="error:custom-gradient-count"),
        ),
    ),
    PortingClass(
        key="custom-gradient-none", topic="custom",
        title="A custom backward must return None for an input that does not require grad in "
              "paddle; torch ignores what it returns there",
        explanation="paddle raises ValueError (\"backward function should return None at 1 "
                    "position, because it's forward Tensor's stopgradient is true\"); torch drops "
                    "the gradient of an input that does not require grad.",
        porting="In the PyLayer's backward, return None for each input whose stop_gradient is "
                "True (`ctx.needs_input_grad` is torch's way to know).",
        explains=(Match(paddle="error:custom-gradient-none"),),
    ),
    PortingClass(
        key="function-non-differentiable-output", topic="custom",
        title="A custom function's non-differentiable output is a leaf in torch and has a node in "
              "paddle",
        explanation="An output marked non-differentiable (mark_non_differentiable) comes back "
                    "from torch as a leaf without grad_fn; paddle's has is_leaf False and a "
                    "grad_fn, though neither requires grad.",
        porting="Test `requires_grad` / `stop_gradient` on such outputs, not is_leaf or grad_fn.",
        explains=(Match(step="observe", detail="flags", flags={**PADDLE_GRAD_FN, "is_leaf": (True, False)}),),
    ),
    # --- functional --------------------------------------------------------------------------
    PortingClass(
        key="functional-batched", topic="functional",
        title="paddle.autograd.jacobian takes 0-d and 1-d inputs only, unless batched; torch's "
              "takes any shape",
        explanation="paddle raises ValueError ('xs.ndim should be 0 or 1 when is_batched=False') "
                    "for a matrix input; torch's jacobian returns the output shape followed by "
                    "the input shape.",
        porting="In paddle, flatten the input and reshape the result: "
                "`J = paddle.autograd.jacobian(f(x.flatten()), x.flatten())`, then "
                "`J[:].reshape(out_shape + in_shape)`.",
        explains=(Match(step="functional", paddle="error:functional-batched"),),
    ),
    PortingClass(
        key="functional-flags", topic="functional",
        title="paddle.autograd's jacobian and hessian results require grad; torch's functional "
              "results do not",
        explanation="torch.autograd.functional computes without create_graph, so its results do "
                    "not require grad; paddle's lazily evaluated Jacobian and Hessian give "
                    "tensors with stop_gradient=False and a grad_fn.",
        porting="In paddle, detach the result before using it as data: `H[:].detach()`.",
        explains=(Match(step="functional", flags=PADDLE_REQUIRES_GRAD, more_flags=True),),
    ),
    # --- modules -----------------------------------------------------------------------------
    PortingClass(
        key="linear-weight-layout", topic="modules",
        title="nn.Linear's weight is (out, in) in torch and (in, out) in paddle",
        explanation="torch computes `x @ W.T + b` with W of shape (out_features, in_features); "
                    "paddle computes `x @ W + b` with W of shape (in_features, out_features), so "
                    "weights, their gradients and optimizer updates are transposed.",
        porting="Transpose when copying weights between the frameworks: "
                "`paddle_linear.weight.set_value(torch_linear.weight.detach().numpy().T)`.",
        explains=(
            Match(step="observe", role="a parameter", aspect="shape"),
            Match(step="observe", role="a parameter", aspect="values"),
            Match(step="grad", in_results=True, aspect="shape"),
        ),
    ),
    # --- ops and dtypes ----------------------------------------------------------------------
    PortingClass(
        key="integer-requires-grad", topic="ops",
        title="Integer tensors can require grad in paddle; torch refuses",
        explanation="torch raises 'Only Tensors of floating point and complex dtype can require "
                    "gradients'; paddle allows it and computes integer gradients.",
        porting="In torch, make the tensor floating point: `torch.tensor(v, dtype=torch.float32, "
                "requires_grad=True)`.",
        explains=(Match(step="leaf", torch="error:integer-requires-grad"),),
        source="paddle",
        documented=("dtypes: integer tensors requiring grad",)),
    PortingClass(
        key="mixed-dtypes", topic="ops",
        title="Operands of different dtypes: the frameworks promote, refuse and compare them by "
              "different rules",
        explanation="torch promotes `float32 * bool` or `int64 + float32` to float32 where paddle "
                    "3.3.1 raises TypeError ('Type promotion only support calculations between "
                    "floating-point numbers …'); float32 with float64 in mm raises RuntimeError "
                    "in torch and ValueError in paddle; torch.equal compares float32 with "
                    "float64, paddle.equal_all raises.",
        porting="Cast the operands to one dtype first, in both frameworks: `x * "
                "mask.astype(x.dtype)`, `b.to(a.dtype)`.",
        explains=(
            Match(paddle="error:type-promotion"),
            Match(aspect="raised", category="dtype-mismatch"),
            Match(paddle="error:dtype-mismatch"),
        ),
    ),
    PortingClass(
        key="matmul-shapes", topic="ops",
        title="mm and batched matmul take other shapes: paddle's mm takes a vector, its "
              "batched matmul cannot reduce a lower-rank operand's gradient",
        explanation="For `(2, 1, 2, 3) @ (3, 3, 2)` paddle 3.3.1's backward fails with a shape "
                    "error ('Input dimension size should be equal to …') where torch reduces the "
                    "broadcast gradient; and paddle.mm multiplies a matrix by a vector, which "
                    "torch.mm refuses ('mat2 must be a matrix').",
        porting="In paddle, broadcast the lower-rank operand yourself before matmul "
                "(`paddle.matmul(a, b.expand(a.shape[:-2] + b.shape[-2:]))`); in torch, use "
                "matmul where paddle code passes a vector to mm.",
        explains=(
            Match(paddle="error:shape"),
            Match(torch="error:not-a-matrix"),
        ),
    ),
    # --- errors ------------------------------------------------------------------------------
    PortingClass(
        key="none-operand", topic="errors",
        title="An op given None (a gradient that was never filled): torch raises TypeError, "
              "paddle ValueError",
        explanation="Passing a None .grad or an unused input's None gradient to an op fails in "
                    "both: torch with TypeError ('must be Tensor, not NoneType'), paddle with "
                    "ValueError ('must be Tensor, but got None').",
        porting="Test for None before using a gradient, in both frameworks.",
        explains=(Match(aspect="raised", category="none-operand"),),
    ),
    PortingClass(
        key="shape-error-class", topic="errors",
        title="Shapes that do not broadcast, a dim out of range: torch raises RuntimeError or "
              "IndexError, paddle ValueError",
        explanation="Both refuse the op; torch raises RuntimeError for shapes and IndexError for "
                    "a dimension out of range, paddle ValueError for both.",
        porting="Code that catches these errors must catch ValueError in paddle.",
        explains=(Match(aspect="raised", category="shape"), Match(aspect="raised", category="dim-range")),
    ),
)


NO_COUNTERPART: tuple[NoCounterpart, ...] = (
    NoCounterpart(
        key="backward-create-graph", dialect="torch", api="backward(create_graph=True)",
        lacked=("backward", "create_graph"),
        instead="paddle.grad(…, create_graph=True) returns the differentiable gradients; add "
                "them to .grad yourself if the program reads .grad.",
        documented=("create_graph: backward(create_graph=True) is torch only",)),
    NoCounterpart(
        key="backward-inputs", dialect="torch", api="backward(inputs=[…])",
        lacked=("backward", "inputs"),
        instead="paddle.grad on those inputs, then add each result to its .grad (or set it).",
        documented=("Unused: backward inputs=[…] (torch only)",)),
    NoCounterpart(
        key="materialize-grads", dialect="torch", api="grad(materialize_grads=True)",
        lacked=("grad", "materialize_grads"),
        instead="allow_unused=True, then zeros for each None: "
                "`[paddle.zeros_like(x) if g is None else g for g, x in zip(gs, xs)]`.",
        documented=("Unused: materialize_grads=True",)),
    NoCounterpart(
        key="no-grad-vars", dialect="paddle", api="paddle.grad(no_grad_vars=[…])",
        lacked=("grad", "no_grad_vars"),
        instead="compute the cut tensors from `.detach()` copies in the forward (torch has no "
                "per-call cut).",
        documented=("Unused: no_grad_vars (paddle only)",)),
    NoCounterpart(
        key="inference-mode", dialect="torch", api="torch.inference_mode()",
        lacked=("inference_mode", ""),
        instead="paddle.no_grad(): the tensors it makes can still be used in autograd later.",
    ),
    NoCounterpart(
        key="node-hook", dialect="torch", api="grad_fn.register_hook / register_prehook",
        lacked=("node_hook", ""),
        instead="a tensor hook on the node's output (`y.register_hook`) sees the same incoming "
                "gradient.",
    ),
    NoCounterpart(
        key="post-accumulate-hook", dialect="torch", api="register_post_accumulate_grad_hook",
        lacked=("post_accumulate_hook", ""),
        instead="read (or change) the parameter's .grad after backward returns.",
    ),
    NoCounterpart(
        key="function-dirty", dialect="torch", api="ctx.mark_dirty (in-place custom functions)",
        lacked=("function", "dirty"),
        instead="return a new tensor from PyLayer.forward instead of writing into its input.",
    ),
    NoCounterpart(
        key="once-differentiable", dialect="torch", api="@once_differentiable",
        lacked=("function", "once_differentiable"),
        instead="nothing to write: a PyLayer's backward is not differentiated unless it is "
                "written with differentiable ops under create_graph.",
    ),
    NoCounterpart(
        key="functional-vjp-v", dialect="torch", api="torch.autograd.functional's v",
        lacked=("functional", "v"),
        instead="paddle.grad with the vector as grad_outputs (a vector-Jacobian product).",
    ),
    NoCounterpart(
        key="functional-create-graph", dialect="torch",
        api="torch.autograd.functional's create_graph",
        lacked=("functional", "create_graph"),
        instead="paddle.autograd.jacobian's results are already differentiable (they require "
                "grad).",
    ),
    NoCounterpart(
        key="functional-strict", dialect="torch", api="torch.autograd.functional's strict",
        lacked=("functional", "strict"),
        instead="check yourself that the output depends on the input: `paddle.grad(…, "
                "allow_unused=True)` returns None when it does not.",
    ),
    NoCounterpart(
        key="functional-batch-axis", dialect="paddle", api="paddle.autograd.jacobian(batch_axis=0)",
        lacked=("functional", "batch_axis"),
        instead="torch.func.vmap(torch.func.jacrev(f)) or the jacobian's block diagonal.",
    ),
)
