"""The command line never lies: every mistake is one line and exit code 2, before any work and
without touching an earlier report; an unexpected failure is exit code 3."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance import cli
from conformance.corpus.loader import hand_written_dir, load_directory

GOOD_CASE = {"id": "mine/ok", "about": "a case", "steps": [
    {"leaf": "x", "value": [1.0, 2.0], "requires_grad": True},
    {"let": "s", "op": "sum", "args": ["x"]}, {"backward": "s"}]}


@pytest.fixture
def earlier_report(tmp_path: Path) -> Path:
    out = tmp_path / "latest"
    out.mkdir()
    (out / "results.jsonl").write_text('{"earlier": true}\n')
    return out


def _run(capsys, *argv: str) -> tuple[int, str]:
    code = cli.main(list(argv))
    return code, capsys.readouterr().err.strip()


def _one_line(err: str) -> str:
    assert err.count("\n") == 0 and "Traceback" not in err, err
    return err


@pytest.mark.parametrize("argv, words", [
    (["--backends", "torch-gpu"], "unknown backend 'torch-gpu'"),
    (["--shard", "3/2"], "--shard expects K/N"),
    (["--select", "no/such/case*"], "nothing selected"),
    (["--cases", "/no/such/folder"], "is not a folder"),
    (["--count", "-1"], "argument --count: expected a number from 0"),
    (["-n", "many"], "-n expects a number of workers or auto"),
])
def test_a_mistake_in_run_is_one_line_and_leaves_the_earlier_report(argv, words, earlier_report,
                                                                      capsys):
    code, err = _run(capsys, "run", "--out", str(earlier_report), *argv)
    assert code == 2 and words in _one_line(err)
    assert (earlier_report / "results.jsonl").read_text() == '{"earlier": true}\n'
    assert not (earlier_report / "summary.json").exists()


def test_a_malformed_case_file_names_file_case_step_and_field(tmp_path, earlier_report, capsys):
    broken = dict(GOOD_CASE, steps=[*GOOD_CASE["steps"][:1], {"let": "s", "op": "sumx", "args": ["x"]}])
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "mine.json").write_text(json.dumps({"format": 1, "cases": [broken]}))
    code, err = _run(capsys, "run", "--out", str(earlier_report), "--corpus", "hand",
                     "--cases", str(cases))
    assert code == 2
    assert all(w in _one_line(err) for w in ("mine.json", "case 'mine/ok'", "step 1", "field 'op'"))


def test_the_report_may_not_sit_inside_the_cases(tmp_path, capsys):
    (tmp_path / "mine.json").write_text(json.dumps({"format": 1, "cases": [GOOD_CASE]}))
    code, err = _run(capsys, "run", "--corpus", "hand", "--cases", str(tmp_path),
                     "--out", str(tmp_path / "reports"))
    assert code == 2 and "inside --cases" in _one_line(err)
    assert not (tmp_path / "reports").exists()


def test_report_folders_are_never_read_as_cases(tmp_path):
    (tmp_path / "mine.json").write_text(json.dumps({"format": 1, "cases": [GOOD_CASE]}))
    report = tmp_path / "reports" / "latest"
    report.mkdir(parents=True)
    (report / "results.jsonl").write_text("")
    (report / "summary.json").write_text("{}")
    (report / "run.json").write_text("{}")
    assert [c.id for c in load_directory(tmp_path)] == ["mine/ok"]


@pytest.mark.parametrize("argv", [
    ["diff", "/no/such/base", "/no/such/new"], ["report", "/no/such/run"],
    ["compat", "/no/such/run"], ["merge", "/tmp/merged-out", "/no/such/shard"],
    ["record", "x", "--from", "/no/such/run"], ["known", "update", "--from", "/no/such/run"],
])
def test_a_missing_report_folder_is_a_usage_error_not_a_regression(argv, capsys):
    code, err = _run(capsys, *argv)
    assert code == 2 and "/no/such/" in _one_line(err)


def test_validate_lists_every_error_and_exits_2(tmp_path, capsys):
    (tmp_path / "good.json").write_text(json.dumps({"format": 1, "cases": [GOOD_CASE]}))
    (tmp_path / "bad_json.json").write_text("{not json")
    (tmp_path / "bad_op.json").write_text(json.dumps({"format": 1, "cases": [
        dict(GOOD_CASE, id="mine/bad", steps=[{"leaf": "x", "value": [1.0]},
                                             {"let": "y", "op": "nope", "args": ["x"]}])]}))
    code = cli.main(["validate", str(tmp_path)])
    captured = capsys.readouterr()
    errors = captured.err.strip().splitlines()
    assert code == 2 and len(errors) == 2
    assert any("bad_json.json" in e for e in errors) and any("unknown op 'nope'" in e for e in errors)
    assert "3 case files and 0 known-divergence files checked, 2 errors" in captured.out


def test_validate_passes_the_hand_written_corpus(capsys):
    assert cli.main(["validate", str(hand_written_dir())]) == 0


def test_version_and_exit_codes_in_help(capsys):
    assert cli.main(["--version"]) == 0 and capsys.readouterr().out.startswith("autograd-oracle ")
    assert cli.main(["--help"]) == 0
    help_text = capsys.readouterr().out
    assert "exit codes" in help_text and "3  internal error" in help_text


def test_an_unexpected_failure_is_an_internal_error(monkeypatch, capsys):
    def broken(args):
        raise KeyError("something we did not expect")

    monkeypatch.setitem(cli.HANDLERS, "coverage", broken)
    monkeypatch.delenv("AUTOGRAD_ORACLE_DEBUG", raising=False)
    code, err = _run(capsys, "coverage")
    assert code == 3 and "internal error: KeyError" in _one_line(err)


def test_every_option_of_every_command_has_a_sentence_and_its_default():
    root = cli.parser()
    commands = next(a for a in root._actions if isinstance(a, __import__("argparse")._SubParsersAction))
    for name, sub in commands.choices.items():
        for action in sub._actions:
            if action.dest == "help":
                continue
            assert action.help and len(action.help) > 8, f"{name} {action.dest} has no help"
        assert sub.formatter_class is cli._Help, name  # which prints every option's default
        assert all(f"--{a.dest.replace('_', '-')}" in sub.format_help() or not a.option_strings
                   for a in sub._actions if a.dest not in ("help", "source")), name


def _fake_run(folder: Path, backends=("torch-cpu", "paddle-cpu"), argv=None) -> Path:
    folder.mkdir(parents=True)
    lines = [json.dumps({"case": f"c/{i}", "backend": b, "verdict": "pass", "observations": [],
                         "dialect": b.split("-")[0], "about": "", "tags": [], "detail": "",
                         "seconds": 0.0})
             for i in range(2) for b in backends]
    (folder / "results.jsonl").write_text("\n".join(lines) + "\n")
    (folder / "run.json").write_text(json.dumps({"corpus": "hand", "seed": 0, "count": 0,
                                                 "argv": argv or ["run", "--out", str(folder)],
                                                 "complete": True}))
    return folder


def test_record_names_each_backend_and_refuses_to_overwrite(tmp_path, capsys):
    run = _fake_run(tmp_path / "run")
    args = ["record", "mine", "--from", str(run), "--baselines", str(tmp_path / "baselines")]
    assert cli.main(args) == 0
    out = capsys.readouterr().out
    assert "mine: paddle-cpu: 2 results" in out and "mine: torch-cpu: 2 results" in out
    code, err = _run(capsys, *args)
    assert code == 2 and "--force" in _one_line(err)
    assert cli.main(args + ["--force", "--backend", "torch-cpu"]) == 0
    assert "paddle-cpu" not in capsys.readouterr().out


def test_diff_counts_cases_and_results_and_lists_a_result_once(tmp_path):
    from conformance.report.diff import render_diff_markdown

    d = {"base_run": "a", "new_run": "b", "fixed": [], "removed": [],
         "compared": {"results": 1, "cases": 1, "backends": ["torch-cpu"], "base_only_backends": [],
                      "new_only_backends": ["paddle-cpu"]},
         "new": [{"case": "n/1", "backend": "torch-cpu", "verdict": "pass"},
                 {"case": "n/1", "backend": "paddle-cpu", "verdict": "pass"}],
         "regressions": [{"case": "c/1", "backend": "torch-cpu", "base": "pass", "new": "fail",
                          "detail": "step 3: values"}],
         "drift": [{"case": "c/1", "backend": "torch-cpu", "base": "pass", "new": "fail",
                    "difference": "step 3: values"}]}
    text = render_diff_markdown(d)
    assert "new: 1 case (2 results)" in text and "1 result\n" in text
    assert text.count("`c/1` [torch-cpu]") == 1 and "(regressions, drift)" in text


def test_a_rebuilt_report_keeps_the_command_of_the_run(tmp_path, capsys):
    run = _fake_run(tmp_path / "run", argv=["run", "--select", "c/*"])
    assert cli.main(["report", str(run)]) == 0
    summary = json.loads((run / "summary.json").read_text())
    assert summary["argv"] == ["run", "--select", "c/*"]
    assert json.loads((run / "run.json").read_text())["rebuilt_by"] == [["report", str(run)]]


def test_coverage_of_a_missing_folder_is_a_usage_error(capsys):
    code, err = _run(capsys, "coverage", "--cases", "/no/such/folder")
    assert code == 2 and "is not a folder" in _one_line(err)


def test_the_progress_line_counts_failures_rate_and_time_left():
    from conformance.pytest_plugin import Progress

    class Terminal:
        def __init__(self):
            self.text = ""

        def write(self, text):
            self.text += text

    terminal = Terminal()
    progress = Progress(terminal, total=3)
    for failed in (False, True, False):
        progress.done(failed)
    last = terminal.text.rstrip("\n").split("\r")[-1]
    assert last.startswith("3/3 results, 1 failing, ") and "/s, 0 s left" in last


@pytest.mark.parametrize("cores, workers", [(1, 0), (2, 0), (3, 0), (4, 2), (16, 8)])
def test_auto_workers_count_two_cores_a_worker_and_none_below_four(cores, workers):
    assert cli.xdist_workers("auto", cores) == workers
    assert cli.xdist_workers("3", cores) == 3


def test_the_command_flushes_its_output_and_exit_status_before_its_quick_exit(tmp_path):
    """``autograd-oracle`` ends with ``os._exit``: what it printed to a pipe must still arrive."""
    import os
    import subprocess
    import sys

    buffered = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # as in a shell
    done = subprocess.run([sys.executable, "-m", "conformance.cli", "validate",
                           str(tmp_path / "missing.json"), str(hand_written_dir())],
                          capture_output=True, text=True, timeout=120, env=buffered)
    assert done.returncode == 2, done.stderr  # a mistake in the input
    assert "missing.json: no such file or folder" in done.stderr
    assert "known-divergence files checked, 1 error" in done.stdout


def test_a_malformed_case_file_stops_a_run_without_tracebacks_from_launched_backends(tmp_path):
    """A one-process run starts its backend processes before it reads the cases; when the cases
    are refused, the backends that finish loading after the command has exited stop quietly."""
    import subprocess
    import sys

    broken = dict(GOOD_CASE, steps=[*GOOD_CASE["steps"][:1], {"let": "s", "op": "sumx", "args": ["x"]}])
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "mine.json").write_text(json.dumps({"format": 1, "cases": [broken]}))
    done = subprocess.run([sys.executable, "-m", "conformance.cli", "run", "--corpus", "hand",
                           "--cases", str(cases), "--backends", "reference-torch,paddle-cpu",
                           "-n", "0", "--out", str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2
    assert "field 'op'" in done.stderr
    assert "Traceback" not in done.stderr, done.stderr
