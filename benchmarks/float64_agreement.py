"""How closely the frameworks and the reference engine agree in float64, over a run's results.

    python benchmarks/float64_agreement.py reports/latest

Reads ``results.jsonl`` of a run and, for every float64 tensor a framework backend observed
beside its reference, measures the worst relative and absolute difference. The float64 tolerance
in ``conformance/judge/compare.py`` is set from these figures with headroom; one float32 rounding
inside a float64 program moves a value by about 6e-8 relative, which it must not excuse.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Iterator

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from conformance.report.results import load_results  # noqa: E402
from conformance.run.trace import json_to_array  # noqa: E402


def _tensor_pairs(ref: list[dict[str, Any]], got: list[dict[str, Any]], step: str = ""
                  ) -> Iterator[tuple[str, dict[str, Any], dict[str, Any]]]:
    for e, a in zip(ref, got):
        where = e.get("step", step)
        if e["kind"] == a["kind"] == "list" and len(e["items"]) == len(a["items"]):
            yield from _tensor_pairs(e["items"], a["items"], where)
        elif e["kind"] == a["kind"] == "tensor" and e["dtype"] == a["dtype"] == "float64" \
                and e["shape"] == a["shape"]:
            yield where, e, a


ATOLS = (1e-15, 1e-14, 1e-13, 1e-12)


def measure(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Per backend: how many float64 values were compared, the worst absolute difference, and
    for each absolute tolerance in ATOLS the smallest relative tolerance that passes them all."""
    per_backend: dict[str, dict[str, Any]] = {}
    for r in results:
        ref, got = r.get("reference_observations"), r.get("observations")
        if not ref or not got:
            continue
        stats = per_backend.setdefault(r["backend"], {
            "values": 0, "max_abs": 0.0, "rtol_needed": dict.fromkeys(ATOLS, 0.0),
            "worst": dict.fromkeys(ATOLS, "")})
        for step, e, a in _tensor_pairs(ref, got):
            x, y = json_to_array(e["values"], "float64"), json_to_array(a["values"], "float64")
            finite = np.isfinite(x) & np.isfinite(y)
            diff, scale = np.abs(x[finite] - y[finite]), np.abs(x[finite])
            stats["values"] += int(finite.sum())
            if not diff.size:
                continue
            stats["max_abs"] = max(stats["max_abs"], float(diff.max()))
            for atol in ATOLS:
                over = diff > atol
                if over.any():
                    need = float(((diff[over] - atol) / np.maximum(scale[over], 1e-300)).max())
                    if need > stats["rtol_needed"][atol]:
                        stats["rtol_needed"][atol] = need
                        stats["worst"][atol] = f"{r['case']} step {step}"
    return per_backend


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", help="a run's report folder (with results.jsonl)")
    args = parser.parse_args(argv)
    results = load_results(Path(args.run))
    for backend, s in sorted(measure(results).items()):
        print(f"{backend}: {s['values']} float64 values beside the reference; worst absolute "
              f"difference {s['max_abs']:.3g}")
        for atol in ATOLS:
            print(f"  atol {atol:.0e}: rtol needed {s['rtol_needed'][atol]:.3g}"
                  f"  ({s['worst'][atol] or 'all within atol'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
