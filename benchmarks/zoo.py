"""The kill rate of the corpus against the zoo of planted bugs (``tests/zoo``).

    python benchmarks/zoo.py [--count 2000] [--only torch|paddle]

Each mutant is a backend of its own (``torch:tests.zoo.torch.<mutant>``), all of a dialect in
one run over the hand-written cases and ``--count`` generated ones, judged against the
reference with the framework's own known divergences applied (paddle's measured bugs are not a
mutant's). A mutant is killed when any of its results fails. Prints, per dialect, the kill rate
and each survivor with what it plants; the mutants that were unavailable (their framework is
not installed) are listed apart.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from conformance.data import known_divergences_dir  # noqa: E402 - the project root first
from tests.zoo.mutants import MUTANTS  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=2000, help="generated cases on top of the hand-written")
    parser.add_argument("--only", choices=("torch", "paddle"), default=None, help="one dialect")
    args = parser.parse_args()
    killed_total = planted_total = 0
    for dialect in ("torch", "paddle"):
        if args.only and dialect != args.only:
            continue
        names = sorted(name for d, name in MUTANTS if d == dialect)
        backends = [f"{dialect}:tests.zoo.{dialect}.{name}" for name in names]
        with tempfile.TemporaryDirectory() as scratch:
            out = Path(scratch) / "zoo"
            # the framework's own measured bugs are not the mutants': its known list applies
            known = known_divergences_dir() / f"{dialect}-cpu.json"
            subprocess.run([sys.executable, "-m", "conformance.cli", "run", "--backends",
                            ",".join([f"reference-{dialect}", *backends]), "--count", str(args.count),
                            "--out", str(out), *(["--known", str(known)] if known.exists() else [])],
                           cwd=ROOT, capture_output=True, text=True, check=False)
            counts = json.loads((out / "summary.json").read_text())["counts"]
        killed, survived, unavailable = [], [], []
        for name, backend in zip(names, backends):
            verdicts = counts.get(backend, {})
            if not set(verdicts) - {"unavailable"}:
                unavailable.append(name)
            elif any(verdicts.get(v) for v in ("fail", "crashed", "timeout")):
                killed.append(name)
            else:
                survived.append(name)
        planted = len(killed) + len(survived)
        killed_total += len(killed)
        planted_total += planted
        print(f"{dialect}: {len(killed)}/{planted} killed ({100 * len(killed) / max(planted, 1):.0f} %)")
        for name in survived:
            print(f"  survivor {name}: {MUTANTS[(dialect, name)].what}")
        for name in unavailable:
            print(f"  unavailable {name}")
    print(f"all: {killed_total}/{planted_total} killed ({100 * killed_total / max(planted_total, 1):.0f} %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
