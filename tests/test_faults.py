"""Faults and bad input lose nothing and never look green: a backend that judged nothing, a case
that needs more memory than the machine gives, a corrupt results file, two runs into one folder,
an inherited ignored SIGINT, and a backend process killed in the middle of a case."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.report.lock import LOCK_FILE

ROOT = Path(__file__).resolve().parent.parent
# the reference engine's torch facade on "cuda": its cuda.is_available() is False everywhere
NO_CUDA = "torch:reference_engine.torch@cuda"


def _run(capsys, *argv: str) -> tuple[int, str]:
    code = main(["run", "-n", "0", *argv])
    return code, capsys.readouterr().err


def test_a_requested_backend_that_judged_nothing_exits_4_naming_it(tmp_path, capsys):
    code, err = _run(capsys, "--corpus", "hand", "--select", "seeds/*", "--backends",
                     f"reference-torch,{NO_CUDA}", "--out", str(tmp_path / "run"))
    assert code == 4
    assert err.strip().splitlines()[-1] == f"autograd-oracle: nothing judged on {NO_CUDA}: CUDA not available"


def test_failures_take_precedence_over_a_backend_that_judged_nothing(tmp_path, capsys):
    code, _ = _run(capsys, "--corpus", "hand", "--select", "accumulate/*", "--backends",
                   f"reference-torch,torch:tests.toy_backends.no_accumulation,{NO_CUDA}",
                   "--out", str(tmp_path / "run"))
    assert code == 1


def test_exit_4_is_documented():
    from conformance.cli import EXIT_CODES

    assert "4  run: nothing failed, but a requested backend judged nothing" in EXIT_CODES
    cli_page = " ".join((ROOT / "docs" / "cli.md").read_text().split())
    assert "4 (run) nothing failed, but a requested backend judged nothing" in cli_page


OUT_OF_MEMORY_CASES = {"format": 1, "cases": [
    {"id": "oom/expand-and-multiply", "about": "a one-element leaf expanded to 20000 x 20000 and "
     "multiplied by itself: 1.6 GB a tensor", "steps": [
         {"leaf": "x", "value": [[1.5]], "requires_grad": True},
         {"let": "e", "op": "expand", "args": ["x"], "kwargs": {"shape": [20000, 20000]}},
         {"let": "m", "op": "mul", "args": ["e", "e"]},
         {"let": "s", "op": "sum", "args": ["m"]},
         {"backward": "s"}, {"observe": "grad", "of": "x"}]},
    {"id": "oom/then-a-small-case", "about": "runs after it, in a fresh backend process", "steps": [
        {"leaf": "x", "value": [1.0, 2.0], "requires_grad": True},
        {"let": "s", "op": "sum", "args": ["x"]}, {"backward": "s"}, {"observe": "grad", "of": "x"}]}]}


def test_a_case_past_the_memory_cap_is_crashed_and_the_run_goes_on(tmp_path, capsys):
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "oom.json").write_text(json.dumps(OUT_OF_MEMORY_CASES))
    out = tmp_path / "run"
    code, _ = _run(capsys, "--corpus", "hand", "--cases", str(cases), "--backends", "reference-torch",
                   "--memory", "1GB", "--out", str(out))
    assert code == 1
    results = {r["case"]: r for r in map(json.loads, (out / "results.jsonl").read_text().splitlines())}
    big = results["oom/expand-and-multiply"]
    assert big["verdict"] == "crashed" and big["detail"].startswith("out of memory")
    assert "1 GB" in big["detail"]
    assert results["oom/then-a-small-case"]["verdict"] == "pass"


def test_a_bad_memory_size_is_a_usage_error(tmp_path, capsys):
    code, err = _run(capsys, "--corpus", "hand", "--memory", "lots", "--out", str(tmp_path / "run"))
    assert code == 2 and "--memory" in err and not (tmp_path / "run").exists()


def _copy_with_lines(source: Path, target: Path, change) -> Path:
    target.mkdir(parents=True)
    for name in ("run.json", "results.jsonl"):
        (target / name).write_bytes((source / name).read_bytes())
    lines = (target / "results.jsonl").read_text().splitlines()
    (target / "results.jsonl").write_text("\n".join(change(lines)) + "\n")
    return target


@pytest.mark.parametrize("command", ["report", "diff", "merge"])
def test_a_garbage_line_in_the_middle_of_the_results_is_named(small_run, tmp_path, capsys, command):
    corrupt = _copy_with_lines(small_run, tmp_path / "corrupt",
                               lambda lines: [*lines[:3], '{"case": "half a line', *lines[3:]])
    argv = {"report": ["report", str(corrupt)], "diff": ["diff", str(small_run), str(corrupt)],
            "merge": ["merge", str(tmp_path / "merged"), str(corrupt)]}[command]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and f"{corrupt / 'results.jsonl'}, line 4: not a result" in err


def test_a_cut_off_last_line_is_accepted_with_a_note(small_run, tmp_path):
    torn = _copy_with_lines(small_run, tmp_path / "torn", lambda lines: [*lines, lines[0][:40]])
    assert main(["report", str(torn)]) == 0
    summary = json.loads((torn / "summary.json").read_text())
    assert summary["results"] == len((small_run / "results.jsonl").read_text().splitlines())
    assert any("cut off" in note for note in summary["notes"])
    assert "**Note**: results.jsonl: its last line" in (torn / "report.md").read_text()


def test_a_second_run_into_a_folder_in_use_is_refused_naming_the_holder(tmp_path, capsys):
    out = tmp_path / "run"
    out.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        import socket

        (out / LOCK_FILE).write_text(json.dumps({"pid": holder.pid, "host": socket.gethostname(),
                                                 "started": "earlier", "argv": ["run"]}))
        code, err = _run(capsys, "--corpus", "hand", "--backends", "reference-torch", "--out", str(out))
    finally:
        holder.kill()
        holder.wait()
    assert code == 2 and f"pid {holder.pid}" in err and err.strip().count("\n") == 0
    assert not (out / "results.jsonl").exists()


def test_a_lock_whose_run_is_gone_is_taken_over_with_a_note(tmp_path, capsys):
    import socket

    out = tmp_path / "run"
    out.mkdir()
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    (out / LOCK_FILE).write_text(json.dumps({"pid": gone.pid, "host": socket.gethostname(),
                                             "started": "earlier", "argv": ["run"]}))
    code, err = _run(capsys, "--corpus", "hand", "--select", "seeds/*", "--backends", "reference-torch",
                     "--out", str(out))
    assert code == 0 and "took over the lock of a run that is gone" in err
    assert not (out / LOCK_FILE).exists()  # released when the run ended


def test_the_interrupt_test_passes_under_an_inherited_ignored_sigint():
    """Under nohup or a script's background job the test process inherits an ignored SIGINT;
    the interrupted-run test sets its child's dispositions itself."""
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "tests/test_reports.py::test_an_interrupted_run_leaves_a_readable_partial_report[interrupt]"],
        cwd=ROOT, capture_output=True, text=True, encoding="utf-8", timeout=600,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    assert done.returncode == 0, done.stdout[-3000:]


def test_a_backend_killed_in_the_middle_of_a_case_loses_only_that_case(tmp_path, capsys):
    """tests/toy_backends/abort.py aborts its process in exp: each case that calls exp is
    crashed, a fresh process takes the cases after it, and every other result is there."""
    out = tmp_path / "run"
    code, _ = _run(capsys, "--corpus", "hand", "--select", "op/*", "--backends",
                   "reference-torch,torch:tests.toy_backends.abort", "--out", str(out))
    assert code == 1
    results = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    summary = json.loads((out / "summary.json").read_text())
    toy = [r for r in results if r["backend"] == "torch:tests.toy_backends.abort"]
    reference = [r for r in results if r["backend"] == "reference-torch"]
    assert len(toy) == len(reference) == summary["cases"]  # nothing lost
    crashed = [r for r in toy if r["verdict"] == "crashed"]
    assert crashed and all(r["detail"].startswith("the backend process died") for r in crashed)
    assert "op/exp/backward" in {r["case"] for r in crashed}
    assert sum(r["verdict"] == "pass" for r in toy) > 10 * len(crashed)
    assert os.path.exists(out / "report.html")


def test_the_suite_does_not_depend_on_its_folder_locale_or_home(tmp_path):
    """Run from another folder, in the C locale, with an empty HOME: a test that runs the
    project's toy backends still finds them (backend processes get the test process's
    sys.path), and nothing reads the terminal's encoding."""
    env = {**os.environ, "LC_ALL": "C", "LANG": "C", "HOME": str(tmp_path / "home")}
    env.pop("PYTHONPATH", None)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(ROOT),
         f"{ROOT}/tests/test_faults.py::test_a_backend_killed_in_the_middle_of_a_case_loses_only_that_case"],
        cwd=tmp_path, env=env, capture_output=True, text=True, encoding="utf-8", timeout=600,
        stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stdout[-3000:]


def test_paddles_cpp_log_stays_out_of_the_run_output_unless_debugging(tmp_path):
    """paddle's glog warnings ("W… backward.cc:685] While running Node …") would interleave with
    the run's own lines in a log; AUTOGRAD_ORACLE_DEBUG lets them through."""
    pytest.importorskip("paddle", reason="paddle is not installed")

    def output(**env: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "conformance.cli", "run", "--backends", "reference-paddle,paddle-cpu",
             "--count", "300", "-n", "0", "--out", str(tmp_path / f"run{len(env)}")],
            cwd=ROOT, capture_output=True, text=True, encoding="utf-8", timeout=600,
            env={**{k: v for k, v in os.environ.items() if k not in ("GLOG_minloglevel",
                                                                       "AUTOGRAD_ORACLE_DEBUG")}, **env})
        return done.stdout + done.stderr

    assert "backward.cc" in output(AUTOGRAD_ORACLE_DEBUG="1")  # the corpus does make paddle log
    assert "backward.cc" not in output()


def test_the_memory_cap_bounds_data_not_address_space(tmp_path):
    """The cap is RLIMIT_DATA: CUDA's driver reserves address space far beyond what it uses, so
    an address-space cap broke CUDA's initialisation in CPU backend processes (measured on a
    GPU machine); a data cap still stops an allocation past it."""
    program = ("import resource, numpy as np; from conformance.run.memory import limit_memory; "
               "space = resource.getrlimit(resource.RLIMIT_AS); limit_memory(1 << 30); "
               "assert resource.getrlimit(resource.RLIMIT_DATA)[0] == 1 << 30; "
               "assert resource.getrlimit(resource.RLIMIT_AS) == space\n"
               "try:\n    np.ones(2 << 30, np.uint8)\nexcept MemoryError:\n    print('refused')")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "refused", done.stderr


def test_a_framework_warning_about_its_environment_is_no_observation():
    """torch's "CUDA initialization: ..." warning, raised inside a case, says nothing about the
    program; which case raises it depends on the process, so it would make results depend on -n."""
    import warnings

    from conformance.corpus.case import Case
    from conformance.run.backends import BUILT_IN
    from conformance.run.interpreter import run_case
    from conformance.run.noise import is_environment_noise

    adapter = BUILT_IN["reference-torch"].load()
    module = adapter.m

    class WarningExp:  # the module, but its exp warns twice first
        def __getattr__(self, name):
            return getattr(module, name)

        def exp(self, a):
            warnings.warn("CUDA initialization: Unexpected error from cudaGetDeviceCount(). "
                          "Error 2: out of memory", UserWarning, stacklevel=1)
            warnings.warn("a warning of the program's own", UserWarning, stacklevel=1)
            return module.exp(a)
    case = Case(id="noise", about="", steps=(
        {"leaf": "x", "value": [1.0], "requires_grad": True},
        {"let": "y", "op": "exp", "args": ["x"]}))
    adapter.m = WarningExp()
    try:
        trace = run_case(case, adapter, "reference-torch")
    finally:
        adapter.m = module
    assert [o["message"] for o in trace.observations if o["kind"] == "warning"] == [
        "a warning of the program's own"]
    assert is_environment_noise("No ccache found. Please be aware that recompiling ...")
    assert not is_environment_noise("grad can be implicitly created only for scalar outputs")


def test_a_backend_that_cannot_load_says_why(tmp_path, capsys, monkeypatch):
    """Whatever stops a backend process loading its backend is the reason given, on the last
    line: here a torch-shaped module that imports but has no ``torch.cuda`` to ask."""
    package = tmp_path / "broken_framework"
    package.mkdir()
    (package / "__init__.py").write_text("Tensor = object\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(tmp_path),
                                                                  os.environ.get("PYTHONPATH")])))
    code, err = _run(capsys, "--corpus", "hand", "--select", "seeds/*", "--backends",
                     "torch:broken_framework@cuda", "--out", str(tmp_path / "run"))
    assert code == 4
    assert err.strip().splitlines()[-1] == (
        "autograd-oracle: nothing judged on torch:broken_framework@cuda: torch:broken_framework@cuda "
        "could not load: AttributeError: module 'broken_framework' has no attribute 'cuda'")


def test_the_results_do_not_depend_on_the_number_of_workers(tmp_path, capsys):
    """One corpus slice, hand-written and generated cases, at -n 0, 2 and 3: the same verdict for
    every result, and the same corpus in the reports (each process makes the generated cases it
    runs, the run's own process all of them for the reports)."""
    verdicts, corpora = [], []
    for workers in ("0", "2", "3"):
        out = tmp_path / f"n{workers}"
        main(["run", "-n", workers, "--corpus", "all", "--count", "40", "--select",
              "seeds/*,accumulate/*,module/*,gen4/*", "--backends", "reference-torch,torch-cpu",
              "--out", str(out)])
        capsys.readouterr()
        results = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
        verdicts.append(sorted((r["case"], r["backend"], r["verdict"]) for r in results))
        corpora.append(json.loads((out / "summary.json").read_text())["corpus"])
    assert sum(case.startswith("gen4/") for case, _, _ in verdicts[0]) == 80
    assert verdicts[0] == verdicts[1] == verdicts[2]
    assert corpora[0] == corpora[1] == corpora[2]
