"""Reading the files a user controls: bounded, parsed (never evaluated), or one clear error.

Case files, known-divergence files, a report folder's ``run.json``, ``summary.json`` and
``results.jsonl`` all come from outside the process that reads them: written by hand, by another
version, cut off by a killed run or made hostile. Every one of them is read here, so that
anything unexpected — bytes that are not UTF-8, JSON that does not parse, a number too long to
convert, a key given twice, nesting deeper or a file larger than the limits below — becomes an
:class:`InputError` naming the file (and, where the caller knows them, the case and field)
instead of an exception from deep inside the standard library.
"""

from __future__ import annotations

import json
import re
import stat
from pathlib import Path
from typing import Any, Callable, Optional

from conformance.corpus.text import visible

MAX_FILE_BYTES = 64 * 2**20  # a case, known-divergence or run file
MAX_LINE_BYTES = 16 * 2**20  # one line of a results file
MAX_DEPTH = 64  # nesting of lists and objects; the project's own files reach 13
MAX_CASES = 100_000  # cases in one file
MAX_STEPS = 2_000  # steps in one case, counting those inside blocks
MAX_ELEMENTS = 1_000_000  # numbers in one tensor value


class InputError(ValueError):
    """Something wrong in a file or an option the user controls: a usage error (exit code 2).

    ``where`` names the file, then what the caller knows of the place (``case 'x'``,
    ``step 3``, ``field 'value'``); the message is shown escaped (:func:`visible`), so hostile
    text in it cannot break or reorder the error line."""

    def __init__(self, where: str | list[str], message: str) -> None:
        self.where = [where] if isinstance(where, str) else list(where)
        self.message = message
        super().__init__(visible(", ".join(self.where) + ": " + message if self.where else message))


class NotJSONError(InputError):
    """Text that does not parse as JSON (a results file's last line may be one, cut off)."""


def read_text(path: Path, limit: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of ``path``, refused beyond ``limit`` bytes or when it cannot be read."""
    source = str(path)
    try:
        status = path.stat()
        if stat.S_ISDIR(status.st_mode):
            raise InputError(source, "is a folder, not a file")
        if not stat.S_ISREG(status.st_mode):  # a pipe or a device: reading may never end
            raise InputError(source, "is not a regular file")
        size = status.st_size
        if size > limit:
            raise InputError(source, f"is {size:,} bytes; the limit is {limit:,}")
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(source, f"cannot read: {exc.strerror or exc}") from None
    return decode(data, source)


def decode(data: bytes, source: str) -> str:
    """``data`` as UTF-8 text, or an error naming the first byte that is not."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(source, f"not UTF-8 text: byte 0x{data[exc.start]:02x} at offset "
                         f"{exc.start}") from None


def parse_json(text: str, source: str | list[str], unique_keys: bool = True) -> Any:
    """The JSON value of ``text``, checked against :data:`MAX_DEPTH`; with ``unique_keys``, an
    object that gives a key twice is refused (JSON keeps the last silently, hiding the first)."""
    hook = _refuse_repeated_keys if unique_keys else None
    try:
        value = json.loads(text, object_pairs_hook=hook)
    except json.JSONDecodeError as exc:
        raise NotJSONError(source, f"not valid JSON: {exc.msg} at line {exc.lineno} column "
                         f"{exc.colno}") from None
    except RecursionError:
        raise InputError(source, f"nested deeper than {MAX_DEPTH} levels (the limit)") from None
    except _RepeatedKeyError as exc:
        raise InputError(source, f"the key {json.dumps(exc.key)} is given twice in one object") \
            from None
    except ValueError as exc:  # an integer of more digits than Python converts
        raise InputError(source, f"a number it holds cannot be read: {exc}".split(";")[0]) \
            from None
    check_depth(value, source)
    _refuse_lone_surrogates(text, value, source)
    return value


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _refuse_lone_surrogates(text: str, value: Any, source: str | list[str]) -> None:
    """JSON may write half of a UTF-16 pair alone (``"\\ud800"``), which is no text: it cannot
    be printed, written to a report or compared as a name. Refused with its line and column;
    the search runs only where the text holds such an escape at all."""
    if not _SURROGATE_ESCAPE.search(text):
        return
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        pair_end = -1  # where the last escaped pair ended: its low half is no match of its own
        for match in _SURROGATE_ESCAPE.finditer(text):
            if match.start() < pair_end:
                continue
            after = _SURROGATE_ESCAPE.match(text, match.end())
            if int(match.group()[2:], 16) < 0xDC00 and after and int(after.group()[2:], 16) >= 0xDC00:
                pair_end = after.end()
                continue
            line = text.count("\n", 0, match.start()) + 1
            column = match.start() - text.rfind("\n", 0, match.start())
            raise InputError(source, f"a string holds {match.group()}, half of a UTF-16 surrogate "
                             f"pair, which is no text (line {line} column {column})") from None
        raise InputError(source, "a string holds half of a UTF-16 surrogate pair, which is no "
                         "text") from None


def read_json(path: Path, limit: int = MAX_FILE_BYTES, unique_keys: bool = True) -> Any:
    """The JSON value of the file ``path``: :func:`read_text`, then :func:`parse_json`."""
    return parse_json(read_text(path, limit), str(path), unique_keys)


def check_depth(value: Any, source: str | list[str], limit: int = MAX_DEPTH) -> None:
    """Refuse ``value`` when lists and objects nest in it deeper than ``limit``: code that walks
    a value recursively (the loaders, the judge, the reports) must never meet Python's recursion
    limit. Walked without recursion."""
    pending = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, dict):
            item = list(item.values())
        elif not isinstance(item, list):
            continue
        if depth > limit:
            raise InputError(source, f"nested deeper than {limit} levels (the limit)")
        pending.extend((child, depth + 1) for child in item if isinstance(child, (list, dict)))


def check_count(count: int, limit: int, what: str, where: str | list[str]) -> None:
    """Refuse more than ``limit`` of ``what`` (``"cases in one file"``)."""
    if count > limit:
        raise InputError(where, f"{count:,} {what}; the limit is {limit:,}")


class _RepeatedKeyError(Exception):
    def __init__(self, key: str) -> None:
        self.key = key


def _refuse_repeated_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    made = dict(pairs)
    if len(made) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _RepeatedKeyError(key)
            seen.add(key)
    return made



_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,), "array": (list,), "string": (str,), "boolean": (bool,),
    "null": (type(None),), "number": (int, float), "integer": (int,),
}

Check = Callable[[Any, str], Optional[str]]  # (value, where) -> what is wrong, or None


def schema_problem(value: Any, schema: dict[str, Any]) -> Optional[str]:
    """Where and why ``value`` breaks ``schema``, or None when it does not.

    The subset of JSON Schema the project's own schemas use — ``type``, ``enum``, ``const``,
    ``minimum``, ``maximum``, ``required``, ``properties``, ``additionalProperties``, ``items``,
    ``prefixItems``, ``minItems``, ``maxItems``, ``allOf``, ``if``/``then`` and local ``$ref`` —
    so that files read back are held to the schemas the tests hold the writers to, without a
    runtime dependency. The schema is compiled once into nested checks (a results file holds
    tens of thousands of lines); the walk goes as deep as the value, which :func:`check_depth`
    bounds."""
    key = id(schema)
    if key not in _COMPILED:
        _COMPILED[key] = (schema, _Compiler(schema).compile(schema))
    return _COMPILED[key][1](value, "")


_COMPILED: dict[int, tuple[dict[str, Any], Check]] = {}


def _field(at: str) -> str:
    return f"field '{at}'" if at else "the value"


def _child(at: str, key: str) -> str:
    return f"{at}.{key}" if at else key


class _Compiler:
    """Turns a schema into a :data:`Check`; references are compiled once, on first use."""

    def __init__(self, root: dict[str, Any]) -> None:
        self.root = root
        self.refs: dict[str, Check] = {}

    def compile(self, schema: dict[str, Any]) -> Check:
        checks = [self._own(schema)] if schema.keys() & _OWN_KEYWORDS else []
        if "$ref" in schema:
            checks.append(self._ref(schema["$ref"].rsplit("/", 1)[1]))
        checks += self._all_of(schema.get("allOf", ()))
        if "if" in schema:
            condition, then = self.compile(schema["if"]), self.compile(schema.get("then", {}))
            checks.append(lambda v, at: None if condition(v, at) else then(v, at))
        if schema.keys() & {"required", "properties", "additionalProperties"}:
            checks.append(self._object(schema))
        if schema.keys() & {"items", "prefixItems", "minItems", "maxItems"}:
            checks.append(self._array(schema))
        return _first(checks) if checks else _nothing

    def _ref(self, name: str) -> Check:
        if name not in self.refs:
            self.refs[name] = lambda v, at: None  # a reference to itself: filled in below
            compiled = self.compile(self.root["$defs"][name])
            self.refs[name] = compiled
        return lambda v, at: self.refs[name](v, at)

    def _all_of(self, parts: Any) -> list[Check]:
        """``allOf``; a run of ``if {kind: const K} then ...`` parts (one per kind of a tagged
        union) becomes one lookup by the value's kind instead of a test per kind."""
        tagged: dict[Any, Check] = {}
        checks = []
        for part in parts:
            tag = _kind_tag(part)
            if tag is not None:
                tagged[tag[1]] = self.compile(part.get("then", {}))
                name = tag[0]
            else:
                checks.append(self.compile(part))
        if tagged:
            def by_kind(v: Any, at: str) -> Optional[str]:
                if isinstance(v, dict):
                    kind = v.get(name)
                    check = tagged.get(kind) if isinstance(kind, str) else None
                    if check is not None:
                        return check(v, at)
                return None
            checks.append(by_kind)
        return checks

    def _own(self, schema: dict[str, Any]) -> Check:
        """The value itself: its type, const, enum, minimum and maximum."""
        types = schema.get("type")
        names = [types] if isinstance(types, str) else list(types or [])
        allowed = tuple(t for name in names for t in _JSON_TYPES[name])
        no_bool = bool(allowed) and bool not in allowed
        constant, enum = schema.get("const", _ABSENT), schema.get("enum")
        low, high = schema.get("minimum"), schema.get("maximum")

        def own(v: Any, at: str) -> Optional[str]:
            if allowed and (not isinstance(v, allowed) or (no_bool and isinstance(v, bool))):
                return f"{_field(at)} must be {' or '.join(names)}"
            if constant is not _ABSENT and not _same(v, constant):
                return f"{_field(at)} must be {json.dumps(constant)}"
            if enum is not None and not any(_same(v, e) for e in enum):
                return f"{_field(at)} must be one of {', '.join(map(str, enum))}"
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                if low is not None and v < low:
                    return f"{_field(at)} must be at least {low}"
                if high is not None and v > high:
                    return f"{_field(at)} must be at most {high:,}"
            return None
        return own

    def _object(self, schema: dict[str, Any]) -> Check:
        required = list(schema.get("required", ()))
        named = {k: self.compile(sub) for k, sub in schema.get("properties", {}).items()}
        rest_schema = schema.get("additionalProperties")
        rest = self.compile(rest_schema) if isinstance(rest_schema, dict) else None

        def check(v: Any, at: str) -> Optional[str]:
            if not isinstance(v, dict):
                return None
            for key in required:
                if key not in v:
                    return f"field '{_child(at, key)}' is missing"
            for key, item in v.items():
                sub = named.get(key, rest)
                if sub is not None:
                    problem = sub(item, _child(at, key))
                    if problem:
                        return problem
            return None
        return check

    def _array(self, schema: dict[str, Any]) -> Check:
        prefix = [self.compile(sub) for sub in schema.get("prefixItems", ())]
        items = self.compile(schema["items"]) if "items" in schema else None
        least, most = schema.get("minItems", 0), schema.get("maxItems")

        typed = _type_only(schema.get("items")) if not prefix else None

        def check(v: Any, at: str) -> Optional[str]:
            if not isinstance(v, list):
                return None
            if len(v) < least or (most is not None and len(v) > most):
                return f"{_field(at)} has {len(v)} items"
            if typed is not None:  # items of plain types, checked without a call each
                allowed, no_bool = typed
                if all(isinstance(x, allowed) and not (no_bool and isinstance(x, bool)) for x in v):
                    return None
            for i, item in enumerate(v):
                sub = prefix[i] if i < len(prefix) else items
                if sub is not None:
                    problem = sub(item, f"{at}[{i}]")
                    if problem:
                        return problem
            return None
        return check


_ABSENT = object()
_OWN_KEYWORDS = {"type", "const", "enum", "minimum", "maximum"}


def _type_only(schema: Any) -> Optional[tuple[tuple[type, ...], bool]]:
    """The Python types a schema of nothing but ``type`` allows, and whether it refuses
    booleans (JSON's numbers are not ``True``); None for any other schema."""
    if not isinstance(schema, dict) or "type" not in schema or set(schema) - {"type", "description"}:
        return None
    names = [schema["type"]] if isinstance(schema["type"], str) else schema["type"]
    allowed = tuple(t for name in names for t in _JSON_TYPES[name])
    return allowed, bool not in allowed


def _kind_tag(part: Any) -> Optional[tuple[str, Any]]:
    """``(field, value)`` when ``part`` is ``{"if": {"properties": {field: {"const": value}}},
    "then": ...}``."""
    condition = part.get("if") if isinstance(part, dict) else None
    properties = (condition or {}).get("properties") or {}
    if condition and set(condition) == {"properties"} and len(properties) == 1:
        (name, sub), = properties.items()
        if set(sub) == {"const"}:
            return name, sub["const"]
    return None


def _nothing(v: Any, at: str) -> Optional[str]:
    return None


def _first(checks: list[Check]) -> Check:
    if len(checks) == 1:
        return checks[0]

    def first(v: Any, at: str) -> Optional[str]:
        for check in checks:
            problem = check(v, at)
            if problem:
                return problem
        return None
    return first


def _same(value: Any, expected: Any) -> bool:
    return type(value) is type(expected) and value == expected
