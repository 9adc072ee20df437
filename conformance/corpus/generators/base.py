"""The generators' base: random autograd programs over the whole feature matrix, and the points
where a later version extends them.

Every version builds its cases here (``build_case``): version 2 as they are, version 3 with
extensions called around the autograd scenario, version 4 on top of version 3. A case's random
stream is seeded with a string, which Python hashes with SHA-512 on every platform, and values
are rounded to three decimals, so the same (version, seed, index) gives byte-identical JSON on
any machine, and any slice of a corpus can be regenerated alone. The base's stream is named
after version 2, whose corpus it first made: every later version starts from the same draws.

A case is built in three layers:

1. a **forward program**: leaves, then operations drawn evenly from every op of the vocabulary
   in every argument form (negative and tuple dims, keepdim, one- and two-sided clamps with
   number and tensor bounds, tensor exponents, broadcast conditions, casts, size-1 middle dims,
   advanced indices), some of them at their **special points** (ties, zeros, exact bounds,
   the edge of log's and sqrt's domains);
2. **mixins** around it: tensor hooks (scaling or returning None, several, removed, before and
   after ``retain_grad``), grad-mode blocks (``no_grad``, ``enable_grad`` inside it,
   ``set_grad_enabled(False)``) with views made inside them and written to later, ``detach`` /
   ``detach_`` and writes through the detached tensor, and in-place ops on leaves, non-leaves,
   views and the tensors an op saved;
3. an **autograd scenario**: backward and grad with every keyword, seeds of every kind (named and
   looked at later), accumulation with ``.grad`` held under a name, clearing, repeated
   ``create_graph`` passes and the error paths.

Away from special points values stay in each op's smooth domain: kinks only see leaves whose
values are distinct and away from zero; log and sqrt only see positive values; magnitudes are
bounded so float32 results stay well-conditioned.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from conformance.corpus.case import names_in
from conformance.corpus.generators.shapes import broadcast, nest

STREAM_VERSION = 2  # the base stream's name (see above); not a version's number
SHAPES: tuple[tuple[int, ...], ...] = ((), (3,), (2, 3), (1, 3), (2, 1), (3, 1), (2, 1, 3),
                                       (2, 2, 3))
MAX_BOUND = 20.0
BOTH = ("torch", "paddle")


@dataclass
class Node:
    shape: tuple[int, ...]
    positive: bool
    requires_grad: bool
    is_leaf: bool
    bound: float = 2.0   # an upper bound of |value|: keeps float32 results well-conditioned
    view_of: Optional[str] = None
    made_without_grad: bool = False
    dtype: str = "float32"


@dataclass
class Program:
    """A program under construction: its steps, named values, dialects and declared features."""

    rng: random.Random
    dtype: str
    steps: list[dict[str, Any]] = field(default_factory=list)
    nodes: dict[str, Node] = field(default_factory=dict)
    tags: set[str] = field(default_factory=set)
    dialects: set[str] = field(default_factory=lambda: set(BOTH))
    counter: int = 0
    grad_enabled: bool = True
    saved_by: dict[str, list[str]] = field(default_factory=dict)  # tensor -> ops that saved it
    hooked_roots: set[str] = field(default_factory=set)  # storage of views that carry hooks

    # --- names and values --------------------------------------------------------------------

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def values(self, shape: tuple[int, ...], positive: bool = False, low: int = 300,
               high: int = 1900) -> Any:
        n = math.prod(shape)
        # distinct: no ties anywhere; a tensor of more elements than the range has thousandths
        # draws from finer steps (no case drew one before: the sample raised)
        finer = 1 if n <= high - low else 10 ** math.ceil(math.log10(n / (high - low)))
        magnitudes = self.rng.sample(range(low * finer, high * finer), n)
        digits = 3 + round(math.log10(finer))
        flat = [round((m / (1000.0 * finer)) * (1 if positive or self.chance(0.5) else -1), digits)
                for m in magnitudes]
        return nest(flat, shape)

    def emit(self, step: dict[str, Any]) -> None:
        self.steps.append(step)

    def leaf(self, shape: tuple[int, ...], requires_grad: bool = True, positive: bool = False,
             value: Any = None, dtype: Optional[str] = None) -> str:
        name = self.fresh("x")
        dtype = dtype or self.dtype
        step: dict[str, Any] = {"leaf": name, "dtype": dtype,
                                "value": self.values(shape, positive) if value is None else value}
        if requires_grad or self.chance(0.2):  # an explicit False now and then
            step["requires_grad"] = requires_grad
        self.emit(step)
        self.nodes[name] = Node(shape, positive, requires_grad, True, dtype=dtype)
        return name

    def let(self, op: str, args: list[Any], out_shape: tuple[int, ...], positive: bool = False,
            bound: Optional[float] = None, view: bool = False, saves: tuple[str, ...] = (),
            out_dtype: Optional[str] = None, **kwargs: Any) -> str:
        name = self.fresh("v")
        step: dict[str, Any] = {"let": name, "op": op, "args": args}
        if kwargs:
            step["kwargs"] = kwargs
        self.emit(step)
        used = names_in(args) + [v for v in kwargs.values() if isinstance(v, str) and v in self.nodes]
        requires = self.grad_enabled and op != "detach" and any(
            self.nodes[a].requires_grad for a in used)
        if bound is None:
            bound = max([self.nodes[a].bound for a in used] + [2.0])
        first = next((self.nodes[a] for a in used if self.nodes[a].dtype != "bool"), None)
        self.nodes[name] = Node(out_shape, positive, requires, False, bound,
                                view_of=used[0] if view and used else None,
                                made_without_grad=not self.grad_enabled,
                                dtype=out_dtype or (first.dtype if first else self.dtype))
        if self.grad_enabled:
            for saved in saves:
                self.saved_by.setdefault(saved, []).append(op)
        return name

    def pick(self, where: Callable[[Node], bool] = lambda n: True) -> Optional[str]:
        """A random named value that satisfies ``where`` (booleans only serve as conditions)."""
        names = [n for n, node in self.nodes.items() if node.dtype != "bool" and where(node)]
        return self.rng.choice(names) if names else None

    def only(self, *dialects: str) -> None:
        self.dialects &= set(dialects)

    def storage_root(self, name: str) -> str:
        """The tensor whose memory ``name`` views (itself when it is no view)."""
        while self.nodes[name].view_of is not None:
            name = self.nodes[name].view_of  # type: ignore[assignment]
        return name

    def writable(self, name: str) -> bool:
        """Whether a write to ``name`` keeps clear of hooked views: torch moves a view's hooks
        away once its base changes, a history rewrite the reference does not model."""
        return self.storage_root(name) not in self.hooked_roots








def _grad_value(n: Node) -> bool:
    return n.requires_grad


def _dimensioned(n: Node) -> bool:
    return n.requires_grad and len(n.shape) >= 1


def _dimensioned_or_new(p: Program, also: Callable[[Node], bool] = lambda n: True) -> str:
    """A value with a dimension that requires grad (and satisfies ``also``), or a new leaf."""
    return p.pick(lambda n: _dimensioned(n) and also(n)) or p.leaf(p.rng.choice(SHAPES[1:]))


# --- special points: leaves whose values sit where an op is not smooth ------------------------

def _tied(p: Program, shape: tuple[int, ...], maximum: bool) -> Any:
    """Values whose extremum appears at least twice (in every row, for a dim reduction)."""
    flat = [v for v in _flat(p.values(shape))]
    n = len(flat)
    if n >= 2:
        extreme = max(flat) if maximum else min(flat)
        i, j = p.rng.sample(range(n), 2)
        flat[i] = flat[j] = round(extreme + (0.25 if maximum else -0.25), 3)
        if len(shape) >= 2:  # ties along the last dim of every row too
            row = shape[-1]
            for r in range(n // row):
                if row >= 2:
                    flat[r * row] = flat[r * row + 1] = round(
                        (max if maximum else min)(flat[r * row:(r + 1) * row]), 3)
    return nest(flat, shape)


def _flat(value: Any) -> list[float]:
    if isinstance(value, list):
        return [x for v in value for x in _flat(v)]
    return [value]


def _with_zeros(p: Program, shape: tuple[int, ...], positive: bool = False) -> Any:
    flat = _flat(p.values(shape, positive))
    for i in p.rng.sample(range(len(flat)), max(1, len(flat) // 3)):
        flat[i] = 0.0
    return nest(flat, shape)


# --- forward operations: one builder per op of the vocabulary ------------------------------------

Builder = Callable[[Program, bool], bool]   # (program, at a special point) -> built?


def _unary(op: str) -> Builder:
    def build(p: Program, special: bool) -> bool:
        if special and op in ("abs", "relu", "sqrt", "log"):
            shape = p.rng.choice(SHAPES[1:])
            value = _with_zeros(p, shape, positive=op in ("sqrt", "log") and p.chance(0.7))
            a = p.leaf(shape, value=value)
            p.tags.add(f"special:{op}")
            p.let(op, [a], shape, bound=5.0)
            return True
        need_positive = op in ("log", "sqrt")
        a = p.pick(lambda n: _grad_value(n) and (n.positive or not need_positive)
                   and (op not in ("abs", "relu") or n.is_leaf)
                   and (op not in ("sin", "cos") or n.bound <= 4.0)
                   and (op != "exp" or n.bound <= 2.5))
        if a is None:
            a = p.leaf(p.rng.choice(SHAPES), positive=need_positive)
        node = p.nodes[a]
        bound = {"exp": 2.718 ** node.bound, "sin": 1.0, "cos": 1.0, "tanh": 1.0, "sigmoid": 1.0,
                 "log": max(node.bound, 2.0)}.get(op, node.bound)
        p.let(op, [a], node.shape, positive=op in ("exp", "sigmoid", "sqrt") or (
            node.positive and op in ("clone", "detach", "abs", "relu")), bound=bound,
            saves=(a,) if op in ("log", "abs", "sin", "cos") else ())
        return True
    return build


def _binary(op: str) -> Builder:
    def build(p: Program, special: bool) -> bool:
        if op in ("maximum", "minimum"):
            shape = p.rng.choice(SHAPES)
            a = p.leaf(shape)
            if special and shape:
                flat_a = _flat(p.steps[-1]["value"])
                flat_b = [x if p.chance(0.5) else round(-x, 3) for x in flat_a]
                b = p.leaf(shape, value=nest(flat_b, shape), requires_grad=p.chance(0.8))
                p.tags.add(f"special:{op}")
            else:
                b = p.leaf(p.rng.choice([shape, shape[1:]]) if shape else shape,
                           requires_grad=p.chance(0.8))
            p.let(op, [a, b], broadcast(shape, p.nodes[b].shape) or shape, saves=(a, b))
            return True
        if op == "pow":
            return _pow(p, special)
        a = p.pick(_grad_value)
        if a is None:
            a = p.leaf(p.rng.choice(SHAPES))
        sa, bound = p.nodes[a].shape, p.nodes[a].bound
        if op == "div" or p.chance(0.35):
            scalar = round(p.rng.uniform(0.5, 2.0), 3)
            args = [scalar, a] if op != "div" and p.chance(0.3) else [a, scalar]
            p.let(op, args, sa, positive=p.nodes[a].positive and op in ("mul", "div", "add"),
                  bound=bound * (2.0 if op in ("mul", "div") else 1.0) + 2.0)
            return True
        b = p.pick(lambda n: broadcast(sa, n.shape) is not None
                   and (op != "mul" or n.bound * bound <= MAX_BOUND))
        if b is None:
            return False
        shape = broadcast(sa, p.nodes[b].shape)
        assert shape is not None
        p.let(op, [a, b], shape, positive=p.nodes[a].positive and p.nodes[b].positive
              and op in ("add", "mul"),
              bound=bound * p.nodes[b].bound if op == "mul" else bound + p.nodes[b].bound,
              saves=(a, b) if op == "mul" else ())
        return True
    return build


def _pow(p: Program, special: bool) -> bool:
    if special:
        shape = p.rng.choice(SHAPES[1:])
        base = p.leaf(shape, value=_with_zeros(p, shape, positive=True))
        if p.chance(0.5):
            exponent = p.leaf(shape, value=p.values(shape, positive=True))
            p.let("pow", [base, exponent], shape, bound=10.0, saves=(base, exponent))
        else:
            p.let("pow", [base, p.rng.choice([2, 3, 0.5, 1.5])], shape, bound=10.0, saves=(base,))
        p.tags.add("special:pow")
        return True
    a = p.pick(lambda n: _grad_value(n) and n.bound ** 3 <= MAX_BOUND)
    if a is None:
        a = p.leaf(p.rng.choice(SHAPES))
    node = p.nodes[a]
    form = p.rng.choice(["number", "number", "tensor", "base"])
    if form == "number":
        exponent = p.rng.choice([2, 3])
        p.let("pow", [a, exponent], node.shape, bound=node.bound ** exponent, saves=(a,))
    elif form == "base":
        p.let("pow", [2.0, a], node.shape, positive=True, bound=2.0 ** node.bound, saves=(a,))
    else:  # a tensor exponent needs a positive base
        base = p.leaf(node.shape, positive=True)
        p.let("pow", [base, a], node.shape, positive=True, bound=2.0 ** node.bound,
              saves=(base, a))
    return True


def _matmul(p: Program, special: bool) -> bool:
    kind = p.rng.choice(["dot", "mv", "mm", "vm", "batched", "broadcast"])
    k = p.rng.choice([2, 3])
    shapes = {"dot": ((k,), (k,)), "mv": ((2, k), (k,)), "mm": ((2, k), (k, 2)),
              "vm": ((k,), (k, 2)), "batched": ((2, 2, k), (2, k, 2)),
              "broadcast": ((2, 1, 2, k), (3, k, 2))}[kind]
    a = p.leaf(shapes[0])
    b = p.leaf(shapes[1], requires_grad=p.chance(0.7))
    out = {"dot": (), "mv": (2,), "mm": (2, 2), "vm": (2,), "batched": (2, 2, 2),
           "broadcast": (2, 3, 2, 2)}[kind]
    p.let("matmul", [a, b], out, bound=k * p.nodes[a].bound * p.nodes[b].bound, saves=(a, b))
    return True


def _reduction(op: str) -> Builder:
    def build(p: Program, special: bool) -> bool:
        extremum = op in ("max", "min", "amax", "amin")
        if extremum or special:
            shape = p.rng.choice(SHAPES[1:])
            value = _tied(p, shape, op in ("max", "amax")) if special else None
            a = p.leaf(shape, value=value)
            if special:
                p.tags.add(f"special:{op}")
        else:
            a = p.pick(lambda n: _dimensioned(n) and n.bound * math.prod(n.shape) <= MAX_BOUND)
            if a is None:
                return False
        node = p.nodes[a]
        bound = node.bound * math.prod(node.shape) if op == "sum" else node.bound
        saves = (a,) if extremum else ()
        ndim = len(node.shape)
        form = p.rng.choice(["all", "dim", "negative", "tuple"] if op not in ("max", "min") else
                            ["all", "dim", "negative"])
        if form == "all":
            p.let(op, [a], (), positive=node.positive, bound=bound, saves=saves)
            return True
        if form == "tuple" and ndim >= 2:
            dims = sorted(p.rng.sample(range(ndim), 2))
            dim: Any = [d - ndim if p.chance(0.5) else d for d in dims]
        else:
            dims = [p.rng.randrange(ndim)]
            dim = dims[0] - ndim if form == "negative" else dims[0]
        keepdim = p.chance(0.4)
        shape = tuple(1 if i in dims else s for i, s in enumerate(node.shape)) if keepdim else \
            tuple(s for i, s in enumerate(node.shape) if i not in dims)
        p.let(op, [a], shape, positive=node.positive, bound=bound, saves=saves, dim=dim,
              keepdim=keepdim)
        return True
    return build


def _clamp(p: Program, special: bool) -> bool:
    shape = p.rng.choice(SHAPES[1:])
    value = p.values(shape)
    low, high = round(p.rng.uniform(-1.2, -0.2), 3), round(p.rng.uniform(0.2, 1.2), 3)
    form = p.rng.choice(["both", "both", "min", "max", "tensor", "tensor-min", "tensor-max",
                         "min", "max"])
    if special:  # entries exactly at the bounds
        flat = _flat(value)
        for i in p.rng.sample(range(len(flat)), max(1, len(flat) // 2)):
            flat[i] = low if p.chance(0.5) else high
        value = nest(flat, shape)
        p.tags.add("special:clamp")
    a = p.leaf(shape, value=value)
    if form.startswith("tensor"):  # torch's clamp(Tensor min/max): the bounds get gradients
        p.only("torch")
        lo = hi = None
        if form != "tensor-max":
            lo = p.leaf(shape, value=nest([low] * math.prod(shape), shape))
        if form != "tensor-min":
            hi_shape = shape[1:] if p.chance(0.3) else shape  # a bound that broadcasts
            hi = p.leaf(hi_shape, value=nest([high] * math.prod(hi_shape), hi_shape))
        kwargs = {k: v for k, v in (("min", lo), ("max", hi)) if v is not None}
        p.let("clamp", [a], shape, bound=2.0, saves=(a,), **kwargs)
        return True
    kwargs = {"both": {"min": low, "max": high}, "min": {"min": low}, "max": {"max": high}}[form]
    p.let("clamp", [a], shape, bound=2.0, saves=(a,), **kwargs)
    return True


def _where(p: Program, special: bool) -> bool:
    a = p.pick(lambda n: _grad_value(n) and len(n.shape) >= 1)
    if a is None:
        a = p.leaf(p.rng.choice(SHAPES[1:]))
    shape = p.nodes[a].shape
    source = p.leaf(shape[-1:] if p.chance(0.4) else shape, requires_grad=False)
    condition = p.let(p.rng.choice(["gt", "lt"]), [source, 0.0], p.nodes[source].shape,
                      out_dtype="bool")
    if p.chance(0.3):
        b: Any = round(p.rng.uniform(-1.0, 1.0), 3)
    else:
        b = p.leaf(shape, requires_grad=p.chance(0.8))
    args = [condition, a, b] if p.chance(0.6) else [condition, b, a]
    p.let("where", args, shape, bound=p.nodes[a].bound + 2.0, saves=(condition,))
    return True


def _softmax(op: str) -> Builder:
    def build(p: Program, special: bool) -> bool:
        a = _dimensioned_or_new(p, lambda n: n.bound <= 10.0)
        ndim = len(p.nodes[a].shape)
        dim = p.rng.randrange(ndim)
        p.let(op, [a], p.nodes[a].shape, positive=op == "softmax", bound=12.0,
              dim=dim - ndim if p.chance(0.4) else dim)
        return True
    return build


def _shape_op(op: str) -> Builder:
    def build(p: Program, special: bool) -> bool:
        a = _dimensioned_or_new(p)
        node = p.nodes[a]
        shape, ndim = node.shape, len(node.shape)
        kw: dict[str, Any] = {"positive": node.positive, "view": True}
        if op == "reshape":
            n = math.prod(shape)
            new = p.rng.choice([(n,), (1, n), (n, 1)] + ([(n // 3, 3)] if n % 3 == 0 else []))
            p.let("reshape", [a], new, shape=list(new), **kw)
        elif op == "transpose":
            if ndim < 2:
                return False
            d0, d1 = p.rng.sample(range(ndim), 2)
            new = list(shape)
            new[d0], new[d1] = new[d1], new[d0]
            p.let("transpose", [a], tuple(new), dim0=d0 - ndim if p.chance(0.3) else d0, dim1=d1, **kw)
        elif op == "permute":
            dims = list(range(ndim))
            p.rng.shuffle(dims)
            p.let("permute", [a], tuple(shape[d] for d in dims), dims=dims, **kw)
        elif op == "squeeze":
            ones = [i for i, s in enumerate(shape) if s == 1]
            if not ones:
                new_shape = shape[:1] + (1,) + shape[1:]
                a = p.let("unsqueeze", [a], new_shape, dim=1, **kw)
                shape, ndim, ones = new_shape, ndim + 1, [1]
            form = p.rng.choice(["all", "dim", "negative", "tuple", "not-one"])
            if form == "all":
                p.let("squeeze", [a], tuple(s for s in shape if s != 1), **kw)
            elif form == "not-one" and any(s != 1 for s in shape):
                d = next(i for i, s in enumerate(shape) if s != 1)
                p.let("squeeze", [a], shape, dim=d, **kw)
            elif form == "tuple":
                p.let("squeeze", [a], tuple(s for i, s in enumerate(shape) if i not in ones),
                      dim=ones, **kw)
            else:
                d = p.rng.choice(ones)
                p.let("squeeze", [a], shape[:d] + shape[d + 1:],
                      dim=d - ndim if form == "negative" else d, **kw)
        elif op == "unsqueeze":
            d = p.rng.randrange(ndim + 1)
            p.let("unsqueeze", [a], shape[:d] + (1,) + shape[d:],
                  dim=d - ndim - 1 if p.chance(0.3) else d, **kw)
        elif op == "expand":
            if 1 not in shape:
                a = p.let("unsqueeze", [a], (1,) + shape, dim=0, **kw)
                shape = (1,) + shape
            new = tuple(3 if s == 1 else s for s in shape)
            if p.chance(0.3):
                new = (2,) + new
            p.let("expand", [a], new, shape=list(new), **kw)
        else:
            return _getitem(p, a)
        return True
    return build


def _getitem(p: Program, a: str) -> bool:
    node = p.nodes[a]
    shape = node.shape
    form = p.rng.choice(["int", "negative", "slice", "advanced", "ellipsis"])
    if form == "slice" and shape[0] < 2:
        form = "ellipsis"
    if form == "int":
        p.let("getitem", [a], shape[1:], positive=node.positive, view=True, index=[shape[0] - 1])
    elif form == "negative":
        p.let("getitem", [a], shape[1:], positive=node.positive, view=True, index=[-1])
    elif form == "slice":
        p.let("getitem", [a], (shape[0] - 1,) + shape[1:], positive=node.positive,
              view=True, index=[{"slice": [1, None]}])
    elif form == "ellipsis":
        p.let("getitem", [a], shape + (1,), positive=node.positive, view=True, index=["...", None])
    else:  # repeated indices: their gradients add up
        idx = [p.rng.randrange(shape[0]) for _ in range(3)]
        p.let("getitem", [a], (3,) + shape[1:], positive=node.positive, index=[idx])
    return True


def _combine(op: str) -> Builder:
    def build(p: Program, special: bool) -> bool:
        a = _dimensioned_or_new(p)
        shape = p.nodes[a].shape
        b = p.pick(lambda n: n.shape == shape and n.dtype == p.nodes[a].dtype)
        assert b is not None
        ndim = len(shape)
        if op == "cat":
            dim = p.rng.randrange(ndim)
            new = tuple(s * 2 if i == dim else s for i, s in enumerate(shape))
            p.let("cat", [[a, b]], new, dim=dim - ndim if p.chance(0.3) else dim)
        else:
            dim = p.rng.randrange(ndim + 1)
            p.let("stack", [[a, b]], shape[:dim] + (2,) + shape[dim:], dim=dim)
        return True
    return build


def _cast(p: Program, special: bool) -> bool:
    a = p.pick(_grad_value)
    if a is None:
        a = p.leaf(p.rng.choice(SHAPES))
    node = p.nodes[a]
    other = "float64" if node.dtype == "float32" else "float32"
    cast = p.let("cast", [a], node.shape, positive=node.positive, out_dtype=other, dtype=other)
    if p.chance(0.5):  # a float32 / float64 mix: the result promotes
        b = p.pick(lambda n: n.dtype != other and broadcast(node.shape, n.shape) is not None
                   and n.bound * node.bound <= MAX_BOUND)
        if b is not None:
            p.let("mul", [cast, b], broadcast(node.shape, p.nodes[b].shape) or node.shape,
                  out_dtype="float64", saves=(cast, b))
    return True


def _compare(op: str) -> Builder:
    def build(p: Program, special: bool) -> bool:
        a = p.pick(lambda n: len(n.shape) >= 1) or p.leaf(p.rng.choice(SHAPES[1:]))
        shape = p.nodes[a].shape
        condition = p.let(op, [a, 0.0], shape, out_dtype="bool")
        b = p.pick(lambda n: _grad_value(n) and n.shape == shape) or p.leaf(shape)
        p.let("where", [condition, b, 0.0], shape, saves=(condition,))
        return True
    return build


def _detach_op(p: Program, special: bool) -> bool:
    a = p.pick(_grad_value) or p.leaf(p.rng.choice(SHAPES))
    node = p.nodes[a]
    d = p.let("detach", [a], node.shape, positive=node.positive, view=True)
    b = p.pick(lambda n: _grad_value(n) and broadcast(n.shape, node.shape) is not None
               and n.bound * node.bound <= MAX_BOUND)
    if b is not None:
        p.let("mul", [b, d], broadcast(p.nodes[b].shape, node.shape) or node.shape, saves=(b, d))
    return True


BUILDERS: dict[str, Builder] = {
    **{op: _unary(op) for op in ("exp", "log", "sqrt", "abs", "sin", "cos", "tanh", "sigmoid",
                                 "relu", "neg", "clone")},
    **{op: _binary(op) for op in ("add", "sub", "mul", "div", "pow", "maximum", "minimum")},
    "detach": _detach_op, "gt": _compare("gt"), "lt": _compare("lt"), "matmul": _matmul,
    **{op: _reduction(op) for op in ("sum", "mean", "max", "min", "amax", "amin")},
    "clamp": _clamp, "where": _where,
    "softmax": _softmax("softmax"), "log_softmax": _softmax("log_softmax"),
    **{op: _shape_op(op) for op in ("reshape", "transpose", "permute", "squeeze", "unsqueeze",
                                    "expand", "getitem")},
    "cat": _combine("cat"), "stack": _combine("stack"), "cast": _cast,
}
SPECIAL_OPS = ("abs", "relu", "sqrt", "log", "pow", "maximum", "minimum", "max", "min", "amax",
               "amin", "clamp")


def build_forward(p: Program) -> None:
    """Leaves (some without grad), then 2-6 operations drawn evenly from the vocabulary."""
    for _ in range(p.rng.randint(1, 2)):
        p.leaf(p.rng.choice(SHAPES), positive=p.chance(0.3))
    if p.chance(0.3):
        p.leaf(p.rng.choice(SHAPES), requires_grad=False)
    ops = sorted(BUILDERS)
    target = p.rng.randint(2, 5)
    made = 0
    if p.chance(0.35):
        made += BUILDERS[p.rng.choice(SPECIAL_OPS)](p, True)
    for _ in range(target * 4):
        if made >= target:
            break
        made += BUILDERS[p.rng.choice(ops)](p, False)
    if not any(not n.is_leaf and n.requires_grad for n in p.nodes.values()):
        p.let("exp", [p.leaf((2,))], (2,), positive=True, saves=())


# --- mixins: hooks, grad-mode blocks, detach, in-place ------------------------------------------

def mix_hooks(p: Program) -> None:
    """1-3 hooks on values that require grad, scaling or returning None, some removed, some
    registered around retain_grad; the hooked non-leaves' .grad is observed later."""
    for _ in range(p.rng.randint(1, 3)):
        target = p.pick(lambda n: n.requires_grad)
        if target is None:
            return
        node = p.nodes[target]
        if node.view_of is not None:
            p.hooked_roots.add(p.storage_root(target))
        if not node.is_leaf and p.chance(0.5):
            p.emit({"retain_grad": target})
        step: dict[str, Any] = {"hook": target}
        if p.chance(0.7):
            step["scale"] = p.rng.choice([0.5, 2.0, 3.0, -1.0])
        if p.chance(0.6):
            step["record"] = True
        removed = p.chance(0.25)
        if removed or p.chance(0.2):
            step["handle"] = p.fresh("h")
        p.emit(step)
        if not node.is_leaf and p.chance(0.4):
            p.emit({"retain_grad": target})
        if removed:
            p.emit({"remove_hook": step["handle"]})
        p.tags.add("hook")


def mix_grad_mode(p: Program) -> None:
    """Run the next operations inside a grad-mode block; views made there may be written later."""
    kind = p.rng.choice(["no_grad", "no_grad", "enable_grad", "set_grad_enabled",
                         "set_grad_enabled(True)"])
    outer, p.steps = p.steps, []
    p.grad_enabled = False
    inner: list[dict[str, Any]] = []
    if kind in ("enable_grad", "set_grad_enabled(True)"):  # inside no_grad: recording again
        BUILDERS[p.rng.choice(sorted(BUILDERS))](p, False)
        before, p.steps = p.steps, []
        p.grad_enabled = True
        BUILDERS[p.rng.choice(sorted(BUILDERS))](p, False)
        again = p.steps or [{"observe": "value", "of": next(iter(p.nodes))}]
        inner = before + [{"enable_grad": again} if kind == "enable_grad" else
                          {"set_grad_enabled": True, "steps": again}]
    else:
        source = p.pick(_dimensioned)
        if source is not None and p.chance(0.6):  # a view of a tensor that requires grad
            _shape_op(p.rng.choice(["getitem", "reshape", "unsqueeze", "transpose"]))(p, False)
        BUILDERS[p.rng.choice(sorted(BUILDERS))](p, False)
        inner = p.steps
    p.steps, p.grad_enabled = outer, True
    if not inner:
        return
    if kind == "set_grad_enabled":
        p.emit({"set_grad_enabled": False, "steps": inner})
    else:
        p.emit({"no_grad": inner})
    p.tags.add("grad_mode")
    views = [n for n, node in p.nodes.items() if node.made_without_grad and node.view_of
             and p.nodes[node.view_of].requires_grad]
    views = [v for v in views if p.writable(v)]
    if views and p.chance(0.5):  # a later write to a view made without recording
        view = p.rng.choice(views)
        write = {"inplace": view, "op": "mul", "args": [2.0]}
        p.emit({"no_grad": [write]} if p.chance(0.4) else write)


def mix_detach(p: Program) -> None:
    a = p.pick(lambda n: n.requires_grad and not n.is_leaf) or p.pick(_grad_value)
    if a is None:
        return
    if p.chance(0.5):
        d = p.let("detach", [a], p.nodes[a].shape, positive=p.nodes[a].positive, view=True)
        if p.chance(0.6) and p.writable(d):  # a write through the detached tensor: shared storage
            p.emit({"inplace": d, "op": p.rng.choice(["mul", "add", "zero"]),
                    **({"args": [2.0]} if p.chance(0.7) else {})})
            if p.steps[-1]["op"] == "zero":
                p.steps[-1].pop("args", None)
            elif "args" not in p.steps[-1]:
                p.steps[-1]["args"] = [1.0]
    else:
        c = p.let("clone", [a], p.nodes[a].shape, positive=p.nodes[a].positive)
        p.emit({"inplace": c, "op": "detach"})
        p.nodes[c].requires_grad = False
    p.tags.add("detach")


def mix_requires_grad(p: Program) -> None:
    """Turn requires_grad on for a leaf that had it off (or off for one that had it on) before
    it is used again, and look at its flags."""
    leaf = p.pick(lambda n: n.is_leaf)
    if leaf is None:
        return
    node = p.nodes[leaf]
    value = not node.requires_grad if node.dtype.startswith("float") else False
    if not value and len(grad_leaves(p)) <= 1:  # keep a leaf to differentiate
        value = True
    p.emit({"set_requires_grad": leaf, "value": value})
    node.requires_grad = value
    p.emit({"observe": "flags", "of": leaf})


IN_PLACE_CHOICES = ("add", "sub", "mul", "div", "zero", "fill", "setitem", "setitem-tensor")


def mix_in_place(p: Program) -> None:
    """One in-place op on a leaf (under no_grad, or not: an error), a non-leaf, a view, or a
    tensor an op saved (a version error at backward)."""
    op = p.rng.choice(IN_PLACE_CHOICES)
    saved = [n for n in p.saved_by if n in p.nodes and p.nodes[n].dtype != "bool" and p.writable(n)]
    target_kind = p.rng.choice(["saved", "saved", "saved", "leaf", "non-leaf", "view"])
    if target_kind == "saved" and saved:
        target = p.rng.choice(saved)
    elif target_kind == "view":
        base = p.pick(lambda n: _dimensioned(n))
        if base is None or not p.writable(base):
            return
        _getitem(p, base)
        target = list(p.nodes)[-1]
    elif target_kind == "leaf":
        target = p.pick(lambda n: n.is_leaf) or p.leaf((3,))
    else:
        target = p.pick(lambda n: not n.is_leaf) or p.leaf((3,))
    if not p.writable(target):
        return
    node = p.nodes[target]
    step: dict[str, Any] = {"inplace": target, "op": op}
    if op in ("add", "sub", "mul", "div"):
        other = p.pick(lambda n: n.shape == node.shape and n is not node) if p.chance(0.3) else None
        step["args"] = [other if other else round(p.rng.uniform(0.5, 2.0), 3)]
    elif op == "fill":
        step["kwargs"] = {"value": round(p.rng.uniform(-1.0, 1.0), 3)}
    elif op.startswith("setitem"):
        if not node.shape:
            return
        step["op"] = "setitem"
        step["kwargs"] = {"index": [0]}
        if op == "setitem-tensor":
            value = p.leaf(node.shape[1:], requires_grad=p.chance(0.7))
            step["args"] = [value]
        else:
            step["args"] = [round(p.rng.uniform(-1.0, 1.0), 3)]
    # a write into a view, or into a tensor some view was made of, while recording rewrites
    # history in torch (CopySlices, regenerated views), which the reference does not model yet:
    # such writes are made without recording
    is_view = node.view_of is not None and p.nodes[node.view_of].requires_grad
    has_views = any(n.view_of == target and not n.made_without_grad for n in p.nodes.values())
    if is_view or has_views or (node.is_leaf and node.requires_grad and p.chance(0.6)):
        p.emit({"no_grad": [step]})
    else:
        p.emit(step)
    p.tags.add("inplace")


MIXINS: tuple[tuple[Callable[[Program], None], float], ...] = (
    (mix_hooks, 0.5), (mix_grad_mode, 0.4), (mix_detach, 0.15), (mix_requires_grad, 0.1),
    (mix_in_place, 0.45))


# --- autograd scenarios ---------------------------------------------------------------------

def output(p: Program) -> str:
    """The latest value that requires grad (a shared subexpression is used more than once)."""
    candidates = [n for n, node in p.nodes.items() if not node.is_leaf and node.requires_grad]
    return candidates[-1] if candidates else p.let("exp", [p.leaf((2,))], (2,), positive=True)


def scalar_loss(p: Program, name: str) -> str:
    if p.nodes[name].shape == ():
        return name
    return p.let(p.rng.choice(["sum", "sum", "mean"]), [name], ())


def grad_leaves(p: Program) -> list[str]:
    return [n for n, node in p.nodes.items() if node.is_leaf and node.requires_grad]


def observe_grads(p: Program, extra: tuple[str, ...] = ()) -> None:
    for name in grad_leaves(p) + [n for n in extra if n in p.nodes]:
        p.emit({"observe": "grad", "of": name})
    hooked = [s["hook"] for s in p.steps if "hook" in s and not p.nodes[s["hook"]].is_leaf]
    for name in sorted(set(hooked) | {s["retain_grad"] for s in p.steps if "retain_grad" in s}):
        p.emit({"observe": "grad", "of": name})


def seed(p: Program, shape: tuple[int, ...], dtype: Optional[str] = None, named: bool = False,
         requires_grad: bool = False) -> Any:
    """A seed value, or a name bound to a seed tensor (looked at later)."""
    if not named:
        out: dict[str, Any] = {"value": p.values(shape, positive=True)}
        if dtype:
            out["dtype"] = dtype
        return out
    name = p.leaf(shape, requires_grad=requires_grad, positive=True, dtype=dtype)
    p.tags.add("seed:named")
    return name


def s_implicit(p: Program) -> None:
    loss = scalar_loss(p, output(p))
    if p.chance(0.5):
        p.emit({"backward": loss, "api": p.rng.choice(["function", "method"])})
        observe_grads(p)
    else:
        p.emit({"grad": loss, "wrt": grad_leaves(p)})
    p.tags.add("seed:implicit-scalar")


def s_implicit_non_scalar(p: Program) -> None:
    out = output(p)
    if p.nodes[out].shape == ():
        out = p.let("expand", [p.let("unsqueeze", [out], (1,), dim=0)], (2,), shape=[2])
    p.emit({"backward": out})
    observe_grads(p)
    p.tags |= {"seed:implicit-scalar", "error_path"}


def s_explicit(p: Program) -> None:
    out = output(p)
    named = p.chance(0.4)
    s = seed(p, p.nodes[out].shape, p.nodes[out].dtype, named=named)
    if p.chance(0.5):
        p.emit({"backward": out, "seeds": [s], "api": p.rng.choice(["function", "method"])})
        observe_grads(p)
    else:
        p.emit({"grad": out, "wrt": grad_leaves(p), "seeds": [s]})
    if named:
        p.emit({"observe": "value", "of": s})
        p.emit({"observe": "flags", "of": s})
    p.tags.add("seed:explicit")


def s_none_entry(p: Program) -> None:
    a = output(p)
    b = p.let("mul", [a, a], p.nodes[a].shape, saves=(a,))
    seeds = [seed(p, p.nodes[a].shape, p.nodes[a].dtype), None]
    if p.chance(0.5):
        p.emit({"backward": [a, b], "seeds": seeds})
        observe_grads(p)
    else:
        p.emit({"grad": [a, b], "wrt": grad_leaves(p), "seeds": seeds})
    p.tags |= {"seed:none-entry", "seed:explicit"}


def s_wrong_shape(p: Program) -> None:
    out = output(p)
    shape = p.nodes[out].shape
    wrong = (4,) if shape != (4,) else (5,)
    s = seed(p, wrong, named=p.chance(0.3))
    api = p.rng.choice(["function", "method"])
    if api == "function":  # paddle.autograd.backward does not check seed shapes: it may crash
        p.only("torch")
    p.emit({"backward": out, "seeds": [s], "api": api})
    observe_grads(p)
    p.tags |= {"seed:wrong-shape", "error_path"}


def s_wrong_count(p: Program) -> None:
    a = scalar_loss(p, output(p))
    b = p.let("mul", [a, 2.0], ())
    seeds = [seed(p, ())] if p.chance(0.6) else [{"scalar": 1.0}, None]
    if p.chance(0.5):
        p.emit({"backward": [a, b], "seeds": seeds})
    else:
        p.emit({"grad": [a, b], "wrt": grad_leaves(p), "seeds": seeds})
    p.tags |= {"seed:wrong-count", "error_path"}


def s_other_dtype(p: Program) -> None:
    out = output(p)
    other = "float64" if p.nodes[out].dtype == "float32" else "float32"
    s = seed(p, p.nodes[out].shape, other, named=p.chance(0.3))
    p.emit({"backward": out, "seeds": [s]})
    observe_grads(p)
    p.tags.add("seed:other-dtype")


def s_accumulation(p: Program) -> None:
    """Several backwards: .grad accumulates, is held under a name, cleared in every way."""
    loss = scalar_loss(p, output(p))
    calls = p.rng.randint(2, 3)
    held: list[str] = []
    held_leaves: set[str] = set()
    for i in range(calls):
        last = i == calls - 1
        p.emit({"backward": loss, "retain_graph": True} if not last else {"backward": loss})
        observe_grads(p)
        leaves = grad_leaves(p)
        if not last and leaves and p.chance(0.5):
            name = p.fresh("held")
            leaf = p.rng.choice(leaves)
            p.emit({"hold_grad": leaf, "as": name})
            held.append(name)
            held_leaves.add(leaf)
        if not last and p.chance(0.3):
            p.emit({"grad": loss, "wrt": leaves, "retain_graph": True})
        if not last and leaves and p.chance(0.5):
            leaf = p.rng.choice(leaves)
            # paddle's clear_gradient(False) frees the storage a held .grad still points to:
            # reading it is undefined there, so a held gradient is only ever zeroed
            to = "zeros" if leaf in held_leaves else p.rng.choice(["none", "zeros"])
            p.emit({"clear_grad": leaf, "to": to})
            p.tags.add("clearing")
    for name in held:
        p.emit({"observe": "value", "of": name})
    p.tags |= {"accumulation", "retain_graph"}


def s_retain_graph(p: Program) -> None:
    loss = scalar_loss(p, output(p))
    mode = p.rng.choice(["off", "on", "repeated", "grad-then-backward", "grad-retain-false"])
    if mode == "grad-then-backward":
        p.emit({"grad": loss, "wrt": grad_leaves(p)})
        p.emit({"backward": loss})
    elif mode == "grad-retain-false":
        p.emit({"grad": loss, "wrt": grad_leaves(p), "retain_graph": False})
        p.emit({"grad": loss, "wrt": grad_leaves(p)})
    else:
        for i in range(3 if mode == "repeated" else 2):
            retain = mode != "off" and (i < 1 or mode == "repeated")
            p.emit({"backward": loss, "retain_graph": retain} if i == 0 or retain else {"backward": loss})
            observe_grads(p)
    p.tags |= {"retain_graph", "error_path"}


def s_allow_unused(p: Program) -> None:
    loss = scalar_loss(p, output(p))
    p.leaf(p.rng.choice(SHAPES))
    step: dict[str, Any] = {"grad": loss, "wrt": grad_leaves(p)}
    choice = p.rng.choice(["off", "on", "none", "materialize", "materialize-off"])
    if choice == "on":
        step["allow_unused"] = True
    elif choice == "off":
        step["allow_unused"] = False
        p.tags.add("error_path")
    elif choice.startswith("materialize"):
        step["materialize_grads"] = True
        if choice == "materialize-off":
            step["allow_unused"] = False
        p.only("torch")
        p.tags.add("materialize_grads")
    if p.chance(0.4):
        step["only_inputs"] = p.chance(0.5)
    p.emit(step)
    p.tags.add("allow_unused")


def s_no_grad_input(p: Program) -> None:
    loss = scalar_loss(p, output(p))
    const = p.pick(lambda n: n.is_leaf and not n.requires_grad) or p.leaf((2,), requires_grad=False)
    p.emit({"grad": loss, "wrt": grad_leaves(p) + [const], "allow_unused": p.chance(0.5)})
    p.tags |= {"no_grad_input", "allow_unused", "error_path"}


def s_no_grad_vars(p: Program) -> None:
    """paddle's no_grad_vars on an intermediate that feeds a binary op (paddle 3.3.1 fails or
    crashes when it cuts the only input of a node, or lists an input)."""
    if "paddle" not in p.dialects:  # the program already uses an API only torch has
        s_no_grad_input(p)
        return
    p.only("paddle")
    cut = p.pick(lambda n: not n.is_leaf and n.requires_grad) or output(p)
    shape = p.nodes[cut].shape
    other = p.leaf(shape, requires_grad=p.chance(0.8))
    mixed = p.let(p.rng.choice(["mul", "add", "sub"]), [cut, other] if p.chance(0.5) else [other, cut],
                  shape, saves=(cut, other))
    loss = scalar_loss(p, mixed)
    p.emit({"grad": loss, "wrt": grad_leaves(p), "allow_unused": True, "no_grad_vars": [cut]})
    p.tags.add("no_grad_input")


def s_create_graph(p: Program) -> None:
    """Derivatives of derivatives: grad with create_graph, then grad or backward again, or
    backward(create_graph=True) repeated (torch)."""
    loss = scalar_loss(p, output(p))
    wrt = grad_leaves(p)
    if p.chance(0.2):  # torch: backward(create_graph=True), twice, then the .grad's own gradient
        p.only("torch")
        p.emit({"backward": loss, "create_graph": True, "retain_graph": True,
                "api": p.rng.choice(["function", "method"])})
        observe_grads(p)
        if p.chance(0.5):
            p.emit({"backward": loss, "create_graph": True})
            observe_grads(p)
        held = p.fresh("held")
        p.emit({"hold_grad": wrt[0], "as": held})
        p.nodes[held] = Node(p.nodes[wrt[0]].shape, False, True, False, dtype=p.nodes[wrt[0]].dtype)
        total = p.let("sum", [held], ())
        p.emit({"grad": total, "wrt": wrt, "allow_unused": True})
        p.tags |= {"create_graph", "higher_order"}
        return
    order = p.rng.randint(1, 3)
    current = loss
    for _ in range(order):
        into = [p.fresh("g") for _ in wrt]
        p.emit({"grad": current, "wrt": wrt, "create_graph": True, "allow_unused": True,
                "into": into})
        for name, leaf in zip(into, wrt):
            p.nodes[name] = Node(p.nodes[leaf].shape, False, True, False, dtype=p.nodes[leaf].dtype)
        current = p.let("sum", [into[0]], ())
    if p.chance(0.5):
        step: dict[str, Any] = {"backward": current}
        if p.chance(0.3) and "torch" in p.dialects:
            step["inputs"] = wrt[:1]
            p.only("torch")
        p.emit(step)
        observe_grads(p)
    else:
        p.emit({"grad": current, "wrt": wrt, "allow_unused": True})
    p.tags |= {"create_graph"} | ({"higher_order"} if order > 1 else set())


def s_backward_inputs(p: Program) -> None:
    """torch's backward(inputs=...): only the listed tensors accumulate."""
    loss = scalar_loss(p, output(p))
    leaves = grad_leaves(p)
    p.only("torch")
    inputs = p.rng.sample(leaves, max(1, len(leaves) // 2))
    retained = p.pick(lambda n: not n.is_leaf and n.requires_grad and n is not p.nodes[loss])
    if retained is not None and p.chance(0.4):
        inputs.append(retained)
    p.emit({"backward": loss, "inputs": inputs, "api": p.rng.choice(["function", "method"])})
    observe_grads(p, tuple(inputs))


def s_error_path(p: Program) -> None:
    loss = scalar_loss(p, output(p))
    kind = p.rng.choice(["leaf-inplace", "empty-inputs", "duplicate-inputs", "output-no-grad",
                         "saved-modified"])
    if kind == "leaf-inplace":
        p.emit({"inplace": grad_leaves(p)[0], "op": "add", "args": [1.0]})
    elif kind == "empty-inputs":
        p.emit({"grad": loss, "wrt": []})
    elif kind == "duplicate-inputs":
        leaf = grad_leaves(p)[0]
        p.emit({"grad": loss, "wrt": [leaf, leaf]})
    elif kind == "output-no-grad":
        const = p.leaf((2,), requires_grad=False)
        p.emit({"backward": p.let("sum", [const], ())})
    else:
        e = p.let("exp", [output(p)], p.nodes[output(p)].shape, positive=True)
        p.emit({"inplace": e, "op": "mul", "args": [2.0]})
        p.emit({"backward": scalar_loss(p, e)})
    p.tags.add("error_path")


SCENARIOS: tuple[tuple[Callable[[Program], None], int], ...] = (
    (s_implicit, 4), (s_implicit_non_scalar, 1), (s_explicit, 2), (s_none_entry, 1),
    (s_wrong_shape, 1), (s_wrong_count, 1), (s_other_dtype, 1), (s_accumulation, 2),
    (s_retain_graph, 2), (s_allow_unused, 2), (s_no_grad_input, 1), (s_no_grad_vars, 1),
    (s_create_graph, 4), (s_backward_inputs, 1), (s_error_path, 1),
)


# Arguments given explicitly with their default value now and then: a framework that reads an
# explicit default differently from a missing one shows it.
DEFAULTS = {"backward": {"retain_graph": None, "create_graph": False},
            "grad": {"retain_graph": None, "create_graph": False, "allow_unused": None,
                     "only_inputs": True, "materialize_grads": False},
            "hook": {"record": False}}


def spell_out_defaults(p: Program) -> None:
    for step in p.steps:
        kind = next((k for k in DEFAULTS if k in step), None)
        if kind is None:
            continue
        for key, value in DEFAULTS[kind].items():
            if key not in step and p.chance(0.15):
                step[key] = value


Extension = Callable[[Program, Callable[[Program], None]], None]


def _case_stream(seed: int, index: int) -> random.Random:
    return random.Random(f"autograd-oracle/{STREAM_VERSION}/{seed}/{index}")


def _draw_scenario(rng: random.Random, wide: bool) -> Callable[[Program], None]:
    """A case's scenario: the first draw of its stream."""
    scenarios, weights = zip(*SCENARIOS)
    return rng.choices(scenarios, (1,) * len(scenarios) if wide else weights)[0]


def _scenario_name(scenario: Callable[[Program], None]) -> str:
    return scenario.__name__[2:].replace("_", "-")


def _case_id(version: int, seed: int, index: int, name: str) -> str:
    return f"gen{version}/{seed}/{index:05d}-{name}"


def case_id(seed: int, index: int, version: int) -> str:
    """The id ``build_case(seed, index, version)`` gives its case, without building the case
    (a few microseconds against a millisecond): the id names the scenario, the first draw of the
    case's stream. A run lists its items by id and makes each case only where it runs."""
    return _case_id(version, seed, index, _scenario_name(_draw_scenario(_case_stream(seed, index), False)))


def build_case(seed: int, index: int, version: int, extension: Optional[Extension] = None,
               after: Optional[Extension] = None, wide: bool = False,
               dtype: Optional[str] = None) -> dict[str, Any]:
    """Case ``index`` of the corpus ``seed`` as the base builds it, with ids of ``version``.
    A later version passes an ``extension``, called with the program and its scenario just
    before the scenario runs, and one called ``after`` it; extensions that add nothing leave
    the case as version 2 makes it. ``wide`` (the fuzzer's programs): every scenario equally
    likely, and each mixin twice as likely (at most 0.9), so features combine more often.
    ``dtype``: the program's floating dtype, in place of the one it draws (the choices that
    follow may differ where they depend on dtypes)."""
    rng = _case_stream(seed, index)
    scenario = _draw_scenario(rng, wide)
    # third derivatives in float32 differ between implementations by more than float32's
    # tolerances (rounding compounds), so higher orders are generated in float64
    drawn = "float64" if scenario is s_create_graph or rng.random() < 0.2 else "float32"
    p = Program(rng, dtype or drawn)
    build_forward(p)
    for mixin, probability in MIXINS:
        if p.chance(min(2 * probability, 0.9) if wide else probability):
            mixin(p)
    if extension is not None:
        extension(p, scenario)
    scenario(p)
    if after is not None:
        after(p, scenario)
    spell_out_defaults(p)
    name = _scenario_name(scenario)
    case: dict[str, Any] = {"id": _case_id(version, seed, index, name),
                            "about": f"generated: {name} after a {len(p.steps)}-step program",
                            "tags": sorted(p.tags), "steps": p.steps}
    if p.dialects != set(BOTH):
        case["dialects"] = sorted(p.dialects)
    return case
