"""The default corpus on four backends: wall time with ``-n 2`` and the speed-up over one process.

    python benchmarks/corpus_run.py [--count 10000] [--skip-serial]

Also times the generator (10,000 cases) and the loader's validation of them. Each run writes a
report directory under a temporary folder; the figures are printed at the end.
"""

from __future__ import annotations

import argparse
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

    with tempfile.TemporaryDirectory() as tmp:
        parallel = timed_run(Path(tmp) / "n2", args.count, "2")
        print(f"corpus (hand-written + {args.count} generated) on {BACKENDS}: "
              f"{parallel:.1f} s with -n 2")
        if not args.skip_serial:
            serial = timed_run(Path(tmp) / "n0", args.count, "0")
            print(f"same corpus in one process: {serial:.1f} s; speed-up of -n 2: "
                  f"{serial / parallel:.2f}x")


if __name__ == "__main__":
    main()
