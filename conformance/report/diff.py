"""The regression report between two runs: ``autograd-oracle diff BASE NEW``.

Per (case, backend): pass→fail (a regression), fail→pass (fixed), value drift beyond tolerance
(both runs observed values, and they differ as a framework would differ from its reference), and
cases new in NEW or removed from BASE.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conformance.judge.compare import compare_traces
from conformance.report.escape import markdown_code, markdown_text
from conformance.report.results import load_results
from conformance.run.trace import Trace

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


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def per_backend(d: dict[str, Any]) -> dict[str, dict[str, int]]:
    """``{backend: {kind: number of results}}`` for every kind of change."""
    table: dict[str, dict[str, int]] = {}
    for kind in ("regressions", "drift", "fixed", "new", "removed"):
        for e in d[kind]:
            row = table.setdefault(e["backend"], {k: 0 for k in ("regressions", "drift", "fixed",
                                                                  "new", "removed")})
            row[kind] += 1
    return table


def render_diff_markdown(d: dict[str, Any]) -> str:
    """The regression report: cases and results counted apart, per backend, and each changed
    result listed once with every kind of change it shows."""
    cases = {kind: len({e["case"] for e in d[kind]}) for kind in ("new", "removed")}
    lines = [f"# Regression report: {d['base_run']} → {d['new_run']}", "",
             f"- regressions (pass → fail): {_plural(len(d['regressions']), 'result')}",
             f"- fixed (fail → pass): {_plural(len(d['fixed']), 'result')}",
             f"- value drift beyond tolerance: {_plural(len(d['drift']), 'result')}",
             f"- new: {_plural(cases['new'], 'case')} ({_plural(len(d['new']), 'result')}); removed: "
             f"{_plural(cases['removed'], 'case')} ({_plural(len(d['removed']), 'result')})", ""]
    table = per_backend(d)
    if table:
        kinds = ("regressions", "drift", "fixed", "new", "removed")
        lines += ["| backend | " + " | ".join(kinds) + " |", "|---|" + "---:|" * len(kinds)]
        lines += [f"| {markdown_text(b)} | " + " | ".join(str(row[k]) for k in kinds) + " |"
                  for b, row in sorted(table.items())]
        lines.append("")
    changed: dict[tuple[str, str], dict[str, Any]] = {}
    for kind, field in (("regressions", "detail"), ("drift", "difference"), ("fixed", None)):
        for e in d[kind]:
            entry = changed.setdefault((e["case"], e["backend"]), {**e, "kinds": [], "details": []})
            entry["kinds"].append(kind)
            if field and e.get(field):
                entry["details"].append(e[field].splitlines()[0])
    if changed:
        lines += ["## Changed results", ""]
        for (case, backend), e in list(sorted(changed.items()))[:500]:
            detail = f": {markdown_text(e['details'][0])}" if e["details"] else ""
            lines.append(f"- {markdown_code(case)} [{markdown_text(backend)}] {e['base']} → {e['new']} "
                         f"({', '.join(e['kinds'])}){detail}")
        lines.append("")
    return "\n".join(lines) + "\n"
