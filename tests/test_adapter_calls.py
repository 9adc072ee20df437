"""The adapters call exactly what the case says, so the repro program is what ran.

Each case runs twice on the real framework: as is, and with its autograd entry points strict
(``strict_frameworks``): any call that is not the repro program's next call is a TypeError. The
two traces must be the same as far as the repro program goes (to its first error).
"""

from __future__ import annotations

import pytest

from conformance.corpus.assembly import load_corpus
from conformance.corpus.case import Case, walk
from conformance.corpus.generator import generated_corpus
from conformance.run.backends import resolve
from conformance.run.interpreter import run_case
from conformance.run.repro import program
from tests.strict_frameworks import repro_calls, strict_calls

AUTOGRAD_STEPS = ("backward", "grad")


def _autograd_steps(steps) -> list[dict]:
    return [s for _, s, _ in walk(steps) if any(k in s for k in AUTOGRAD_STEPS)]


def _nested_autograd(case: Case) -> bool:
    """Whether a backward or grad step sits in a function's body (it runs when the function
    is called, not in the program's order)."""
    return any(_autograd_steps(step[field]) for _, step, _ in walk(case.steps)
               for field in ("forward", "derivative", "body") if field in step)


def _corpus(dialect: str) -> list[Case]:
    cases = load_corpus("hand", 0, 0, None)
    cases += [Case.trusted(raw, "<generated>") for raw in generated_corpus(0, 400)]
    return [c for c in cases if c.runs_on(dialect) and not _nested_autograd(c)
            and _autograd_steps(c.steps)]


def _comparable(observations: list[dict]) -> list[dict]:
    """The observations a repro program makes too: up to the first error (a program stops
    there; the interpreter goes on), without warnings (torch gives some once a process)."""
    kept = []
    for o in observations:
        if o["kind"] != "warning":
            kept.append({k: v for k, v in o.items() if k != "seconds"})
        if o["kind"] in ("error", "skipped"):
            break
    return kept


@pytest.mark.parametrize("backend", ["torch-cpu", "paddle-cpu"])
def test_the_adapter_makes_exactly_the_calls_the_repro_shows(backend):
    framework_backend = resolve(backend)
    adapter = framework_backend.load()
    checked = 0
    for case in _corpus(framework_backend.dialect):
        expected = repro_calls(program(case, framework_backend.dialect))
        plain = run_case(case, adapter, backend)
        with strict_calls(adapter.m, expected) as made:
            strict = run_case(case, adapter, backend)
        assert _comparable(strict.observations) == _comparable(plain.observations), case.id
        # a call that is not the repro's next one raised in the strict run, so its trace differs
        # from the plain one up to the first error; the calls after it are not compared
        checked += sum(got == want for got, want in zip(made, expected))
    assert checked > 500  # autograd calls made and matched, not cases passed over
