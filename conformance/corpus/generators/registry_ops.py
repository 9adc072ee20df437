"""Builders for the op registry's entries (``conformance/corpus/op_registry.py``), made from
each entry's domain, layout, keyword samples and special points, and the section generator
version 5 appends to reach them.

A section ``k`` reaches op ``k mod n`` (``n`` entries) in the form ``k div n`` picks in turn:
``backward`` of its sum, with a hook on its output; ``grad`` with ``create_graph`` and then
the gradient of that gradient (second order); or at one of its special points. Operands are
fresh leaves drawn in the op's domain (a second operand, or a loss's target, sometimes not
requiring grad); ops that take ``dim`` draw a negative one among their samples.
"""

from __future__ import annotations

import math
from typing import Any, Optional

from conformance.corpus.generators.base import Builder, Node, Program, _flat
from conformance.corpus.generators.shapes import nest
from conformance.corpus.op_registry import DOMAINS, REGISTRY, RegisteredOp
from conformance.corpus.vocabulary import BUCKETS

FORMS = ("backward", "second order", "special point")


def _values(p: Program, domain: str, shape: tuple[int, ...], special: tuple[float, ...] = ()) -> Any:
    """Distinct values of ``shape`` in ``domain`` (``Program.values``), the first of them
    replaced by the ``special`` points."""
    low, high, signed = DOMAINS[domain]
    flat = _flat(p.values(shape, positive=not signed, low=low, high=high))
    flat[:len(special)] = special[:len(flat)]
    return nest(flat, shape)


def _far_from_singular(p: Program, shape: tuple[int, ...]) -> Any:
    """Distinct values of ``shape`` inside (-1, 1), each matrix's diagonal moved 2 away from 0
    (keeping its sign): diagonally dominant for n ≤ 3, so no solve is near singular."""
    flat = _flat(_values(p, "unit", shape))
    n = shape[-1]
    for i in range(len(flat)):
        if (i % (n * n)) % (n + 1) == 0:
            flat[i] = round(flat[i] + (2.0 if flat[i] >= 0 else -2.0), 3)
    return nest(flat, shape)


def _reduce_shape(p: Program, kwargs: dict[str, Any]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """An operand shape the keywords' ``dim`` fits (at least two elements along it, so a
    variance has a degree of freedom), and the result's shape."""
    dim = kwargs.get("dim")
    shape = p.rng.choice([(3,), (2, 3), (3, 2), (2, 2, 3)] if dim is None or dim in (0, -1)
                         else [(2, 3), (3, 2), (2, 2, 3)])
    if dim is None:
        return shape, ()
    axis = dim % len(shape)
    kept = tuple(1 if i == axis else s for i, s in enumerate(shape))
    return shape, kept if kwargs.get("keepdim") else tuple(s for i, s in enumerate(shape) if i != axis)


def _operands(p: Program, op: RegisteredOp, kwargs: dict[str, Any],
              special: bool) -> tuple[list[str], tuple[int, ...]]:
    """Fresh leaves for the op's operands, and the shape of its result."""
    rng = p.rng

    def leaf(shape: tuple[int, ...], requires_grad: bool = True, domain: Optional[str] = None,
             at_special: bool = False) -> str:
        # a reduction's special point is a zero vector (the 2-norm's kink), others their points
        points = ((0.0,) * math.prod(shape) if op.layout == "reduce" else op.special_values) \
            if at_special else ()
        return p.leaf(shape, requires_grad=requires_grad,
                      value=_values(p, domain or op.domain, shape, points))

    if op.layout == "reduce":
        shape, out = _reduce_shape(p, kwargs)
        return [leaf(shape, at_special=special)], out
    if op.layout == "scan":
        shape = _reduce_shape(p, kwargs)[0]
        return [leaf(shape)], shape
    if op.layout == "dot":
        n = rng.randint(2, 4)
        return [leaf((n,)), leaf((n,), rng.random() < 0.8)], ()
    if op.layout == "mv":
        n, m = rng.randint(1, 3), rng.randint(2, 3)
        return [leaf((n, m)), leaf((m,), rng.random() < 0.8)], (n,)
    if op.layout == "bmm":
        b, n, m, k = (rng.randint(1, 2), rng.randint(1, 3), rng.randint(2, 3), rng.randint(1, 3))
        return [leaf((b, n, m)), leaf((b, m, k), rng.random() < 0.8)], (b, n, k)
    if op.layout in ("square", "solve"):
        n = rng.randint(2, 3)
        batch = rng.choice([(), (), (2,)])
        matrix = p.leaf((*batch, n, n), value=_far_from_singular(p, (*batch, n, n)))
        if op.layout == "square":
            return [matrix], (*batch, n, n) if op.name == "inverse" else batch
        rhs = (*batch, n) if not batch and rng.random() < 0.3 else (*batch, n, rng.randint(1, 2))
        return [matrix, leaf(rhs, rng.random() < 0.8)], rhs
    if op.layout == "cross":
        shape = rng.choice([(3,), (2, 3), (2, 1, 3)])
        return [leaf(shape), leaf(shape, rng.random() < 0.8)], shape
    shape = rng.choice([(3,), (2, 3), (2, 1, 3), (4,)])
    if op.layout == "loss":
        target = "probability" if op.name.startswith("binary_cross_entropy") else "any"
        return [leaf(shape), leaf(shape, rng.random() < 0.3 and target == "any", target)], ()
    if op.operands == 2:
        return [leaf(shape, at_special=special), leaf(shape, rng.random() < 0.8)], shape
    return [leaf(shape, at_special=special)], shape


def builder(op: RegisteredOp) -> Builder:
    """The op at fresh operands in its domain (at a special point when asked and it has one),
    with a keyword set of its samples."""
    def build(p: Program, special: bool) -> bool:
        if not set(op.dialects) & p.dialects:
            return False
        p.only(*op.dialects)
        kwargs = dict(p.rng.choice(op.samples))
        special = special and bool(op.special)
        args, shape = _operands(p, op, kwargs, special)
        if special and f"special:{op.name}" in BUCKETS:  # a bucket once the op joins the matrix
            p.tags.add(f"special:{op.name}")
        p.let(op.name, args, shape, bound=4.0, saves=tuple(args) if op.saves else (), **kwargs)
        return True
    return build


BUILDERS: dict[str, Builder] = {op.name: builder(op) for op in REGISTRY}


def op_of(k: int) -> RegisteredOp:
    """The op section ``k`` reaches: each round of ``n`` sections reaches every op, each round
    one place on from the last, so an op falls on odd and even cases in turn (version 4 ends
    odd ones with a section that may keep the program to one dialect)."""
    n = len(REGISTRY)
    return REGISTRY[(k + k // n) % n]


def section(p: Program, k: int) -> None:
    """Section ``k``: op ``k mod n`` in the form ``k div n`` picks, its leaves' gradients
    observed."""
    op = op_of(k)
    form = FORMS[(k // len(REGISTRY)) % len(FORMS)]
    if (form == "special point" and not op.special) or (form == "second order" and not op.saves):
        form = "backward"  # no special point, or a derivative that is 0: nothing to reach
    before = set(p.nodes)
    if not BUILDERS[op.name](p, form == "special point"):
        return
    out = p.steps[-1]["let"]
    leaves = [n for n in p.nodes if n not in before and p.nodes[n].is_leaf and p.nodes[n].requires_grad]
    total = out if not p.nodes[out].shape else p.let("sum", [out], ())
    if form == "second order":
        _second_order(p, total, leaves)
        return
    p.emit({"hook": out, "record": True})
    p.tags.add("hook")
    p.emit({"backward": total})
    for leaf in leaves:
        p.emit({"observe": "grad", "of": leaf})


def _second_order(p: Program, total: str, leaves: list[str]) -> None:
    """``grad`` of ``total`` with ``create_graph``, then ``grad`` of the sum of the first
    leaf's gradient: the second derivatives, every gradient observed."""
    firsts = [p.fresh("g") for _ in leaves]
    p.emit({"grad": [total], "wrt": leaves, "create_graph": True, "into": firsts,
            "allow_unused": True})
    for first, leaf in zip(firsts, leaves):
        p.nodes[first] = Node(p.nodes[leaf].shape, False, True, False, 4.0,
                              dtype=p.nodes[leaf].dtype)
    again = p.let("sum", [firsts[0]], ())
    seconds = [p.fresh("h") for _ in leaves]
    p.emit({"grad": [again], "wrt": leaves, "into": seconds, "allow_unused": True})
    p.tags.update({"create_graph", "higher_order"})
    for name in firsts + seconds:
        p.emit({"observe": "value", "of": name})
