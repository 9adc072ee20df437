"""Generator version 3: version 2's programs, some of them through a custom function.

A case is version 2's case of the same seed and index (ids ``gen3/...``) unless a stream of its
own (seeded with version 3's string) picks it, about one in eight, to pass a value through a
custom function (``torch.autograd.Function`` / ``paddle.autograd.PyLayer``) just before the
autograd scenario: the scenario then differentiates through it. The function is one of a table
of forwards with their derivatives written in the vocabulary (saving an input, the output or
nothing), sometimes with a second input (a tensor that may not require grad), a gradient left
``None``, or one gradient too many (the frameworks' errors).

paddle 3.3.1 crashes running a PyLayer node a backward already ran, so a program whose scenario
may run the node twice (accumulation, retained graphs, higher orders) is torch's only.
"""

from __future__ import annotations

import math
import random
from typing import Any, Callable

from conformance.generators import v2
from conformance.generators.v2 import Node, Program

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
    "Scale": lambda b: 3.0 * b, "Square": lambda b: b * b, "Exp": math.exp,
    "Sin": lambda b: 1.0, "Tanh": lambda b: 1.0, "Mul": lambda b: b * 2.0}
MUL = ([_let("o", "mul", "a", "b")], ["a", "b"],
       [_let("ga", "mul", "g", "b"), _let("gb", "mul", "g", "a")])

# scenarios that differentiate once through every node (paddle runs a PyLayer node once)
SINGLE_PASS = {v2.s_implicit, v2.s_implicit_non_scalar, v2.s_explicit, v2.s_none_entry,
               v2.s_wrong_shape, v2.s_wrong_count, v2.s_other_dtype, v2.s_allow_unused,
               v2.s_no_grad_input, v2.s_no_grad_vars}


def custom_function(rng: random.Random) -> Callable[[Program, Callable[[Program], None]], None]:
    """The extension of version 2's case: maybe a custom function before the scenario."""
    def extend(p: Program, scenario: Callable[[Program], None]) -> None:
        if rng.random() >= SHARE:
            return
        source = v2.output(p)
        node = p.nodes[source]
        name = p.fresh(rng.choice(sorted(UNARY)) if rng.random() < 0.7 else "Mul")
        kind = name.rstrip("0123456789")
        args = [source]
        if kind == "Mul":
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
        step: dict[str, Any] = {"function": name, "inputs": inputs, "forward": forward,
                                "output": "o", "output_grad": "g", "derivative": derivative,
                                "input_grads": input_grads}
        if save:
            step["save"] = save
        p.emit(step)
        out = p.fresh("v")
        p.emit({"apply": name, "args": args, "into": out})
        p.nodes[out] = Node(node.shape, positive, any(p.nodes[a].requires_grad for a in args),
                            False, bound=BOUNDS[kind](node.bound), dtype=node.dtype)
        p.tags.add("custom_function")
        if scenario not in SINGLE_PASS:
            p.only("torch")
    return extend


def generate_case(seed: int, index: int) -> dict[str, Any]:
    """Case ``index`` of the corpus ``seed``."""
    rng = random.Random(f"autograd-oracle/{VERSION}/{seed}/{index}")
    return v2.build_case(seed, index, VERSION, custom_function(rng))
