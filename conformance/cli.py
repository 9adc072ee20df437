"""``autograd-oracle``: run the corpus, build and diff reports, generate and inspect corpora.

    autograd-oracle run [--backends ...] [--out reports/latest] [-n auto]
    autograd-oracle report DIR            rebuild a run's reports (e.g. after it was killed)
    autograd-oracle diff BASE NEW         regressions between two runs (exit 1 on any)
    autograd-oracle record NAME --from DIR
    autograd-oracle merge OUT SHARD...    combine shard reports into one
    autograd-oracle compat DIR            write docs/COMPAT.md from a run
    autograd-oracle subject DIR --backend B --out FILE   a subject's conformance page
    autograd-oracle fuzz --backends B --seconds N   fresh programs, failures shrunk and saved
    autograd-oracle sweep paddle 3.2.2 3.3.0 3.3.1  releases in their own environments, diffed
    autograd-oracle generate --seed S --count N [--out FILE]
    autograd-oracle coverage [--corpus all --seed S --count N]
    autograd-oracle known update --from DIR   re-pin known divergences from a run
    autograd-oracle known add --backend B --case ID --reason TEXT --from DIR [--file F]
    autograd-oracle inventory scan --checkouts DIR   count the APIs real code uses
    autograd-oracle inventory report                 write docs/api-coverage.md
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import sys
from importlib import resources
from pathlib import Path
from typing import NoReturn, Optional

from conformance import arguments
from conformance.corpus.inputs import InputError
from conformance.corpus.text import visible
from conformance.run.backends import BUILT_IN, Backend
from conformance.run.options import RunOptions

EXIT_CODES = """exit codes:
  0  everything passed
  1  failures or regressions
  2  usage or input error, in one line naming the option, or the file, case and field: an
     unknown backend, a bad option value, a malformed case, known-divergence or results file
     (or one past the limits on size, depth, cases, steps and values), nothing selected, a
     report folder another run is writing, two runs a diff has nothing in common to compare,
     a run interrupted (its report is written from what ran, marked incomplete)
  3  internal error
  4  run: nothing failed, but a requested backend judged nothing (its framework or device is
     missing, e.g. torch-cuda without CUDA); the last line says which and why"""

DEFAULT_OUT = Path("reports/latest")


class UsageError(Exception):
    """A mistake in the command line or its inputs: one line, exit code 2."""
BASELINES = Path("baselines")
KNOWN_DIR = Path("known_divergences")
_INVENTORY = Path(__file__).parent / "inventory" / "inventory.json"


def _version() -> str:
    from conformance.run.backends import distribution_version

    return distribution_version("autograd-oracle") or "unknown"


def _generator_arg(p: argparse.ArgumentParser) -> None:
    from conformance.corpus.generator import DEFAULT_VERSION, VERSIONS, VERSIONS_HELP

    p.add_argument("--generator", type=int, default=DEFAULT_VERSION, choices=sorted(VERSIONS),
                   help=VERSIONS_HELP)


def _corpus_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--corpus", choices=("hand", "generated", "all"), default="all",
                   help="hand-written cases, generated ones, or both")
    p.add_argument("--seed", type=arguments.seed, default=0, help="generator seed")
    p.add_argument("--count", type=arguments.count, default=10000, help="how many generated cases")
    _generator_arg(p)
    p.add_argument("--cases", default=None,
                   help="folder of hand-written case files (none given: the project's cases/)")


def _existing_dir(path: str, what: str) -> Path:
    directory = Path(path)
    if not directory.is_dir():
        raise UsageError(f"{what} {path} is not a folder")
    return directory


def _report_dir(path: str) -> Path:
    directory = _existing_dir(path, "report folder")
    if not any((directory / name).exists() for name in ("results.jsonl", "results.jsonl.gz")):
        raise UsageError(f"{path} holds no results.jsonl: not a report folder")
    return directory


def _baseline_or_report(path: str) -> Path:
    """A report folder, or a baseline the project ships, by name (``torch-2.13.0-cpu``) or by
    its path in a checkout (``baselines/torch-2.13.0-cpu``), from any folder."""
    from conformance import data

    shipped = data.baselines_dir() / Path(path).name
    if not Path(path).exists() and (shipped / "run.json").exists():
        return shipped
    return _report_dir(path)


def _note_rebuild(directory: Path, argv: list[str]) -> None:
    """Record a report rebuild in run.json beside the run's own command, which stays as it was."""
    from conformance.report.build import RUN_FILE, read_run

    run = read_run(directory)
    run.setdefault("rebuilt_by", []).append(argv)
    (directory / RUN_FILE).write_text(json.dumps(run, indent=1) + "\n")


def backends_named(names: str) -> list[Backend]:
    """The backends of ``--backends``, each resolved and, when the user named its module
    (``DIALECT:MODULE``), importable (else a usage error with the import error). The module is
    imported from the current folder or an installed package, as ``python -m`` would."""
    from conformance.run.backends import import_problem, resolve

    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    backends = []
    for name in (n.strip() for n in names.split(",") if n.strip()):
        try:
            backend = resolve(name)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        problem = None if backend.name in BUILT_IN else import_problem(backend)
        if problem:
            raise UsageError(problem)
        backends.append(backend)
    return backends


def known_files(args: argparse.Namespace) -> dict[str, str]:
    """``run --known``: ``{backend or "*": absolute path}``, each file read and checked."""
    from conformance.judge import known

    files = {}
    for value in args.known:
        backend, path = known.parse_known_option(value)
        if not Path(path).is_file():
            raise UsageError(f"--known {value}: no such file")
        try:
            known.load_file(Path(path), backend)
        except known.KnownDivergenceError as exc:
            raise UsageError(str(exc)) from None
        files[backend] = str(Path(path).resolve())
    return files


def validate_run(args: argparse.Namespace) -> int:
    """Check every argument of ``run`` before any work; return how many cases it selects. A run
    in one process starts its backends' processes before making the corpus, to load meanwhile."""

    from conformance.corpus.assembly import corpus_entries
    from conformance.corpus.loader import CaseError
    from conformance.corpus.selection import parse_shard, select
    from conformance.pytest_plugin import launch_backends, memory_cap

    backends_named(args.backends)
    known_files(args)
    if args.shard:
        try:
            parse_shard(args.shard)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    workers = xdist_workers(args.workers)
    if args.cases:
        cases_dir = _existing_dir(args.cases, "--cases").resolve()
        out = Path(args.out).resolve()
        if out == cases_dir or cases_dir in out.parents:
            raise UsageError(f"--out {args.out} is inside --cases {args.cases}: a report folder "
                             "must not sit among case files")
    try:
        memory = memory_cap(args.memory, args.backends)
    except ValueError as exc:
        raise UsageError(f"--memory: {exc}") from None
    if workers == 0:  # this process runs the backends: start them now,
        launch_backends(args.timeout, args.backends, memory)  # to load while the corpus is made
    try:  # the generated cases by id: each is made where it runs
        cases = corpus_entries(args.corpus, args.seed, args.count, args.cases, args.generator)
    except CaseError as exc:
        raise UsageError(str(exc)) from None
    cases = select(cases, args.select)
    if not cases:
        raise UsageError("nothing selected: the corpus options and --select match no case")
    return len(cases)


# How xdist hands the items to the workers. ``load`` deals the first quarter of the items round
# robin, one at a time, so the items of a case (one per backend) land on different workers, and
# each of them runs the case's reference: 134 s of CPU against 126 s for ``worksteal``, which
# hands each worker a contiguous block and moves half a block to a worker that runs dry (the
# default corpus on reference-torch and torch-cpu, -n 2: 73 s against 69 s of wall time).
DISTRIBUTION = "worksteal"

# Plugins with work per test or per session that a corpus run does not use: its items record no
# warnings, keep no cache, and cases run in backend processes, where these plugins do not reach
# (the runner times each case itself: ``--timeout``).
QUIET_PLUGINS = [f"-pno:{name}" for name in (
    "cacheprovider", "warnings", "unraisableexception", "hypothesispytest", "benchmark", "anyio",
    "timeout")]


def plugin_argument() -> list[str]:
    """``-p conformance.pytest_plugin`` where no installed copy registers the plugin (a bare
    checkout run with ``python -m conformance.cli``); nothing where one does (pytest refuses
    to register it twice)."""
    import importlib.metadata

    installed = any(e.name == "autograd_oracle" for e in importlib.metadata.entry_points(group="pytest11"))
    return [] if installed else ["-p", "conformance.pytest_plugin"]


def usable_cores() -> int:
    """The cores this process may run on (its affinity, else every core)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def xdist_workers(workers: str, cores: Optional[int] = None) -> int:
    """How many pytest-xdist workers ``-n WORKERS`` asks for; 0: the run stays in one process.

    ``auto`` counts two cores a worker, and none below four cores: a test process already runs
    each backend in a process of its own, side by side, and keeps about 1.8 cores busy. On two
    cores a second test process adds a second set of backend processes, and the main job's four
    backends run slower at ``-n 2`` than in one process (the figures: ``docs/benchmarks.md``).
    """
    if workers == "auto":
        cores = usable_cores() if cores is None else cores
        return cores // 2 if cores >= 4 else 0
    if not workers.isdigit():
        raise UsageError(f"-n expects a number of workers or auto, got {workers!r}")
    return int(workers)


def cmd_run(args: argparse.Namespace, extra: list[str]) -> int:
    from conformance.pytest_plugin import close_pool
    from conformance.report.lock import FolderInUseError, run_lock

    try:
        validate_run(args)  # a usage error leaves --out as it was
    except UsageError:
        close_pool()  # the backends it started for the run
        raise
    out = Path(args.out)
    try:
        with run_lock(out, args.argv) as took_over:
            if took_over:
                print(f"autograd-oracle: note: {out}: {took_over}", file=sys.stderr)
            return _run_into(out, args, extra)
    except FolderInUseError as exc:
        close_pool()
        raise UsageError(str(exc)) from None


def _run_into(out: Path, args: argparse.Namespace, extra: list[str]) -> int:
    """The run itself, into ``out``, whose lock this process holds."""
    import pytest

    from conformance.report.build import RUN_FILE, build_reports
    from conformance.report.prepare import Preparation

    for name in ("results.jsonl", "summary.json", "junit.xml", "report.md", "report.html"):
        (out / name).unlink(missing_ok=True)
    run = {"corpus": args.corpus, "seed": args.seed, "count": args.count,
           "generator": args.generator, "cases_dir": args.cases, "backends": args.backends,
           "argv": args.argv, "complete": False, "known": known_files(args)}
    (out / RUN_FILE).write_text(json.dumps(run, indent=1) + "\n")
    oracle_file = Path(str(resources.files("conformance") / "corpus.oracle"))
    workers = xdist_workers(args.workers)
    options = RunOptions(
        backends=args.backends, corpus=args.corpus, seed=args.seed, count=args.count,
        generator=args.generator, cases=args.cases, select=args.select, shard=args.shard,
        timeout=args.timeout, memory=args.memory, report=str(out),
        progress=sys.stdout.isatty(),  # a person watching: one progress line, not a letter each
        known_files=tuple(path if backend == "*" else f"{backend}={path}"
                          for backend, path in run["known"].items()))
    # --assert=plain: no module of the run has an assert to rewrite, and rewriting every module of
    # the package costs each test process seconds on a fresh checkout
    argv = [str(oracle_file), "-q", "--no-header", "-rN", "--assert=plain", *QUIET_PLUGINS,
            *plugin_argument()]
    if workers:
        argv += ["-n", str(workers), "--dist", DISTRIBUTION]
    argv += ["--oracle-run", options.to_json()]
    # the report's corpus side, and each result as it is written, read while the run goes: the
    # corpus in a thread of this process while its workers run the cases, or after the run where
    # this process runs them (each case it ran is made by then)
    preparation = Preparation(out, run, corpus_meanwhile=bool(workers)).start()
    status = pytest.main(argv + extra)
    if int(status) in (int(pytest.ExitCode.USAGE_ERROR), int(pytest.ExitCode.INTERNAL_ERROR)):
        raise UsageError(f"pytest refused the run (exit code {int(status)}"
                         + (f"; the arguments passed on to it: {' '.join(extra)}" if extra else "")
                         + "); see above") \
            if int(status) == int(pytest.ExitCode.USAGE_ERROR) else RuntimeError(
                f"pytest failed internally (exit code {int(status)})")
    interrupted = int(status) == int(pytest.ExitCode.INTERRUPTED)
    run["complete"] = not interrupted
    (out / RUN_FILE).write_text(json.dumps(run, indent=1) + "\n")
    if not (out / "results.jsonl").exists():
        print("no results were produced", file=sys.stderr)
        return 2
    model = build_reports(out, complete=not interrupted, prepared=preparation.finish(run))
    failed = len(model.failures)
    print(f"report: {out / 'report.html'} (also report.md, summary.json, junit.xml, "
          f"results.jsonl); {failed} failing results")
    if interrupted:
        return 2
    if failed:
        return 1
    idle = idle_backends(args.backends, model.summary["counts"], out)
    if idle:  # green, but not for everything asked for: a CI job must not pass on it
        print("autograd-oracle: nothing judged on " + "; ".join(f"{b}: {why}" for b, why in idle.items()),
              file=sys.stderr)
        return 4
    return 0


def idle_backends(requested: str, counts: dict[str, dict[str, int]], out: Path) -> dict[str, str]:
    """The requested backends that judged nothing (every result unavailable or unsupported), with
    why, from the run's results in ``out``: ``{"torch-cuda": "CUDA not available"}``."""
    from conformance.report.results import iter_results

    names = [n.strip() for n in requested.split(",") if n.strip()]
    idle = [n for n in names if not set(counts.get(n, {})) - {"unavailable", "unsupported"}]
    if not idle:
        return {}
    why: dict[str, str] = {}
    for r in iter_results(out):
        if r["backend"] in idle and r["verdict"] == "unavailable":
            why.setdefault(r["backend"], r["detail"])
    return {n: why.get(n) or ("every case was unsupported" if counts.get(n) else "no case ran on it")
            for n in idle}


def cmd_report(args: argparse.Namespace) -> int:
    from conformance.report.build import build_reports, read_run

    directory = _report_dir(args.dir)
    _note_rebuild(directory, args.argv)
    model = build_reports(directory, complete=bool(read_run(directory).get("complete")))
    print(f"report: {directory / 'report.html'} ({model.summary['results']} results"
          f"{'' if model.summary['complete'] else ', partial run'})")
    return 0


def cmd_diff(args: argparse.Namespace) -> int:
    from conformance.corpus.loader import CaseError
    from conformance.report.build import load_run
    from conformance.report.diff import diff_runs, render_diff_html, render_diff_markdown

    new = _report_dir(args.new)
    try:
        _, _, cases, _ = load_run(new)
    except (CaseError, OSError, ValueError):  # a run of case files no longer here: no step kinds
        cases = {}
    d = diff_runs(_baseline_or_report(args.base), new, cases)
    markdown = render_diff_markdown(d)
    if args.json:
        Path(args.json).write_text(json.dumps(d, indent=1) + "\n")
    if args.markdown:
        Path(args.markdown).write_text(markdown)
    if args.html:
        Path(args.html).write_text(render_diff_html(d), encoding="utf-8")
    print(markdown)
    if not d["compared"]["results"]:
        raise UsageError(f"nothing compared: {args.base} and {args.new} have no result of the same "
                         "case on the same backend (see the lines above for what each ran)")
    return 1 if d["regressed"] else 0


def cmd_record(args: argparse.Namespace) -> int:
    import gzip

    from conformance.report.results import load_results

    source = _report_dir(args.source)
    target = Path(args.baselines) / args.name
    if target.exists() and not args.force:
        raise UsageError(f"baseline {target} exists; pass --force to overwrite it")
    keep = set(args.backend.split(",")) if args.backend else None
    results = [r for r in load_results(source) if keep is None or r["backend"] in keep]
    if not results:
        raise UsageError(f"{source} has no results{' for ' + args.backend if keep else ''}")
    target.mkdir(parents=True, exist_ok=True)
    with gzip.open(target / "results.jsonl.gz", "wt", encoding="utf-8", compresslevel=9) as fout:
        for r in results:
            fout.write(json.dumps(r, sort_keys=True) + "\n")
    for name in ("summary.json", "run.json"):
        if (source / name).exists():
            shutil.copy(source / name, target / name)
    counts: dict[str, int] = {}
    for r in results:
        counts[r["backend"]] = counts.get(r["backend"], 0) + 1
    for backend, n in sorted(counts.items()):
        print(f"baseline {args.name}: {backend}: {n} results")
    print(f"written to {target}")
    return 0


def cmd_merge(args: argparse.Namespace) -> int:
    from conformance.report.build import RUN_FILE, build_reports, read_run
    from conformance.report.results import load_results, write_results

    out = Path(args.out)
    shards = [_report_dir(s) for s in args.shards]
    runs = [read_run(s) for s in shards]
    merged: dict[tuple[str, str], dict] = {}
    for s in shards:
        for r in load_results(s):
            merged[(r["case"], r["backend"])] = r
    write_results(out, [merged[k] for k in sorted(merged)])
    run = dict(runs[0])
    run["complete"] = all(r.get("complete") for r in runs)
    (out / RUN_FILE).write_text(json.dumps(run, indent=1) + "\n")
    model = build_reports(out, complete=run["complete"])
    print(f"merged {len(shards)} shards into {out}; {len(model.failures)} failing results")
    return 1 if model.failures else 0


def cmd_compat(args: argparse.Namespace) -> int:
    from conformance.report.build import build_reports, read_run, write_compat

    directory = _report_dir(args.dir)
    _note_rebuild(directory, args.argv)
    model = build_reports(directory, complete=bool(read_run(directory).get("complete")))
    write_compat(model, Path(args.out))
    print(f"porting guide: {len(model.guide)} classes of {model.guide.diverging} diverging cases "
          f"written to {args.out}")
    return 0


def _run_versions(directory: Path) -> dict[str, Optional[str]]:
    """The framework versions a run measured, by distribution name, from its summary.json."""
    from conformance.report.summary import read_summary

    target = read_summary(directory)["execution_target"]
    return {"torch": target.get("torch"), "paddlepaddle": target.get("paddle")}


def cmd_known(args: argparse.Namespace) -> int:
    from conformance.judge import known
    from conformance.report.results import load_results

    source = _report_dir(args.source)
    results = load_results(source)
    versions = _run_versions(source)
    versions = known.with_subjects(versions, results)
    directory = Path(args.known_dir)
    backends = [args.backend] if args.backend else sorted(
        {r["backend"] for r in results if known.path_for(r["backend"], directory).exists()})
    ran = {r["backend"] for r in results}
    try:
        for backend in backends:
            if backend not in ran:
                raise known.KnownDivergenceError(
                    f"backend '{backend}' did not run in {source} (it ran: {', '.join(sorted(ran))})")
            kd = known.load_file(Path(args.file), backend) if args.file else known.load(backend, directory)
            if args.action == "add":
                entry = known.add_entry(kd, args.case, args.reason, results, versions)
                print(f"[{backend}] {entry.key}: pinned {len(entry.differences)} differences")
            else:
                for line in known.update_from_results(kd, results, versions) or ["nothing to change"]:
                    print(f"[{backend}] {line}")
            kd.save()
    except known.KnownDivergenceError as exc:
        print(f"autograd-oracle: {exc}", file=sys.stderr)
        return 2
    return 0


def cmd_subject(args: argparse.Namespace) -> int:
    from conformance.judge.classes import failure_classes
    from conformance.report.build import load_run
    from conformance.report.subject import render_subject
    from conformance.report.summary import read_summary
    from conformance.run.programs import ProgramRunError, run_programs

    directory = _report_dir(args.dir)
    summary = read_summary(directory)
    about = (summary.get("backends") or {}).get(args.backend)
    if about is None or not about.get("module"):
        raise UsageError(f"backend '{args.backend}' did not run in {directory} (it ran: "
                         f"{', '.join(sorted(summary.get('backends') or {}))})")
    _, results, cases, _ = load_run(directory)
    classes = [c for c in failure_classes(results, cases) if c.backend == args.backend]
    printed = {}
    if not args.no_programs:
        programs = [c.repro for c in classes]
        dialect = about["dialect"]
        framework = f"{dialect} {summary['execution_target'].get(dialect) or ''}".strip()
        subject = (about.get("subject") or {}).get("description") or args.backend
        try:
            printed[framework] = run_programs(programs, dialect)
            printed[subject] = run_programs(programs, dialect, about["module"])
        except ProgramRunError as exc:
            raise UsageError(str(exc)) from None
    command = f"autograd-oracle subject {args.dir} --backend {args.backend} --out {args.out}"
    page = render_subject(summary, args.backend, classes, {i: c.about for i, c in cases.items()},
                          printed, command)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(page, encoding="utf-8")
    print(f"{args.out}: {len(classes)} failure classes of {args.backend}")
    return 0


def cmd_fuzz(args: argparse.Namespace) -> int:
    from conformance.fuzz.explore import explore
    from conformance.fuzz.report import write_fuzz

    if (args.seconds is None) == (args.count is None):
        raise UsageError("fuzz needs a budget: --seconds N or --count N (one of them)")
    if args.count == 0:
        raise UsageError("--count: a fuzz runs at least one program")
    backends = backends_named(args.backends)
    tty = sys.stderr.isatty()
    last = [0.0]

    def progress(run, elapsed: float) -> None:
        if tty or elapsed - last[0] >= 15:
            last[0] = elapsed
            budget = f"/{args.seconds:g} s" if args.seconds else f" s, {run.programs}/{args.count}"
            line = (f"fuzz: {run.programs} programs, {run.failures} failing, "
                    f"{len(run.classes)} classes, {elapsed:.0f}{budget}")
            print(f"\r{line}" if tty else line, end="" if tty else "\n", file=sys.stderr, flush=True)

    run = explore(backends, args.seed, args.seconds, args.count, args.timeout, progress, args.dtype)
    if tty:
        print(file=sys.stderr)
    out = Path(args.out)
    write_fuzz(out, run, {b.name: b.dialect for b in backends})
    print(f"fuzz: {run.programs} programs, {run.failures} failing results in {len(run.classes)} "
          f"classes; {out / 'report.md'}, one minimal case per class in {out / 'cases'}")
    return 1 if run.failures else 0


def cmd_sweep(args: argparse.Namespace) -> int:
    from conformance.sweep import SweepError, sweep

    if args.installer == "uv" and shutil.which("uv") is None:
        raise UsageError("--installer uv: uv is not installed (pip install uv)")
    try:
        steps = sweep(args.framework, args.versions, args.count, Path(args.out),
                      say=lambda line: print(line, file=sys.stderr, flush=True), reuse=args.reuse,
                      installer=args.installer)
    except SweepError as exc:
        raise UsageError(str(exc)) from None
    print(f"sweep: {Path(args.out) / 'index.md'} ({sum(s.run is not None for s in steps)} of "
          f"{len(steps)} versions ran)")
    return 0 if all(s.run is not None for s in steps) else 1


def cmd_validate(args: argparse.Namespace) -> int:
    """Check case files and known-divergence files (or folders of them) and list every error,
    one line each: within each file, and across files (a case id two files share), as ``run``
    would refuse them."""
    from conformance.corpus.loader import case_files, check_files
    from conformance.judge import known

    errors: list[str] = []
    files: list[Path] = []
    for path in map(Path, args.paths):
        if not path.exists():
            errors.append(f"{visible(str(path))}: no such file or folder")
        else:
            files += case_files(path) if path.is_dir() else [path]
    known_lists = [f for f in files if known.looks_like_known_file(f)]
    for file in known_lists:
        try:
            known.load_file(file, file.stem)
        except InputError as exc:
            errors.append(str(exc))
    _, problems = check_files(f for f in files if f not in known_lists)
    errors += map(str, problems)
    for line in errors:
        print(line, file=sys.stderr)
    print(f"{len(files) - len(known_lists)} case files and {len(known_lists)} known-divergence "
          f"files checked, {len(errors)} error{'' if len(errors) == 1 else 's'}")
    return 2 if errors else 0


def cmd_generate(args: argparse.Namespace) -> int:
    from conformance.corpus.generator import corpus_bytes, corpus_sha256, generate

    cases = generate(args.seed, args.count, version=args.generator)
    if args.manifest:
        manifest = {"generator_version": args.generator, "seed": args.seed, "count": args.count,
                    "sha256": corpus_sha256(cases)}
        Path(args.manifest).write_text(json.dumps(manifest, indent=1) + "\n")
    if args.out:
        Path(args.out).write_bytes(corpus_bytes(cases))
    if not args.out and not args.manifest:
        sys.stdout.write(corpus_bytes(cases).decode() + "\n")
    return 0


def cmd_coverage(args: argparse.Namespace) -> int:
    from conformance.corpus.assembly import load_corpus
    from conformance.corpus.coverage import bucket_counts, cell_counts, format_cells, format_counts
    from conformance.corpus.loader import CaseError
    from conformance.corpus.pairs import format_pairs, pair_counts

    if args.cases:
        _existing_dir(args.cases, "--cases")
    try:
        cases = load_corpus(args.corpus, args.seed, args.count, args.cases, version=args.generator)
    except CaseError as exc:
        raise UsageError(str(exc)) from None
    if not cases:
        raise UsageError("nothing selected: the corpus options give no case")
    print(f"{len(cases)} cases")
    print(format_counts(bucket_counts(cases)))
    generated = [c for c in cases if c.source.startswith("<generated")]
    if generated:
        cells = cell_counts(generated)
        print(f"\ngenerated cases alone ({len(generated)}): step kind x argument value")
        print(format_cells(cells["steps"], "step cell"))
        print(f"\ngenerated cases alone ({len(generated)}): op x feature")
        print(format_cells(cells["ops"], "op cell"))
        print(f"\ngenerated cases alone ({len(generated)}): argument value x state")
        print(format_pairs(pair_counts(generated), len(generated)))
    return 0


def cmd_inventory(args: argparse.Namespace) -> int:
    import json

    from conformance.inventory import build, coverage
    from reference_engine.framework_names import LISTING

    if args.action == "scan":
        checkouts = _existing_dir(args.checkouts, "--checkouts")
        try:
            inventory = build.scan(checkouts)
        except build.CheckoutMissingError as exc:
            raise UsageError(f"--checkouts: {exc}") from None
        build.write(inventory, Path(args.inventory))
        LISTING.write_text(json.dumps(build.framework_names(), indent=0) + "\n")
        print(f"wrote {args.inventory} and {LISTING.name}: "
              + ", ".join(f"{len(apis)} {f} APIs" for f, apis in inventory["apis"].items()))
        return 0
    try:
        inventory = build.load(Path(args.inventory))
    except (OSError, ValueError) as exc:
        raise UsageError(f"--inventory: cannot read {args.inventory}: {exc}") from None
    Path(args.out).write_text(coverage.report(inventory, Path(args.tests_root)))
    print(f"wrote {args.out}")
    return 0


class _Help(argparse.RawDescriptionHelpFormatter, argparse.ArgumentDefaultsHelpFormatter):
    """Descriptions as written, every option followed by its default."""


class _Parser(argparse.ArgumentParser):
    """argparse, with a mistake on the command line told in one line (naming the option and
    pointing at ``--help``) rather than the usage block and the error below it."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {visible(message)} (see {self.prog} --help)\n")


def parser() -> argparse.ArgumentParser:
    p = _Parser(prog="autograd-oracle", description=__doc__.split("\n")[0],
                                epilog=EXIT_CODES, formatter_class=_Help)
    p.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, text: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=text, description=text, epilog=EXIT_CODES,
                              formatter_class=_Help)

    run = command("run", "run the corpus on the backends and write a report folder")
    _corpus_args(run)
    run.add_argument("--backends", default=",".join(BUILT_IN),
                     help="comma-separated backends: built-in names or DIALECT:MODULE[@DEVICE]; "
                          "a backend whose framework or device is missing is skipped, with why")
    run.add_argument("--out", type=arguments.output_folder, default=str(DEFAULT_OUT),
                     help="report folder to write")
    run.add_argument("-n", "--workers", default="auto",
                     help="pytest-xdist workers: a number, 0 for one process (whose backends "
                          "still run side by side), or auto: one per two cores, none below four")
    run.add_argument("--select", default=None, help="comma-separated glob patterns of case ids to run")
    run.add_argument("--shard", default=None, metavar="K/N",
                     help="run only shard K of N (1-based), to split a run over machines")
    run.add_argument("--timeout", type=arguments.seconds, default=60.0,
                     help="seconds a case may take on a backend before it is a timeout")
    run.add_argument("--memory", default="auto", metavar="SIZE",
                     help="memory cap of each backend process on the CPU (1GB, 512MB, none): a case "
                          "that needs more is 'crashed' (out of memory) and the run goes on; auto: "
                          "half the machine's memory shared among the backend processes, at least 4 GB")
    run.add_argument("--known", action="append", default=[], metavar="[BACKEND=]FILE",
                     help="your own expected failures: a known-divergence file (as 'known add' "
                          "writes) applied to BACKEND, or with no BACKEND= to every backend "
                          "judged against a reference, in place of known_divergences/<backend>"
                          ".json; repeatable")
    rep = command("report", "rebuild the reports of a (possibly interrupted) run")
    rep.add_argument("dir", help="the run's report folder")
    d = command("diff", "regressions between two runs; exit 1 on any")
    d.add_argument("base", help="report folder of the earlier run, or a baseline: a folder or the "
                                "name of one the project ships (torch-2.13.0-cpu)")
    d.add_argument("new", help="report folder of the later run")
    d.add_argument("--json", type=arguments.output_file, default=None,
                   help="also write the JSON report here")
    d.add_argument("--markdown", type=arguments.output_file, default=None,
                   help="also write the Markdown report here")
    d.add_argument("--html", type=arguments.output_file, default=None,
                   help="also write the report as an HTML page here")
    rec = command("record", "keep a run's results as a named baseline")
    rec.add_argument("name", type=arguments.plain_name,
                     help="the baseline's name, e.g. torch-2.13.0-cpu")
    rec.add_argument("--from", dest="source", default=str(DEFAULT_OUT),
                     help="the run's report folder")
    rec.add_argument("--baselines", type=arguments.output_folder, default=str(BASELINES),
                     help="folder of baselines")
    rec.add_argument("--backend", default=None,
                     help="comma-separated backends to keep (none given: every backend of the run)")
    rec.add_argument("--force", action="store_true", help="overwrite an existing baseline")
    m = command("merge", "combine shard report folders into one")
    m.add_argument("out", type=arguments.output_folder,
                   help="report folder to write the merged run to")
    m.add_argument("shards", nargs="+", help="report folders of the shards")
    c = command("compat", "write the torch/paddle divergence classes as Markdown")
    c.add_argument("dir", help="the run's report folder")
    c.add_argument("--out", type=arguments.output_file, default="docs/COMPAT.md",
                   help="Markdown file to write")
    g = command("generate", "print or write a generated corpus")
    g.add_argument("--seed", type=arguments.seed, default=0, help="corpus seed")
    g.add_argument("--count", type=arguments.count, default=10000, help="how many cases")
    g.add_argument("--out", type=arguments.output_file, default=None,
                   help="write the corpus to this file (none: stdout)")
    g.add_argument("--manifest", type=arguments.output_file, default=None,
                   help="write the corpus manifest here")
    _generator_arg(g)
    k = command("known", "keep known-divergence entries pinned to what a run observed")
    k.add_argument("action", choices=("update", "add"),
                   help="update: rewrite every entry's differences and framework version from the "
                        "run, keeping its reason; add: pin a new entry for --case")
    k.add_argument("--from", dest="source", default=str(DEFAULT_OUT),
                   help="the run's report folder")
    k.add_argument("--backend", default=None,
                   help="only this backend's list (none given: every backend of the run that "
                        "has one; required with add)")
    k.add_argument("--case", default=None, help="add: the case id to pin")
    k.add_argument("--reason", default=None, help="add: why the framework differs (measured on it)")
    k.add_argument("--known-dir", default=str(KNOWN_DIR), help="folder of known-divergence files")
    k.add_argument("--file", default=None,
                   help="the known-divergence file to add to or update (created if missing), in "
                        "place of <known-dir>/<backend>.json: your own list for any backend, "
                        "given to 'run --known'; needs --backend")
    sub_ = command("subject", "write a subject's conformance page from a run: its failure classes, "
                              "each with its smallest program and what the framework and the subject print")
    sub_.add_argument("dir", help="the run's report folder")
    sub_.add_argument("--backend", required=True, help="the backend under test, e.g. paddle-as-torch")
    sub_.add_argument("--out", type=arguments.output_file, required=True,
                      help="Markdown file to write, e.g. docs/subjects/paddle-as-torch.md")
    sub_.add_argument("--no-programs", action="store_true",
                      help="do not run the programs (the page then shows them without their output)")
    fz = command("fuzz", "run fresh programs on the backends until the budget is spent, and shrink "
                         "each new kind of failure to a minimal case")
    fz.add_argument("--backends", required=True,
                    help="comma-separated backends under test (each judged against its reference)")
    fz.add_argument("--seconds", type=arguments.seconds, default=None, help="the time budget")
    fz.add_argument("--count", type=arguments.count, default=None,
                    help="run this many programs instead of a time budget (reproducible)")
    fz.add_argument("--seed", type=arguments.seed, default=1,
                    help="the fuzz seed: program i of a seed is fixed")
    fz.add_argument("--out", type=arguments.output_folder, default="reports/fuzz",
                    help="folder for summary.json, report.md and cases/<class>.json")
    fz.add_argument("--timeout", type=arguments.seconds, default=20.0,
                    help="seconds a program may take on a backend before it is a timeout")
    fz.add_argument("--dtype", default="mixed", choices=("mixed", "float32", "float64"),
                    help="what the programs compute in: mixed (each draws, as the corpus's do) or "
                         "one dtype for all (float64: a wrong value hidden in float32's tolerance "
                         "is judged at float64's)")
    sw = command("sweep", "run a framework's releases, each in an environment of its own, and "
                          "diff each against the one before and the baseline")
    sw.add_argument("framework", choices=("torch", "paddle"), help="the framework to sweep")
    sw.add_argument("versions", nargs="+", help="its versions, oldest first, e.g. 3.2.2 3.3.0 3.3.1")
    sw.add_argument("--count", type=arguments.count, default=2000,
                    help="generated cases on top of the hand-written")
    sw.add_argument("--out", type=arguments.output_folder, default="reports/sweep",
                    help="folder for the runs, the diffs and index.md")
    sw.add_argument("--installer", choices=("pip", "uv"), default="pip",
                    help="what makes the environments: venv and pip (reads pip's configuration), "
                         "or uv (faster; needs uv)")
    sw.add_argument("--reuse", action="store_true",
                    help="do not run again a version whose complete run is already in --out; diff anew")
    cov = command("coverage", "cases per feature bucket, step kind x argument, op x feature and "
                              "argument value x state")
    _corpus_args(cov)
    inv = command("inventory", "count the torch and paddle APIs that bodies of real code use (scan), "
                               "and write what the facades do with each (report)")
    inv.add_argument("action", choices=("scan", "report"),
                     help="scan: read checkouts of the bodies into the inventory and list the "
                          "frameworks' names (needs torch and paddle); report: write the coverage page")
    inv.add_argument("--checkouts", default=None,
                     help="scan: folder holding a checkout of each body, named owner+name")
    inv.add_argument("--inventory", default=str(_INVENTORY), help="the inventory file")
    inv.add_argument("--out", type=arguments.output_file, default="docs/api-coverage.md",
                     help="report: Markdown file to write")
    inv.add_argument("--tests-root", default=".",
                     help="report: the checkout whose tests/programs and tests/field count as checks")
    val = command("validate", "check case files and known-divergence files, and list every "
                              "error (exit 2 on any)")
    val.add_argument("paths", nargs="+", help="case files, known-divergence files, or folders of them")
    return p


HANDLERS = {"report": cmd_report, "diff": cmd_diff, "record": cmd_record, "merge": cmd_merge,
            "compat": cmd_compat, "generate": cmd_generate, "coverage": cmd_coverage,
            "known": cmd_known, "validate": cmd_validate, "subject": cmd_subject, "fuzz": cmd_fuzz,
            "sweep": cmd_sweep, "inventory": cmd_inventory}


def _parsed(argv: list[str]) -> tuple[argparse.Namespace, list[str]]:
    """The command line parsed, and what ``run`` passes on to pytest; a mistake exits 2."""
    args, extra = parser().parse_known_args(argv)
    args.argv = argv  # kept with the run, so a rebuilt report still shows the command that ran
    if extra and args.command != "run":
        parser().error(f"unrecognized arguments: {' '.join(extra)}")
    if args.command == "known" and args.action == "add" and not (args.case and args.reason and args.backend):
        parser().error("known add needs --backend, --case and --reason")
    if args.command == "inventory" and args.action == "scan" and not args.checkouts:
        parser().error("inventory scan needs --checkouts: the folder of the bodies' checkouts")
    if args.command == "known" and args.file and not args.backend:
        parser().error("known --file needs --backend: the backend whose results it pins")
    return args, extra


def main(argv: Optional[list[str]] = None) -> int:
    """Run a command; exit codes as in ``EXIT_CODES``. A mistake in the input is one line on
    stderr (2), never a traceback; anything else unexpected is an internal error (3)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args, extra = _parsed(argv)
    except SystemExit as exc:  # --help, --version, or a mistake argparse told in one line
        return exc.code if isinstance(exc.code, int) else 2
    try:
        if args.command == "run":
            return cmd_run(args, extra)
        return HANDLERS[args.command](args)
    except (UsageError, InputError) as exc:
        print(f"autograd-oracle: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away (``| head``): nothing is wrong with the run
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as exc:  # noqa: BLE001 - the last line of defence: one line, exit code 3
        if isinstance(exc, OSError) and exc.filename is not None:
            # a path the user named that the system refuses (no space left, a read-only folder)
            print(f"autograd-oracle: error: {visible(str(exc.filename))}: {exc.strerror}",
                  file=sys.stderr)
            return 2
        if os.environ.get("AUTOGRAD_ORACLE_DEBUG"):
            raise
        print(f"autograd-oracle: internal error: {type(exc).__name__}: {exc} "
              "(set AUTOGRAD_ORACLE_DEBUG=1 for the traceback)", file=sys.stderr)
        return 3


def entry_point() -> None:
    """The ``autograd-oracle`` command: ``main``, then an exit that skips freeing the run's
    objects one by one (a corpus run holds the corpus, tens of thousands of pytest reports and
    the loaded results: seconds of teardown for memory the system takes back at once). Output is
    flushed first; ``main`` itself returns normally, for callers in a process of their own."""
    status = main()
    with contextlib.suppress(BrokenPipeError):  # the reader went away (``| head``)
        sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


if __name__ == "__main__":
    entry_point()
