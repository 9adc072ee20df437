"""Write a report directory's files from its ``results.jsonl``: summary.json, junit.xml,
report.md, report.html and guide.html (the porting guide)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

from conformance.corpus.case import Case
from conformance.corpus.collector import collector_paused
from conformance.corpus.generator import DEFAULT_VERSION, VERSIONS
from conformance.corpus.inputs import InputError, read_json, schema_problem
from conformance.judge.classes import failure_classes
from conformance.judge.known import stale_entries
from conformance.report.guide import render_guide_html, render_guide_markdown
from conformance.report.html import render_html
from conformance.report.junit import write_junit
from conformance.report.markdown import render_markdown
from conformance.report.model import ReportModel, build_model
from conformance.report.prepare import Prepared, run_corpus, run_manifest
from conformance.report.results import load_results
from conformance.report.summary import build_summary

RUN_FILE = "run.json"  # the corpus options of the run, written when it starts


RUN_SCHEMA = json.loads((Path(__file__).parent / "schemas" / "run.schema.json").read_text())


def read_run(directory: Path) -> dict[str, Any]:
    """A report folder's ``run.json``, held to its schema and to the generator versions this
    release has (a folder without one: the options of a run of nothing)."""
    path = directory / RUN_FILE
    if not path.exists():
        return {"corpus": "all", "seed": 0, "count": 0}
    run = read_json(path)
    problem = schema_problem(run, RUN_SCHEMA)
    if problem is None and run.get("generator", DEFAULT_VERSION) not in VERSIONS:
        problem = f"field 'generator' must be one of {', '.join(map(str, sorted(VERSIONS)))}"
    if problem:
        raise InputError(str(path), problem)
    return run


def load_run(directory: Path) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Case],
                                       list[dict[str, Any]]]:
    """A run's options (run.json), its results, its cases by id and its generated cases."""
    run = read_run(directory)
    notes: list[str] = []
    results = load_results(directory, notes)
    run["notes"] = notes
    cases, generated = run_corpus(run)
    return run, results, cases, generated


@collector_paused()
def build_reports(directory: Path, complete: bool, known_dir: Optional[Path] = None,
                  prepared: Optional[Prepared] = None) -> ReportModel:
    """summary.json, junit.xml, report.md and report.html for the results in ``directory`` (built
    with the garbage collector paused: ``collector.py``); ``prepared``: the corpus and results
    already read while the run went (``prepare.Preparation``)."""
    facts = None
    if prepared is not None:
        run, results, cases, manifest = prepared.run, prepared.results, prepared.cases, prepared.manifest
        facts = prepared.facts
    else:
        run, results, cases, generated = load_run(directory)
        manifest = run_manifest(run, generated)
    classes = failure_classes(results, cases)
    summary = build_summary(results, manifest, complete and run.get("complete", True),
                            stale_entries(results, known_dir, run.get("known")), argv=run.get("argv"),
                            classes=[c.to_json() for c in classes], notes=run["notes"])
    (directory / "summary.json").write_text(json.dumps(summary, indent=1, sort_keys=True) + "\n")
    write_junit(directory / "junit.xml", results, summary["backends"])
    model = build_model(summary, results, cases, classes, facts)
    (directory / "report.md").write_text(render_markdown(model), encoding="utf-8")
    (directory / "report.html").write_text(render_html(model, results), encoding="utf-8")
    (directory / "guide.html").write_text(render_guide_html(model.guide, summary), encoding="utf-8")
    return model


def write_compat(model: ReportModel, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_guide_markdown(model.guide, model.summary), encoding="utf-8")
