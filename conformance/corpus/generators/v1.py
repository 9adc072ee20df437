"""Generator version 1, the default corpus's: random autograd programs over the first feature matrix.

``generate(seed, count)`` returns ``count`` case objects (JSON-ready dicts). Case ``i`` depends
only on (``GENERATOR_VERSION``, ``seed``, ``i``): its random stream is seeded with a string,
which Python hashes with SHA-512 on every platform, and values are rounded to three decimals,
so the same triple gives byte-identical JSON on any machine — and any slice of a corpus can be
regenerated alone. A program is a small DAG (random shapes: 0-d, size-1 dimensions,
broadcasting, batched matmul; shared subexpressions; unused, detached and no-grad inputs) followed
by an autograd scenario from the feature matrix. Values stay in each op's smooth domain: kinks
(abs, relu, max, minimum …) only ever see leaves, whose values are distinct and away from zero;
log and sqrt only see positive values; division only divides by positive values.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from conformance.corpus.case import names_in
from conformance.corpus.generators.shapes import broadcast, nest

VERSION = 1
SHAPES: tuple[tuple[int, ...], ...] = ((), (3,), (2, 3), (1, 3), (2, 1), (3, 1), (2, 2, 3))


@dataclass
class Node:
    shape: tuple[int, ...]
    positive: bool
    requires_grad: bool
    is_leaf: bool
    leaves: frozenset[str] = frozenset()  # the leaves requiring grad this value depends on
    bound: float = 2.0  # an upper bound of |value|: keeps float32 results well-conditioned


@dataclass
class Program:
    """A program under construction: its steps, its named values and the buckets it exercises."""

    rng: random.Random
    dtype: str
    steps: list[dict[str, Any]] = field(default_factory=list)
    nodes: dict[str, Node] = field(default_factory=dict)
    tags: set[str] = field(default_factory=set)
    counter: int = 0

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def values(self, shape: tuple[int, ...], positive: bool) -> Any:
        n = math.prod(shape)
        magnitudes = self.rng.sample(range(300, 1900), n)  # distinct: no ties anywhere
        flat = [round((m / 1000.0) * (1 if positive or self.rng.random() < 0.5 else -1), 3)
                for m in magnitudes]
        return nest(flat, shape)

    def leaf(self, shape: tuple[int, ...], requires_grad: bool = True, positive: bool = False) -> str:
        name = self.fresh("x")
        step: dict[str, Any] = {"leaf": name, "value": self.values(shape, positive), "dtype": self.dtype}
        if requires_grad:
            step["requires_grad"] = True
        self.steps.append(step)
        self.nodes[name] = Node(shape, positive, requires_grad, True,
                                frozenset([name]) if requires_grad else frozenset())
        return name

    def let(self, op: str, args: list[Any], out_shape: tuple[int, ...], positive: bool = False,
            bound: Optional[float] = None, **kwargs: Any) -> str:
        name = self.fresh("v")
        step: dict[str, Any] = {"let": name, "op": op, "args": args}
        if kwargs:
            step["kwargs"] = kwargs
        self.steps.append(step)
        used = names_in(args)
        requires = any(self.nodes[a].requires_grad for a in used) and op != "detach"
        leaves = frozenset().union(*(self.nodes[a].leaves for a in used)) if requires else frozenset()
        if bound is None:
            bound = max([self.nodes[a].bound for a in used] + [2.0])
        self.nodes[name] = Node(out_shape, positive, requires, False, leaves, bound)
        return name

    def pick(self, where: Callable[[Node], bool] = lambda n: True) -> Optional[str]:
        names = [n for n, node in self.nodes.items() if where(node)]
        return self.rng.choice(names) if names else None


def _dimensioned(node: Node) -> bool:
    """A value that requires grad and has at least one dimension (reductions, shape ops)."""
    return node.requires_grad and len(node.shape) >= 1








# --- forward programs -----------------------------------------------------------------------

MAX_BOUND = 20.0


def _unary(p: Program) -> bool:
    name = p.pick(lambda n: n.requires_grad)
    if name is None:
        return False
    node = p.nodes[name]
    choices = ["tanh", "sigmoid", "neg", "clone"]
    if node.bound <= 4.0:  # periodic functions of large arguments are ill-conditioned in float32
        choices += ["sin", "cos"]
    if node.bound <= 2.5:
        choices.append("exp")
    if node.positive:
        choices += ["log", "sqrt"]
    if node.is_leaf:
        choices += ["abs", "relu"]
    op = p.rng.choice(choices)
    bound = {"exp": 2.718 ** node.bound, "sin": 1.0, "cos": 1.0, "tanh": 1.0, "sigmoid": 1.0,
             "log": max(node.bound, 2.0)}.get(op, node.bound)
    p.let(op, [name], node.shape, positive=op in ("exp", "sigmoid", "sqrt"), bound=bound)
    return True


def _binary(p: Program) -> bool:
    a = p.pick(lambda n: n.requires_grad)
    if a is None:
        return False
    sa = p.nodes[a].shape
    op = p.rng.choice(["add", "sub", "mul", "mul", "div", "maximum", "pow", "pow"])
    bound = p.nodes[a].bound
    if op == "pow":
        if bound ** 3 > MAX_BOUND:
            return False
        if p.rng.random() < 0.5:
            exponent = p.rng.choice([2, 3])
            p.let("pow", [a, exponent], sa, bound=bound ** exponent)
        else:
            p.let("pow", [2.0, a], sa, positive=True, bound=2.0 ** bound)
        return True
    if op == "maximum":
        b = p.pick(lambda n: n.is_leaf and n.shape == sa and n is not p.nodes[a])
        if b is None or not p.nodes[a].is_leaf:
            return False
        p.let(p.rng.choice(["maximum", "minimum"]), [a, b], sa)
        return True
    if p.rng.random() < 0.3 or op == "div":
        scalar = round(p.rng.uniform(0.5, 2.0), 3)
        p.let(op, [a, scalar], sa, positive=p.nodes[a].positive and op in ("mul", "div", "add"),
              bound=bound * (2.0 if op in ("mul", "div") else 1.0) + 2.0)
        return True
    b = p.pick(lambda n: broadcast(sa, n.shape) is not None and (op != "div" or n.positive)
               and (op != "mul" or n.bound * bound <= MAX_BOUND))
    if b is None or op == "div":  # a quotient's bound is unknown: divide by numbers only
        return False
    shape = broadcast(sa, p.nodes[b].shape)
    assert shape is not None
    p.let(op, [a, b], shape, positive=p.nodes[a].positive and p.nodes[b].positive
          and op in ("add", "mul", "div"),
          bound=bound * p.nodes[b].bound if op == "mul" else bound + p.nodes[b].bound)
    return True


def _reduce(p: Program) -> bool:
    a = p.pick(_dimensioned)
    if a is None:
        return False
    node = p.nodes[a]
    ops = ["sum", "mean"] + (["amax", "amin", "max", "min"] if node.is_leaf else [])
    op = p.rng.choice(ops)
    bound = node.bound * math.prod(node.shape) if op == "sum" else node.bound
    if bound > MAX_BOUND:
        return False
    if p.rng.random() < 0.4:
        p.let(op, [a], (), positive=node.positive, bound=bound)
        return True
    dim = p.rng.randrange(len(node.shape))
    keepdim = p.rng.random() < 0.3
    shape = tuple(1 if i == dim else s for i, s in enumerate(node.shape)) if keepdim else \
        tuple(s for i, s in enumerate(node.shape) if i != dim)
    p.let(op, [a], shape, positive=node.positive, bound=bound, dim=dim, keepdim=keepdim)
    return True


def _shape_op(p: Program) -> bool:
    a = p.pick(_dimensioned)
    if a is None:
        return False
    node = p.nodes[a]
    shape = node.shape
    choice = p.rng.choice(["reshape", "transpose", "unsqueeze", "expand", "getitem", "softmax"])
    if choice == "reshape":
        n = math.prod(shape)
        p.let("reshape", [a], (n,), positive=node.positive, shape=[n])
    elif choice == "transpose" and len(shape) >= 2:
        new = list(shape)
        new[0], new[-1] = new[-1], new[0]
        p.let("transpose", [a], tuple(new), positive=node.positive, dim0=0, dim1=len(shape) - 1)
    elif choice == "expand" and 1 in shape:
        new = tuple(3 if s == 1 else s for s in shape)
        p.let("expand", [a], new, positive=node.positive, shape=list(new))
    elif choice == "getitem":
        p.let("getitem", [a], shape[1:], positive=node.positive, index=[shape[0] - 1])
    elif choice == "softmax":
        dim = p.rng.randrange(len(shape))
        op = p.rng.choice(["softmax", "log_softmax"])
        p.let(op, [a], shape, positive=op == "softmax", dim=dim)
    else:
        dim = p.rng.randrange(len(shape) + 1)
        p.let("unsqueeze", [a], shape[:dim] + (1,) + shape[dim:], positive=node.positive, dim=dim)
    return True


def _matmul(p: Program) -> bool:
    kind = p.rng.choice(["dot", "mv", "mm", "vm", "batched", "broadcast"])
    k = p.rng.choice([2, 3])
    shapes = {"dot": ((k,), (k,)), "mv": ((2, k), (k,)), "mm": ((2, k), (k, 2)),
              "vm": ((k,), (k, 2)), "batched": ((2, 2, k), (2, k, 2)),
              "broadcast": ((2, 1, 2, k), (3, k, 2))}[kind]
    a = p.leaf(shapes[0])
    b = p.leaf(shapes[1], requires_grad=p.rng.random() < 0.7)
    out = {"dot": (), "mv": (2,), "mm": (2, 2), "vm": (2,), "batched": (2, 2, 2),
           "broadcast": (2, 3, 2, 2)}[kind]
    p.let("matmul", [a, b], out, bound=k * p.nodes[a].bound * p.nodes[b].bound)
    return True


def _combine(p: Program) -> bool:
    a = p.pick(_dimensioned)
    if a is None:
        return False
    shape = p.nodes[a].shape
    b = p.pick(lambda n: n.shape == shape)
    assert b is not None
    if p.rng.random() < 0.5:
        p.let("cat", [[a, b]], (shape[0] * 2,) + shape[1:], dim=0)
    else:
        p.let("stack", [[a, b]], (2,) + shape, dim=0)
    return True


FORWARD: tuple[tuple[Callable[[Program], bool], int], ...] = (
    (_unary, 5), (_binary, 5), (_reduce, 2), (_shape_op, 2), (_matmul, 1), (_combine, 1))


def build_forward(p: Program) -> None:
    """Leaves (some without grad, some unused later), then a DAG of 2-6 operations."""
    for _ in range(p.rng.randint(1, 3)):
        p.leaf(p.rng.choice(SHAPES), requires_grad=True, positive=p.rng.random() < 0.3)
    if p.rng.random() < 0.3:
        p.leaf(p.rng.choice(SHAPES), requires_grad=False)
    ops, weights = zip(*FORWARD)
    target = p.rng.randint(2, 6)
    made = 0
    for _ in range(target * 4):
        if made >= target:
            break
        made += p.rng.choices(ops, weights)[0](p)
    if made == 0 or not any(not n.is_leaf and n.requires_grad for n in p.nodes.values()):
        _unary(p) or p.let("exp", [p.leaf((2,))], (2,), positive=True)


def output(p: Program) -> str:
    """The latest value that requires grad (a shared subexpression is used more than once)."""
    return [n for n, node in p.nodes.items() if not node.is_leaf and node.requires_grad][-1]


def scalar_loss(p: Program, name: str) -> str:
    if p.nodes[name].shape == ():
        return name
    return p.let("sum", [name], ())


def grad_leaves(p: Program) -> list[str]:
    return [n for n, node in p.nodes.items() if node.is_leaf and node.requires_grad]


def observe_grads(p: Program) -> None:
    for name in grad_leaves(p):
        p.steps.append({"observe": "grad", "of": name})


def seed_value(p: Program, shape: tuple[int, ...]) -> dict[str, Any]:
    return {"value": p.values(shape, positive=True)}


# --- autograd scenarios ---------------------------------------------------------------------

def s_implicit(p: Program) -> None:
    loss = scalar_loss(p, output(p))
    if p.rng.random() < 0.5:
        p.steps.append({"backward": loss, "api": p.rng.choice(["function", "method"])})
        observe_grads(p)
    else:
        p.steps.append({"grad": loss, "wrt": grad_leaves(p)})
    p.tags.add("seed:implicit-scalar")


def s_implicit_non_scalar(p: Program) -> None:
    out = output(p)
    if p.nodes[out].shape == ():
        out = p.let("unsqueeze", [out], (1,), dim=0)
        out = p.let("expand", [out], (2,), shape=[2])
    p.steps.append({"backward": out})
    observe_grads(p)
    p.tags |= {"seed:implicit-scalar", "error_path"}


def s_explicit(p: Program) -> None:
    out = output(p)
    seed = seed_value(p, p.nodes[out].shape)
    if p.rng.random() < 0.5:
        p.steps.append({"backward": out, "seeds": [seed], "api": p.rng.choice(["function", "method"])})
        observe_grads(p)
    else:
        p.steps.append({"grad": out, "wrt": grad_leaves(p), "seeds": [seed]})
    p.tags.add("seed:explicit")


def s_none_entry(p: Program) -> None:
    a = output(p)
    b = p.let("mul", [a, a], p.nodes[a].shape)
    seeds = [seed_value(p, p.nodes[a].shape), None]
    if p.rng.random() < 0.5:
        p.steps.append({"backward": [a, b], "seeds": seeds})
        observe_grads(p)
    else:
        p.steps.append({"grad": [a, b], "wrt": grad_leaves(p), "seeds": seeds})
    p.tags |= {"seed:none-entry", "seed:explicit"}


def s_wrong_shape(p: Program) -> None:
    out = output(p)
    shape = p.nodes[out].shape
    wrong = (4,) if shape != (4,) else (5,)
    p.steps.append({"backward": out, "seeds": [seed_value(p, wrong)], "api": "method"})
    observe_grads(p)
    p.tags |= {"seed:wrong-shape", "error_path"}


def s_wrong_count(p: Program) -> None:
    a = scalar_loss(p, output(p))
    b = p.let("mul", [a, 2.0], ())
    seeds = [seed_value(p, ())] if p.rng.random() < 0.6 else [{"scalar": 1.0}, None]
    if p.rng.random() < 0.5:
        p.steps.append({"backward": [a, b], "seeds": seeds})
    else:
        p.steps.append({"grad": [a, b], "wrt": grad_leaves(p), "seeds": seeds})
    p.tags |= {"seed:wrong-count", "error_path"}


def s_other_dtype(p: Program) -> None:
    out = output(p)
    other = "float64" if p.dtype == "float32" else "float32"
    seed = {"value": p.values(p.nodes[out].shape, True), "dtype": other}
    p.steps.append({"backward": out, "seeds": [seed]})
    observe_grads(p)
    p.tags.add("seed:other-dtype")


def s_accumulation(p: Program) -> None:
    loss = scalar_loss(p, output(p))
    calls = p.rng.randint(1, 3)
    for i in range(calls):
        last = i == calls - 1
        p.steps.append({"backward": loss, "retain_graph": not last} if not last else {"backward": loss})
        observe_grads(p)
        if not last and p.rng.random() < 0.4:
            p.steps.append({"grad": loss, "wrt": grad_leaves(p), "retain_graph": True})
        if not last and p.rng.random() < 0.4:
            p.steps.append({"clear_grad": p.rng.choice(grad_leaves(p)),
                            "to": p.rng.choice(["none", "zeros"])})
            p.tags.add("clearing")
    p.tags.add("accumulation")
    if calls > 1:
        p.tags.add("retain_graph")


def s_retain_graph(p: Program) -> None:
    loss = scalar_loss(p, output(p))
    mode = p.rng.choice(["off", "on", "repeated", "grad-then-backward"])
    if mode == "grad-then-backward":
        p.steps.append({"grad": loss, "wrt": grad_leaves(p)})
        p.steps.append({"backward": loss})
    else:
        for i in range(3 if mode == "repeated" else 2):
            p.steps.append({"backward": loss, "retain_graph": mode != "off"} if i < 1 or mode == "repeated"
                           else {"backward": loss})
            observe_grads(p)
    p.tags |= {"retain_graph", "error_path"}


def s_allow_unused(p: Program) -> None:
    loss = scalar_loss(p, output(p))
    unused = p.leaf(p.rng.choice(SHAPES))
    wrt = grad_leaves(p)
    step: dict[str, Any] = {"grad": loss, "wrt": wrt}
    choice = p.rng.choice(["off", "on", "none", "materialize"])
    if choice == "on":
        step["allow_unused"] = True
    elif choice == "off":
        step["allow_unused"] = False
        p.tags.add("error_path")
    elif choice == "materialize":
        step["materialize_grads"] = True
        p.tags.add("materialize_grads")
    p.steps.append(step)
    del unused
    p.tags.add("allow_unused")


def s_no_grad_input(p: Program) -> None:
    loss = scalar_loss(p, output(p))
    const = p.pick(lambda n: n.is_leaf and not n.requires_grad) or p.leaf((2,), requires_grad=False)
    wrt = grad_leaves(p) + [const]
    p.steps.append({"grad": loss, "wrt": wrt, "allow_unused": p.rng.random() < 0.5})
    p.tags |= {"no_grad_input", "allow_unused", "error_path"}


def s_create_graph(p: Program) -> None:
    loss = scalar_loss(p, output(p))
    wrt = sorted(p.nodes[loss].leaves)  # only leaves the loss uses: their gradients exist
    order = p.rng.randint(1, 3)
    current = loss
    for _ in range(order):
        into = [p.fresh("g") for _ in wrt]
        p.steps.append({"grad": current, "wrt": wrt, "create_graph": True, "allow_unused": True,
                        "into": into})
        for name, leaf in zip(into, wrt):
            p.nodes[name] = Node(p.nodes[leaf].shape, False, True, False, frozenset(wrt))
        total = p.let("sum", [into[0]], ())
        current = total
    if p.rng.random() < 0.5:
        p.steps.append({"backward": current})
        observe_grads(p)
    else:
        p.steps.append({"grad": current, "wrt": wrt, "allow_unused": True})
    p.tags |= {"create_graph"} | ({"higher_order"} if order > 1 else set())


def s_error_path(p: Program) -> None:
    loss = scalar_loss(p, output(p))
    kind = p.rng.choice(["leaf-inplace", "empty-inputs", "duplicate-inputs", "output-no-grad",
                         "saved-modified"])
    if kind == "leaf-inplace":
        p.steps.append({"inplace": grad_leaves(p)[0], "op": "add", "args": [1.0]})
    elif kind == "empty-inputs":
        p.steps.append({"grad": loss, "wrt": []})
    elif kind == "duplicate-inputs":
        leaf = grad_leaves(p)[0]
        p.steps.append({"grad": loss, "wrt": [leaf, leaf]})
    elif kind == "output-no-grad":
        const = p.leaf((2,), requires_grad=False)
        p.steps.append({"backward": p.let("sum", [const], ())})
    else:
        e = p.let("exp", [output(p)], p.nodes[output(p)].shape, positive=True)
        p.steps.append({"inplace": e, "op": "mul", "args": [2.0]})
        p.steps.append({"backward": scalar_loss(p, e)})
    p.tags.add("error_path")


SCENARIOS: tuple[tuple[Callable[[Program], None], int], ...] = (
    (s_implicit, 3), (s_implicit_non_scalar, 1), (s_explicit, 2), (s_none_entry, 1),
    (s_wrong_shape, 1), (s_wrong_count, 1), (s_other_dtype, 1), (s_accumulation, 2),
    (s_retain_graph, 2), (s_allow_unused, 2), (s_no_grad_input, 1), (s_create_graph, 2),
    (s_error_path, 1),
)


def generate_case(seed: int, index: int) -> dict[str, Any]:
    """Case ``index`` of the corpus ``seed``."""
    rng = random.Random(f"autograd-oracle/{VERSION}/{seed}/{index}")
    scenarios, weights = zip(*SCENARIOS)
    scenario = rng.choices(scenarios, weights)[0]
    # third derivatives in float32 differ between implementations by more than float32's
    # tolerances (rounding compounds), so higher orders are generated in float64
    p = Program(rng, "float64" if scenario is s_create_graph or rng.random() < 0.2 else "float32")
    build_forward(p)
    scenario(p)
    name = scenario.__name__[2:].replace("_", "-")
    return {"id": f"gen/{seed}/{index:05d}-{name}",
            "about": f"generated: {name} after a {len(p.steps)}-step program",
            "tags": sorted(p.tags), "steps": p.steps}
