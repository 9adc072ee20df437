"""Device parity: the same torch on CUDA against itself on the CPU, case by case.

Each device is judged against the reference acting as that device (torch-cuda against
reference-torch-cuda); parity asks a second question: does the device change what the program
observes? The two devices' traces are compared as the judge compares (values within the
tolerance of the least precise dtype the traces show). A difference the reference shows too,
run on both devices, is *modelled*: what torch does on CUDA by design (it names
``torch.cuda.FloatTensor``, it writes a number into an expanded tensor as a fill), expected
where it shows. A difference in a case that torch-cuda's known-divergence file pins (a real
difference of the device, measured and reproduced on a GPU: ``known_divergences/torch-cuda.json``)
is *known*. Any other is a difference between the devices nobody has explained; each is named by
cause, so the report shows parity per class.
"""

from __future__ import annotations

from typing import Any, Optional

from conformance.judge.classes import cause_name
from conformance.judge.compare import Comparison, compare_traces
from conformance.run.trace import Trace

PAIR = ("torch-cpu", "torch-cuda")
REFERENCES = ("reference-torch", "reference-torch-cuda")  # the reference on each device
_OBSERVED = ("pass", "fail", "known")  # verdicts that carry a complete trace


def _dtypes(observations: list[Any]) -> frozenset[str]:
    """Every dtype the observations show, inside lists of grad results and states too."""
    found: set[str] = set()
    for o in observations:
        if not isinstance(o, dict):
            continue
        if "dtype" in o and o.get("kind") in ("tensor", "array"):
            found.add(o["dtype"])
        found |= _dtypes(o.get("items") or [])
        for fields in (o.get("tensors") or {}).values() if o.get("kind") == "state" else ():
            if fields and isinstance(fields[0], str):
                found.add(fields[0])
    return frozenset(found)


def _compare(case: str, names: tuple[str, str], left: dict[str, Any], right: dict[str, Any]
             ) -> Comparison:
    observed = left["observations"] or [], right["observations"] or []
    return compare_traces(Trace(case, names[0], observed[0]), Trace(case, names[1], observed[1]),
                          computed_in=_dtypes(observed[0]) | _dtypes(observed[1]))


def device_parity(results: list[dict[str, Any]]) -> dict[str, Any]:
    """``{"compared", "same", "modelled": [...], "known": [...], "differ": [{case, step, what, class}],
    "classes": {class: count}, "modelled_classes": {class: count}, "not_compared": {reason: n}}``."""
    by_case: dict[str, dict[str, dict[str, Any]]] = {}
    for r in results:
        if r["backend"] in PAIR or r["backend"] in REFERENCES:
            by_case.setdefault(r["case"], {})[r["backend"]] = r
    differ: list[dict[str, Any]] = []
    modelled: list[dict[str, Any]] = []
    known: list[dict[str, Any]] = []
    not_compared: dict[str, int] = {}
    compared = 0
    for case, runs in sorted(by_case.items()):
        cpu, cuda = runs.get(PAIR[0]), runs.get(PAIR[1])
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
        comparison = _compare(case, PAIR, cpu, cuda)
        if comparison.same:
            continue
        first = comparison.differences[0]
        found = {"case": case, "step": first.step, "what": first.what,
                 "class": cause_name(first.what, first.expected, first.actual, None)}
        expected = _reference_difference(case, runs)
        if expected is not None and {(d.step, d.what) for d in comparison.differences} <= expected:
            modelled.append(found)
        elif cuda.get("known_entry"):
            known.append({**found, "entry": cuda["known_entry"]})
        else:
            differ.append(found)
    return {"compared": compared, "same": compared - len(differ) - len(modelled) - len(known),
            "modelled": modelled, "known": known, "differ": differ, "classes": _count(differ),
            "modelled_classes": _count(modelled), "not_compared": not_compared}


def _reference_difference(case: str, runs: dict[str, dict[str, Any]]) -> Optional[set[tuple[str, str]]]:
    """Where the reference's traces on the two devices differ (None: it did not run on both)."""
    on_cpu, on_cuda = runs.get(REFERENCES[0]), runs.get(REFERENCES[1])
    if on_cpu is None or on_cuda is None or on_cpu["observations"] is None \
            or on_cuda["observations"] is None:
        return None
    return {(d.step, d.what) for d in _compare(case, REFERENCES, on_cpu, on_cuda).differences}


def _count(found: list[dict[str, Any]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for d in found:
        counts[d["class"]] = counts.get(d["class"], 0) + 1
    return dict(sorted(counts.items(), key=lambda item: (-item[1], item[0])))
