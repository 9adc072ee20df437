"""``report.md`` from the report model (the porting guide, ``docs/COMPAT.md``, is ``guide``'s)."""

from __future__ import annotations

from conformance.report.escape import markdown_block as _fence
from conformance.report.escape import markdown_code as _code
from conformance.report.escape import markdown_text as _text
from conformance.report.guide import index_lines
from conformance.report.model import ReportModel, plural
from conformance.report.summary import backend_line

VERDICT_ORDER = ("pass", "fail", "known", "crashed", "timeout", "unsupported", "unavailable")
FLAT_LIST_LIMIT = 200     # failing results shown one by one, after the classes
CLASS_DETAIL_LIMIT = 100  # classes shown with their repro (all are in the table)
CASES_LISTED = 20         # case ids listed under a class


def totals_table(model: ReportModel) -> str:
    counts = model.summary["counts"]
    lines = ["| backend | " + " | ".join(VERDICT_ORDER) + " |",
             "|---|" + "---:|" * len(VERDICT_ORDER)]
    for backend in model.backends:
        per = counts.get(backend, {})
        lines.append(f"| {_text(backend)} | " + " | ".join(str(per.get(v, 0)) for v in VERDICT_ORDER) + " |")
    return "\n".join(lines)


def device_parity_lines(parity: dict | None) -> list[str]:
    """The torch-cuda against torch-cpu comparison, when the run had a CUDA backend."""
    if parity is None:
        return []
    modelled = parity.get("modelled", [])
    out = ["", "## Device parity (torch-cuda against torch-cpu)", "",
           f"- compared: {parity['compared']}, same: {parity['same']}, modelled by the reference: "
           f"{len(modelled)}, known: {len(parity.get('known', []))}, differ: {len(parity['differ'])}"]
    out += [f"- not compared, {_text(reason)}: {n}" for reason, n in parity["not_compared"].items()]
    for title, key in (("Differences between the devices, by class", "classes"),
                       ("Device differences the reference models, by class", "modelled_classes")):
        if parity.get(key):
            out += ["", f"{title}:", ""]
            out += [f"- {n}: {_text(name)}" for name, n in parity[key].items()]
    out += [f"- known: {_code(d['case'])} step {d['step']}: {_text(d['what'])}"
            for d in parity.get("known", [])]
    if parity["differ"]:
        out += ["", "Each difference:", ""]
        out += [f"- {_code(d['case'])} step {d['step']}: {_text(d['what'])}" for d in parity["differ"][:200]]
    return out


def failure_class_lines(model: ReportModel) -> list[str]:
    """The failing results grouped by how they fail, largest class first, each with the repro
    of its smallest case."""
    if not model.classes:
        return []
    out = [f"## Failure classes ({plural(len(model.classes), 'class')}, "
           f"{plural(len(model.failures), 'failing result')})", "",
           "| # | backend | how it fails | results | smallest case |", "|---:|---|---|---:|---|"]
    out += [f"| {i} | {_text(c.backend)} | {_text(c.signature)} | {len(c.cases)} | {_code(c.example or '')} |"
            for i, c in enumerate(model.classes, 1)]
    out.append("")
    for i, c in enumerate(model.classes[:CLASS_DETAIL_LIMIT], 1):
        out += [f"### {i}. {_text(c.signature)} [{_text(c.backend)}] — {plural(len(c.cases), 'result')}", "",
                f"Smallest case: {_code(c.example or '')}", ""]
        if c.repro:
            out += [_fence(c.repro), ""]
        listed = ", ".join(_code(x) for x in c.cases[:CASES_LISTED])
        more = f" and {len(c.cases) - CASES_LISTED} more" if len(c.cases) > CASES_LISTED else ""
        out += [f"Cases: {listed}{more}", ""]
    return out


def render_markdown(model: ReportModel) -> str:
    s = model.summary
    target = s["execution_target"]
    out = ["# autograd-oracle report", ""]
    if not s["complete"]:
        out += ["**Partial run**: interrupted before every case finished; these are the results "
                "that did.", ""]
    out += [f"**Note**: {_text(note)}" for note in s.get("notes") or []]
    for framework, pin in (s.get("framework_pins") or {}).items():
        if not pin["is_pinned"]:
            out += [f"**Not the pinned {framework}**: {framework} {pin['ran']} ran; the project "
                    f"pins {pin['pinned']}. Results and verdicts are from {pin['ran']}.", ""]
    out += ["Backends (the module each drove → what it is):", ""]
    out += [f"- {_text(backend_line(name, about))}" for name, about in (s.get("backends") or {}).items()]
    out += ["", f"- cases: {s['cases']}, results: {s['results']}",
            f"- python {target['python']}, numpy {target['numpy']}, torch {target['torch']}, "
            f"paddle {target['paddle']}, device {target['device']}",
            f"- finite differences: {s['finite_differences']['checked']} gradient checks passed "
            f"or failed; not checked, by reason:"]
    out += [f"  - {_text(reason)}: {n}" for reason, n in sorted(s["finite_differences"]["skipped"].items(),
                                                         key=lambda kv: -kv[1])]
    out += device_parity_lines(s.get("device_parity"))
    out += ["", "## Totals", "", totals_table(model), "", *failure_class_lines(model),
            "", "## Coverage (passed / ran, per feature bucket)", "",
            "| bucket | " + " | ".join(_text(b) for b in model.backends) + " |",
            "|---|" + "---|" * len(model.backends)]
    for bucket, per in model.heatmap.items():
        cells = [f"{per[b][0]}/{per[b][1]}" if b in per else "-" for b in model.backends]
        out.append(f"| {bucket} | " + " | ".join(cells) + " |")
    out += ["", f"## Failures ({len(model.failures)})", ""]
    if model.failures:
        shown = model.failures[:FLAT_LIST_LIMIT]
        out += ["<details>", f"<summary>every failing result, by case ({len(shown)} shown)</summary>", ""]
        for r in shown:
            out += [f"### {_text(r['case'])} [{_text(r['backend'])}] — {r['verdict']}", "",
                    _fence(r["detail"] or "", "text")]
            if r.get("repro"):
                out += ["", _fence(r["repro"])]
            out.append("")
        out += ["</details>", ""]
    if model.known:
        out += [f"## Known divergences ({plural(len(model.known), 'result')})", ""]
        out += [f"- {_code(r['case'])} [{_text(r['backend'])}]: {_text(r.get('known_reason', ''))}"
                for r in model.known]
        out.append("")
    if model.unsupported:
        out += [f"## Unsupported ({plural(len(model.unsupported), 'result')})", ""]
        out += [f"- {_code(r['case'])} [{_text(r['backend'])}]: {_text(r['detail'] or '')}"
                for r in model.unsupported[:500]]
        out.append("")
    if s.get("unsupported"):
        out += ["## Unsupported, by reason", ""]
        for backend, reasons in sorted(s["unsupported"].items()):
            out += [f"- [{_text(backend)}] {_text(reason)}: {n}" for reason, n in sorted(reasons.items())]
        out.append("")
    if s["stale_known_divergences"]:
        out += ["## Stale known divergences", ""]
        out += [f"- [{_text(x['backend'])}] {_code(x['entry'])}: {_text(x['why'])}"
                for x in s["stale_known_divergences"]]
        out.append("")
    out += ["## torch ↔ paddle divergences", "", *index_lines(model.guide)]
    return "\n".join(out) + "\n"
