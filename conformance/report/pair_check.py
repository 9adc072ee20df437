"""Check the porting guide's rewrites: each pair of programs prints the same in its framework.

A pair is an ``original`` program in one framework and its ``rewrite`` in the other
(``porting_classes``). Both are the project's own source text (never case data), run here in
one process with torch and paddle imported side by side, each in a fresh namespace, with what
it prints captured. An exception the program does not catch is part of what it prints, so a
rewrite that raises where the original printed fails the check.

``python -m conformance.report.pair_check`` prints every pair's outputs and whether they agree.
"""

from __future__ import annotations

import contextlib
import io
import sys
import warnings
from dataclasses import dataclass
from typing import Iterable, Union

from conformance.report.porting_classes import CLASSES, NO_COUNTERPART, NoCounterpart, PortingClass

Pair = Union[PortingClass, NoCounterpart]


def run_program(text: str) -> str:
    """What ``text`` prints, with an uncaught exception's class and first line last."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exec(compile(text, "<porting program>", "exec"), {"__name__": "__porting__"})  # noqa: S102
        except Exception as exc:  # noqa: BLE001 - an uncaught error is what the program did
            print(f"uncaught {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}")
    return out.getvalue()


@dataclass(frozen=True)
class PairOutcome:
    key: str
    original: str
    rewrite: str

    @property
    def agrees(self) -> bool:
        return self.original == self.rewrite and bool(self.original.strip()) \
            and "uncaught" not in self.original


def check_pairs(pairs: Iterable[Pair] = (*CLASSES, *NO_COUNTERPART)) -> list[PairOutcome]:
    """Each pair's two outputs."""
    return [PairOutcome(p.key, run_program(p.original), run_program(p.rewrite)) for p in pairs]


def main() -> int:
    outcomes = check_pairs()
    for o in outcomes:
        print(f"{'agrees' if o.agrees else 'DIFFERS'}  {o.key}")
        if not o.agrees:
            print(f"    original: {o.original!r}\n    rewrite:  {o.rewrite!r}")
    bad = sum(not o.agrees for o in outcomes)
    print(f"{len(outcomes) - bad} of {len(outcomes)} pairs agree")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
