"""The conformance runner: broken backends are caught, crashes and hangs cost one case, shards
split a run, known divergences go stale, failures carry a repro."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conformance.corpus.loader import hand_written_dir, load_directory, parse_document
from conformance.judge.known import KnownDivergences
from conformance.judge.verdict import judge_framework
from conformance.pytest_plugin import format_failure
from conformance.run.backends import resolve
from conformance.run.gradient_check import check_gradients
from conformance.run.interpreter import run_case
from conformance.run.isolation import IsolatedBackend, Pool
from conformance.run.trace import printed

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def corpus():
    return [c for c in load_directory(hand_written_dir()) if c.runs_on("torch")]


@pytest.fixture(scope="module")
def reference_outcomes(corpus):
    ref = IsolatedBackend(resolve("reference-torch"))
    try:
        yield {c.id: ref.run(c.raw) for c in corpus}
    finally:
        ref.stop()


@pytest.mark.parametrize("toy", ["wrong_derivative", "no_accumulation", "retain_ignored",
                                 "seeds_ignored", "no_unbroadcast", "nan_derivative",
                                 "derivative_one_percent_off"])
def test_a_broken_backend_is_caught_by_the_corpus(toy, corpus, reference_outcomes):
    backend = resolve(f"torch:tests.toy_backends.{toy}")
    isolated = IsolatedBackend(backend)
    try:
        verdicts = [judge_framework(c, backend, isolated.run(c.raw), reference_outcomes[c.id],
                                    KnownDivergences(backend.name))["verdict"] for c in corpus]
    finally:
        isolated.stop()
    assert "unavailable" not in verdicts
    assert verdicts.count("fail") >= 1, f"{toy} passed every case"


def _oracle_on_toy(toy: str, case_raw: dict) -> tuple[int, list[str]]:
    """In a child process (the toy patches the engine it imports)."""
    from conformance.corpus.loader import parse_case
    from conformance.run.backends import Backend

    case = parse_case(case_raw, "<t>", 0)
    adapter = Backend("toy", "torch", f"tests.toy_backends.{toy}").load()
    result = check_gradients(case, run_case(case, adapter, "toy"), adapter)
    return result.checked, result.failures


@pytest.mark.parametrize("toy, case_id", [
    ("wrong_derivative", "op/sin/backward"),           # sin instead of cos
    ("derivative_one_percent_off", "op/exp/backward"),  # within 1% of calculus
])
def test_finite_differences_catch_a_wrong_rule_that_agrees_with_itself(toy, case_id, corpus):
    import multiprocessing

    case = next(c for c in corpus if c.id == case_id)
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        checked, failures = pool.apply(_oracle_on_toy, (toy, case.raw))
    assert checked >= 1 and failures


def _case(case_id: str, op: str) -> dict:
    return {"id": case_id, "about": "x", "steps": [
        {"leaf": "x", "value": [0.5, 1.5], "requires_grad": True},
        {"let": "y", "op": op, "args": ["x"]}, {"let": "s", "op": "sum", "args": ["y"]},
        {"backward": "s"}, {"observe": "grad", "of": "x"}]}


def test_a_hanging_case_times_out_and_costs_that_case_only():
    backend = IsolatedBackend(resolve("torch:tests.toy_backends.hang"), timeout=3)
    try:
        assert backend.run(_case("hangs", "exp")).status == "timeout"
        after = backend.run(_case("fine", "sin"))
    finally:
        backend.stop()
    assert after.status == "ok" and printed(after.observations)[-1]["kind"] == "tensor"


def test_a_crashing_case_costs_that_case_only():
    backend = IsolatedBackend(resolve("torch:tests.toy_backends.abort"), timeout=30)
    try:
        crashed = backend.run(_case("aborts", "exp"))
        after = backend.run(_case("fine", "sin"))
    finally:
        backend.stop()
    assert crashed.status == "crashed" and "exit code" in crashed.detail
    assert after.status == "ok"


def _results(backend: IsolatedBackend, cases: list[dict],
             one_message: bool = False) -> list[tuple[str, str]]:
    if one_message:
        backend.submit(*cases)
    else:
        for raw in cases:
            backend.submit(raw)
    return [(case_id, outcome.status) for case_id, outcome in
            (backend.next_result() for _ in cases)]


@pytest.mark.parametrize("one_message", [False, True], ids=["a message each", "one message"])
def test_cases_queued_behind_a_hang_or_a_crash_still_run(one_message):
    queue = [_case("first", "sin"), _case("stuck", "exp"), _case("second", "sin"),
             _case("third", "cos")]
    for toy, failed in (("hang", "timeout"), ("abort", "crashed")):
        backend = IsolatedBackend(resolve(f"torch:tests.toy_backends.{toy}"), timeout=3)
        try:
            assert _results(backend, queue, one_message) == [
                ("first", "ok"), ("stuck", failed), ("second", "ok"), ("third", "ok")]
        finally:
            backend.stop()


def test_a_queued_case_is_timed_from_its_start_not_from_when_it_was_queued():
    # three cases of a second each, queued at once, with a timeout of two seconds
    backend = IsolatedBackend(resolve("torch:tests.toy_backends.slow"), timeout=2)
    try:
        assert _results(backend, [_case(f"slow{i}", "exp") for i in range(3)]) == [
            ("slow0", "ok"), ("slow1", "ok"), ("slow2", "ok")]
    finally:
        backend.stop()


def test_the_pool_queues_the_upcoming_cases_to_every_backend():
    backends = [resolve("reference-torch"), resolve("reference-paddle")]
    cases = [_case(f"c{i}", "sin") for i in range(6)]
    pool = Pool(timeout=60, depth=4)
    try:
        first = pool.outcome(cases[0], backends[0], backends, lambda: ((c, backends) for c in cases))
        queued = {b.name: [s.case_id for s in pool.get(b).in_flight] for b in backends}
        later = [pool.outcome(c, b, backends) for c in cases for b in backends]
    finally:
        pool.close()
    assert first.status == "ok"
    # the first case's result was read; the next three wait in both queues
    assert queued == {"reference-torch": ["c1", "c2", "c3"],
                      "reference-paddle": ["c0", "c1", "c2", "c3"]}
    assert [o.status for o in later] == ["ok"] * 12
    assert later[2].observations == later[0].observations  # same program, same sin values


def test_a_missing_framework_is_unavailable_with_the_reason():
    backend = IsolatedBackend(resolve("torch:no_such_module_anywhere"))
    outcome = backend.run(_case("c", "sin"))
    assert outcome.status == "unavailable" and "no_such_module_anywhere" in outcome.detail


def test_unsupported_steps_are_observations_not_crashes():
    doc = {"format": 1, "cases": [{"id": "u", "about": "x", "steps": [
        {"leaf": "x", "value": [1.0], "requires_grad": True},
        {"let": "h", "op": "mul", "args": ["x", 3.0]}, {"let": "hh", "op": "mul", "args": ["h", "h"]},
        {"let": "y", "op": "add", "args": ["hh", "x"]}, {"let": "s", "op": "sum", "args": ["y"]},
        {"grad": "s", "wrt": ["x"], "no_grad_vars": ["h"], "retain_graph": True},
        {"grad": "s", "wrt": ["x"], "materialize_grads": True}]}]}
    case = parse_document(doc, "<t>")[0]
    torch_trace = run_case(case, resolve("reference-torch").load(), "reference-torch")
    paddle_trace = run_case(case, resolve("reference-paddle").load(), "reference-paddle")
    assert [o["kind"] for o in printed(torch_trace.observations)] == ["unsupported", "list"]
    assert [o["kind"] for o in printed(paddle_trace.observations)] == ["list", "unsupported"]


def _collect(*args: str) -> list[str]:
    out = subprocess.run([sys.executable, "-m", "pytest", "tests/corpus_slice.oracle", "-q",
                          "--collect-only", "-p", "no:cacheprovider", "--oracle-corpus", "hand",
                          "--oracle-select", "seeds/*", "--oracle-backends",
                          "reference-torch,torch-cpu", *args],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [line for line in out.splitlines() if "::" in line]


def test_shards_split_the_run_without_overlap():
    everything = _collect()
    first, second = _collect("--shard", "1/2"), _collect("--shard", "2/2")
    assert everything and first and second
    assert sorted(first + second) == sorted(everything) and not set(first) & set(second)
    assert all(item.endswith("[reference-torch]") or item.endswith("[torch-cpu]")
               for item in everything)
    # a case's items (one per backend) stay in one shard, where they run together
    cases = [{item.rsplit("[", 1)[0] for item in shard} for shard in (first, second)]
    assert not cases[0] & cases[1]


def test_a_failure_shows_both_traces_the_first_difference_and_a_repro(corpus, reference_outcomes):
    backend = resolve("torch:tests.toy_backends.wrong_derivative")
    case = next(c for c in corpus if c.id == "op/sin/backward")
    isolated = IsolatedBackend(backend)
    try:
        result = judge_framework(case, backend, isolated.run(case.raw), reference_outcomes[case.id],
                                 KnownDivergences(backend.name))
    finally:
        isolated.stop()
    text = format_failure(result)
    assert result["verdict"] == "fail"
    assert "reference" in text and ">> " in text and "reproduce with torch" in text
    compile(result["repro"], "repro", "exec")


def test_a_launched_backend_loads_while_the_caller_works_and_runs_cases_once_ready():
    backend = resolve("reference-torch")
    pool = Pool(timeout=60)
    try:
        pool.launch([backend])
        launched = pool.get(backend)
        assert launched.process is not None and not launched.ready  # started, not waited for
        outcome = pool.outcome(_case("after-launch", "sin"), backend)
        assert outcome.status == "ok" and launched.ready
    finally:
        pool.close()
