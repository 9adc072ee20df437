"""Reading a run's streamed results (``results.jsonl``, optionally gzip-compressed)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any, Iterator, Optional

from conformance.corpus.collector import collector_paused
from conformance.corpus.inputs import (
    MAX_LINE_BYTES,
    InputError,
    NotJSONError,
    decode,
    parse_json,
    schema_problem,
)
from conformance.run.trace import json_to_array, recategorize

RESULTS = "results.jsonl"


def results_path(directory: Path) -> Path:
    for name in (RESULTS, RESULTS + ".gz"):
        if (directory / name).exists():
            return directory / name
    raise FileNotFoundError(f"{directory} holds no {RESULTS}")


class CorruptResultsError(InputError):
    """A results file with a line that is not a result before its end: results would be lost."""

    def __init__(self, path: Path, line: int, why: str) -> None:
        super().__init__([str(path), f"line {line}"], why)


def corrupt(path: Path, line: int) -> CorruptResultsError:
    return CorruptResultsError(path, line, "not a result (unparseable JSON), and lines follow it: "
                               "the file is corrupt")


RESULT_SCHEMA = json.loads((Path(__file__).parent / "schemas" / "result.schema.json").read_text())


def parse_result(line: str, path: Path, number: int, trusted: bool = False) -> Optional[dict[str, Any]]:
    """One line of a results file as a result; None where the line does not parse (it may be a
    last line cut off), an error where it parses but is no result. A file another process
    wrote is held to ``result.schema.json`` and its values to their shapes and dtypes; the
    lines this run writes as it goes (``trusted``) are only parsed: the tests hold the writer
    to the schema, and the checks cost a report of a large run seconds."""
    try:
        result = parse_json(line, [str(path), f"line {number}"], unique_keys=False)
    except NotJSONError:
        return None
    except InputError as exc:
        raise CorruptResultsError(path, number, exc.message) from None
    if not trusted:
        problem = schema_problem(result, RESULT_SCHEMA) or _values_problem(result)
        if problem:
            raise CorruptResultsError(path, number, f"not a result: {problem}")
    return result


def _values_problem(result: dict[str, Any]) -> Optional[str]:
    """Why the values of a tensor or array observation cannot be read back as what it says it
    is (its dtype, its shape), or None."""
    for key in ("observations", "reference_observations"):
        pending = list(result.get(key) or [])
        while pending:
            o = pending.pop()
            if o["kind"] == "list":
                pending += o["items"]
            elif o["kind"] in ("tensor", "array"):
                try:
                    read = json_to_array(o["values"], o["dtype"])
                except (TypeError, ValueError, OverflowError) as exc:
                    return f"the values of a {o['kind']} at step {o.get('step')} are not {o['dtype']}: {exc}"
                if list(read.shape) != o["shape"]:
                    return (f"the values of a {o['kind']} at step {o.get('step')} have shape "
                            f"{list(read.shape)}, not {o['shape']}")
    return None


def cut_off_note(name: str, line: int) -> str:
    return f"{name}: its last line (line {line}) was cut off, as by an interrupted run, and is left out"


def iter_results(directory: Path, notes: Optional[list[str]] = None) -> Iterator[dict[str, Any]]:
    """Each line of the results file. A cut-off last line (a run killed while writing it) is left
    out, with a note added to ``notes``; an unparseable line anywhere else raises
    ``CorruptResultsError`` naming the file and the line."""
    path = results_path(directory)
    opener = gzip.open if path.suffix == ".gz" else open
    torn: Optional[int] = None  # the number of an unparseable line, until another line follows
    try:
        with opener(path, "rb") as handle:  # type: ignore[operator]
            number = 0
            while raw := handle.readline(MAX_LINE_BYTES + 1):
                number += 1
                if len(raw) > MAX_LINE_BYTES:
                    raise CorruptResultsError(path, number, f"longer than {MAX_LINE_BYTES:,} bytes, "
                                          "the limit for a line")
                line = decode(raw, f"{path}, line {number}").strip()
                if not line:
                    continue
                if torn is not None:
                    raise corrupt(path, torn)
                result = parse_result(line, path, number)
                if result is None:
                    torn = number
                else:
                    yield result
    except (OSError, EOFError) as exc:  # unreadable, or a .gz that is not gzip or is cut off
        raise InputError(str(path), f"cannot read: {getattr(exc, 'strerror', None) or exc}") \
            from None
    if torn is not None and notes is not None:
        notes.append(cut_off_note(path.name, torn))


@collector_paused()
def load_results(directory: Path, notes: Optional[list[str]] = None) -> list[dict[str, Any]]:
    """The results, the last one winning where a (case, backend) appears twice (read with the
    garbage collector paused: ``collector.py``)."""
    latest: dict[tuple[str, str], dict[str, Any]] = {}
    for r in iter_results(directory, notes):
        for key in ("observations", "reference_observations"):
            recategorize(r.get(key) or [])
        latest[(r["case"], r["backend"])] = r
    return [latest[k] for k in sorted(latest)]


def write_results(directory: Path, results: list[dict[str, Any]]) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / RESULTS
    with path.open("w", encoding="utf-8") as handle:
        for r in results:
            handle.write(json.dumps(r, sort_keys=True) + "\n")
    return path
