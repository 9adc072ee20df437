"""The third oracle: gradient values against float64 central finite differences.

Two implementations that agree with each other can still both be wrong; calculus cannot. For
every ``grad`` step whose results a reference trace observed, and for the leaf gradients observed
right after a case's first ``backward``, the oracle takes the function the step differentiates,
``F(leaves) = sum_k <seed_k, output_k>``, re-evaluates the case's earlier steps in float64 at
``leaves ± eps * v`` for a random direction ``v`` and compares the directional derivative with
``<gradient, v>`` (gradcheck's fast mode: one projection checks every entry at once, with
probability one). Guarded as published AD fuzzers do: a disagreement at a point where the
directional derivatives just beside it disagree with each other is a kink, not a failure, and
is skipped; NaN on both sides agrees; every skip is counted.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, field
from typing import Any, Optional

import numpy as np

from conformance.adapters import Adapter
from conformance.case import Case
from conformance.interpreter import evaluate_prefix
from conformance.trace import Trace, json_to_array

EPS = 1e-6
ATOL, RTOL = 1e-5, 1e-3


@dataclass
class OracleResult:
    checked: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)

    def skip(self, reason: str) -> None:
        self.skipped[reason] = self.skipped.get(reason, 0) + 1


def _leaf_steps(case: Case) -> dict[str, dict[str, Any]]:
    return {s["leaf"]: s for s in case.steps if "leaf" in s}


def _seed_arrays(step: dict[str, Any], env: dict[str, Any], adapter: Adapter,
                 outputs: list[np.ndarray]) -> Optional[list[np.ndarray]]:
    seeds = step.get("seeds")
    out = []
    for i, value in enumerate(outputs):
        seed = seeds[i] if seeds is not None and i < len(seeds) else None
        if seed is None:
            out.append(np.ones_like(value))
        elif isinstance(seed, str):
            out.append(np.asarray(adapter.describe(env[seed])[1], dtype=np.float64))
        elif "value" in seed:
            out.append(np.asarray(seed["value"], dtype=np.float64).reshape(value.shape)
                       if np.size(seed["value"]) == value.size else None)
        else:
            return None
        if out[-1] is None:
            return None
    return out


class _Objective:
    """``F(leaves)`` for one differentiating step, evaluated by re-running the case's prefix."""

    def __init__(self, case: Case, adapter: Adapter, index: int, step: dict[str, Any]) -> None:
        self.case, self.adapter, self.index, self.step = case, adapter, index, step
        key = "grad" if "grad" in step else "backward"
        self.outputs = step[key] if isinstance(step[key], list) else [step[key]]

    def __call__(self, point: dict[str, np.ndarray]) -> Optional[float]:
        env = evaluate_prefix(self.case, self.adapter, self.index, point)
        values = []
        for name in self.outputs:
            if name not in env:
                return None
            values.append(np.asarray(self.adapter.describe(env[name])[1], dtype=np.float64))
        seeds = _seed_arrays(self.step, env, self.adapter, values)
        if seeds is None:
            return None
        return float(sum(float((s * v).sum()) for s, v in zip(seeds, values)))


def _directional(objective: _Objective, base: dict[str, np.ndarray],
                 direction: dict[str, np.ndarray], eps: float) -> Optional[float]:
    # every floating leaf is evaluated in float64, the differentiated ones moved along direction
    up = objective({k: base[k] + eps * direction.get(k, 0.0) for k in base})
    down = objective({k: base[k] - eps * direction.get(k, 0.0) for k in base})
    if up is None or down is None:
        return None
    return (up - down) / (2 * eps)


KINK_OFFSET = 1e-4


def _is_kink(objective: _Objective, base: dict[str, np.ndarray],
             direction: dict[str, np.ndarray], numeric: float) -> bool:
    """Directional derivatives a little to either side disagree: the function is not smooth."""
    sides = []
    for sign in (1.0, -1.0):
        moved = {k: base[k] + sign * KINK_OFFSET * direction.get(k, 0.0) for k in base}
        sides.append(_directional(objective, moved, direction, EPS))
    if any(v is None for v in sides):
        return True
    return not (_agree(sides[0], numeric) and _agree(sides[1], numeric))


def _agree(analytic: float, numeric: float) -> bool:
    if math.isnan(analytic) and math.isnan(numeric):
        return True
    return abs(analytic - numeric) <= ATOL + RTOL * abs(numeric)


def _check(result: OracleResult, label: str, objective: _Objective,
           gradients: dict[str, np.ndarray], leaves: dict[str, dict[str, Any]]) -> None:
    base = {name: np.asarray(step["value"], dtype=np.float64) for name, step in leaves.items()
            if step.get("dtype", "float32").startswith("float")}
    rng = np.random.default_rng(zlib.crc32(f"{objective.case.id}|{label}".encode()))
    direction = {name: rng.uniform(-1.0, 1.0, size=base[name].shape) for name in gradients}
    analytic = float(sum(float((gradients[n] * direction[n]).sum()) for n in gradients))
    numeric = _directional(objective, base, direction, EPS)
    if numeric is None:
        result.skip("not re-evaluable")
        return
    if math.isnan(numeric) and not math.isnan(analytic):
        result.skip("non-finite function")
        return
    if _agree(analytic, numeric):
        result.checked += 1
        return
    # a disagreement: a failure only where the function is smooth around the point
    if _is_kink(objective, base, direction, numeric):
        result.skip("kink (nearby points disagree)")
        return
    result.checked += 1
    result.failures.append(f"{label}: directional derivative {analytic:.6g} but finite "
                           f"differences give {numeric:.6g}")


def check_gradients(case: Case, trace: Trace, adapter: Adapter) -> OracleResult:
    """Check the gradients a reference trace observed against finite differences."""
    result = OracleResult()
    if any("hook" in s or "no_grad" in s or s.get("op") == "detach" for s in case.steps):
        result.skip("hooks, detach or no-grad blocks (not functions of the leaves)")
        return result
    leaves = _leaf_steps(case)
    float_leaves = {n for n, s in leaves.items() if s.get("dtype", "float32").startswith("float")}
    by_step: dict[str, list[dict[str, Any]]] = {}
    for o in trace.observations:
        by_step.setdefault(o["step"], []).append(o)
    backward_seen = False
    for i, step in enumerate(case.steps):
        if "grad" in step and "no_grad_vars" not in step:
            listed = [o for o in by_step.get(str(i), []) if o["kind"] == "list"]
            if not listed:
                continue
            grads = {name: json_to_array(item["values"], "float64")
                     for name, item in zip(step["wrt"], listed[0]["items"])
                     if item["kind"] == "tensor" and name in float_leaves}
            if grads and len(set(step["wrt"])) == len(step["wrt"]):
                _check(result, f"step {i} (grad)", _Objective(case, adapter, i, step), grads, leaves)
        elif "backward" in step:
            if backward_seen or "inputs" in step:
                backward_seen = True
                continue
            backward_seen = True
            grads = {}
            for j in range(i + 1, len(case.steps)):
                later = case.steps[j]
                if not ("observe" in later and later["observe"] == "grad"):
                    break
                for o in by_step.get(str(j), []):
                    if o["kind"] == "tensor" and later["of"] in float_leaves:
                        grads[later["of"]] = json_to_array(o["values"], "float64")
            if grads and not any(o["kind"] == "error" for o in by_step.get(str(i), [])):
                _check(result, f"step {i} (backward)", _Objective(case, adapter, i, step), grads,
                       leaves)
    return result
