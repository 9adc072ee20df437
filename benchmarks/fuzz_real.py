"""Long fuzzes against the real frameworks: failure classes per 10,000 programs.

    python benchmarks/fuzz_real.py [--seeds 101,102] [--count 10000] [--dtypes mixed,float64]
                                   [--backends torch-cpu,paddle-cpu] [--out reports/fuzz-real]

Runs ``autograd-oracle fuzz`` for each seed and dtype (``mixed``: the corpus's mix of float32 and
float64 programs; ``float64``: the programs of the same seeds computing in float64, where a
wrong value within float32's tolerance shows), against torch-cpu and paddle-cpu, and torch-cuda
too where CUDA is available. Prints, per run, the programs, the failing results and the classes,
each class with its backend, signature and count, then the classes per 10,000 programs over all
runs, and how many classes are new (not seen in an earlier run of this benchmark). Each run
writes its report folder under ``--out`` (one minimal case per class, ready for ``cases/``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # a checkout that was never installed


def cuda_available() -> bool:
    program = "import torch, sys; sys.exit(not torch.cuda.is_available())"
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, check=False)
    return done.returncode == 0


def fuzz(out: Path, backends: str, seed: int, count: int, dtype: str) -> dict:
    subprocess.run([sys.executable, "-m", "conformance.cli", "fuzz", "--backends", backends,
                    "--count", str(count), "--seed", str(seed), "--dtype", dtype, "--out", str(out)],
                   cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return json.loads((out / "summary.json").read_text())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="101,102")
    parser.add_argument("--count", type=int, default=10000, help="programs per seed and dtype")
    parser.add_argument("--dtypes", default="mixed,float64")
    parser.add_argument("--backends", default="torch-cpu,paddle-cpu")
    parser.add_argument("--out", default="reports/fuzz-real")
    args = parser.parse_args()
    backends = args.backends
    if "torch-cuda" not in backends and cuda_available():
        backends += ",torch-cuda"
    seen: set[tuple[str, str]] = set()
    programs = classes = 0
    for seed in (int(s) for s in args.seeds.split(",")):
        for dtype in args.dtypes.split(","):
            summary = fuzz(Path(args.out) / f"{seed}-{dtype}", backends, seed, args.count, dtype)
            found = {(c["backend"], c["signature"]): c["count"] for c in summary["classes"]}
            new = set(found) - seen
            seen |= set(found)
            programs += summary["programs"]
            classes += len(found)
            print(f"seed {seed}, {dtype}: {summary['programs']} programs on {backends} in "
                  f"{summary['seconds']:.0f} s: {summary['failing_results']} failing results in "
                  f"{len(found)} classes ({len(new)} new)")
            for (backend, signature), count in sorted(found.items(), key=lambda kv: -kv[1]):
                mark = "  (new)" if (backend, signature) in new else ""
                print(f"  {count:4d}  {backend}: {signature}{mark}")
    if programs:
        print(f"classes per 10,000 programs: {classes * 10000 / programs:.1f} "
              f"({len(seen)} distinct over {programs} programs)")


if __name__ == "__main__":
    main()
