"""How long ``import reference_engine.torch`` (and ``.paddle``) takes, against the frameworks'
own imports, each in fresh interpreters (median of ``--runs``).

    python benchmarks/import_time.py [--runs 7]

The reference is meant to stay light: numpy only, ``ml_dtypes`` (for bfloat16) and the
framework-name listing loaded on first use.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys

MODULES = ("reference_engine.torch", "reference_engine.paddle", "torch", "paddle")


def seconds(module: str) -> float:
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    medians = {module: statistics.median(seconds(module) for _ in range(runs)) for module in MODULES}
    for module, median in medians.items():
        print(f"{module:26} {median:6.3f} s")
    for dialect in ("torch", "paddle"):
        ratio = medians[f"reference_engine.{dialect}"] / medians[dialect]
        print(f"reference_engine.{dialect} / {dialect}: {ratio:.2f}")


if __name__ == "__main__":
    main()
