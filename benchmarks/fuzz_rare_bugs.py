"""How fast the fuzzer finds bugs the fixed corpus reaches rarely, and how small it shrinks them.

    python benchmarks/fuzz_rare_bugs.py [--seconds 120] [--seed 7]

Each planted bug below is missed by the default corpus at 2,000 generated cases (hand-written
cases included): the toy backends in ``tests/toy_backends`` delegate to the reference engine and
change one rule. One fuzz run over all of them prints, per bug, whether it was found, after how
many seconds, the programs run, and each class's steps before and after shrinking.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RARE = {
    "mean_counts_one_dim": "mean over several dims with keepdim=True divides by one dim's size",
    "prod_two_zeros": "prod's gradient with two zeros along the dim takes the quotient path",
    "sigmoid_float32_drift": "sigmoid's float32 derivative off by 1e-6, below float32's tolerance",
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=120.0, help="the fuzz budget")
    parser.add_argument("--seed", type=int, default=7, help="the fuzz seed")
    args = parser.parse_args()
    backends = {f"torch:tests.toy_backends.{name}": name for name in RARE}
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "fuzz"
        subprocess.run([sys.executable, "-m", "conformance.cli", "fuzz", "--backends", ",".join(backends),
                        "--seconds", str(args.seconds), "--seed", str(args.seed), "--out", str(out)],
                       cwd=ROOT, check=False)
        summary = json.loads((out / "summary.json").read_text())
    print(f"\n{summary['programs']} programs in {summary['seconds']:.0f} s (seed {args.seed})")
    for backend, name in backends.items():
        mine = [c for c in summary["classes"] if c["backend"] == backend]
        found = f"found after {min(c['found_after_seconds'] for c in mine):.1f} s" if mine else "NOT FOUND"
        print(f"- {name}: {RARE[name]}: {found}")
        for c in mine:
            shrunk = c["shrink"]
            print(f"    {c['signature']}: {c['count']} results, shrunk {c['steps']['before']} -> "
                  f"{c['steps']['after']} steps in {shrunk['seconds']} s ({shrunk['trials']} runs); "
                  f"reference {c['reference']}, torch-cpu {c['framework']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
