"""Device parity: the same torch on CUDA against itself on the CPU, case by case.

A CUDA backend is judged against the reference like any framework; parity asks a second
question: does the device change what the program observes? Values agree within the tolerance
of the least precise dtype the two traces show.
"""

from __future__ import annotations

from typing import Any

from conformance.judge.compare import compare_traces
from conformance.run.trace import Trace

PAIR = ("torch-cpu", "torch-cuda")
_OBSERVED = ("pass", "fail", "known")  # verdicts that carry a complete trace


def _dtypes(observations: list[dict[str, Any]]) -> frozenset[str]:
    return frozenset(o["dtype"] for o in observations if o.get("kind") == "tensor" and "dtype" in o)


def device_parity(results: list[dict[str, Any]]) -> dict[str, Any]:
    """``{"compared", "same", "differ": [{case, step, what}], "not_compared": {reason: n}}``."""
    by_case: dict[str, dict[str, dict[str, Any]]] = {}
    for r in results:
        if r["backend"] in PAIR:
            by_case.setdefault(r["case"], {})[r["backend"]] = r
    differ: list[dict[str, Any]] = []
    not_compared: dict[str, int] = {}
    compared = 0
    for case, pair in sorted(by_case.items()):
        cpu, cuda = pair.get(PAIR[0]), pair.get(PAIR[1])
        reason = None
        if cpu is None or cuda is None:
            reason = "ran on one device only"
        elif cuda["verdict"] not in _OBSERVED:
            reason = f"torch-cuda {cuda['verdict']}: {cuda.get('detail', '')[:80]}"
        elif cpu["verdict"] not in _OBSERVED:
            reason = f"torch-cpu {cpu['verdict']}"
        if reason is not None:
            not_compared[reason] = not_compared.get(reason, 0) + 1
            continue
        compared += 1
        observed = cpu["observations"] or [], cuda["observations"] or []
        comparison = compare_traces(Trace(case, PAIR[0], observed[0]),
                                    Trace(case, PAIR[1], observed[1]),
                                    computed_in=_dtypes(observed[0]) | _dtypes(observed[1]))
        if not comparison.same:
            first = comparison.differences[0]
            differ.append({"case": case, "step": first.step, "what": first.what})
    return {"compared": compared, "same": compared - len(differ), "differ": differ,
            "not_compared": not_compared}
