"""The default corpus on four backends: wall time with ``-n 2`` and the speed-up over one process,
with where the time goes.

    python benchmarks/corpus_run.py [--count 10000] [--skip-serial] [--skip-floor]

Prints: the generator (10,000 cases) and the loader's validation of them (collection); the run
with ``-n 2`` and in one process; the backends' own work (every case run on each backend in this
process, no pytest, no isolation: the floor); and the per-item overhead the runner adds on top
(one-process wall time less collection and backend work, per item). Each run writes a report
directory under a temporary folder.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BACKENDS = "reference-torch,torch-cpu,reference-paddle,paddle-cpu"


def timed_run(out: Path, count: int, workers: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "conformance.cli", "run", "--backends", BACKENDS,
                    "--count", str(count), "-n", workers, "--out", str(out)],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10000)
    parser.add_argument("--skip-serial", action="store_true", help="only the -n 2 run")
    parser.add_argument("--skip-floor", action="store_true",
                        help="do not measure the backends' own work")
    args = parser.parse_args()

    from conformance.generator import generate
    from conformance.loader import parse_document

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
    with tempfile.TemporaryDirectory() as tmp:
        parallel = timed_run(Path(tmp) / "n2", args.count, "2")
        print(f"corpus (hand-written + {args.count} generated) on {BACKENDS}: "
              f"{parallel:.1f} s with -n 2")
        if not args.skip_serial:
            serial = timed_run(Path(tmp) / "n0", args.count, "0")
            print(f"same corpus in one process: {serial:.1f} s; speed-up of -n 2: "
                  f"{serial / parallel:.2f}x")
            if work is not None:
                items = _items(args.count)
                overhead = serial - generated - validated - sum(work.values())
                print(f"runner overhead in one process: {overhead:.1f} s over {items} items "
                      f"({overhead / items * 1000:.2f} ms per item)")


def _items(count: int) -> int:
    from conformance.pytest_plugin import load_corpus

    return len(load_corpus("all", 0, count, None)) * len(BACKENDS.split(","))


def backend_work(count: int) -> dict[str, float]:
    """Seconds each backend takes to run the corpus (with the reference's gradient checks),
    one process per backend so that imports do not mix."""
    script = (
        "import sys, time, warnings\n"
        "warnings.simplefilter('ignore')\n"
        "from conformance.backends import BUILT_IN\n"
        "from conformance.interpreter import run_case\n"
        "from conformance.oracle import check_gradients\n"
        "from conformance.pytest_plugin import load_corpus\n"
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
