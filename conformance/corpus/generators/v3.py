"""Generator version 3: version 2's programs, some through a custom function, saved-tensor hooks
or torch's other hooks.

A case is version 2's case of the same seed and index (ids ``gen3/...``) unless a stream of its
own (seeded with version 3's string) picks it, about one in eight, to pass a value through a
custom function (``torch.autograd.Function`` / ``paddle.autograd.PyLayer``) just before the
autograd scenario: the scenario then differentiates through it. The function is one of a table
of forwards with their derivatives written in the vocabulary (saving an input, the output or
nothing), sometimes with a second input (a tensor that may not require grad), a gradient left
``None``, or one gradient too many (the frameworks' errors); or two outputs (sin and cos, the
scenario using the second); or, torch's only, a forward that triples its input in place and
marks it dirty. Its context flags are set now and then
(``set_materialize_grads``, ``mark_non_differentiable`` of the output, torch's
``once_differentiable`` backward), to their defaults too.

paddle 3.3.1 crashes running a PyLayer node a backward already ran, so a program whose scenario
may run the node twice (accumulation, retained graphs, higher orders) is torch's only.

A second draw of the same stream adds torch's other APIs to about one case in twelve: a hook on
the output's node (``grad_fn.register_prehook`` / ``register_hook``: scaling, recording,
removed), a post-accumulate-grad hook on a leaf (recording, scaling ``.grad`` in place), or a
value made under ``inference_mode`` and used after it (added, or multiplied: the product saves
it, torch's error; sometimes written in place outside the block, another error). A third
draw runs one or two more operations in a ``saved_tensors_hooks`` block (both frameworks):
its pack hook records what each node saves, its unpack hook may scale what the backward reads.
After the scenario, a fourth draw ends about one case in twelve with training steps: an SGD or
Adam optimizer over the leaves, its step, zero_grad (to None or zeros) or not, a second forward
and backward, and a second step; a fifth ends about one in twenty with a function written as
data and a higher-order API at a leaf (jacobian, hessian, in paddle's programs often with
``batch_axis``; torch's vjp, jvp, hvp, vhp); a sixth
ends about one in twenty with two or three training passes of a ``Linear`` layer with drawn
values (``module``, ``call``; its gradients accumulating, or cleared by the module's or the
optimizer's zero_grad; SGD, SGD with momentum or Adam steps). A stream of its own writes the
latest value with a recorded ``exp_`` in about one float32 case in forty, and another makes
about one case in ten make a leaf as a parameter (or, torch's, with ``torch.Tensor`` or
``Variable``).
"""

from __future__ import annotations

import math
import random
from typing import Any, Callable, Optional

from conformance.corpus.case import walk
from conformance.corpus.generators import base
from conformance.corpus.generators.base import Node, Program
from conformance.corpus.generators.shapes import nest

VERSION = 3
SHARE = 0.125  # of the cases that pass through a custom function


def _let(name: str, op: str, *args: Any) -> dict[str, Any]:
    return {"let": name, "op": op, "args": list(args)}


# name -> (forward steps of "a" giving "o", saved names, derivative steps of "g" giving "ga",
#          whether the output is positive)
UNARY: dict[str, tuple[list[dict[str, Any]], list[str], list[dict[str, Any]], bool]] = {
    "Scale": ([_let("o", "mul", "a", 3.0)], [], [_let("ga", "mul", "g", 3.0)], False),
    "Square": ([_let("o", "mul", "a", "a")], ["a"],
               [_let("t", "mul", "g", "a"), _let("ga", "mul", "t", 2.0)], False),
    "Exp": ([_let("o", "exp", "a")], ["o"], [_let("ga", "mul", "g", "o")], True),
    "Sin": ([_let("o", "sin", "a")], ["a"], [_let("c", "cos", "a"), _let("ga", "mul", "g", "c")],
            False),
    "Tanh": ([_let("o", "tanh", "a")], ["o"],
             [_let("t", "mul", "o", "o"), _let("u", "sub", 1.0, "t"), _let("ga", "mul", "g", "u")],
             False),
}
BOUNDS: dict[str, Callable[[float], float]] = {
    "Triple": lambda b: 3.0 * b, "SinCos": lambda b: 1.0, "Scale": lambda b: 3.0 * b,
    "Square": lambda b: b * b, "Exp": math.exp, "Sin": lambda b: 1.0, "Tanh": lambda b: 1.0,
    "Mul": lambda b: b * 2.0}
MUL = ([_let("o", "mul", "a", "b")], ["a", "b"],
       [_let("ga", "mul", "g", "b"), _let("gb", "mul", "g", "a")])
# two outputs: sin and cos of the input, each with its own gradient
SIN_COS = ([_let("o", "sin", "a"), _let("p", "cos", "a")], ["a"],
           [_let("c", "cos", "a"), _let("s", "sin", "a"), _let("t", "mul", "g", "c"),
            _let("u", "mul", "h", "s"), _let("ga", "sub", "t", "u")])
# torch's ctx.mark_dirty: the forward triples its input in place and returns it
TRIPLE_IN_PLACE = ([{"inplace": "a", "op": "mul", "args": [3.0]}], [], [_let("ga", "mul", "g", 3.0)])

# what makes a program one of the rarer ones: a case made torch's only by a torch API or a
# PyLayer run twice never has these, so paddle keeps every such program of version 2
KEPT_FOR_PADDLE = frozenset({"inplace", "grad_mode", "detach"})

# scenarios that differentiate once through every node (paddle runs a PyLayer node once)
SINGLE_PASS = {base.s_implicit, base.s_implicit_non_scalar, base.s_explicit, base.s_none_entry,
               base.s_wrong_shape, base.s_wrong_count, base.s_other_dtype, base.s_allow_unused,
               base.s_no_grad_input, base.s_no_grad_vars}


def custom_function(rng: random.Random) -> Callable[[Program, Callable[[Program], None]], None]:
    """The extension of version 2's case: maybe a custom function before the scenario."""
    def extend(p: Program, scenario: Callable[[Program], None]) -> None:
        # a scenario that may run the node twice makes the case torch's: fewer of those, so
        # that paddle keeps most of version 2's programs
        if rng.random() >= (SHARE if scenario in SINGLE_PASS else SHARE * 0.4):
            return
        if scenario not in SINGLE_PASS and p.tags & KEPT_FOR_PADDLE:
            return
        source = base.output(p)
        node = p.nodes[source]
        torch_only = scenario not in SINGLE_PASS or "paddle" not in p.dialects
        name = p.fresh(rng.choice(sorted(UNARY)) if rng.random() < 0.7 else "Mul")
        kind = name.rstrip("0123456789")
        if _writable(p, source) and rng.random() < (0.6 if torch_only else 0.05):
            name, kind = p.fresh("Triple"), "Triple"
            torch_only = True
        elif kind != "Mul" and rng.random() < 0.3:
            name, kind = p.fresh("SinCos"), "SinCos"
        args = [source]
        if kind == "SinCos":
            forward, save, derivative = SIN_COS
            inputs, input_grads, positive = ["a"], ["ga"], False
        elif kind == "Triple":
            forward, save, derivative = TRIPLE_IN_PLACE
            inputs, input_grads, positive = ["a"], ["ga"], False
        elif kind == "Mul":
            second = p.leaf(node.shape, requires_grad=rng.random() < 0.6, dtype=node.dtype)
            args.append(second)
            forward, save, derivative = MUL
            inputs, input_grads, positive = ["a", "b"], ["ga", "gb"], False
        else:
            forward, save, derivative, positive = UNARY[kind]
            positive = positive or kind == "Square"
            inputs, input_grads = ["a"], ["ga"]
        variant = rng.random()
        if variant < 0.15:
            input_grads = [*input_grads[:-1], None]  # a gradient left None
            if not p.nodes[args[-1]].is_leaf:
                # paddle hands the node below an empty gradient: undefined (a crash or zeros)
                p.only("torch")
        elif variant < 0.25:
            input_grads = [*input_grads, input_grads[0]]  # one too many: an error
            p.tags.add("error_path")
        several = kind == "SinCos"
        step: dict[str, Any] = {"function": name, "inputs": inputs, "forward": forward,
                                "output": ["o", "p"] if several else "a" if kind == "Triple"
                                else "o", "output_grad": ["g", "h"] if several else "g",
                                "derivative": derivative, "input_grads": input_grads}
        if save:
            step["save"] = save
        if kind == "Triple":
            step["dirty"] = ["a"]
        requires_grad = any(p.nodes[a].requires_grad for a in args)
        requires_grad &= not _context_flags(step, rng, torch_only)
        if "dirty" in step or "once_differentiable" in step:
            p.only("torch")
        if several and step.get("materialize_grads") is False:
            # the unused output's None reaches the derivative's product: a TypeError, which
            # paddle wraps in an OSError carrying its own operator message and the backward's
            # traceback (not modelled)
            p.only("torch")
        p.emit(step)
        outs = [p.fresh("v") for _ in range(2 if several else 1)]
        p.emit({"apply": name, "args": args, "into": outs if several else outs[0]})
        for out in outs:  # the scenario differentiates the last; a first one is unused
            p.nodes[out] = Node(node.shape, positive, requires_grad, False,
                                bound=BOUNDS[kind](node.bound), dtype=node.dtype)
        p.tags.add("custom_function")
        if scenario not in SINGLE_PASS:
            p.only("torch")
    return extend


def _writable(p: Program, name: str) -> bool:
    """Whether a custom function may write ``name`` in place and mark it dirty: a non-leaf made
    with recording that is no view and has none (the reference does not rewrite a view's base)."""
    node = p.nodes[name]
    return not node.is_leaf and node.view_of is None and not node.made_without_grad and all(
        other.view_of != name for other in p.nodes.values())


def _context_flags(step: dict[str, Any], rng: random.Random, torch_only: bool) -> bool:
    """Set some of the context's flags, given now and then as their defaults too; returns
    whether the output is marked non-differentiable."""
    for flag, value in (("materialize_grads", False), ("non_differentiable", True)):
        draw = rng.random()
        if draw < 0.28:
            step[flag] = value if draw < 0.15 else not value
    draw = rng.random()
    if draw < (0.55 if torch_only else 0.1):
        step["once_differentiable"] = draw < (0.3 if torch_only else 0.05)
    return step.get("non_differentiable", False)


IN_PLACE_EXP = 0.05  # of the cases whose latest value may be written in place


def in_place_exp(rng: random.Random) -> Callable[[Program, Callable[[Program], None]], None]:
    """The extension of version 2's case: maybe ``exp_`` on the latest value while recording
    (a non-leaf that is no view and has none, small enough not to overflow): its node reads
    what it wrote, and a node that saved the value before fails the backward."""
    def extend(p: Program, scenario: Callable[[Program], None]) -> None:
        if rng.random() >= IN_PLACE_EXP:
            return
        target = base.output(p)
        node = p.nodes[target]
        # float32 only: plain float64 programs are the ones that end in a higher-order API
        if not _writable(p, target) or node.bound > 3.0 or node.dtype != "float32":
            return
        p.emit({"inplace": target, "op": "exp"})
        p.nodes[target] = Node(node.shape, True, node.requires_grad, False,
                               bound=math.exp(node.bound), dtype=node.dtype)
        p.tags.add("inplace")
    return extend


CONSTRUCTED = 0.12  # of the cases with a top-level float leaf that requires grad


def leaf_constructor(rng: random.Random) -> Callable[[Program, Callable[[Program], None]], None]:
    """The extension of version 2's case: maybe one leaf made another way than torch.tensor /
    paddle.to_tensor: a parameter (torch.nn.Parameter, paddle.create_parameter), or in a
    torch program torch.Tensor(data) (float32) or autograd.Variable."""
    def extend(p: Program, scenario: Callable[[Program], None]) -> None:
        if rng.random() >= CONSTRUCTED:
            return
        leaves = [s for s in p.steps if "leaf" in s and s.get("requires_grad")
                  and s.get("dtype", "float32").startswith("float")]
        if not leaves:
            return
        step = rng.choice(leaves)
        choices = ["Parameter", "Parameter", "tensor"]
        if p.dialects == {"torch"}:
            choices += ["Variable"] + (["Tensor"] if step.get("dtype") == "float32" else [])
        step["constructor"] = rng.choice(choices)
        if step["constructor"] == "Tensor":
            del step["dtype"]  # torch.Tensor(data) is float32
    return extend


MATRIX_PRODUCT = 0.2  # of the cases whose latest value is a float matrix
MM_UNDER_NO_GRAD = 0.3


def matrix_product(rng: random.Random) -> Callable[[Program, Callable[[Program], None]], None]:
    """The extension of version 2's case: maybe the latest value, a matrix, times a square
    matrix by ``mm`` before the scenario (which then differentiates through it); now and then
    the product is made under no_grad and added to the value (a constant term), hooked, or its
    saved weight written in place without recording (the backward's version error)."""
    def extend(p: Program, scenario: Callable[[Program], None]) -> None:
        if rng.random() >= MATRIX_PRODUCT:
            return
        last = base.output(p)
        node = p.nodes[last]
        if len(node.shape) != 2 or not node.dtype.startswith("float") or node.bound > 4.0:
            return
        n = node.shape[1]
        weight = p.leaf((n, n), requires_grad=rng.random() < 0.6, dtype=node.dtype)
        bound = n * node.bound * p.nodes[weight].bound
        if rng.random() < MM_UNDER_NO_GRAD and p.dtype == "float32":  # see _maybe_hooked
            outer, p.steps, p.grad_enabled = p.steps, [], False
            constant = p.let("mm", [last, weight], node.shape, bound=bound)
            inner, p.steps, p.grad_enabled = p.steps, outer, True
            p.emit({"no_grad": inner})
            p.tags.add("grad_mode")
            p.let("add", [last, constant], node.shape, bound=bound + node.bound)
            return
        product = p.let("mm", [last, weight], node.shape, bound=bound, saves=(last, weight))
        _maybe_hooked(p, rng, product)
        if rng.random() < 0.25 and p.dtype == "float32":  # the saved weight written without
            # recording: the backward's version error (float64 programs: see _maybe_hooked)
            p.emit({"no_grad": [{"inplace": weight, "op": "mul", "args": [2.0]}]})
            p.tags |= {"inplace", "grad_mode"}
    return extend


def _maybe_hooked(p: Program, rng: random.Random, product: str) -> None:
    """Now and then a hook on ``product``: scaling, or recording what it is handed. Not in
    float64 programs, which end in a functional API now and then (it takes none with hooks,
    writes or grad-mode blocks)."""
    draw = rng.random()
    if draw < 0.3 and p.dtype == "float32":
        p.emit({"hook": product, **({"scale": 2.0} if draw < 0.15 else {"record": True})})
        p.tags.add("hook")


PRODUCT = 0.12  # of the cases: a product of elements before the scenario
PRODUCT_AT_ZERO = 0.35


def element_product(rng: random.Random) -> Callable[[Program, Callable[[Program], None]], None]:
    """The extension of version 2's case: maybe the product of a value's elements (all, or along
    one dimension) before the scenario, which then differentiates through it. Now and then of a
    new leaf with a zero element (prod's special point: torch's gradient is the product of the
    others, paddle's nan), made under no_grad (a constant factor), hooked, or its input written
    in place without recording (the backward's version error)."""
    def extend(p: Program, scenario: Callable[[Program], None]) -> None:
        if rng.random() >= PRODUCT:
            return
        # not modelled: prod's third derivative at a zero, which the create_graph scenario reaches
        at_zero = rng.random() < PRODUCT_AT_ZERO and scenario is not base.s_create_graph
        if at_zero:
            shape, dtype, bound = rng.choice([(3,), (2, 3), (3, 2)]), p.dtype, 1.9
        else:
            source = base.output(p)
            node = p.nodes[source]
            shape, dtype, bound = node.shape, node.dtype, node.bound
        # at most four elements multiplied: products stay bounded
        dims = [d for d in [None, *range(len(shape))]
                if (math.prod(shape) if d is None else shape[d]) <= 4]
        if not shape or not dtype.startswith("float") or bound > 2.0 or not dims:
            return
        if at_zero:
            flat = [round(rng.uniform(0.3, 1.9), 3) * rng.choice((1, -1))
                    for _ in range(math.prod(shape))]
            flat[rng.randrange(len(flat))] = 0.0
            source = p.leaf(shape, value=nest(flat, shape), dtype=dtype)
            p.tags.add("special:prod")
            node = p.nodes[source]
        dim = rng.choice(dims)
        reduced = math.prod(node.shape) if dim is None else node.shape[dim]
        kwargs: dict[str, Any] = {} if dim is None else {"dim": dim, "keepdim": rng.random() < 0.5}
        under_no_grad = rng.random() < 0.25 and p.dtype == "float32"  # see _maybe_hooked
        if under_no_grad:  # broadcast against the source: keep the reduced dimension
            kwargs = {} if dim is None else {"dim": dim, "keepdim": True}
        shape = () if dim is None else tuple(
            1 if i == dim else n for i, n in enumerate(node.shape)
            if i != dim or kwargs.get("keepdim"))
        bound = node.bound ** reduced
        if under_no_grad:
            outer, p.steps, p.grad_enabled = p.steps, [], False
            factor = p.let("prod", [source], shape, bound=bound, **kwargs)
            inner, p.steps, p.grad_enabled = p.steps, outer, True
            p.emit({"no_grad": inner})
            p.tags.add("grad_mode")
            p.let("mul", [source, factor], node.shape, bound=bound * node.bound, saves=(source,))
            return
        product = p.let("prod", [source], shape, bound=bound, saves=(source,), **kwargs)
        if p.nodes[product].requires_grad:
            _maybe_hooked(p, rng, product)
        if rng.random() < 0.25 and p.dtype == "float32":  # its saved input written without
            # recording: the backward's version error (float64 programs: see _maybe_hooked)
            p.emit({"no_grad": [{"inplace": source, "op": "mul", "args": [2.0]}]})
            p.tags |= {"inplace", "grad_mode"}
    return extend


PIECES = 0.25  # of the cases whose latest value has a dimension of two or more elements


def pieces(rng: random.Random) -> Callable[[Program, Callable[[Program], None]], None]:
    """The extension of version 2's case: maybe the latest value cut into pieces before the
    scenario (split by sections, into equal chunks, torch's split by a piece size in torch's
    programs, or unbind),
    one piece carried on (plus the sum of another) so that the rest receive no gradient; a
    recording hook on a piece, an unused one where there is one (torch hands it None, paddle
    zeros); now and then the pieces made under no_grad (a constant term)."""
    def extend(p: Program, scenario: Callable[[Program], None]) -> None:
        if rng.random() >= PIECES:
            return
        last = base.output(p)
        node = p.nodes[last]
        dims = [d for d, n in enumerate(node.shape) if n >= 2]
        if not dims or not node.dtype.startswith("float"):
            return
        dim = rng.choice(dims)
        size = node.shape[dim]
        kind = rng.choice(["sections", "chunks", "unbind", "unbind", "size"])
        if kind == "size" and "paddle" in p.dialects:  # torch's only: keep paddle's programs
            kind = "sections"
        if kind == "sections":
            first = rng.randint(1, size - 1)
            lengths, kwargs = [first, size - first], {"sections": [first, size - first], "dim": dim}
        elif kind == "chunks":
            lengths, kwargs = [1] * size, {"chunks": size, "dim": dim}
        elif kind == "size":
            lengths, kwargs = [2] * (size // 2) + [size % 2] * (size % 2), {"size": 2, "dim": dim}
        else:
            lengths, kwargs = [0] * size, {"dim": dim}  # 0: the dimension is removed
        shapes = [tuple(n if i != dim else length for i, n in enumerate(node.shape) if i != dim
                        or length) for length in lengths]
        names = [p.fresh("v") for _ in lengths]
        op = "unbind" if kind == "unbind" else "split"
        step = {"let": names, "op": op, "args": [last], "kwargs": kwargs}
        made_without_grad = rng.random() < 0.15 and p.dtype == "float32"  # see _maybe_hooked
        for name, shape in zip(names, shapes):
            p.nodes[name] = Node(shape, node.positive, node.requires_grad and not made_without_grad,
                                 False, node.bound, view_of=last,
                                 made_without_grad=made_without_grad, dtype=node.dtype)
        if made_without_grad:
            p.emit({"no_grad": [step]})
            p.tags.add("grad_mode")
            total = p.let("sum", [rng.choice(names)], ())
            p.let("add", [last, total], node.shape, bound=node.bound * (1 + size))
            return
        p.emit(step)
        carried, other = rng.sample(names, 2) if len(names) > 1 else (names[0], None)
        result = p.let("mul", [carried, 2.0], p.nodes[carried].shape, bound=2 * node.bound)
        if other is not None and rng.random() < 0.5:
            total = p.let("sum", [other], ())
            result = p.let("add", [result, total], p.nodes[carried].shape,
                           bound=(2 + size) * node.bound)
        unused = [n for n in names if n not in (carried, other)]
        if rng.random() < 0.4 and p.dtype == "float32" and node.requires_grad:
            p.emit({"hook": rng.choice(unused or names), "record": True})
            p.tags.add("hook")
    return extend


MM = 0.5          # of the products of two matrices
LINSPACE = 0.15  # of the cases with a one-dimensional float leaf and no special point
EQUAL = 0.1      # of the cases


def tensor_functions(rng: random.Random) -> Callable[[Program, Callable[[Program], None]], None]:
    """Run after the scenario: a product of two matrices written as ``mm`` (half of them), a
    one-dimensional float leaf made by ``linspace`` (its values evenly spaced from its first to
    its last), and at the end an ``equal`` observation of two values of one dtype."""
    def extend(p: Program, scenario: Callable[[Program], None]) -> None:
        for _, step, _ in walk(p.steps):
            if step.get("op") == "matmul" and all(
                    a in p.nodes and len(p.nodes[a].shape) == 2 for a in step["args"]) \
                    and rng.random() < MM:
                step["op"] = "mm"
        leaves = [s for s in p.steps if "leaf" in s and "constructor" not in s
                  and s.get("dtype", "float32").startswith("float")
                  and len(p.nodes[s["leaf"]].shape) == 1 and len(s["value"]) >= 2
                  and s["value"][0] != s["value"][-1]]
        if leaves and not any(t.startswith("special:") for t in p.tags) and rng.random() < LINSPACE:
            step = rng.choice(leaves)
            first, last, n = step["value"][0], step["value"][-1], len(step["value"])
            values = [first + (last - first) / (n - 1) * i for i in range(n)]
            if all(abs(v) > 1e-3 for v in values):  # no new zero: abs, relu and sqrt kink there
                step["value"], step["constructor"] = values, "linspace"
        if rng.random() < EQUAL:
            names = sorted(p.nodes)
            of = rng.choice(names)
            same = [n for n in names if p.nodes[n].dtype == p.nodes[of].dtype]
            p.emit({"observe": "equal", "of": of, "to": rng.choice(same)})
    return extend


def torch_hooks_and_modes(rng: random.Random) -> Callable[[Program, Callable[[Program], None]], None]:
    """The extension of version 2's case: maybe a hook on a node, a post-accumulate hook on a
    leaf, or a value made under inference_mode and used after it (torch's APIs only)."""
    def extend(p: Program, scenario: Callable[[Program], None]) -> None:
        draw = rng.random()
        if p.tags & KEPT_FOR_PADDLE:
            return
        if draw < NODE_HOOKS:
            _node_hook(p, rng)
        elif draw < NODE_HOOKS + POST_ACCUMULATE_HOOKS:
            leaves = base.grad_leaves(p)
            if not leaves:
                return
            step: dict[str, Any] = {"post_accumulate_hook": rng.choice(leaves)}
            _recording(step, rng)
            if rng.random() < 0.5:
                step["scale"] = rng.choice([0.5, 2.0, -1.0])
            _emit_maybe_removed(p, step, rng)
            p.tags.add("hook")
            p.only("torch")
        elif draw < NODE_HOOKS + POST_ACCUMULATE_HOOKS + INFERENCE_MODE:
            _inference_mode(p, rng)
    return extend


NODE_HOOKS, POST_ACCUMULATE_HOOKS, INFERENCE_MODE = 0.1, 0.08, 0.08


def _node_hook(p: Program, rng: random.Random) -> None:
    target = base.output(p)
    step: dict[str, Any] = {"node_hook": target, "kind": rng.choice(["pre", "post"])}
    if rng.random() < 0.7:
        step["scale"] = rng.choice([0.5, 2.0, 3.0, -1.0])
    _recording(step, rng)
    _emit_maybe_removed(p, step, rng)
    p.tags.add("node_hook")
    p.only("torch")


def _recording(step: dict[str, Any], rng: random.Random) -> None:
    """``record`` true most of the time, false (spelled out) or left out otherwise."""
    draw = rng.random()
    if draw < 0.9:
        step["record"] = draw < 0.55


def _emit_maybe_removed(p: Program, step: dict[str, Any], rng: random.Random) -> None:
    """The hook step, and now and then its handle and the hook's removal right after."""
    removed = rng.random() < 0.3
    if removed:
        step["handle"] = p.fresh("h")
    p.emit(step)
    if removed:
        p.emit({"remove_hook": step["handle"]})


def _inference_mode(p: Program, rng: random.Random) -> None:
    """A value made under inference_mode, then added to the output (or multiplied: the
    product saves it, torch's error), sometimes written in place outside the block (an error)."""
    out = base.output(p)
    node = p.nodes[out]
    outer, p.steps = p.steps, []
    p.grad_enabled = False
    made = p.leaf(node.shape, requires_grad=rng.random() < 0.5, positive=True, dtype=node.dtype)
    made = p.let(rng.choice(["exp", "sqrt", "clone"]), [made], node.shape, positive=True,
                 bound=7.0)
    inner = p.steps
    p.steps, p.grad_enabled = outer, True
    p.emit({"inference_mode": inner})
    if rng.random() < 0.3:
        p.emit({"inplace": made, "op": "mul", "args": [2.0]})
    op = "add" if rng.random() < 0.7 else "mul"
    p.let(op, [out, made], node.shape, saves=(out, made) if op == "mul" else ())
    p.tags.add("inference_mode")
    p.only("torch")


SAVED_TENSORS_HOOKS = 0.08
# ops whose saved tensors the reference engine saves as both frameworks do (what a pack hook is
# handed, and which of them the backward reads after unpacking); not yet modelled: paddle's
# divide saves its output too, pow's saved exponent, where's condition unpacked to another
# dtype, the indices max/min along a dim save, an advanced index, a broadcast matmul's reshaped
# operands, clamp's tensor bounds
SAVED_AS_THE_FRAMEWORKS = ("abs", "add", "amax", "amin", "cat", "clone", "cos", "exp", "expand",
                           "log", "log_softmax", "mean", "mul", "neg", "permute", "relu",
                           "reshape", "sigmoid", "sin", "softmax", "sqrt", "squeeze", "stack",
                           "sub", "sum", "tanh", "transpose", "unsqueeze")


def saved_tensors_hooks(rng: random.Random) -> Callable[[Program, Callable[[Program], None]], None]:
    """The extension of version 2's case: maybe one or two more operations inside a
    saved_tensors_hooks block whose pack hook records what each node saves and whose unpack
    hook may scale it (both frameworks: what a kernel saves shows)."""
    def extend(p: Program, scenario: Callable[[Program], None]) -> None:
        if rng.random() >= SAVED_TENSORS_HOOKS:
            return
        outer, p.steps = p.steps, []
        for _ in range(rng.randint(1, 2)):
            base.BUILDERS[rng.choice(SAVED_AS_THE_FRAMEWORKS)](p, False)
        inner, p.steps = p.steps, outer
        if not inner:
            return
        step: dict[str, Any] = {"saved_tensors_hooks": inner}
        _recording(step, rng)
        if rng.random() < 0.5:
            step["scale"] = rng.choice([2.0, 0.5, -1.0])
        p.emit(step)
        p.tags.add("saved_tensors_hooks")
    return extend


TRAINING_STEPS = 0.08


def training_step(rng: random.Random) -> Callable[[Program, Callable[[Program], None]], None]:
    """The extension after version 2's scenario: maybe an optimizer over the leaves that require
    grad (SGD or Adam), its step, zero_grad (to None or zeros) or not, maybe a ``.grad``
    assigned, a second forward and backward (its gradients read as tensors and maybe as a numpy
    array), and a second step: accumulation across training steps, and the in-place updates
    a retained graph then sees (torch checks their version, paddle's optimizers do not bump it)."""
    def extend(p: Program, scenario: Callable[[Program], None]) -> None:
        if rng.random() >= TRAINING_STEPS:
            return
        params = base.grad_leaves(p)
        if not params:
            return
        name = p.fresh("opt")
        kind = "sgd" if rng.random() < 0.7 else "adam"
        p.emit({"optimizer": name, "kind": kind, "params": params,
                "lr": rng.choice([0.1, 0.5, 0.01])})
        if kind == "sgd":
            p.emit({"optimizer_step": name})
            for leaf in params:
                p.emit({"observe": "value", "of": leaf})
        # Adam divides by the gradient's own size: it steps only on the well-conditioned
        # gradients of the second pass (a scenario's may be rounding noise around zero, whose
        # sign differs between implementations)
        if kind == "adam" or rng.random() < 0.8:
            step: dict[str, Any] = {"zero_grad": name}
            if rng.random() < 0.7:
                step["to"] = rng.choice(["none", "zeros"])
            p.emit(step)
        if rng.random() < 0.3:  # .grad assigned: the second pass adds onto it
            target = rng.choice(params)
            source = p.leaf(p.nodes[target].shape, requires_grad=False,
                            dtype=p.nodes[target].dtype)
            p.emit({"set_grad": target, "from": source})
        again = rng.choice(params)
        square = p.let("mul", [again, again], p.nodes[again].shape)
        p.emit({"backward": base.scalar_loss(p, square)})
        for leaf in params:
            p.emit({"observe": "grad", "of": leaf})
        if rng.random() < 0.4:
            p.emit({"observe": "grad_array", "of": rng.choice(params)})
        p.emit({"optimizer_step": name})
        for leaf in params:
            p.emit({"observe": "value", "of": leaf})
        p.tags.add("optimizer")
    return extend


MODULE_TRAINING = 0.05  # of the cases that end with training a Linear layer
_MODULE_OPTIMIZERS = (("sgd", 0.4), ("momentum", 0.35), ("adam", 0.25))


def module_training(rng: random.Random) -> Callable[[Program, Callable[[Program], None]], None]:
    """The extension after everything else: maybe a Linear layer with drawn values (with or
    without bias) on a fresh float32 input, and two or three training passes: forward, a
    squared loss, backward, the parameters' gradients (accumulating unless cleared by the
    module's or the optimizer's zero_grad), and maybe an optimizer's steps (SGD, SGD with
    momentum, Adam) with the values they leave."""
    def extend(p: Program, scenario: Callable[[Program], None]) -> None:
        if rng.random() >= MODULE_TRAINING:
            return
        in_features, out_features = rng.choice([2, 3, 4]), rng.choice([1, 2, 3])
        net = p.fresh("net")
        params = [p.fresh("w")]
        step: dict[str, Any] = {"module": net, "kind": "linear", "weight": _drawn(
            rng, (out_features, in_features))}
        if rng.random() < 0.7:
            step["bias"] = _drawn(rng, (out_features,))
            params.append(p.fresh("b"))
        step["params"] = params
        p.emit(step)
        x = p.leaf((rng.choice([1, 2, 3]), in_features), requires_grad=rng.random() < 0.3,
                   dtype="float32")
        watched = [*params, *([x] if p.nodes[x].requires_grad else [])]
        optimizer = None
        if rng.random() < 0.6:
            optimizer = p.fresh("opt")
            kind = _weighted(rng, _MODULE_OPTIMIZERS)
            made: dict[str, Any] = {"optimizer": optimizer, "kind": kind, "params": params,
                                    "lr": rng.choice([0.1, 0.05])}
            if kind == "momentum" and rng.random() < 0.8:
                made["momentum"] = rng.choice([0.5, 0.9])
            p.emit(made)
            p.tags.add("optimizer")
        passes = rng.choice([2, 3])
        for i in range(passes):
            y = p.fresh("y")
            p.emit({"call": net, "args": [x], "into": y})
            p.nodes[y] = Node((p.nodes[x].shape[0], out_features), False, True, False,
                              dtype="float32")
            square = p.let("mul", [y, y], p.nodes[y].shape)
            p.emit({"backward": base.scalar_loss(p, square)})
            for name in watched:
                p.emit({"observe": "grad", "of": name})
            if optimizer is not None:
                p.emit({"optimizer_step": optimizer})
                for name in params:
                    p.emit({"observe": "value", "of": name})
            if i + 1 < passes and rng.random() < 0.6:
                cleared: dict[str, Any] = {"zero_grad": optimizer if optimizer and
                                           rng.random() < 0.5 else net}
                if rng.random() < 0.7:
                    cleared["to"] = rng.choice(["none", "zeros"])
                p.emit(cleared)
        p.tags.add("module")
        if passes > 1:
            p.tags.add("accumulation")
    return extend


def _drawn(rng: random.Random, shape: tuple[int, ...]) -> Any:
    """Values of a parameter: distinct magnitudes in [0.1, 1), random signs."""
    flat = [round(m / 1000.0 * rng.choice([1, -1]), 3)
            for m in rng.sample(range(100, 1000), math.prod(shape))]
    return flat if len(shape) == 1 else [flat[r * shape[1]:(r + 1) * shape[1]]
                                         for r in range(shape[0])]


def _weighted(rng: random.Random, choices: tuple[tuple[str, float], ...]) -> str:
    draw, total = rng.random(), 0.0
    for name, share in choices:
        total += share
        if draw < total:
            return name
    return choices[-1][0]


FUNCTIONAL = 1.0  # of the programs it can be added to (below)
_SMOOTH = ("exp", "sin", "tanh", "square")


def functional_api(rng: random.Random) -> Callable[[Program, Callable[[Program], None]], None]:
    """The extension after version 2's scenario: maybe a function of a leaf written as data (one
    or two smooth elementwise ops, summed for the second-order APIs) and a higher-order API at
    that leaf: jacobian or hessian (both frameworks), torch's vjp / jvp / hvp / vhp, sometimes
    with create_graph or strict (torch's)."""
    def extend(p: Program, scenario: Callable[[Program], None]) -> None:
        if rng.random() >= FUNCTIONAL:
            return
        # float64 leaves only: second derivatives in float32 differ between implementations by
        # more than float32's tolerances (as version 2 makes create_graph programs float64); no
        # inference tensors (an inference_mode block)
        # not modelled yet: the hooks on a leaf that the functional APIs differentiate again;
        # so no programs with hooks or inference tensors, and (kept as they were when a write
        # through an expanded view was not modelled either) none with in-place writes
        leaves = [n for n in base.grad_leaves(p) if p.nodes[n].dtype == "float64"]
        if not leaves or p.tags & (KEPT_FOR_PADDLE | {"hook", "inference_mode"}):
            return
        at = rng.choice(leaves)
        api = rng.choices(["jacobian", "hessian", "vjp", "jvp", "hvp", "vhp"],
                          [45, 30, 7, 6, 6, 6])[0]
        if "torch" not in p.dialects:  # paddle's program: its two APIs, without torch's options
            api = rng.choice(["jacobian", "hessian"])
        # paddle's batch axis: the leaf's rows are a batch (a paddle program from then on)
        batched = "paddle" in p.dialects and api in ("jacobian", "hessian") and \
            len(p.nodes[at].shape) in (1, 2) and rng.random() < 0.6
        body, last = [], "a"
        for k in range(rng.randint(1, 2)):
            op, made = rng.choice(_SMOOTH), f"t{k}"
            body.append({"let": made, "op": "mul", "args": [last, last]} if op == "square"
                        else {"let": made, "op": op, "args": [last]})
            last = made
        if api in ("hessian", "hvp", "vhp"):  # one value (per batch row)
            body.append({"let": "total", "op": "sum", "args": [last],
                         **({"kwargs": {"dim": -1}} if batched else {})})
            last = "total"
        name = p.fresh("f")
        p.emit({"def": name, "inputs": ["a"], "body": body, "output": last})
        step: dict[str, Any] = {"functional": api, "of": name, "at": [at]}
        if api in ("vjp", "jvp", "hvp", "vhp"):
            step["v"] = [p.leaf(p.nodes[at].shape, requires_grad=False, dtype=p.nodes[at].dtype)]
        if batched:
            step["batch_axis"] = 0
            p.only("paddle")
        for option in ("create_graph", "strict"):
            if rng.random() < 0.4 and "torch" in p.dialects:
                step[option] = rng.random() < 0.5
        if api not in ("jacobian", "hessian") or "create_graph" in step or "strict" in step:
            p.only("torch")
        p.emit(step)
        p.tags.add("functional")
    return extend


def generate_case(seed: int, index: int, wide: bool = False,
                  dtype: Optional[str] = None) -> dict[str, Any]:
    """Case ``index`` of the corpus ``seed``; ``wide``: with the fuzzer's wider knobs, ``dtype``:
    in that floating dtype (``base.build_case``)."""
    rng = random.Random(f"autograd-oracle/{VERSION}/{seed}/{index}")
    # streams of their own: the other extensions draw what they drew before these were added
    written = random.Random(f"autograd-oracle/{VERSION}/exp_/{seed}/{index}")
    constructed = random.Random(f"autograd-oracle/{VERSION}/constructor/{seed}/{index}")
    product = random.Random(f"autograd-oracle/{VERSION}/mm/{seed}/{index}")
    elements = random.Random(f"autograd-oracle/{VERSION}/prod/{seed}/{index}")
    cut = random.Random(f"autograd-oracle/{VERSION}/pieces/{seed}/{index}")
    extensions = (matrix_product(product), element_product(elements), pieces(cut),
                  saved_tensors_hooks(rng),
                  custom_function(rng), torch_hooks_and_modes(rng), in_place_exp(written),
                  leaf_constructor(constructed))

    def extend(p: Program, scenario: Callable[[Program], None]) -> None:
        for extension in extensions:
            extension(p, scenario)
    training, functional, modules = training_step(rng), functional_api(rng), module_training(rng)
    functions = tensor_functions(random.Random(f"autograd-oracle/{VERSION}/functions/{seed}/{index}"))

    def after(p: Program, scenario: Callable[[Program], None]) -> None:
        training(p, scenario)
        functional(p, scenario)
        modules(p, scenario)
        functions(p, scenario)
    return base.build_case(seed, index, VERSION, extend, after, wide=wide, dtype=dtype)
