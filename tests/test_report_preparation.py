"""The report's work done while the run goes (``report.prepare``): results read as they are
written give what reading the finished file gives, torn and corrupt lines included."""

from __future__ import annotations

import json

import pytest

from conformance.report.prepare import Preparation
from conformance.report.results import CorruptResultsError, load_results

RUN = {"corpus": "hand", "seed": 0, "count": 0}


def _result(case: str, verdict: str = "pass") -> str:
    return json.dumps({"case": case, "backend": "reference-torch", "verdict": verdict,
                       "dialect": "torch", "about": "", "tags": [], "detail": "", "seconds": 0.0,
                       "observations": []}) + "\n"


def test_results_read_while_written_are_the_results_of_the_finished_file(tmp_path):
    preparation = Preparation(tmp_path, RUN)
    path = tmp_path / "results.jsonl"
    path.write_text(_result("b") + _result("a") + _result("c")[:20])  # a worker mid-line
    preparation._read_new_lines()
    assert sorted(preparation.latest) == [("a", "reference-torch"), ("b", "reference-torch")]
    with path.open("a") as handle:
        handle.write(_result("c")[20:] + _result("a", "fail"))
    preparation.start()
    prepared = preparation.finish(RUN)
    assert prepared.results == load_results(tmp_path)
    assert [(r["case"], r["verdict"]) for r in prepared.results] == [("a", "fail"), ("b", "pass"),
                                                                      ("c", "pass")]
    assert prepared.run["notes"] == [] and "hand_written" in prepared.manifest


def test_a_cut_off_last_line_is_a_note_and_a_broken_line_before_others_is_corrupt(tmp_path):
    (tmp_path / "results.jsonl").write_text(_result("a") + '{"case": "b", "back')
    prepared = Preparation(tmp_path, RUN).start().finish(RUN)
    assert [r["case"] for r in prepared.results] == ["a"]
    assert prepared.run["notes"] == ["results.jsonl: its last line (line 2) was cut off, as by an "
                              "interrupted run, and is left out"]
    (tmp_path / "results.jsonl").write_text(_result("a") + "not json\n" + _result("c"))
    with pytest.raises(CorruptResultsError, match="line 2: not a result"):
        Preparation(tmp_path, RUN).start().finish(RUN)
