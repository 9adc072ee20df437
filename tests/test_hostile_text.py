"""Hostile text in a case reaches every output as text, never as code or structure.

Case files come from outside the project. One run over cases whose ids and abouts hold newlines,
code, backticks and fences, ``]]>``, ``<script>``, control characters, a bidi override and very
long lines is compared with the same run over plain text: every repro program parses to the same
statements, ``junit.xml`` parses, ``report.html`` holds no markup from the cases and
``report.md`` keeps its headings and fences.
"""

from __future__ import annotations

import ast
import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.corpus.loader import CaseError, load_directory, parse_case
from conformance.corpus.text import ID_MAX_LENGTH, id_problem, visible
from conformance.report.escape import markdown_block, markdown_code, markdown_text
from conformance.run.repro import program

CODE = "\nimport os; os.system('echo injected')\n#"
FENCE = "\n```\n# heading\n````python\nimport os\n````\n"
MARKUP = "<script>alert(1)</script><img src=x onerror=alert(2)> ]]> &amp; <!-- -->"
CONTROL = "\x00\x07\x1b[31m\r\x0b\x0c\x85\u2028\u2029"
BIDI = "\u202eevil\u202c \u2066x\u2069"
HOSTILE_ABOUT = f"harmless{CODE}{FENCE}{MARKUP}{CONTROL}{BIDI}\n" + "long " * 1000
# an id may hold any printable character: markup, backticks, Markdown and XML specials
HOSTILE_ID = "inj/`` ``` <script>alert(1)</script> ]]> # [x](y) *a* _b_ | & \\"
ID_SAMPLES = {HOSTILE_ID, "x" * ID_MAX_LENGTH}

BACKENDS = "reference-torch,torch-cpu,reference-paddle,paddle-cpu"


def _cases(prefix: str, about: str) -> list[dict]:
    """A case whose broken expectation fails its reference (a failure with a repro), and a case
    torch and paddle observe differently (a divergence class with a repro pair)."""
    leaf = {"leaf": "x", "value": [1.0, 2.0], "requires_grad": True}
    return [
        {"id": f"{prefix}/fails", "about": about, "steps": [
            leaf, {"let": "y", "op": "mul", "args": ["x", "x"]},
            {"let": "z", "op": "sum", "args": ["y"]}, {"backward": "z"},
            {"observe": "grad", "of": "x"}],
         "expect": [{"step": 4, "value": [9.0, 9.0]}]},
        {"id": f"{prefix}/diverges", "about": about, "steps": [
            leaf, {"let": "y", "op": "mul", "args": ["x", 3.0]}, {"backward": "y"},
            {"observe": "grad", "of": "x"}]},
    ]


def _run(tmp: Path, name: str, prefix: str, about: str) -> Path:
    cases = tmp / f"{name}-cases"
    cases.mkdir()
    document = {"format": 1, "about": about, "cases": _cases(prefix, about)}
    (cases / "mine.json").write_text(json.dumps(document), encoding="utf-8")
    out = tmp / name
    assert main(["run", "--corpus", "hand", "--cases", str(cases), "--backends", BACKENDS,
                 "-n", "0", "--out", str(out)]) == 1
    # the outputs a corpus run reaches only with a known divergence: its reason is free text
    results = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    for r in results:
        if r["backend"] == "reference-paddle":
            r.update(verdict="known", known_reason=about)
    (out / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in results))
    assert main(["report", str(out)]) == 0
    assert main(["compat", str(out), "--out", str(out / "COMPAT.md")]) == 0
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> tuple[Path, Path]:
    tmp = tmp_path_factory.mktemp("hostile")
    return _run(tmp, "plain", "plain/id", "a plain about"), _run(tmp, "hostile", HOSTILE_ID, HOSTILE_ABOUT)


def _repros(out: Path) -> list[str]:
    """Every program a report shows: the results' repros and the divergence pairs in
    ``report.md``."""
    results = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    blocks = re.findall(r"^(`{3,})python\n(.*?)\n\1$", (out / "report.md").read_text(), re.S | re.M)
    return [r["repro"] for r in results if r.get("repro")] + [body for _, body in blocks]


def _statements(source: str) -> str:
    return ast.dump(ast.parse(source))


def test_every_repro_program_holds_only_the_statements_of_the_steps(runs):
    plain, hostile = runs
    plain_programs, hostile_programs = _repros(plain), _repros(hostile)
    assert len(hostile_programs) == len(plain_programs) >= 3
    assert sorted(map(_statements, hostile_programs)) == sorted(map(_statements, plain_programs))
    for source in hostile_programs:
        assert "\nimport os" not in source and "\u202e" not in source and "\x1b" not in source
        assert "# import os; os.system" in source  # the about is there, as comment lines


def test_junit_parses_and_keeps_the_text_visible(runs):
    _, hostile = runs
    tree = ET.parse(hostile / "junit.xml")
    names = [case.get("name") for case in tree.iter("testcase")]
    assert any(name.startswith(HOSTILE_ID) for name in names)
    skipped = [s.get("message") for s in tree.iter("skipped")]
    assert any("\\x07" in message and "<script>" in message for message in skipped)


class _Markup(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attributes: set[str] = set()

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attributes |= {name for name, _ in attrs}


def _markup(path: Path) -> _Markup:
    parser = _Markup()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def test_the_html_page_holds_no_markup_from_the_cases(runs):
    plain, hostile = runs
    page = (hostile / "report.html").read_text(encoding="utf-8")
    assert "<script>alert" not in page and "<img" not in page and "\u202e" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page  # shown, as text
    found, expected = _markup(hostile / "report.html"), _markup(plain / "report.html")
    assert sorted(found.tags) == sorted(expected.tags)
    assert found.attributes == expected.attributes


def _skeleton(markdown: str) -> list[str]:
    """The structure of a CommonMark document: headings' levels, fences and list items, outside
    fenced blocks (a fence closes on a line of at least as many backticks)."""
    shape, fence = [], ""
    for line in markdown.split("\n"):
        run = re.match(r"^(`{3,})(\S*)\s*$", line)
        if fence:
            if run and not run.group(2) and len(run.group(1)) >= len(fence):
                shape.append("fence-close")
                fence = ""
        elif run:
            fence = run.group(1)
            shape.append(f"fence-open {run.group(2)}")
        elif re.match(r"^#{1,6}( |$)", line):
            shape.append(line.split(" ")[0])
        elif line.startswith("- "):
            shape.append("item")
    assert not fence, "a fenced block is never closed"
    return shape


@pytest.mark.parametrize("name", ["report.md", "COMPAT.md"])
def test_markdown_keeps_its_headings_and_fences(runs, name):
    plain, hostile = runs
    text = (hostile / name).read_text(encoding="utf-8")
    assert _skeleton(text) == _skeleton((plain / name).read_text(encoding="utf-8"))
    assert "<script>" not in _prose(text)  # markup from the case only as code
    for line in text.split("\n"):
        assert line.replace("\t", "").isprintable(), repr(line[:80])


def _prose(markdown: str) -> str:
    """The document without its fenced blocks and code spans."""
    without_blocks = re.sub(r"^(`{3,})\S*\n.*?\n\1$", "", markdown, flags=re.S | re.M)
    return re.sub(r"(`+).+?(?<!`)\1(?!`)", "", without_blocks)


def test_ids_outside_the_grammar_are_refused_naming_file_and_case(tmp_path, capsys):
    for bad in ("a\nb", "a\x07", "tab\there", "rtl\u202eid", " lead", "trail ", "x" * (ID_MAX_LENGTH + 1),
                "zero\u200bwidth", "line\u2028sep", ""):
        assert id_problem(bad) is not None, repr(bad)
        with pytest.raises(CaseError, match="field 'id'") as caught:
            parse_case({"id": bad, "about": "a", "steps": [{"leaf": "x", "value": [1.0]}]}, "f.json", 0)
        assert "\n" not in str(caught.value) and "\u202e" not in str(caught.value)
    for good in (*ID_SAMPLES, "seed/paddle-backward/none-entry", "with space", "ünïcode/名前"):
        assert id_problem(good) is None, good

    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "mine.json").write_text(json.dumps({"format": 1, "cases": [
        {"id": "inj\nimport os", "about": "a", "steps": [{"leaf": "x", "value": [1.0]}]}]}))
    assert main(["validate", str(cases)]) == 2
    err = capsys.readouterr().err
    assert "mine.json" in err and "case 'inj\\nimport os'" in err and "field 'id'" in err
    assert main(["run", "--corpus", "hand", "--cases", str(cases), "--backends", "reference-torch",
                 "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.count("autograd-oracle: error:") == 1, err


def test_the_schema_pattern_agrees_with_the_grammar():
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is not installed")
    schema = json.loads((Path(__file__).resolve().parents[1] / "cases" / "schema.json").read_text())
    id_schema = schema["$defs"]["case"]["properties"]["id"]
    samples = [*ID_SAMPLES, "a\nb", "a\x07", "tab\there", "rtl\u202eid", " lead", "trail ",
               "x" * (ID_MAX_LENGTH + 1), "zero\u200bwidth", "nbsp\u00a0", "bom\ufeff", "ok/id-1"]
    for sample in samples:
        assert jsonschema.Draft202012Validator(id_schema).is_valid(sample) == (id_problem(sample) is None), \
            repr(sample)


def test_names_the_repro_programs_use_are_refused():
    for name in ("import", "torch", "print", "result", "None"):
        with pytest.raises(CaseError, match="reserved|not a valid name"):
            parse_case({"id": "c", "about": "a", "steps": [{"leaf": name, "value": [1.0]}]}, "f.json", 0)


def test_the_hand_written_corpus_follows_the_grammar():
    assert all(id_problem(case.id) is None for case in load_directory(
        Path(__file__).resolve().parents[1] / "cases"))


@pytest.mark.parametrize("text", [HOSTILE_ABOUT, HOSTILE_ID, "`", "``a``", " ` "])
def test_escapes_keep_text_as_text(text):
    assert "\n" not in markdown_text(text) and "\n" not in markdown_code(text)
    unescaped = markdown_text(text).replace("\\\\", "")
    assert re.search(r"(?<!\\)[`*_\[\]<>#|&]", unescaped) is None
    block = markdown_block(text).split("\n")
    fence = block[0][:-len("python")]
    assert all(not line.startswith(fence) for line in block[1:-1]) and block[-1] == fence
    assert visible(text).isprintable()


def test_a_repro_comment_is_one_line_per_line_of_the_about():
    case = parse_case({"id": "c", "about": "one\ntwo\r\nthree\u2028four", "steps": [
        {"leaf": "x", "value": [1.0]}]}, "f.json", 0)
    head = program(case, "torch").splitlines()[:4]
    assert head == ["# c: one", "# two", "# three\\u2028four", "import torch"]
