"""The regression report between two runs: ``autograd-oracle diff BASE NEW``.

Per (case, backend): pass→fail (a regression), fail→pass (fixed), value drift beyond tolerance
(both runs observed values, and they differ as a framework would differ from its reference), and
cases new in NEW or removed from BASE. The changed results are grouped into classes by how they
changed — the first difference between the two traces, with the signatures of the run's failure
classes (``judge.classes``) — each with its smallest case as a pair of outputs, old and new.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

from conformance.corpus.case import Case
from conformance.judge.classes import FAILING, change_signature, group
from conformance.judge.compare import compare_runs
from conformance.report.divergence import show
from conformance.report.escape import html_text, markdown_block, markdown_code, markdown_text
from conformance.report.model import plural as _plural
from conformance.report.results import load_results
from conformance.run.repro import program

GOOD = ("pass", "known")
BAD = FAILING


def diff_runs(base_dir: Path, new_dir: Path, cases: Optional[dict[str, Case]] = None) -> dict[str, Any]:
    """The changes from BASE to NEW, and the changed results grouped into classes by how they
    changed (``change_classes``; ``cases``: the cases by id, for the step kinds and repros)."""
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
            comparison = compare_runs(case, b["observations"], n["observations"])
            if not comparison.same:
                out["drift"].append({**entry, "difference": comparison.differences[0].describe()})
    out["regressed"] = bool(out["regressions"] or out["drift"])
    out["compared"] = _compared(base, new)
    out["change_classes"] = change_classes(out, base, new, cases or {})
    return out


Results = dict[tuple[str, str], dict[str, Any]]


def _compared(base: Results, new: Results) -> dict[str, Any]:
    """What the two runs had in common, and so what the diff compared: the results of a
    backend that ran in one run only are new or removed, never compared."""
    base_backends, new_backends = {b for _, b in base}, {b for _, b in new}
    both = set(base) & set(new)
    return {"results": len(both), "cases": len({case for case, _ in both}),
            "backends": sorted(base_backends & new_backends),
            "base_only_backends": sorted(base_backends - new_backends),
            "new_only_backends": sorted(new_backends - base_backends)}


def compared_lines(d: dict[str, Any]) -> list[str]:
    """What a diff compared, and the backends it could not, as sentences."""
    c = d["compared"]
    lines = [f"compared: {_plural(c['results'], 'result')} of {_plural(c['cases'], 'case')} that "
             f"both runs have, on {', '.join(c['backends']) or 'no backend'}"]
    for side, run, counted in (("base_only_backends", d["base_run"], "removed"),
                               ("new_only_backends", d["new_run"], "new")):
        if c[side]:
            lines.append(f"ran only in {run}: {', '.join(c[side])} (its results are counted as "
                         f"{counted}, not compared)")
    return lines


def change_classes(d: dict[str, Any], base: Results, new: Results,
                   cases: dict[str, Case]) -> list[dict[str, Any]]:
    """The changed results (regressions, fixed, drift: each once) by backend and how they
    changed, largest first, each with its smallest case as a pair of outputs, old and new."""
    keys = sorted({(e["case"], e["backend"]) for kind in ("regressions", "fixed", "drift") for e in d[kind]})
    signed = [(new[k], change_signature(base[k], new[k], cases.get(k[0]))) for k in keys]
    out = []
    for cls in group(signed, cases):
        key = (cls.example, cls.backend)
        old_obs, new_obs = base[key].get("observations"), new[key].get("observations")
        first = None
        if old_obs is not None and new_obs is not None:
            comparison = compare_runs(key[0], old_obs, new_obs)
            first = comparison.differences[0] if comparison.differences else None
        case = cases.get(cls.example or "")
        out.append({"backend": cls.backend, "signature": cls.signature, "count": len(cls.cases),
                    "cases": cls.cases, "example": cls.example,
                    "old": f"step {first.step}: {show(first.expected)}" if first else base[key]["verdict"],
                    "new": f"step {first.step}: {show(first.actual)}" if first else
                           f"{new[key]['verdict']}: {new[key].get('detail', '')}".rstrip(": "),
                    "repro": program(case, new[key]["dialect"]) if case is not None and
                    new[key].get("dialect") else new[key].get("repro", "")})
    return out


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
             *(f"- {line}" for line in compared_lines(d)),
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
    classes = d.get("change_classes") or []
    if classes:
        lines += [f"## How the results changed ({_plural(len(classes), 'class')}, "
                  f"{_plural(sum(c['count'] for c in classes), 'changed result')})", "",
                  "| # | backend | how it changed (old vs new) | results | smallest case |",
                  "|---:|---|---|---:|---|"]
        lines += [f"| {i} | {markdown_text(c['backend'])} | {markdown_text(c['signature'])} | {c['count']} | "
                  f"{markdown_code(c['example'] or '')} |" for i, c in enumerate(classes, 1)]
        lines.append("")
        for i, c in enumerate(classes, 1):
            lines += [f"### {i}. {markdown_text(c['signature'])} [{markdown_text(c['backend'])}] — "
                      f"{_plural(c['count'], 'result')}", "",
                      f"Smallest case {markdown_code(c['example'] or '')}:", "",
                      f"- old: {markdown_text(c['old'])}", f"- new: {markdown_text(c['new'])}", ""]
            if c["repro"]:
                lines += [markdown_block(c["repro"]), ""]
    changed: dict[tuple[str, str], dict[str, Any]] = {}
    for kind, field in (("regressions", "detail"), ("drift", "difference"), ("fixed", None)):
        for e in d[kind]:
            entry = changed.setdefault((e["case"], e["backend"]), {**e, "kinds": [], "details": []})
            entry["kinds"].append(kind)
            if field and e.get(field):
                entry["details"].append(e[field].splitlines()[0])
    if changed:
        lines += ["## Changed results, one by one", ""]
        for (case, backend), e in list(sorted(changed.items()))[:500]:
            detail = f": {markdown_text(e['details'][0])}" if e["details"] else ""
            lines.append(f"- {markdown_code(case)} [{markdown_text(backend)}] {e['base']} → {e['new']} "
                         f"({', '.join(e['kinds'])}){detail}")
        lines.append("")
    return "\n".join(lines) + "\n"


def render_diff_html(d: dict[str, Any]) -> str:
    """The regression report as one self-contained page: the change classes first, each with
    its pair of outputs and program, then the counts."""
    e = html_text
    parts = ["<!doctype html><html lang='en'><head><meta charset='utf-8'><title>autograd-oracle "
             "regression report</title><style>body{font-family:system-ui,sans-serif;margin:2em}"
             "pre{background:#f6f6f6;padding:8px}td,th{border:1px solid #ccc;padding:4px 8px}"
             "table{border-collapse:collapse}</style></head><body>",
             f"<h1>Regression report</h1><p>{e(d['base_run'])} → {e(d['new_run'])}</p>",
             "<ul>" + "".join(f"<li>{e(line)}</li>" for line in compared_lines(d)) + "</ul>",
             "<h2>How the results changed</h2><table><tr><th>#</th><th>backend</th>"
             "<th>how it changed (old vs new)</th><th>results</th><th>smallest case</th></tr>"]
    classes = d.get("change_classes") or []
    parts += [f"<tr><td>{i}</td><td>{e(c['backend'])}</td><td>{e(c['signature'])}</td>"
              f"<td>{c['count']}</td><td><code>{e(c['example'] or '')}</code></td></tr>"
              for i, c in enumerate(classes, 1)]
    parts.append("</table>")
    for i, c in enumerate(classes, 1):
        parts.append(f"<details><summary>{i}. {e(c['signature'])} [{e(c['backend'])}] — "
                     f"{_plural(c['count'], 'result')}</summary><p>old: {e(c['old'])}</p>"
                     f"<p>new: {e(c['new'])}</p><pre>{e(c['repro'])}</pre></details>")
    counts = {kind: len(d[kind]) for kind in ("regressions", "fixed", "drift", "new", "removed")}
    parts.append("<h2>Counts</h2><ul>" + "".join(f"<li>{k}: {n} results</li>" for k, n in counts.items())
                 + "</ul></body></html>")
    return "\n".join(parts)
