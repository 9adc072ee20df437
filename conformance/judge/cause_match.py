"""A query over :class:`~conformance.judge.causes.Cause`: which findings a porting class explains.

A :class:`Match` names the fields of a cause it requires and leaves the rest open. Every value
it names is checked against the vocabulary it comes from when the table is built: step kinds
and what tells them apart (the step-kind registry), error and warning categories
(``ERROR_CATEGORIES``), observation kinds, flags, roles, aspects and exception classes. A
category renamed in one place and not the other fails at import, in every test run, instead of
misrouting findings until a full run of both frameworks shows it.
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional, Union

from conformance.corpus.step_kinds import BODIES, STEPS_BY_KEY
from conformance.judge.causes import ASPECTS, FLAG_FIELDS, ROLES, Cause, Place
from conformance.run.trace import ERROR_CATEGORIES

CATEGORIES = frozenset(c for _, c in ERROR_CATEGORIES) | {"other"}
# what an observation is, beyond an error or warning of some category
OBSERVED_KINDS = frozenset({"tensor", "array", "equal", "none", "flags", "list", "nothing", "unsupported",
                            "undefined"})
ANY_ERROR = "error"  # a side that raised, whatever the category
COMPARED_FIELDS = ("dtype", "shape", "values", "equal")


def _check_kind(name: str) -> None:
    if name in OBSERVED_KINDS or name == ANY_ERROR:
        return
    kind, _, category = name.partition(":")
    if kind not in ("error", "warning") or category not in CATEGORIES:
        raise ValueError(f"{name!r} is no observation kind and no error:/warning: of a known category")


def _check_exception(name: str) -> None:
    found = getattr(builtins, name, None)
    if not (isinstance(found, type) and issubclass(found, BaseException)):
        raise ValueError(f"{name!r} is no built-in exception class")


def _check_detail(step: Optional[str], detail: str) -> None:
    kinds = [STEPS_BY_KEY[step]] if step else list(STEPS_BY_KEY.values())
    if not any(detail in values for kind in kinds for values in kind.choices.values()):
        raise ValueError(f"{detail!r} is no value that tells steps of {step or 'any kind'} apart")


@dataclass(frozen=True)
class Match:
    """The causes one class explains: each given field must equal the cause's (``torch`` and
    ``paddle``: the kinds the side observed, one or a tuple; ``error``: one error of any
    category). ``flags`` is the exact set of
    flags that differ, ``{name: (torch, paddle)}``; with ``more_flags`` others may differ too.
    ``within=""`` asks for a step that no autograd step ran."""

    step: Optional[str] = None
    detail: Optional[str] = None
    body: Optional[str] = None
    role: Optional[str] = None
    within: Optional[str] = None
    aspect: Optional[str] = None
    torch: Union[str, tuple[str, ...], None] = None
    paddle: Union[str, tuple[str, ...], None] = None
    category: Optional[str] = None
    raised: Optional[tuple[str, str]] = None
    flags: Optional[Mapping[str, tuple[bool, bool]]] = field(default=None, hash=False)
    more_flags: bool = False
    in_results: Optional[bool] = None

    def __post_init__(self) -> None:
        for step in (self.step, self.within or None):
            if step is not None and step not in STEPS_BY_KEY:
                raise ValueError(f"{step!r} is no step kind")
        if self.detail is not None:
            _check_detail(self.step, self.detail)
        if self.body and self.body not in {b for bodies in BODIES.values() for b in bodies}:
            raise ValueError(f"{self.body!r} is no body of a custom function")
        if self.role is not None and self.role not in (*ROLES, ""):
            raise ValueError(f"{self.role!r} is no role")
        if self.aspect is not None and self.aspect not in (*ASPECTS, *COMPARED_FIELDS):
            raise ValueError(f"{self.aspect!r} is no aspect")
        for side in (self.torch, self.paddle):
            for kind in (side,) if isinstance(side, str) else side or ():
                _check_kind(kind)
        if self.category is not None and self.category not in CATEGORIES:
            raise ValueError(f"{self.category!r} is no error category")
        for name in self.raised or ():
            _check_exception(name)
        for name in self.flags or {}:
            if name not in FLAG_FIELDS:
                raise ValueError(f"{name!r} is no flag")

    def matches(self, cause: Cause) -> bool:
        """Whether ``cause`` has every field this match names."""
        return (self._place(cause.place)
                and self._equal(self.within, cause.within.kind if cause.within else "")
                and self._equal(self.aspect, cause.aspect)
                and self._side(self.torch, cause.torch) and self._side(self.paddle, cause.paddle)
                and self._equal(self.category, cause.category)
                and self._equal(self.raised, cause.raised or None)
                and self._equal(self.in_results, cause.in_results)
                and self._flags(cause.flags))

    def _place(self, place: Place) -> bool:
        return (self._equal(self.step, place.kind) and self._equal(self.detail, place.detail)
                and self._equal(self.body, place.body) and self._equal(self.role, place.role))

    @staticmethod
    def _equal(wanted: Any, value: Any) -> bool:
        return wanted is None or wanted == value

    @staticmethod
    def _side(wanted: Union[str, tuple[str, ...], None], kinds: tuple[str, ...]) -> bool:
        if wanted is None:
            return True
        if wanted == ANY_ERROR:
            return len(kinds) == 1 and kinds[0].startswith("error:")
        return kinds == ((wanted,) if isinstance(wanted, str) else wanted)

    def _flags(self, flags: tuple[tuple[str, Any, Any], ...]) -> bool:
        if self.flags is None:
            return True
        differing = {name: (t, p) for name, t, p in flags}
        wanted = dict(self.flags)
        if self.more_flags:
            return all(differing.get(name) == sides for name, sides in wanted.items())
        return differing == wanted
