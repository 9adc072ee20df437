"""What a derivative rule is, and the registry the table fills: no dependency on the engine.

A :class:`Rule` names an operation's forward (a numpy function of the input arrays and the
call's attributes) and one vector-Jacobian rule per tensor input. ``rule(...)`` adds one to
``RULES``; ``reference_engine.rules`` is the table that does so for every operation, and the
recorder (``reference_engine.ops``) looks rules up here by name.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

import numpy as np

VJP = Callable[..., Any]


@dataclass(frozen=True)
class Rule:
    """One operation: forward on arrays, one VJP per tensor input (``None``: not differentiable)."""

    op: str
    node_name: str
    forward: Callable[..., np.ndarray]
    vjps: tuple[Optional[VJP], ...]
    inputs: tuple[str, ...] = ("a",)
    variadic: bool = False
    view: bool = False
    saved_attrs: tuple[str, ...] = ()
    # a pass frees it even without saved tensors: torch's IndexBackward0 (its index tensors)
    # and CopySlices (the function of the copy it wraps)
    holds_state: bool = False
    # its rules read which inputs the pass differentiates (``needed``), as a framework's kernel
    # that is told which gradients to compute may compute the others differently
    reads_needed: bool = False
    # inputs the node does not list (next_functions, what its hooks see): where's condition
    unlisted: tuple[str, ...] = ()
    # an elementwise function of one tensor, computed in floating point, that both frameworks
    # name as the op (``torch.acos(x)``, ``paddle.acos(x)``, ``x.acos()``): the engine function
    # (``ops``), both facades' functions and the tensor method come from this flag
    elementwise_function: bool = False
    uses: tuple[tuple[str, ...], ...] = field(init=False)
    differentiable: tuple[bool, ...] = field(init=False)
    forward_attrs: tuple[str, ...] = field(init=False)
    # what its nodes save, in unpack order, per dialect, inputs needing grad and number operand
    # (``recorder._saved_plan``)
    plans: dict[Any, Any] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        uses = []
        for vjp in self.vjps:
            names = tuple(inspect.signature(vjp).parameters)[1:] if vjp else ()
            uses.append(names)
        object.__setattr__(self, "uses", tuple(uses))
        object.__setattr__(self, "differentiable", tuple(v is not None for v in self.vjps))
        object.__setattr__(self, "forward_attrs", _keyword_names(self.forward))
        object.__setattr__(self, "plans", {})

    @property
    def listed(self) -> tuple[int, ...]:
        """The positions of the inputs the node lists."""
        return tuple(i for i, name in enumerate(self.inputs) if name not in self.unlisted)

    def saved_names(self, needed: tuple[bool, ...]) -> frozenset[str]:
        """Inputs, ``result`` and saved attributes the rules for the ``needed`` inputs read."""
        cache = _SAVED_NAMES.setdefault(id(self), {})
        if needed not in cache:
            cache[needed] = frozenset(self._saved_names(needed))
        return cache[needed]

    def _saved_names(self, needed: tuple[bool, ...]) -> set[str]:
        if self.variadic:
            needed = (any(needed),)
        names: set[str] = set()
        for uses, need in zip(self.uses, needed):
            if need:
                names.update(n for n in uses if n in self.inputs or n == "result"
                             or n in self.saved_attrs)
        return names


def _keyword_names(forward: Callable[..., np.ndarray]) -> tuple[str, ...]:
    """The attributes a forward takes: its parameters after the input arrays."""
    if isinstance(forward, np.ufunc) or forward in (np.where, np.array):
        return ()
    params = inspect.signature(forward).parameters.values()
    return tuple(p.name for p in params if not p.name.startswith("_") and (
        p.kind is p.KEYWORD_ONLY or (p.kind is p.POSITIONAL_OR_KEYWORD and p.name not in "abcg")))


RULES: dict[str, Rule] = {}


_SAVED_NAMES: dict[int, dict[tuple[bool, ...], frozenset[str]]] = {}


def elementwise_functions() -> tuple[str, ...]:
    """The ops of the table declared ``elementwise_function``, in the table's order."""
    return tuple(op for op, entry in RULES.items() if entry.elementwise_function)


def rule(op: str, node_name: str, forward: Callable[..., np.ndarray], *vjps: Optional[VJP],
         **options: Any) -> Rule:
    """Add one operation to the table (the table is the single source of derivative rules)."""
    entry = Rule(op, node_name, forward, tuple(vjps), **options)
    RULES[op] = entry
    return entry
