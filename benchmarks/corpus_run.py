"""The default corpus on four backends: wall time with ``-n 2`` and in one process, the cores
each keeps busy, and where the time goes.

    python benchmarks/corpus_run.py [--count 10000] [--skip-serial] [--skip-floor] [--skip-one-core]

Prints: the generator (10,000 cases) and the loader's validation of them (collection); the run
with ``-n 2`` and in one process, each with the cores it kept busy (CPU time of its processes over
wall time); what ``-n auto`` picks on this machine; the one-process run held to one core (with
``taskset``), so that the gain of the other cores shows; the backends' own work (every case run
on each backend in this process, no pytest, no isolation: the floor); and the overhead the runner
adds on top (one-process CPU time less generation and backend work, per item: pytest, isolation,
judging, starting the backends, the report). Each run writes a report folder under a temporary
folder.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BACKENDS = "reference-torch,torch-cpu,reference-paddle,paddle-cpu"


def _cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_run(out: Path, count: int, workers: str, one_core: bool = False) -> tuple[float, float]:
    """Wall seconds of a run and the CPU seconds of all its processes."""
    command = [sys.executable, "-m", "conformance.cli", "run", "--backends", BACKENDS,
               "--count", str(count), "-n", workers, "--out", str(out)]
    if one_core:
        command = ["taskset", "-c", str(min(os.sched_getaffinity(0))), *command]
    cpu, start = _cpu_of_children(), time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start, _cpu_of_children() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10000)
    parser.add_argument("--skip-serial", action="store_true", help="only the -n 2 run")
    parser.add_argument("--skip-floor", action="store_true",
                        help="do not measure the backends' own work")
    parser.add_argument("--skip-one-core", action="store_true",
                        help="do not run the one-process run again held to one core")
    args = parser.parse_args()

    from conformance.corpus.generator import generate
    from conformance.corpus.loader import parse_document

    start = time.perf_counter()
    cases = generate(0, 10000)
    generated = time.perf_counter() - start
    start = time.perf_counter()
    parse_document({"format": 1, "cases": cases}, "<bench>")
    validated = time.perf_counter() - start
    print(f"generate 10,000 cases: {generated:.2f} s; validate them: {validated:.2f} s")

    work = None if args.skip_floor else backend_work(args.count)
    if work is not None:
        print("backend work (in-process, no pytest): " + ", ".join(
            f"{name} {seconds:.1f} s" for name, seconds in work.items())
              + f"; total {sum(work.values()):.1f} s of CPU")
    from conformance.cli import usable_cores, xdist_workers

    cores = usable_cores()
    auto = xdist_workers("auto")
    print(f"-n auto on this machine ({cores} cores): "
          + (f"{auto} workers" if auto else "one process"))
    with tempfile.TemporaryDirectory() as tmp:
        parallel, parallel_cpu = timed_run(Path(tmp) / "n2", args.count, "2")
        print(f"corpus (hand-written + {args.count} generated) on {BACKENDS}: "
              f"{parallel:.1f} s with -n 2 ({parallel_cpu / parallel:.2f} cores busy, "
              f"{parallel_cpu:.1f} s of CPU)")
        if args.skip_serial:
            return
        serial, serial_cpu = timed_run(Path(tmp) / "n0", args.count, "0")
        print(f"same corpus in one process: {serial:.1f} s ({serial_cpu / serial:.2f} cores busy, "
              f"{serial_cpu:.1f} s of CPU); speed-up of -n 2: {serial / parallel:.2f}x")
        if not args.skip_one_core and shutil.which("taskset") and cores > 1:
            alone, _ = timed_run(Path(tmp) / "n0-one-core", args.count, "0", one_core=True)
            print(f"one process held to one core: {alone:.1f} s; the other cores make it "
                  f"{alone / serial:.2f}x faster")
        if work is not None:
            items = _items(args.count)
            overhead = serial_cpu - generated - sum(work.values())  # the run generates once
            print(f"runner overhead in one process: {overhead:.1f} s of CPU over {items} items "
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
