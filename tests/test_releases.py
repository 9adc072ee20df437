"""Regression reports across releases: diff groups what changed into classes, and a sweep runs
versions in environments of their own, going on past one that does not install."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.report.results import load_results, write_results


@pytest.fixture(scope="module")
def base_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("base") / "run"
    assert main(["run", "-n", "0", "--corpus", "all", "--count", "200", "--backends", "reference-torch",
                 "--out", str(out)]) == 0
    return out


def _changed(base: Path, target: Path, change) -> Path:
    """A copy of ``base`` whose results ``change`` rewrote, as a later release would."""
    target.mkdir(parents=True)
    (target / "run.json").write_text((base / "run.json").read_text())
    write_results(target, [change(r) for r in load_results(base)])
    return target


def _grads_doubled(r: dict) -> dict:
    """Every observed .grad twice as large; every error message reworded."""
    for o in r.get("observations") or []:
        if o["kind"] == "tensor" and o.get("values") not in (None, []):
            o["values"] = json.loads(json.dumps(o["values"]).replace("1.0", "7.5"))
        if o["kind"] == "error":
            o["message"] = "reworded: " + o["message"]
    return r


def test_diff_groups_the_changes_into_classes_that_add_up(base_run, tmp_path):
    new = _changed(base_run, tmp_path / "new", _grads_doubled)
    report = tmp_path / "d.json"
    main(["diff", str(base_run), str(new), "--json", str(report), "--markdown", str(tmp_path / "d.md"),
          "--html", str(tmp_path / "d.html")])
    d = json.loads(report.read_text())
    changed = {(e["case"], e["backend"]) for kind in ("regressions", "fixed", "drift") for e in d[kind]}
    classes = d["change_classes"]
    assert len(changed) > 100 and 2 <= len(classes) <= len(changed) / 5
    assert sum(c["count"] for c in classes) == len(changed)
    assert sorted((case, c["backend"]) for c in classes for case in c["cases"]) == sorted(changed)
    assert any("values differs" in c["signature"] for c in classes)
    assert any("message" in c["signature"] for c in classes)
    for c in classes:
        assert c["example"] in c["cases"] and c["old"] != c["new"] and c["repro"].count("import torch") == 1
    markdown = (tmp_path / "d.md").read_text()
    assert markdown.index("## How the results changed") < markdown.index("## Changed results, one by one")
    assert (tmp_path / "d.html").read_text().count("<details>") == len(classes)


def test_a_sweep_goes_on_past_a_version_that_does_not_install(tmp_path, capsys):
    pytest.importorskip("torch", reason="torch is not installed")
    out = tmp_path / "sweep"
    code = main(["sweep", "torch", "0.0.0", "2.13.0", "--count", "20", "--out", str(out)])
    assert code == 1  # one version did not run
    index = (out / "index.md").read_text()
    assert "| 0.0.0 | did not install:" in index and "| 2.13.0 | complete |" in index
    summary = json.loads((out / "torch-2.13.0" / "summary.json").read_text())
    assert summary["counts"]["torch-cpu"].get("pass", 0) > 200
    # the pinned version against its own baseline: nothing changed
    page = json.loads((out / "torch-2.13.0-cpu-to-torch-2.13.0.json").read_text())
    assert page["change_classes"] == [] and not page["regressions"]
