"""Report files: schemas, the regression diff, interrupted runs, shard merging and the HTML page
in a real headless Chromium."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.report.diff import diff_runs
from conformance.report.results import load_results, write_results

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "conformance" / "report" / "schemas"
BACKENDS = "reference-torch,torch-cpu,reference-paddle,paddle-cpu"
CREATE_GRAPH_WARNING = "Using backward() with create_graph=True"
SMALL = ["--corpus", "all", "--count", "30", "--backends", BACKENDS, "--select", "seeds/*,gen4/*",
         "-n", "0"]


def _run(out: Path, *extra: str) -> int:
    return main(["run", *SMALL, "--out", str(out), *extra])


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("run")
    assert _run(out) == 0
    return out


def test_report_files_validate_against_their_schemas(run_dir):
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is not installed")
    summary = json.loads((run_dir / "summary.json").read_text())
    jsonschema.validate(summary, json.loads((SCHEMAS / "summary.schema.json").read_text()))
    line_schema = json.loads((SCHEMAS / "result.schema.json").read_text())
    results = load_results(run_dir)
    assert len(results) == summary["results"] > 0
    for r in results:
        jsonschema.validate(r, line_schema)
    assert summary["complete"] is True
    assert summary["execution_target"]["torch"].startswith("2.13.0")
    assert summary["corpus"]["generated"]["count"] == 30


def test_junit_markdown_and_html_are_written(run_dir):
    suites = ET.parse(run_dir / "junit.xml").getroot()
    assert {s.get("name") for s in suites} == set(BACKENDS.split(","))
    markdown = (run_dir / "report.md").read_text()
    for heading in ("## Totals", "## Coverage", "## Failures", "## torch ↔ paddle divergences"):
        assert heading in markdown
    page = (run_dir / "report.html").read_text()
    assert "<script" in page and "http://" not in page and "https://" not in page


def test_diff_of_identical_runs_finds_nothing(run_dir):
    d = diff_runs(run_dir, run_dir)
    assert not d["regressions"] and not d["drift"] and not d["new"] and not d["removed"]
    assert main(["diff", str(run_dir), str(run_dir)]) == 0


def test_diff_finds_planted_regressions_drift_and_new_cases(run_dir, tmp_path):
    results = load_results(run_dir)
    passing = [r for r in results if r["verdict"] == "pass" and r["observations"]]
    regressed, drifted = passing[0], next(r for r in passing[1:] if any(
        o["kind"] == "tensor" for o in r["observations"]))
    planted = []
    for r in results:
        r = json.loads(json.dumps(r))
        if (r["case"], r["backend"]) == (regressed["case"], regressed["backend"]):
            r["verdict"] = "fail"
        if (r["case"], r["backend"]) == (drifted["case"], drifted["backend"]):
            tensor = next(o for o in r["observations"] if o["kind"] == "tensor")
            tensor["values"] = json.loads(json.dumps(tensor["values"]),  # every number moves
                                          parse_float=lambda v: float(v) + 0.5,
                                          parse_int=lambda v: int(v) + 1)
        planted.append(r)
    planted.append({**planted[0], "case": "brand/new"})
    new_dir = tmp_path / "new"
    write_results(new_dir, planted)
    d = diff_runs(run_dir, new_dir)
    assert [(x["case"], x["backend"]) for x in d["regressions"]] == [
        (regressed["case"], regressed["backend"])]
    assert (drifted["case"], drifted["backend"]) in {(x["case"], x["backend"]) for x in d["drift"]}
    assert [x["case"] for x in d["new"]] == ["brand/new"]
    assert main(["diff", str(run_dir), str(new_dir), "--json", str(tmp_path / "d.json")]) == 1
    assert json.loads((tmp_path / "d.json").read_text())["regressed"] is True


def test_merging_shards_equals_a_single_run(run_dir, tmp_path):
    """Four shards, run in one process and with two xdist workers by turns, as the CI matrix in
    ``.github/workflows/conformance.yml`` fans a run out."""
    shards = [tmp_path / f"s{k}" for k in range(1, 5)]
    for k, shard in enumerate(shards, 1):
        _run(shard, "--shard", f"{k}/4", "-n", "2" if k % 2 else "0")
    merged = tmp_path / "merged"
    assert main(["merge", str(merged), *map(str, shards)]) == 0

    def key(results):
        # torch warns about backward(create_graph=True) once per process: which case shows it
        # depends on how the cases were spread over processes, not on the run
        def observed(r):
            return json.dumps([o for o in r["observations"] if not (
                o["kind"] == "warning" and o["message"].startswith(CREATE_GRAPH_WARNING))])
        return sorted((r["case"], r["backend"], r["verdict"], observed(r)) for r in results)

    assert key(load_results(merged)) == key(load_results(run_dir))
    single = json.loads((run_dir / "summary.json").read_text())
    together = json.loads((merged / "summary.json").read_text())
    assert together["counts"] == single["counts"] and together["complete"] is True


def _default_signals() -> None:
    """In the child: SIGINT and SIGTERM as a terminal gives them. A test process started under
    nohup or as a script's background job inherits an ignored SIGINT, and a Python started with
    it ignored installs no KeyboardInterrupt handler."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _start_run(out: Path) -> subprocess.Popen:
    with _stderr_file(out).open("w") as stderr:  # the child keeps its own copy
        return subprocess.Popen([sys.executable, "-m", "conformance.cli", "run", "--corpus",
                                 "generated", "--count", "3000", "--backends", "reference-torch",
                                 "-n", "0", "--out", str(out)], cwd=ROOT, stdout=subprocess.DEVNULL,
                                stderr=stderr, start_new_session=True, preexec_fn=_default_signals)


def _stderr_file(out: Path) -> Path:
    """Where a run started by ``_start_run`` writes its stderr (beside its folder)."""
    return out.with_name(out.name + ".stderr")


def _wait_for_results(out: Path, lines: int, proc: subprocess.Popen) -> None:
    deadline = time.time() + 240
    while time.time() < deadline and proc.poll() is None:
        path = out / "results.jsonl"
        if path.exists() and path.read_text().count("\n") >= lines:
            return
        time.sleep(0.5)
    raise AssertionError("the run produced no results in time")


@pytest.mark.parametrize("how", ["interrupt", "kill"])
def test_an_interrupted_run_leaves_a_readable_partial_report(tmp_path, how):
    out = tmp_path / how
    proc = _start_run(out)
    try:
        _wait_for_results(out, 50, proc)
        os.killpg(proc.pid, signal.SIGINT if how == "interrupt" else signal.SIGKILL)
        proc.wait(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    if how == "kill":
        assert main(["report", str(out)]) == 0
    assert (out / "summary.json").exists(), \
        f"exit {proc.returncode}; the run's stderr:\n{_stderr_file(out).read_text()[-3000:]}"
    summary = json.loads((out / "summary.json").read_text())
    assert summary["complete"] is False
    assert 50 <= summary["results"] < 3000
    assert "Partial run" in (out / "report.md").read_text()


def _chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    if shutil.which("apt-get") and os.geteuid() == 0:
        subprocess.run(["apt-get", "install", "-y", "-q", "chromium"], capture_output=True,
                       timeout=900)
        found = shutil.which("chromium")
    if not found:
        pytest.skip("Chromium is not installed and could not be installed with apt-get")
    return found


def test_html_renders_in_headless_chromium_without_console_errors(run_dir, tmp_path):
    chromium = _chromium()
    page = (run_dir / "report.html").resolve()
    proc = subprocess.run(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}", "--enable-logging=stderr",
         "--v=0", "--virtual-time-budget=5000", "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=120)
    console = [line for line in proc.stderr.splitlines() if "CONSOLE" in line]
    assert not [line for line in console if "rror" in line or "Uncaught" in line], console
    assert 'data-enhanced="1"' in proc.stdout, "the heatmap script did not run"
    assert "seed:implicit-scalar" in proc.stdout


def test_the_html_tables_need_no_javascript(run_dir):
    import re

    page = (run_dir / "report.html").read_text()
    without_scripts = re.sub(r"<script.*?</script>", "", page, flags=re.S)
    assert "<table id='heatmap'>" in without_scripts and "seed:implicit-scalar" in without_scripts
    assert "<table id='totals'>" in without_scripts


def test_reports_list_known_and_unsupported_results_and_word_divergences(run_dir):
    markdown = (run_dir / "report.md").read_text()
    page = (run_dir / "report.html").read_text()
    assert "## Unsupported (" in markdown and "Unsupported (" in page
    assert " 1 cases" not in markdown and "expected {" not in markdown
    guide = (run_dir / "guide.html").read_text()
    assert "torch ↔ paddle divergences" in markdown and "guide.html" in page
    assert "torch: " in guide and " / paddle: " in guide  # each class's example, worded


def test_case_facts_worked_out_during_the_run_give_the_same_report_model(run_dir):
    """A parallel run's own process works out each case's coverage buckets and missing APIs
    while its workers run; the model built from them is the one built from the cases after."""
    from conformance.report.build import load_run
    from conformance.report.model import CorpusFacts, build_model

    run, results, cases, _ = load_run(run_dir)
    summary = json.loads((run_dir / "summary.json").read_text())
    after = build_model(summary, results, cases)
    during = build_model(summary, results, cases, facts=CorpusFacts.of(cases))
    assert during.heatmap == after.heatmap and any(after.heatmap.values())
    assert [m.cases for m in during.guide.missing] == [m.cases for m in after.guide.missing]
    assert any(m.cases for m in after.guide.missing)
