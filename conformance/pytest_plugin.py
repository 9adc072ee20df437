"""pytest integration: one test per (case, backend), with ids ``case-id[backend]``.

Collected from any ``*.oracle`` file (a JSON object of default options), so a plain
``pytest -n auto`` runs the corpus in parallel with pytest-xdist alongside the other tests.
Each framework backend is checked against its reference (torch-* against reference-torch,
paddle-cpu against reference-paddle), each reference against finite differences. Results stream
to ``<report>/results.jsonl`` as they finish when ``--oracle-report`` is given.
"""

from __future__ import annotations

import fcntl
import gc
import json
import os
import time
from pathlib import Path
from typing import Any, Iterator, Optional, Sequence

import pytest

from conformance.corpus.assembly import CorpusEntry, corpus_entries
from conformance.corpus.case import Case
from conformance.corpus.collector import collector_paused
from conformance.corpus.generator import DEFAULT_VERSION, VERSIONS, VERSIONS_HELP
from conformance.corpus.selection import in_shard, parse_shard, select
from conformance.judge import known as known_divergences
from conformance.judge.verdict import judge_framework, judge_reference
from conformance.run.backends import BUILT_IN, REFERENCES, Backend, resolve
from conformance.run.isolation import Pool, Upcoming
from conformance.run.lookahead import Lookahead
from conformance.run.memory import default_cap, parse_size
from conformance.run.options import FLAGS, RunOptions

_POOL: Optional[Pool] = None
LOOKAHEAD_CASES = 32  # cases queued to each backend ahead of the one being judged
_KNOWN: dict[tuple[str, Optional[str], tuple[str, ...]], known_divergences.KnownDivergences] = {}


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("autograd-oracle", "autograd conformance corpus")
    group.addoption("--oracle-backends", default=None,
                    help="comma-separated backends: reference-torch, reference-paddle, torch-cpu, "
                         "torch-cuda, paddle-cpu or DIALECT:MODULE (default: the .oracle file's)")
    group.addoption("--oracle-corpus", default=None, choices=("hand", "generated", "all"),
                    help="hand-written cases, generated ones, or both")
    group.addoption("--oracle-seed", type=int, default=None, help="generator seed")
    group.addoption("--oracle-count", type=int, default=None, help="how many generated cases")
    group.addoption("--oracle-generator", type=int, default=None, choices=sorted(VERSIONS),
                    help=f"{VERSIONS_HELP} (default: {DEFAULT_VERSION})")
    group.addoption("--oracle-cases", default=None, help="directory of hand-written case files")
    group.addoption("--oracle-select", default=None,
                    help="comma-separated glob patterns of case ids to run")
    group.addoption("--shard", default=None, metavar="K/N",
                    help="run only shard K of N (1-based), for splitting a run over machines")
    group.addoption("--oracle-timeout", type=float, default=None,
                    help="seconds a case may take on a backend before it is 'timeout'")
    group.addoption("--oracle-memory", default="auto", metavar="SIZE",
                    help="memory cap of each backend process (1GB, 512MB, none); auto: half the "
                         "machine's memory shared among the backend processes, at least 4 GB")
    group.addoption("--oracle-report", default=None,
                    help="directory to stream results.jsonl into as cases finish")
    group.addoption("--oracle-progress", action="store_true", default=False,
                    help="one progress line (done/total, failures, rate, ETA) instead of a "
                         "letter per case")
    group.addoption("--oracle-known", default=None,
                    help="directory of known-divergence files (default: known_divergences/)")
    group.addoption("--oracle-run", default=None, metavar="JSON",
                    help="the run's options as one JSON object (what autograd-oracle run passes; "
                         "fields: " + ", ".join(FLAGS) + "); a flag given as well overrides its field")
    group.addoption("--oracle-known-file", action="append", default=[], metavar="[BACKEND=]FILE",
                    help="a known-divergence file for BACKEND (none named: every judged backend), "
                         "in place of the one kept under its name; repeatable")


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> Optional[pytest.Collector]:
    if file_path.suffix == ".oracle":
        return OracleFile.from_parent(parent, path=file_path)
    return None


_OPTIONS = pytest.StashKey[RunOptions]()


def run_options(config: pytest.Config) -> RunOptions:
    """This process's run options, read once (``conformance.run.options``)."""
    if _OPTIONS not in config.stash:
        try:
            config.stash[_OPTIONS] = RunOptions.from_pytest(config)
        except (TypeError, ValueError) as exc:
            raise pytest.UsageError(str(exc)) from None
    return config.stash[_OPTIONS]


def _option(config: pytest.Config, defaults: dict[str, Any], name: str, fallback: Any) -> Any:
    """A run option, else the ``.oracle`` file's default for it, else ``fallback``."""
    value = getattr(run_options(config), name)
    return value if value is not None else defaults.get(name, fallback)


class OracleFile(pytest.File):
    """A ``.oracle`` file: default options for a corpus run."""

    def collect(self) -> Iterator[pytest.Item]:
        """The items of the corpus, one per case and backend, made with the garbage collector
        paused: a corpus and its items are tens of thousands of small objects, which set off
        collections that walk every one of them again (each worker collects them all). A
        generated case is listed by its id and made when its first item runs."""
        with collector_paused():
            yield from self._items()

    def _items(self) -> Iterator[pytest.Item]:
        defaults = json.loads(self.path.read_text(encoding="utf-8") or "{}")
        config = self.config
        kind = _option(config, defaults, "corpus", "all")
        seed = _option(config, defaults, "seed", 0)
        count = _option(config, defaults, "count", 10000)
        version = _option(config, defaults, "generator", DEFAULT_VERSION)
        options = run_options(config)
        entries = corpus_entries(kind, seed, count, options.cases, version)
        entries = select(entries, options.select or defaults.get("select"))
        names = _option(config, defaults, "backends", ",".join(BUILT_IN)).split(",")
        backends = [resolve(n.strip()) for n in names if n.strip()]
        together = tuple(dict.fromkeys(
            [*backends, *(_reference_of(b) for b in backends if not b.is_reference)]))
        for entry in entries:
            for backend in backends:
                yield OracleItem.from_parent(self, name=f"{entry.id}[{backend.name}]", entry=entry,
                                             backend=backend, together=together)


class OracleFailure(Exception):  # noqa: N818 - pytest reports it as the failure
    def __init__(self, result: dict[str, Any]) -> None:
        super().__init__(result["detail"])
        self.result = result


_MEMORY_CAP = pytest.StashKey[Optional[int]]()


def _pool(config: pytest.Config) -> Pool:
    options = run_options(config)
    if _MEMORY_CAP not in config.stash:  # worked out once: it reads the machine's memory
        config.stash[_MEMORY_CAP] = memory_cap(options.memory, options.backends)
    return shared_pool(options.timeout or 60.0, config.stash[_MEMORY_CAP])


def memory_cap(option: str, backends: Optional[str]) -> Optional[int]:
    """``--oracle-memory`` in bytes (None: no cap); ``auto`` shares half the machine's memory
    among this run's backend processes: its backends and their references, in every xdist
    worker."""
    if option != "auto":
        return parse_size(option)
    try:
        named = [resolve(n.strip()) for n in (backends or ",".join(BUILT_IN)).split(",") if n.strip()]
    except ValueError:
        named = []
    processes = len({*named, *(_reference_of(b) for b in named if not b.is_reference)})
    return default_cap(processes * max(1, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))))


def shared_pool(timeout: float, memory: Optional[int] = None) -> Pool:
    """This process's backend processes (made on first use, closed when the session ends)."""
    global _POOL
    if _POOL is not None and _POOL.memory != memory:
        close_pool()
    if _POOL is None:
        _POOL = Pool(timeout, depth=LOOKAHEAD_CASES, memory=memory)
    return _POOL


def close_pool() -> None:
    """Stop this process's backend processes, if any."""
    global _POOL
    if _POOL is not None:
        _POOL.close()
        _POOL = None


def launch_backends(timeout: float, names: str, memory: Optional[int] = None) -> None:
    """Start the processes of the backends ``names`` (and of their references) now, so that
    they import their frameworks while this process generates and collects the corpus."""
    try:
        backends = [resolve(n.strip()) for n in names.split(",") if n.strip()]
    except ValueError:
        return  # collection reports the unknown backend
    shared_pool(timeout, memory).launch(dict.fromkeys(
        [*backends, *(_reference_of(b) for b in backends if not b.is_reference)]))


def _known(config: pytest.Config, backend: str) -> known_divergences.KnownDivergences:
    """The known-divergence list the run applies to ``backend``, read once per process and
    options (one process may hold several runs, each with its own ``--known``)."""
    options = run_options(config)
    directory, files = options.known, options.known_files
    key = (backend, directory, files)
    if key not in _KNOWN:
        _KNOWN[key] = known_divergences.for_backend(
            backend, Path(directory) if directory else known_divergences.DEFAULT_DIR,
            dict(map(known_divergences.parse_known_option, files)))
    return _KNOWN[key]


def _reference_of(backend: Backend) -> Backend:
    return BUILT_IN[backend.reference_for or REFERENCES[backend.dialect]]


def run_item(config: pytest.Config, case: Case, backend: Backend,
             together: Sequence[Backend] = (),
             upcoming: Upcoming = lambda: ()) -> dict[str, Any]:
    """Judge ``backend``'s outcome for the case; ``together``: the other backends of the run,
    which start on the case at the same time; ``upcoming``: the cases this process runs next,
    queued to the backends ahead of need (see ``Pool.outcome``)."""
    pool = _pool(config)
    outcome = pool.outcome(case.raw, backend, together, upcoming)
    if backend.reference_for is None and backend.is_reference:
        return judge_reference(case, backend, outcome)
    reference = _reference_of(backend)
    ref_outcome = pool.outcome(case.raw, reference, together)
    if ref_outcome.status != "ok":  # a reference that crashed or timed out gets another try
        pool.forget(case.id, reference)
        ref_outcome = pool.outcome(case.raw, reference)
    return judge_framework(case, backend, outcome, ref_outcome, _known(config, backend.name))


# made once: each ``pytest.mark.<name>`` looks the name up in the configured markers again
_ORACLE_MARK = pytest.mark.oracle


class OracleItem(pytest.Item):
    def __init__(self, *, entry: CorpusEntry, backend: Backend, together: Sequence[Backend] = (),
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.entry = entry
        self.backend = backend
        self.together = together
        self.nextitem: Optional[pytest.Item] = None
        self.add_marker(_ORACLE_MARK)

    @property
    def case(self) -> Case:
        """The item's case, made when first asked for (``assembly.CorpusEntry``)."""
        return self.entry.case

    def upcoming(self) -> Iterator[tuple[dict[str, Any], Sequence[Backend]]]:
        """The cases of the oracle items this process runs after this one."""
        lookahead: Optional[Lookahead] = getattr(self.session, "_oracle_lookahead", None)
        if lookahead is None:
            return iter(())
        return ((item.case.raw, item.together) for item in lookahead.after(self, self.nextitem)
                if isinstance(item, OracleItem))

    def runtest(self) -> None:
        result = run_item(self.config, self.case, self.backend, self.together, self.upcoming)
        results_file: Optional[_ResultsFile] = getattr(self.config, "_oracle_results", None)
        if results_file is not None:
            results_file.write(result)  # from this process: workers stream in parallel
        self.user_properties.append(("oracle_verdict", {k: result.get(k) for k in _TALLIED}))
        verdict = result["verdict"]
        if verdict in ("fail", "crashed", "timeout"):
            raise OracleFailure(result)
        if verdict == "known":
            pytest.xfail(f"known divergence: {result['known_reason']}")
        if verdict in ("unsupported", "unavailable"):
            pytest.skip(result["detail"])

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, OracleFailure):
            return format_failure(excinfo.value.result)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, Optional[int], str]:
        return self.path, None, f"{self.entry.id}[{self.backend.name}]"


def side_by_side(left: list[dict[str, Any]], right: list[dict[str, Any]], mark: Optional[int],
                 width: int = 60) -> str:
    def cell(o: Optional[dict[str, Any]]) -> str:
        if o is None:
            return "-"
        body = {k: v for k, v in o.items() if k not in ("step",)}
        text = f"[{o['step']}] " + json.dumps(body)
        return text if len(text) <= width else text[:width - 1] + "…"
    lines = [f"   {'reference':<{width}} | backend"]
    for i in range(max(len(left), len(right))):
        flag = ">> " if i == mark else "   "
        lines.append(f"{flag}{cell(left[i] if i < len(left) else None):<{width}} | "
                     f"{cell(right[i] if i < len(right) else None)}")
    return "\n".join(lines)


def format_failure(result: dict[str, Any]) -> str:
    parts = [f"{result['case']} on {result['backend']}: {result['verdict']}", result["detail"]]
    if result.get("reference_observations") is not None:
        parts.append(side_by_side(result["reference_observations"], result["observations"] or [],
                                  result.get("first_difference")))
    if result.get("repro"):
        parts.append(f"reproduce with {result['dialect']}:\n{result['repro']}")
    return "\n\n".join(p for p in parts if p)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: Optional[pytest.Item]) -> Optional[bool]:
    """An oracle item has no fixtures to set up or tear down: run it as one call phase and send
    one report, not three. Under xdist each report crosses to the controller, whose hooks run
    one after the other for every worker, so this is most of what a parallel run saves."""
    if not isinstance(item, OracleItem):
        return None
    ihook = item.ihook
    item.nextitem = nextitem
    ihook.pytest_runtest_logstart(nodeid=item.nodeid, location=item.location)
    call = pytest.CallInfo.from_call(item.runtest, "call", reraise=(pytest.exit.Exception, KeyboardInterrupt))
    ihook.pytest_runtest_logreport(report=ihook.pytest_runtest_makereport(item=item, call=call))
    ihook.pytest_runtest_logfinish(nodeid=item.nodeid, location=item.location)
    return True


# --- sharding, streaming, stale known divergences ---------------------------------------------

def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    shard = run_options(config).shard
    if not shard:
        return
    try:
        k_of_n = parse_shard(shard)
    except ValueError as exc:
        raise pytest.UsageError(str(exc)) from None
    oracle = [i for i in items if isinstance(i, OracleItem)]
    chosen = in_shard([item.entry.id for item in oracle], k_of_n)
    keep = {id(item) for item in oracle if item.entry.id in chosen}
    deselected = [i for i in oracle if id(i) not in keep]
    items[:] = [i for i in items if not isinstance(i, OracleItem) or id(i) in keep]
    config.hook.pytest_deselected(items=deselected)


def _is_controller(config: pytest.Config) -> bool:
    return not hasattr(config, "workerinput")


_TALLIED = ("case", "backend", "verdict", "known_entry", "known_mismatch")


class _ResultsFile:
    """``results.jsonl``, appended to by every test process as its cases finish.

    Each result is one locked write of one line, so the xdist workers' lines never interleave
    and the controller never has to carry the observations.
    """

    def __init__(self, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.path = directory / "results.jsonl"
        self.file = self.path.open("a", encoding="utf-8")

    def write(self, result: dict[str, Any]) -> None:
        line = json.dumps(result, sort_keys=True) + "\n"
        fcntl.flock(self.file.fileno(), fcntl.LOCK_EX)
        try:
            self.file.write(line)
            self.file.flush()
        finally:
            fcntl.flock(self.file.fileno(), fcntl.LOCK_UN)

    def close(self) -> None:
        self.file.close()


def _runs_items(config: pytest.Config) -> bool:
    """Whether this process runs test items: not an xdist controller, not --collect-only."""
    distributed = config.getoption("numprocesses", default=None) and \
        not hasattr(config, "workerinput")
    return not distributed and not config.getoption("collectonly")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "oracle: a conformance case run on one backend")
    options = run_options(config)
    if options.backends and _runs_items(config):
        launch_backends(options.timeout or 60.0, options.backends, _pool(config).memory)
    report = options.report
    if report:
        config._oracle_results = _ResultsFile(Path(report))  # type: ignore[attr-defined]
    if _is_controller(config):
        config._oracle_tally = []  # type: ignore[attr-defined]
        _CONFIG.append(config)


_CONFIG: list[pytest.Config] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when != "call" and not (report.when == "setup" and report.skipped):
        return
    config = _CONFIG[-1] if _CONFIG else None
    tally = getattr(config, "_oracle_tally", None)
    if tally is None:
        return
    for name, value in report.user_properties:
        if name == "oracle_verdict":
            tally.append(value)
    progress: Optional[Progress] = getattr(config, "_oracle_progress", None)
    if progress is not None and _is_oracle(report.nodeid):
        progress.done(report.failed)


def _is_oracle(nodeid: str) -> bool:
    return ".oracle::" in nodeid


class Progress:
    """One line on the terminal, rewritten as cases finish: done/total, failures so far, the
    rate and the time left."""

    def __init__(self, terminal: Any, total: int) -> None:
        self.terminal, self.total = terminal, total
        self.finished = self.failed = 0
        self.started = self.shown = time.monotonic()

    def done(self, failed: bool) -> None:
        self.finished += 1
        self.failed += failed
        now = time.monotonic()
        if now - self.shown >= 0.25 or self.finished == self.total:
            self.shown = now
            self.terminal.write(self.line(now) + "\r" if self.finished < self.total
                                else self.line(now) + "\n")

    def line(self, now: float) -> str:
        rate = self.finished / max(now - self.started, 1e-9)
        eta = (self.total - self.finished) / rate if rate else 0.0
        return (f"\r{self.finished}/{self.total} results, {self.failed} failing, "
                f"{rate:.0f}/s, {eta:.0f} s left   ")


def _start_progress(config: pytest.Config, total: int) -> None:
    terminal = config.pluginmanager.get_plugin("terminalreporter")
    if run_options(config).progress and terminal is not None and total \
            and getattr(config, "_oracle_progress", None) is None:
        config._oracle_progress = Progress(terminal, total)  # type: ignore[attr-defined]


def pytest_collection_finish(session: pytest.Session) -> None:
    # a case starts only on the backends whose items this run selected (-k, --shard, ...)
    oracle = [i for i in session.items if isinstance(i, OracleItem)]
    selected = {i.backend.name for i in oracle}
    selected |= {_reference_of(i.backend).name for i in oracle if not i.backend.is_reference}
    narrowed: dict[int, tuple[Backend, ...]] = {}
    for item in oracle:
        key = id(item.together)
        if key not in narrowed:
            narrowed[key] = tuple(b for b in item.together if b.name in selected)
        item.together = narrowed[key]
    # a case's items come one per backend: look far enough ahead for the Pool's queue depth
    session._oracle_lookahead = Lookahead(  # type: ignore[attr-defined]
        session, window=LOOKAHEAD_CASES * max(len(selected), 1))
    if _is_controller(session.config) and not hasattr(session.config, "workerinput"):
        _start_progress(session.config, sum(isinstance(i, OracleItem) for i in session.items))
    if oracle:
        # the corpus and tens of thousands of items live as long as the run: out of the garbage
        # collector's sight, its full collections stop walking them again (handed back at
        # unconfigure, except in an xdist worker, which exits next)
        gc.freeze()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node: Any, ids: list[str]) -> None:
    """With xdist the controller learns the items from the first worker that collected them."""
    if _CONFIG:
        _start_progress(_CONFIG[-1], sum(_is_oracle(i) for i in ids))


def pytest_report_teststatus(report: pytest.TestReport, config: pytest.Config) -> Optional[tuple]:
    """With the progress line, an oracle case prints no letter of its own."""
    if not run_options(config).progress or not _is_oracle(report.nodeid):
        return None
    if report.when == "call" or (report.when == "setup" and report.skipped):
        category = "xfailed" if hasattr(report, "wasxfail") else report.outcome
        return category, "", ""
    return None


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    tally: list[dict[str, Any]] = getattr(config, "_oracle_tally", [])
    results_file: Optional[_ResultsFile] = getattr(config, "_oracle_results", None)
    if not tally:
        return
    counts: dict[str, int] = {}
    for r in tally:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    terminalreporter.section("autograd-oracle")
    terminalreporter.write_line("verdicts: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    known_dir = run_options(config).known
    files = dict(map(known_divergences.parse_known_option, run_options(config).known_files))
    for s in known_divergences.stale_entries(tally, Path(known_dir) if known_dir else None, files):
        terminalreporter.write_line(f"stale known divergence [{s['backend']}] {s['entry']}: {s['why']}")
    if results_file is not None:
        terminalreporter.write_line(f"results: {results_file.path}")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    close_pool()
    results_file = getattr(session.config, "_oracle_results", None)
    if results_file is not None:
        results_file.close()


os.environ.setdefault("FLAGS_call_stack_level", "0")


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    if config in _CONFIG:  # a run nested in another (the report tests) must not keep its place
        _CONFIG.remove(config)
    close_pool()  # started at configure for a session that did not run (a usage error)
    if hasattr(config, "workerinput"):
        gc.freeze()  # the worker exits next: its last collections would keep the controller waiting
    else:
        gc.unfreeze()  # the process runs on (the CLI builds the reports, a test calls it again)
