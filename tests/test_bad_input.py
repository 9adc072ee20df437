"""Property-based: whatever a user writes into a case file, a known-divergence file or a report
folder, and whatever they type as an option, the CLI answers with exit 0, 1 or 2 and, on 2, one
line naming where the problem is — never exit 3, never a traceback.

The inputs are drawn by Hypothesis: arbitrary JSON, real files with one field replaced by a
value of the wrong type, files cut off anywhere, bytes that are not UTF-8, odd Unicode (lone
surrogates, bidi controls, NUL), numbers too long to convert, nesting far past the limit.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest

hypothesis = pytest.importorskip("hypothesis", reason="hypothesis is not installed (pip install .[test])")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from conformance.cli import main  # noqa: E402
from conformance.corpus.inputs import MAX_DEPTH  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
# BAD_INPUT_EXAMPLES=2000 BAD_INPUT_RANDOM=1 for a longer, fresh search than the default run's
SETTINGS = settings(max_examples=int(os.environ.get("BAD_INPUT_EXAMPLES", "60")), deadline=None,
                    derandomize=not os.environ.get("BAD_INPUT_RANDOM"),
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])

ODD_TEXT = st.sampled_from(["", " ", "\x00", "\u202e", "\ud800", "\n", "é", "𝔁", "a" * 300, "..."])
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), ODD_TEXT,
                    st.integers(min_value=-(10**40), max_value=10**40))
JSON_VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.one_of(ODD_TEXT, st.text(max_size=5)), inner,
                                                 max_size=4)), max_leaves=12)


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place in a JSON value, as the keys and indices that lead there."""
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, prefix + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += _paths(item, prefix + (i,))
    return found


def _replace(value: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = _replace(value[path[0]], path[1:], new)
    return copy


@st.composite
def mutated(draw: st.DrawFn, document: Any) -> bytes:
    """``document`` made bad one way: a field given a value of another type, the text cut off,
    bytes that are not UTF-8, a number of 5,000 digits, a key given twice, or nesting past the
    limit, each at a place drawn from the document."""
    text = json.dumps(document)
    how = draw(st.sampled_from(["replace", "cut", "bytes", "digits", "twice", "deep", "surrogate"]))
    path = draw(st.sampled_from(_paths(document)))
    if how == "replace":
        return json.dumps(_replace(document, path, draw(JSON_VALUES))).encode("utf-8", "surrogatepass")
    if how == "cut":
        return text.encode()[:draw(st.integers(0, len(text) - 1))]
    if how == "bytes":
        at = draw(st.integers(0, len(text)))
        return text.encode()[:at] + draw(st.binary(min_size=1, max_size=4)) + text.encode()[at:]
    if how == "digits":
        return json.dumps(_replace(document, path, "@@")).replace('"@@"', "9" * 5000).encode()
    if how == "twice":
        return text.replace("{", '{"format": 1, ', 1).encode()
    if how == "surrogate":
        return json.dumps(_replace(document, path, "x\ud800\u202e")).encode()
    depth = draw(st.sampled_from([MAX_DEPTH + 1, 900, 5000, 60000]))
    return json.dumps(_replace(document, path, "@@")).replace('"@@"', "[" * depth + "]" * depth).encode()


def _cli(capsys, *argv: str) -> tuple[int, list[str]]:
    code = main(list(argv))
    err = capsys.readouterr().err
    return code, [line for line in err.splitlines() if "ccache" not in line]


def _assert_clean(code: int, err: list[str], where: str) -> None:
    """Exit 0, 1 or 2; an error is one line naming ``where``; no traceback, no internal error."""
    text = "\n".join(err)
    assert code in (0, 1, 2), text
    assert "Traceback" not in text and "internal error" not in text, text
    if code == 2:
        assert err and where in err[-1], text


CASE_FILE = json.loads((ROOT / "cases" / "retain_graph.json").read_text())
CASE_FILE = {**CASE_FILE, "cases": CASE_FILE["cases"][:2]}
KNOWN_FILE = json.loads((ROOT / "known_divergences" / "paddle-cpu.json").read_text())


@SETTINGS
@given(data=st.one_of(mutated(CASE_FILE), JSON_VALUES.map(lambda v: json.dumps(v).encode(
    "utf-8", "surrogatepass")), st.binary(max_size=64)))
def test_validate_names_the_file_of_any_bad_case_file(tmp_path, capsys, data):
    path = tmp_path / "mine.json"
    path.write_bytes(data)
    code, err = _cli(capsys, "validate", str(path))
    _assert_clean(code, err, str(path))
    assert code in (0, 2)
    for line in err[:-1]:  # every error listed names the file
        assert line.startswith(str(path)), line


@SETTINGS
@given(data=st.one_of(mutated(KNOWN_FILE),
                      st.dictionaries(st.sampled_from(["backend", "entries", "x"]), JSON_VALUES)
                      .map(lambda v: json.dumps({"entries": [], **v}).encode("utf-8", "surrogatepass"))))
def test_a_bad_known_divergence_file_is_named(tmp_path, capsys, data, small_run):
    path = tmp_path / "known.json"
    path.write_bytes(data)
    code, err = _cli(capsys, "validate", str(path))
    _assert_clean(code, err, str(path))
    code, err = _cli(capsys, "known", "update", "--from", str(small_run), "--backend",
                     "reference-torch", "--file", str(path))
    _assert_clean(code, err, str(path))


REPORT_FILES = ("results.jsonl", "run.json", "summary.json")


@SETTINGS
@given(name=st.sampled_from(REPORT_FILES), line=st.integers(0, 5), data=st.data())
def test_report_diff_and_merge_name_a_damaged_report_file(capsys, small_run, name, line, data):
    with tempfile.TemporaryDirectory() as scratch:
        _damage_and_read(capsys, small_run, Path(scratch), name, line, data)


def _damage_and_read(capsys, small_run: Path, tmp_path: Path, name: str, line: int, data) -> None:
    damaged = tmp_path / "damaged"
    shutil.copytree(small_run, damaged)
    target = damaged / name
    if name == "results.jsonl":
        lines = target.read_text().splitlines()
        line = min(line, len(lines) - 2)  # a line with another after it: never a cut-off end
        bad = data.draw(mutated(json.loads(lines[line])))
        target.write_bytes(b"\n".join(x.encode() for x in lines[:line]) + b"\n" + bad + b"\n"
                           + b"\n".join(x.encode() for x in lines[line + 1:]) + b"\n")
    else:
        target.write_bytes(data.draw(mutated(json.loads(target.read_text()))))
    for argv in (["report", str(damaged)], ["diff", str(small_run), str(damaged)],
                 ["merge", str(tmp_path / "merged"), str(damaged)]):
        code, err = _cli(capsys, *argv)
        _assert_clean(code, err, str(damaged))


@pytest.mark.parametrize("argv, named", [
    (["run", "--out", "{file}"], "--out"),
    (["run", "--timeout", "nan"], "--timeout"),
    (["run", "--count", "-1"], "--count"),
    (["run", "--seed", "1e3"], "--seed"),
    (["fuzz", "--backends", "reference-torch", "--count", "1", "--timeout", "inf"], "--timeout"),
    (["generate", "--count", "2", "--out", "{dir}"], "--out"),
    (["diff", "{run}", "{run}", "--json", "{dir}"], "--json"),
    (["compat", "{run}", "--out", "{dir}"], "--out"),
    (["record", "../escape", "--from", "{run}"], "name"),
    (["run", "--memory", "10 parsecs"], "--memory"),
    (["run", "--shard", "3/2"], "--shard"),
    (["run", "-n", "many"], "-n"),
])
def test_a_bad_option_is_one_line_naming_it(tmp_path, capsys, small_run, argv, named):
    (tmp_path / "a-file").write_text("")
    argv = [a.format(file=tmp_path / "a-file", dir=tmp_path, run=small_run) for a in argv]
    code, err = _cli(capsys, *argv)
    assert code == 2 and len(err) == 1 and named in err[0], err


def test_validate_finds_a_case_id_two_files_share_as_run_refuses_it(tmp_path, capsys):
    case = CASE_FILE["cases"][0]
    cases = tmp_path / "cases"
    cases.mkdir()
    for name in ("a.json", "b.json"):
        (cases / name).write_text(json.dumps({"format": 1, "cases": [case]}))
    code, err = _cli(capsys, "validate", str(cases))
    assert code == 2 and err == [f"{cases / 'b.json'}, case '{case['id']}', field 'id': "
                                 f"duplicate case id (also in {cases / 'a.json'})"]
    code, run_err = _cli(capsys, "run", "-n", "0", "--corpus", "hand", "--cases", str(cases),
                         "--backends", "reference-torch", "--out", str(tmp_path / "out"))
    assert code == 2 and run_err[-1] == f"autograd-oracle: error: {err[0]}"


def test_a_diff_of_runs_with_no_backend_in_common_says_what_it_compared(tmp_path, capsys, small_run):
    other = tmp_path / "paddle"
    assert main(["run", "-n", "0", "--corpus", "hand", "--select", "seeds/*", "--backends",
                 "reference-paddle", "--out", str(other)]) == 0
    capsys.readouterr()
    code = main(["diff", str(small_run), str(other)])
    captured = capsys.readouterr()
    assert code == 2
    assert f"- ran only in {small_run}: reference-torch (its results are counted as removed, not " \
           "compared)" in captured.out
    assert captured.err.strip().splitlines()[-1].startswith("autograd-oracle: error: nothing compared")


@pytest.mark.parametrize("limit, document", [
    ("cases in one file", {"format": 1, "cases": [{}] * 100_001}),
    ("steps", {"format": 1, "cases": [{"id": "long", "about": "x", "steps": [
        {"observe": "grad", "of": "x"}] * 2_001}]}),
    ("numbers", {"format": 1, "cases": [{"id": "big", "about": "x", "steps": [
        {"leaf": "x", "value": [[0.0] * 1001] * 1000}]}]}),
])
def test_parsing_is_bounded_with_the_limit_in_the_error(tmp_path, capsys, limit, document):
    path = tmp_path / "big.json"
    path.write_text(json.dumps(document))
    code, err = _cli(capsys, "validate", str(path))
    assert code == 2 and limit in err[0] and "the limit" in err[0], err
