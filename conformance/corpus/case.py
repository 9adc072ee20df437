"""A case: one autograd program stored as data, after it has been parsed and validated."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterator

from conformance.corpus.step_kinds import BLOCKS, block_mode
from conformance.corpus.vocabulary import DIALECTS


def walk(steps: Any, prefix: str = "", grad_enabled: bool = True
         ) -> Iterator[tuple[str, dict[str, Any], bool]]:
    """Every step in execution order with its location (``3.1`` is the second step of block 3)
    and whether gradients are recorded where it runs."""
    for i, step in enumerate(steps):
        where = f"{prefix}{i}"
        yield where, step, grad_enabled
        for kind, held in BLOCKS.items():
            if kind in step:
                yield from walk(step[held], where + ".", block_mode(step, grad_enabled))


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

    def dtypes(self) -> frozenset[str]:
        """Every dtype the case names (leaves, seeds, casts); a literal without one is made in
        the default float32. Found once: each backend's verdict asks."""
        if "_dtypes" in self.__dict__:
            return self.__dict__["_dtypes"]
        found: set[str] = set()
        pending: list[Any] = list(self.steps)
        while pending:  # every dict and list inside, numbers skipped without a call each
            item = pending.pop()
            if type(item) is dict:
                if "dtype" in item and isinstance(item["dtype"], str):
                    found.add(item["dtype"])
                elif "value" in item or "leaf" in item:
                    found.add("float32")
                pending.extend(v for v in item.values() if type(v) is dict or type(v) is list)
            else:
                pending.extend(v for v in item if type(v) is dict or type(v) is list)
        self.__dict__["_dtypes"] = frozenset(found)  # frozen: a cache, not a field
        return self.__dict__["_dtypes"]

    def walked(self) -> tuple[tuple[str, dict[str, Any], bool], ...]:
        """``walk(self.steps)``, kept: the judge, the coverage and the reports each walk a case
        several times (once per finding, per tensor, per API)."""
        if "_walked" not in self.__dict__:
            self.__dict__["_walked"] = tuple(walk(self.steps))  # frozen: a cache, not a field
        return self.__dict__["_walked"]

    @classmethod
    def trusted(cls, raw: dict[str, Any], source: str) -> Case:
        """A case from data already validated (or generated well-formed), without checking it
        again — for the generated corpus and for cases passed between processes."""
        return cls(id=raw["id"], about=raw["about"], steps=tuple(raw["steps"]),
                   dialects=tuple(raw.get("dialects", DIALECTS)), expect=tuple(raw.get("expect", ())),
                   tags=tuple(raw.get("tags", ())), source=source, raw=raw)


def names_in(args: list[Any]) -> list[str]:
    """The names among a step's arguments (and inside list arguments such as cat's)."""
    out: list[str] = []
    for a in args:
        if isinstance(a, str):
            out.append(a)
        elif isinstance(a, list):
            out.extend(x for x in a if isinstance(x, str))
    return out
