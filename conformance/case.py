"""A case: one autograd program stored as data, after it has been parsed and validated."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from conformance.vocabulary import DIALECTS


@dataclass(frozen=True)
class Case:
    """A validated case. ``steps`` are the JSON step objects, checked against the vocabulary."""

    id: str
    about: str
    steps: tuple[dict[str, Any], ...]
    dialects: tuple[str, ...] = DIALECTS
    expect: tuple[dict[str, Any], ...] = ()
    tags: tuple[str, ...] = ()
    source: str = "<memory>"
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def runs_on(self, dialect: str) -> bool:
        return dialect in self.dialects

    @classmethod
    def trusted(cls, raw: dict[str, Any], source: str) -> Case:
        """A case from data already validated (or generated well-formed), without checking it
        again — for the generated corpus and for cases passed between processes."""
        return cls(id=raw["id"], about=raw["about"], steps=tuple(raw["steps"]),
                   dialects=tuple(raw.get("dialects", DIALECTS)), expect=tuple(raw.get("expect", ())),
                   tags=tuple(raw.get("tags", ())), source=source, raw=raw)
