"""The default corpus on four backends: the main job's wall time, the cores it keeps busy, the
seconds per case of each backend, whether shards add up to one run, and where the time goes.

    python benchmarks/corpus_run.py [--count 10000] [--shards 2] [--skip-shards] [--skip-serial]
                                    [--skip-floor] [--breakdown-workers 0,2]
                                    [--breakdown-backends reference-torch,torch-cpu]

Prints:

- Amdahl's breakdown of the run (``--breakdown-backends``, by default reference-torch and
  torch-cpu) at each worker count of ``--breakdown-workers``, measured from outside by watching
  ``results.jsonl`` grow: seconds before the first result, between the first and the last, and
  after the last (the report); the serial fraction of the one-process run; the wall time that
  Amdahl's law projects at 4, 8, 16 and 32 workers from it; and the peak memory of the run's
  processes per worker, above what a process that only imports the frameworks holds;

- the generator (10,000 cases) and the loader's validation of them;
- the run as the README's main command starts it (``-n auto``): wall time, and cores busy ÷ the
  cores this process may use (CPU time of every process of the run over wall time; goal ≥ 0.9);
- from that run's ``results.jsonl``: each backend's mean seconds per case (the time from a case's
  start on the backend to its result), and the ratios reference-torch / torch-cpu and
  reference-paddle / paddle-cpu (goal ≤ 1 each);
- the shards of the same corpus (``--shard k/N``), timed one after another, and their sum against
  the one run (goal: within 10 %);
- with ``--skip-serial`` not given, the same corpus in one process (``-n 0``);
- the backends' own work (every case run on each backend in this process, no pytest, no
  isolation: the floor), and the runner's overhead on top of it per item.

Each run writes a report folder under a temporary folder.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

# run from a checkout that was never installed: the project's packages sit beside benchmarks/
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

BACKENDS = "reference-torch,torch-cpu,reference-paddle,paddle-cpu"
RATIOS = (("reference-torch", "torch-cpu"), ("reference-paddle", "paddle-cpu"))


def _cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_run(out: Path, count: int, workers: str, shard: Optional[str] = None) -> tuple[float, float]:
    """Wall seconds of a run and the CPU seconds of all its processes."""
    command = [sys.executable, "-m", "conformance.cli", "run", "--backends", BACKENDS,
               "--count", str(count), "-n", workers, "--out", str(out)]
    if shard:
        command += ["--shard", shard]
    cpu, start = _cpu_of_children(), time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start, _cpu_of_children() - cpu


@dataclass
class Breakdown:
    """A run timed from outside: when its first and last results appeared, when it ended."""

    workers: str
    before: float  # from the start to the first result
    in_cases: float  # from the first result to the last
    after: float  # from the last result to the end (the reports)
    peak_rss: int  # the most memory its processes held together, bytes

    @property
    def wall(self) -> float:
        return self.before + self.in_cases + self.after


def _descendants(root: int) -> list[int]:
    """``root`` and every process below it (Linux ``/proc``)."""
    children: dict[int, list[int]] = defaultdict(list)
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children[int(fields[1])].append(int(stat.parent.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, ()))
    return found


def _rss(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        line = next((x for x in status.splitlines() if x.startswith("VmRSS:")), None)
        total += int(line.split()[1]) * 1024 if line else 0
    return total


def observed_run(out: Path, count: int, workers: str, backends: str) -> Breakdown:
    """Run, watching ``results.jsonl`` grow and the memory of the run's processes."""
    command = [sys.executable, "-m", "conformance.cli", "run", "--backends", backends,
               "--count", str(count), "-n", workers, "--out", str(out)]
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    results = out / "results.jsonl"
    first = last = None
    size, peak, sampled = 0, 0, 0.0
    while process.poll() is None:
        now = time.perf_counter()
        grown = results.stat().st_size if results.exists() else 0
        if grown > size:
            size, last = grown, now
            first = first if first is not None else now
        if now - sampled > 0.25:
            peak, sampled = max(peak, _rss(_descendants(process.pid))), now
        time.sleep(0.01)
    end = time.perf_counter()
    first = first if first is not None else end
    last = last if last is not None else end
    return Breakdown(workers, first - start, last - first, end - last, peak)


def framework_rss(backends: str) -> int:
    """What the backend processes of one test process hold at the least: for each backend, a
    process that only imports its module (bytes)."""
    from conformance.run.backends import resolve

    total = 0
    for name in backends.split(","):
        done = subprocess.run([sys.executable, "-c", f"import {resolve(name).module}, resource; "
                               "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"],
                              capture_output=True, text=True, check=True)
        total += int(done.stdout.strip().splitlines()[-1]) * 1024
    return total


def print_breakdown(count: int, workers: list[str], backends: str) -> None:
    """Amdahl's breakdown of runs at these worker counts (see the module's docstring)."""
    from conformance.cli import xdist_workers

    own = framework_rss(backends)
    serial_run: Optional[Breakdown] = None
    parallel_run: Optional[Breakdown] = None
    with tempfile.TemporaryDirectory() as tmp:
        for n in workers:
            run = observed_run(Path(tmp) / f"n{n}", count, n, backends)
            test_processes = max(xdist_workers(n), 1)
            above = max(run.peak_rss - own * test_processes, 0) / test_processes
            print(f"-n {n}: {run.wall:.1f} s = {run.before:.1f} s before the first result + "
                  f"{run.in_cases:.1f} s in cases + {run.after:.1f} s after the last; peak memory "
                  f"{run.peak_rss / 2**30:.2f} GB, {above / 2**20:.0f} MB per test process above "
                  f"its backends' imports ({own / 2**20:.0f} MB)")
            if xdist_workers(n) == 0 and serial_run is None:
                serial_run = run
            elif xdist_workers(n) and parallel_run is None:
                parallel_run = run
    if serial_run is not None:
        serial = serial_run.before + serial_run.after
        print(f"serial fraction of the one-process run: {serial / serial_run.wall:.2f} (goal <= 0.05)")
        if parallel_run is not None:
            # what a parallel run does not spread over its workers: its own start (workers,
            # collection, backends' imports) and its reports after the last case
            serial = parallel_run.before + parallel_run.after
            print(f"serial part of the -n {parallel_run.workers} run: {serial:.1f} s, "
                  f"{serial / serial_run.wall:.2f} of the one-process run (goal <= 0.05)")
        projected = ", ".join(f"{n}: {serial + serial_run.in_cases / n:.1f} s" for n in (4, 8, 16, 32))
        print(f"Amdahl's projection with ideal workers, from that serial part and the one-process "
              f"run's time in cases: {projected}")


def seconds_per_case(results: Path) -> dict[str, float]:
    """Each backend's mean seconds per case in a run's results."""
    total: dict[str, float] = defaultdict(float)
    cases: dict[str, int] = defaultdict(int)
    with results.open(encoding="utf-8") as lines:
        for line in lines:
            result = json.loads(line)
            total[result["backend"]] += result.get("seconds") or 0.0
            cases[result["backend"]] += 1
    return {name: total[name] / cases[name] for name in total}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10000)
    parser.add_argument("--shards", type=int, default=2, help="shards to time one after another")
    parser.add_argument("--skip-shards", action="store_true", help="do not time the shards")
    parser.add_argument("--skip-serial", action="store_true", help="do not time -n 0 as well")
    parser.add_argument("--skip-floor", action="store_true",
                        help="do not measure the backends' own work")
    parser.add_argument("--breakdown-workers", default="0,2",
                        help="worker counts to break down (comma-separated; empty: none)")
    parser.add_argument("--breakdown-backends", default="reference-torch,torch-cpu")
    parser.add_argument("--only-breakdown", action="store_true", help="print the breakdown alone")
    args = parser.parse_args()
    if args.breakdown_workers:
        print_breakdown(args.count, args.breakdown_workers.split(","), args.breakdown_backends)
    if args.only_breakdown:
        return

    from conformance.cli import usable_cores, xdist_workers
    from conformance.corpus.generator import generate
    from conformance.corpus.loader import parse_document

    start = time.perf_counter()
    cases = generate(0, args.count)
    generated = time.perf_counter() - start
    start = time.perf_counter()
    parse_document({"format": 1, "cases": cases}, "<bench>")
    print(f"generate {args.count:,} cases: {generated:.2f} s; validate them: "
          f"{time.perf_counter() - start:.2f} s")

    cores = usable_cores()
    auto = xdist_workers("auto")
    with tempfile.TemporaryDirectory() as tmp:
        wall, cpu = timed_run(Path(tmp) / "auto", args.count, "auto")
        print(f"main job (hand-written + {args.count:,} generated, {BACKENDS}, -n auto = "
              + (f"{auto} workers" if auto else "one test process") + f"): {wall:.1f} s, "
              f"{cpu:.1f} s of CPU; cores busy / cores = {cpu / wall:.2f} / {cores} = "
              f"{cpu / wall / cores:.2f} (goal >= 0.9)")
        per_case = seconds_per_case(Path(tmp) / "auto" / "results.jsonl")
        print("seconds per case: " + ", ".join(f"{name} {s * 1000:.2f} ms"
                                                for name, s in per_case.items()))
        for ref, real in RATIOS:
            if ref in per_case and real in per_case:
                print(f"  {ref} / {real}: {per_case[ref] / per_case[real]:.2f} (goal <= 1)")
        if not args.skip_shards and args.shards > 1:
            times = [timed_run(Path(tmp) / f"shard{k}", args.count, "auto", f"{k}/{args.shards}")[0]
                     for k in range(1, args.shards + 1)]
            print(f"{args.shards} shards one after another: "
                  + " + ".join(f"{t:.1f}" for t in times)
                  + f" = {sum(times):.1f} s, {sum(times) / wall:.2f}x the one run (goal <= 1.10)")
        if not args.skip_serial:
            serial, serial_cpu = timed_run(Path(tmp) / "n0", args.count, "0")
            print(f"same corpus with -n 0: {serial:.1f} s ({serial_cpu / serial:.2f} cores busy, "
                  f"{serial_cpu:.1f} s of CPU)")
        if not args.skip_floor:
            work = backend_work(args.count)
            print("backend work (in-process, no pytest): " + ", ".join(
                f"{name} {seconds:.1f} s" for name, seconds in work.items())
                  + f"; total {sum(work.values()):.1f} s of CPU")
            items = _items(args.count)
            overhead = cpu - generated - sum(work.values())
            print(f"runner overhead: {overhead:.1f} s of CPU over {items} items "
                  f"({overhead / items * 1000:.2f} ms per item)")


def _items(count: int) -> int:
    from conformance.corpus.assembly import load_corpus

    return len(load_corpus("all", 0, count, None)) * len(BACKENDS.split(","))


def backend_work(count: int) -> dict[str, float]:
    """Seconds each backend takes to run the corpus (with the reference's gradient checks),
    one process per backend so that imports do not mix."""
    script = (
        "import sys, time, warnings\n"
        "warnings.simplefilter('ignore')\n"
        "from conformance.run.backends import BUILT_IN\n"
        "from conformance.run.interpreter import run_case\n"
        "from conformance.run.gradient_check import check_gradients\n"
        "from conformance.corpus.assembly import load_corpus\n"
        "cases = load_corpus('all', 0, int(sys.argv[2]), None)\n"
        "backend = BUILT_IN[sys.argv[1]]\n"
        "adapter = backend.load()\n"
        "getattr(adapter.m, 'set_num_threads', lambda n: None)(1)\n"
        "start = time.perf_counter()\n"
        "for case in cases:\n"
        "    trace = run_case(case, adapter, backend.name)\n"
        "    if backend.is_reference:\n"
        "        check_gradients(case, trace, adapter)\n"
        "print(time.perf_counter() - start)\n")
    out = {}
    for name in BACKENDS.split(","):
        done = subprocess.run([sys.executable, "-c", script, name, str(count)], check=True,
                              capture_output=True, text=True,
                              env={**os.environ, "OMP_NUM_THREADS": "1"})
        out[name] = float(done.stdout.strip().splitlines()[-1])
    return out


if __name__ == "__main__":
    main()
