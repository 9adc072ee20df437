"""Turn case files into :class:`Case` objects, rejecting malformed input with one clear message.

Case data is only ever parsed (``json``) and checked against ``conformance.corpus.vocabulary``; nothing
in it is evaluated. Every rejection is a :class:`CaseError` naming the file, the case id, the
step (``3`` or ``3.1`` inside a ``no_grad`` block) and the field.
"""

from __future__ import annotations

import contextlib
import json
import keyword
import math
from pathlib import Path
from typing import Any, Iterable, Iterator, Optional

from conformance import data
from conformance.corpus import vocabulary as V
from conformance.corpus.case import Case
from conformance.corpus.inputs import MAX_CASES, MAX_ELEMENTS, MAX_STEPS, InputError, check_count, read_json
from conformance.corpus.step_kinds import STEPS_BY_KEY, choice_problem, describe_object
from conformance.corpus.text import id_problem

NON_CASE_FILES = {"schema.json", "manifest.json"}


class CaseError(InputError):
    """A malformed case file, case or step, named by file, case id, step (``3``, or ``3.1``
    inside a ``no_grad`` block) and field."""

    def __init__(self, source: str, message: str, case_id: Optional[str] = None,
                 step: Optional[str] = None, field: Optional[str] = None) -> None:
        self.source, self.case_id, self.step, self.field = source, case_id, step, field
        where = [source]
        if case_id is not None:
            where.append(f"case '{case_id}'")
        if step is not None:
            where.append(f"step {step}")
        if field is not None:
            where.append(f"field '{field}'")
        super().__init__(where, message)


class _CaseChecker:
    """Validates one case's steps, tracking which names are bound."""

    def __init__(self, source: str, case_id: str) -> None:
        self.source, self.case_id = source, case_id
        self.names: set[str] = set()
        self.made: dict[str, str] = {}  # names bound to other than tensors: the kind that made it
        self.functions: dict[str, int] = {}  # names bound by function steps: their outputs
        self.steps = 0  # steps seen, counting those inside blocks

    def fail(self, message: str, step: Optional[str] = None, field: Optional[str] = None) -> None:
        raise CaseError(self.source, message, self.case_id, step, field)

    # --- values ---------------------------------------------------------------------------

    def check_type(self, value: Any, kind: str, step: str, field: str) -> None:
        ok = {
            V.NAME: lambda v: isinstance(v, str) and v.isidentifier(),
            V.NAMES: lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
            V.NAMES_OR_NULLS: lambda v: isinstance(v, list) and all(
                x is None or isinstance(x, str) for x in v),
            V.NAME_OR_NAMES: lambda v: isinstance(v, str) or (
                isinstance(v, list) and all(isinstance(x, str) for x in v)),
            V.NUMBER: lambda v: _is_number(v),
            V.NUMBER_OR_NAME: lambda v: _is_number(v) or (isinstance(v, str) and v.isidentifier()),
            V.BOOL: lambda v: isinstance(v, bool),
            V.BOOL_OR_NULL: lambda v: v is None or isinstance(v, bool),
            V.INT: lambda v: isinstance(v, int) and not isinstance(v, bool),
            V.INTS: lambda v: isinstance(v, list) and all(
                isinstance(x, int) and not isinstance(x, bool) for x in v),
            V.DIMS: lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool)) or (
                isinstance(v, list) and all(isinstance(x, int) and not isinstance(x, bool)
                                            for x in v)),
            V.TEXT: lambda v: isinstance(v, str),
            V.VALUE: lambda v: True,  # checked by check_value
            V.SEEDS: lambda v: v is None or isinstance(v, list),
            V.INDEX: lambda v: isinstance(v, list),
            V.STEPS: lambda v: isinstance(v, list),
            V.ARGS: lambda v: isinstance(v, list),
            V.KWARGS: lambda v: isinstance(v, dict),
            V.DTYPE: lambda v: isinstance(v, str),
        }[kind]
        if not ok(value):
            self.fail(f"expected {kind}, got {json.dumps(value)}", step, field)
        if kind == V.DTYPE and value not in V.DTYPES:
            self.fail(f"bad dtype '{value}'; expected one of {', '.join(V.DTYPES)}", step, field)
        if kind == V.VALUE:
            self.check_value(value, step, field)
        if kind == V.INDEX:
            self.check_index(value, step, field)

    def check_value(self, value: Any, step: str, field: str) -> None:
        shape = _shape_of(value)
        if shape is None:
            self.fail("ragged value: nested lists must be rectangular and hold only numbers",
                      step, field)
        elements = math.prod(shape)
        if elements > MAX_ELEMENTS:
            self.fail(f"a value of {elements:,} numbers; the limit is {MAX_ELEMENTS:,}", step, field)

    def check_index(self, index: list[Any], step: str, field: str) -> None:
        for entry in index:
            if entry is None or entry == "..." or (isinstance(entry, int) and not isinstance(entry, bool)):
                continue
            if isinstance(entry, dict) and set(entry) == {"slice"} and isinstance(entry["slice"], list) \
                    and len(entry["slice"]) <= 3 and all(x is None or isinstance(x, int)
                                                         for x in entry["slice"]):
                continue
            if isinstance(entry, list) and all(isinstance(x, int) and not isinstance(x, bool)
                                               for x in entry):
                continue
            self.fail(f"bad index entry {json.dumps(entry)}; expected {V.INDEX}", step, field)

    def use(self, name: Any, step: str, field: str) -> None:
        """``name`` is bound, and to a tensor (a function, optimizer or module is named only
        where a step refers to one)."""
        if not isinstance(name, str):
            self.fail(f"expected a name, got {json.dumps(name)}", step, field)
        if name not in self.names:
            self.fail(f"undefined name '{name}'", step, field)
        if name in self.made:
            self.fail(f"'{name}' is {describe_object(self.made[name])}, not a tensor", step, field)

    def bind(self, name: str, step: str, field: str) -> None:
        if not name.isidentifier():
            self.fail(f"'{name}' is not a valid name", step, field)
        if keyword.iskeyword(name) or name in V.RESERVED_NAMES:
            self.fail(f"'{name}' is reserved: the repro programs use it ({', '.join(V.RESERVED_NAMES)} "
                      "and Python's keywords)", step, field)
        if name in self.names:
            self.fail(f"re-defined name '{name}'", step, field)
        self.names.add(name)

    # --- steps ----------------------------------------------------------------------------

    def check_steps(self, steps: Any, prefix: str = "") -> None:
        if not isinstance(steps, list) or not steps:
            self.fail("expected a non-empty list of steps", prefix.rstrip(".") or None, "steps")
        self.steps += len(steps)
        if self.steps > MAX_STEPS:
            self.fail(f"more than {MAX_STEPS:,} steps, counting those inside blocks; that is "
                      "the limit", prefix.rstrip(".") or None, "steps")
        for i, step in enumerate(steps):
            self.check_step(step, f"{prefix}{i}")

    def check_step(self, step: Any, where: str) -> None:
        """One step, by its kind's entry (``conformance.corpus.step_kinds``): its fields and
        their types, the values a field allows, the names it uses and the objects it refers
        to, the steps it holds, the entry's own check, then the names it binds."""
        if not isinstance(step, dict):
            self.fail(f"a step must be an object, got {json.dumps(step)}", where)
        kinds = [k for k in step if k in STEPS_BY_KEY]
        if len(kinds) != 1:
            self.fail("unknown step kind; a step has exactly one of: "
                      + ", ".join(STEPS_BY_KEY) if not kinds
                      else f"a step has one kind, this one has {', '.join(kinds)}", where)
        kind = STEPS_BY_KEY[kinds[0]]
        allowed = kind.fields
        for key in step:
            if key not in allowed:
                self.fail(f"unknown key for a '{kind.key}' step; allowed: {', '.join(allowed)}",
                          where, key)
        for key in kind.required:
            if key not in step:
                self.fail("missing required field", where, key)
        for key, value in step.items():
            self.check_type(value, allowed[key], where, key)
        for key in kind.choices:
            problem = choice_problem(kind, key, step[key]) if key in step else None
            if problem:
                self.fail(problem, where, key)
        for key, makers in kind.refers.items():
            if step[key] not in self.names or self.made.get(step[key]) not in makers:
                self.fail(f"'{step[key]}' is not {' or '.join(map(describe_object, makers))} "
                          f"defined by {'a def step' if makers == ('def',) else 'an earlier step'}",
                          where, key)
        for key in kind.uses:
            for name in _as_list(step.get(key, [])):
                self.use(name, where, key)
        if "seeds" in allowed:
            self.check_seeds(step.get("seeds"), where)
        if kind.block:
            self.check_steps(step[kind.block], where + ".")
        if kind.check is not None:
            kind.check(self, step, where)
        for key in kind.binds:
            if key in step:
                for name in _as_list(step[key]):
                    self.bind(name, where, key)
                    if key == kind.key and kind.makes_object:
                        self.made[name] = kind.key

    @contextlib.contextmanager
    def scope(self, bound: list[tuple[str, str]], where: str) -> Iterator[None]:
        """Check a body with only its own names: ``bound`` as (name, field that binds it)."""
        outer, self.names = self.names, set()
        try:
            for name, field in bound:
                self.bind(name, where, field)
            yield
        finally:
            self.names = outer

    def check_operands(self, spec: V.OpSpec, args: list[Any], kwargs: dict[str, Any], op: str,
                       where: str) -> None:
        if spec.operands == "list":
            if len(args) != 1 or not isinstance(args[0], list) or not args[0]:
                self.fail(f"'{op}' takes one argument: a non-empty list of names", where, "args")
            for name in args[0]:
                self.use(name, where, "args")
        else:
            if len(args) != spec.operands:
                self.fail(f"'{op}' takes {spec.operands} argument(s), got {len(args)}", where, "args")
            for arg in args:
                if isinstance(arg, str):
                    self.use(arg, where, "args")
                elif not (spec.scalar_operands and _is_number(arg)):
                    self.fail(f"argument {json.dumps(arg)} of '{op}' must be a name"
                              + (" or a number" if spec.scalar_operands else ""), where, "args")
        for key, value in kwargs.items():
            if key not in spec.kwargs:
                self.fail(f"unknown keyword '{key}' for '{op}'; allowed: "
                          + (", ".join(spec.kwargs) or "none"), where, "kwargs")
            self.check_type(value, spec.kwargs[key], where, f"kwargs.{key}")
            if spec.kwargs[key] == V.NUMBER_OR_NAME and isinstance(value, str):
                self.use(value, where, f"kwargs.{key}")

    def check_seeds(self, seeds: Optional[list[Any]], where: str) -> None:
        for seed in seeds or []:
            if seed is None:
                continue
            if isinstance(seed, str):
                self.use(seed, where, "seeds")
            elif isinstance(seed, dict) and set(seed) <= {"value", "dtype"} and "value" in seed:
                self.check_value(seed["value"], where, "seeds")
                if "dtype" in seed:
                    self.check_type(seed["dtype"], V.DTYPE, where, "seeds.dtype")
            elif isinstance(seed, dict) and set(seed) == {"scalar"} and _is_number(seed["scalar"]):
                continue
            else:
                self.fail(f"bad seed {json.dumps(seed)}; expected {V.SEEDS}", where, "seeds")


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _as_list(v: Any) -> list[Any]:
    return v if isinstance(v, list) else [v]


def _shape_of(value: Any) -> Optional[tuple[int, ...]]:
    """The shape of a rectangular nested list of numbers (booleans allowed), or None."""
    if isinstance(value, bool) or _is_number(value):
        return ()
    if not isinstance(value, list):
        return None
    shapes = [_shape_of(v) for v in value]
    if any(s is None for s in shapes) or any(s != shapes[0] for s in shapes[1:]):
        return None
    return (len(value),) + (shapes[0] if shapes else ())


def parse_case(data: Any, source: str, index: int) -> Case:
    """One case object from a file, validated."""
    if not isinstance(data, dict):
        raise CaseError(source, f"case {index} must be an object")
    case_id = data.get("id")
    if not isinstance(case_id, str) or not case_id:
        raise CaseError(source, f"case {index} needs an 'id' string", field="id")
    problem = id_problem(case_id)
    if problem is not None:
        raise CaseError(source, problem, case_id, field="id")
    checker = _CaseChecker(source, case_id)
    for key in data:
        if key not in V.CASE_KEYS:
            checker.fail(f"unknown key; allowed: {', '.join(V.CASE_KEYS)}", field=key)
    for key in V.REQUIRED_CASE_KEYS:
        if key not in data:
            checker.fail("missing required field", field=key)
    if not isinstance(data["about"], str) or not data["about"].strip():
        checker.fail("expected a one-line description", field="about")
    dialects = data.get("dialects", list(V.DIALECTS))
    if not isinstance(dialects, list) or not dialects or any(d not in V.DIALECTS for d in dialects):
        checker.fail(f"expected a non-empty list of {', '.join(V.DIALECTS)}", field="dialects")
    tags = data.get("tags", [])
    if not isinstance(tags, list) or any(t not in V.BUCKETS for t in tags):
        checker.fail(f"tags are bucket names: {', '.join(V.BUCKETS)}", field="tags")
    checker.check_steps(data["steps"])
    expect = data.get("expect", [])
    if not isinstance(expect, list):
        checker.fail("expected a list of expectations", field="expect")
    for e in expect:
        _check_expectation(checker, e, len(data["steps"]))
    return Case(id=case_id, about=data["about"], steps=tuple(data["steps"]),
                dialects=tuple(dialects), expect=tuple(expect), tags=tuple(tags), source=source,
                raw=data)


def _check_expectation(checker: _CaseChecker, e: Any, n_steps: int) -> None:
    if not isinstance(e, dict) or "step" not in e:
        checker.fail("an expectation is an object with a 'step'", field="expect")
    for key in e:
        if key not in V.EXPECT_KEYS:
            checker.fail(f"unknown key in an expectation; allowed: {', '.join(V.EXPECT_KEYS)}",
                         field=f"expect.{key}")
    if not isinstance(e["step"], int) or not 0 <= e["step"] < n_steps:
        checker.fail(f"step must index one of the {n_steps} steps", field="expect.step")
    if "dialect" in e and e["dialect"] not in V.DIALECTS:
        checker.fail(f"dialect is one of {', '.join(V.DIALECTS)}", field="expect.dialect")
    if "value" in e:
        checker.check_value(e["value"], str(e["step"]), "expect.value")


def parse_document(document: Any, source: str) -> list[Case]:
    """The cases of one file's JSON document: ``{"format": 1, "cases": [...]}``."""
    if not isinstance(document, dict):
        raise CaseError(source, "a case file is an object with 'format' and 'cases'")
    for key in document:
        if key not in ("format", "cases", "about"):
            raise CaseError(source, "unknown key; allowed: format, cases, about", field=key)
    if document.get("format") != V.FORMAT_VERSION:
        raise CaseError(source, f"format must be {V.FORMAT_VERSION}", field="format")
    cases = document.get("cases")
    if not isinstance(cases, list):
        raise CaseError(source, "expected a list of cases", field="cases")
    check_count(len(cases), MAX_CASES, "cases in one file", [source, "field 'cases'"])
    return [parse_case(c, source, i) for i, c in enumerate(cases)]


def load_file(path: Path | str) -> list[Case]:
    """The cases of one case file, read within the limits of ``conformance.corpus.inputs``."""
    path = Path(path)
    try:
        document = read_json(path)
    except CaseError:
        raise
    except InputError as exc:  # the file as a whole: a case file's error all the same
        raise CaseError(str(path), exc.message) from None
    return parse_document(document, str(path))


def check_files(files: Iterable[Path]) -> tuple[list[Case], list[InputError]]:
    """Every case of ``files`` and every reason to refuse them: each file's own errors (its
    first, as the loader stops there), then each case id that two files share. What ``run``
    refuses, ``validate`` lists: both read files through here."""
    cases: list[Case] = []
    errors: list[InputError] = []
    for file in files:
        try:
            cases += load_file(file)
        except InputError as exc:
            errors.append(exc)
    seen: dict[str, Case] = {}
    for case in cases:
        if case.id in seen:
            errors.append(CaseError(case.source, f"duplicate case id (also in "
                                    f"{seen[case.id].source})", case.id, field="id"))
        else:
            seen[case.id] = case
    return list(seen.values()), errors


def case_files(directory: Path | str) -> list[Path]:
    """The case files under ``directory``, recursively; report folders (they hold a
    ``results.jsonl``) are never read as cases."""
    root = Path(directory)
    reports = {p.parent for p in root.rglob("results.jsonl*")}
    return sorted(p for p in root.rglob("*.json") if p.name not in NON_CASE_FILES
                  and not any(r == p.parent or r in p.parents for r in reports))


def load_directory(directory: Path | str) -> list[Case]:
    """Every case file under ``directory`` (recursively), ids unique across files; the first
    error found refuses the folder."""
    cases, errors = check_files(case_files(directory))
    if errors:
        raise errors[0]
    return cases


def hand_written_dir() -> Path:
    """The project's hand-written cases (``cases/`` in a checkout, package data when installed)."""
    return data.hand_written_cases_dir()
