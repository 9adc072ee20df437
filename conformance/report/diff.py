"""The regression report between two runs: ``autograd-oracle diff BASE NEW``.

Per (case, backend): pass→fail (a regression), fail→pass (fixed), value drift beyond tolerance
(both runs observed values, and they differ as a framework would differ from its reference), and
cases new in NEW or removed from BASE.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conformance.compare import compare_traces
from conformance.report.results import load_results
from conformance.trace import Trace

GOOD = ("pass", "known")
BAD = ("fail", "crashed", "timeout")


def diff_runs(base_dir: Path, new_dir: Path) -> dict[str, Any]:
    base = {(r["case"], r["backend"]): r for r in load_results(base_dir)}
    new = {(r["case"], r["backend"]): r for r in load_results(new_dir)}
    out: dict[str, Any] = {"base_run": str(base_dir), "new_run": str(new_dir), "regressions": [],
                           "fixed": [], "drift": [], "new": [], "removed": []}
    for key in sorted(set(base) | set(new)):
        case, backend = key
        if key not in base:
            out["new"].append({"case": case, "backend": backend, "verdict": new[key]["verdict"]})
            continue
        if key not in new:
            out["removed"].append({"case": case, "backend": backend})
            continue
        b, n = base[key], new[key]
        entry = {"case": case, "backend": backend, "base": b["verdict"], "new": n["verdict"]}
        if b["verdict"] in GOOD and n["verdict"] in BAD:
            out["regressions"].append({**entry, "detail": n.get("detail", "")})
        elif b["verdict"] in BAD and n["verdict"] in GOOD:
            out["fixed"].append(entry)
        if b.get("observations") is not None and n.get("observations") is not None:
            comparison = compare_traces(Trace(case, backend, b["observations"]),
                                        Trace(case, backend, n["observations"]))
            if not comparison.same:
                out["drift"].append({**entry, "difference": comparison.differences[0].describe()})
    out["regressed"] = bool(out["regressions"] or out["drift"])
    return out


def render_diff_markdown(d: dict[str, Any]) -> str:
    lines = [f"# Regression report: {d['base_run']} → {d['new_run']}", "",
             f"- regressions (pass → fail): {len(d['regressions'])}",
             f"- fixed (fail → pass): {len(d['fixed'])}",
             f"- value drift beyond tolerance: {len(d['drift'])}",
             f"- new cases: {len(d['new'])}, removed cases: {len(d['removed'])}", ""]
    for title, key, field in (("Regressions", "regressions", "detail"), ("Drift", "drift", "difference"),
                              ("Fixed", "fixed", None)):
        if d[key]:
            lines += [f"## {title}", ""]
            for e in d[key][:500]:
                extra = f": {e[field]}" if field else ""
                lines.append(f"- `{e['case']}` [{e['backend']}] {e['base']} → {e['new']}{extra}")
            lines.append("")
    return "\n".join(lines) + "\n"
