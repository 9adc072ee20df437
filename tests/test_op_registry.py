"""The op registry: each entry's call exists where it says, the program a report prints is the
call the adapter made, every rule of the reference is reached by a case op or said to be
internal, and generator version 5 reaches every entry in each dialect, by backward, to second
order and at its special points, agreeing with the real frameworks."""

from __future__ import annotations

import functools
import importlib
from collections import Counter
from typing import Any

import pytest

from conformance.cli import main
from conformance.corpus.generator import generate
from conformance.corpus.generators.registry_ops import FORMS, op_of
from conformance.corpus.op_registry import INTERNAL_RULES, REGISTERED, REGISTRY
from conformance.corpus.vocabulary import OPS
from conformance.run.adapters import PaddleAdapter, TorchAdapter
from conformance.run.repro import ReproWriter
from reference_engine.rules import RULES

FACADES = {"torch": "reference_engine.torch", "paddle": "reference_engine.paddle"}
ADAPTERS = {"torch": TorchAdapter, "paddle": PaddleAdapter}
ENTRIES = [(op, dialect) for op in REGISTRY for dialect in op.dialects]


@pytest.mark.parametrize("op, dialect", ENTRIES, ids=[f"{o.name}-{d}" for o, d in ENTRIES])
def test_each_call_exists_in_the_facade_and_the_framework(op, dialect):
    call = op.call(dialect)
    framework = pytest.importorskip(dialect, reason=f"{dialect} is not installed")
    for module in (importlib.import_module(FACADES[dialect]), framework):
        if call.is_method:
            assert hasattr(module.Tensor, call.path[1:]), (module.__name__, call.path)
        else:
            assert callable(functools.reduce(getattr, call.path.split("."), module)), call.path


class _Recorder:
    """A stand-in framework module: records the attribute path called and its arguments."""

    def __init__(self, path: str = "") -> None:
        self.path, self.calls = path, []

    def __getattr__(self, name: str) -> Any:
        child = _Recorder(f"{self.path}.{name}".lstrip("."))
        child.calls = self.calls
        return child

    def __call__(self, *args: Any, **kwargs: Any) -> str:
        self.calls.append((self.path, args, kwargs))
        return "result"


@pytest.mark.parametrize("op, dialect", ENTRIES, ids=[f"{o.name}-{d}" for o, d in ENTRIES])
def test_the_printed_program_is_the_call_the_adapter_made(op, dialect):
    if op.call(dialect).is_method:
        pytest.skip("no entry calls a method yet")
    kwargs = dict(op.samples[-1])
    names = [f"x{i}" for i in range(op.operands)]
    module = _Recorder()
    adapter = ADAPTERS[dialect].__new__(ADAPTERS[dialect])
    adapter.m, adapter.dialect = module, dialect
    adapter.op(op.name, names, kwargs)
    (path, args, called), = module.calls
    printed = ReproWriter(dialect).op({"let": "y", "op": op.name, "args": names, "kwargs": kwargs})
    keywords = [f"{k}={v!r}" for k, v in called.items()]
    assert printed == f"{dialect}.{path}({', '.join([*args, *keywords])})"


def test_every_rule_is_reached_by_a_case_op_or_said_to_be_internal():
    reached = set(OPS) | {op.rule or op.name for op in REGISTRY}
    unaccounted = sorted(set(RULES) - reached - set(INTERNAL_RULES))
    assert unaccounted == [], "rules no case op reaches and INTERNAL_RULES does not explain"
    assert sorted(set(INTERNAL_RULES) - set(RULES)) == []  # no stale entry
    assert all(REGISTERED[op.name] is op and (op.rule or op.name) in RULES for op in REGISTRY)


def test_generator_5_reaches_every_entry_in_each_dialect_and_form():
    count = len(REGISTRY) * len(FORMS) * 24
    reached: Counter[tuple[str, str, str]] = Counter()
    for index, case in enumerate(generate(0, count, version=5)):
        op = op_of(index)
        section = [s for s in case["steps"] if s.get("op") == op.name]
        if not section:
            continue
        form = FORMS[(index // len(REGISTRY)) % len(FORMS)]
        for dialect in case.get("dialects", ("torch", "paddle")):
            reached[(op.name, dialect, form)] += 1
    wanted = [(op.name, d, f) for op in REGISTRY for d in op.dialects for f in FORMS
              if (f != "special point" or op.special) and (f != "second order" or op.saves)]
    thin = {cell: reached[cell] for cell in wanted if reached[cell] < 5}
    assert not thin, f"cells of the registry reached fewer than 5 times in {count} cases: {thin}"


def test_generator_5_sections_agree_with_the_real_frameworks(tmp_path, capsys):
    pytest.importorskip("torch", reason="torch is not installed")
    pytest.importorskip("paddle", reason="paddle is not installed")
    count = len(REGISTRY) * len(FORMS) * 2
    code = main(["run", "-n", "0", "--corpus", "generated", "--generator", "5", "--count",
                 str(count), "--backends", "torch-cpu,paddle-cpu", "--out", str(tmp_path / "run")])
    assert code == 0, capsys.readouterr().err
