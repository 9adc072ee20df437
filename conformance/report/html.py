"""``report.html``: one self-contained page (no network) — totals, the coverage heatmap, the
failures with their diffs and repro programs, and the torch ↔ paddle divergence classes.

Every table is in the page itself, so it reads without JavaScript; a few lines of inline script
only colour the coverage heatmap (and mark it, so a browser check sees that the script ran).
"""

from __future__ import annotations

from conformance.report.escape import html_text as _e
from conformance.report.markdown import VERDICT_ORDER
from conformance.report.model import ReportModel, plural

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
td, th { border: 1px solid #ccc; padding: 4px 8px; text-align: right; }
th:first-child, td:first-child { text-align: left; }
pre { background: #f6f6f6; padding: 8px; overflow-x: auto; font-size: 12px; }
details { margin: 0.5em 0; }
.partial { background: #fff3cd; padding: 8px; }
"""

SCRIPT = """
(function () {
  // the table is already there; colour each cell by its pass rate
  const table = document.getElementById('heatmap');
  table.querySelectorAll('td[data-rate]').forEach(function (cell) {
    const rate = parseFloat(cell.dataset.rate);
    cell.style.background = 'hsl(' + Math.round(120 * rate) + ', 70%, 80%)';
    cell.title = (100 * rate).toFixed(1) + '% passed';
  });
  table.dataset.enhanced = '1';
})();
"""


def _reason_list(title: str, counts: dict[str, int]) -> str:
    items = "".join(f"<li>{_e(reason)}: {n}</li>"
                    for reason, n in sorted(counts.items(), key=lambda kv: -kv[1]))
    return f"<details><summary>{_e(title)}</summary><ul>{items}</ul></details>" if counts else ""


def _heatmap_table(model: ReportModel) -> str:
    """The bucket × backend table, in the page itself (the script only colours it)."""
    rows = ["<table id='heatmap'><tr><th>bucket</th>"
            + "".join(f"<th>{_e(b)}</th>" for b in model.backends) + "</tr>"]
    for bucket, per in model.heatmap.items():
        cells = []
        for b in model.backends:
            passed, ran = per.get(b, (0, 0))
            cells.append(f"<td data-rate='{passed / ran:.4f}'>{passed}/{ran}</td>" if ran else "<td>-</td>")
        rows.append(f"<tr><td>{_e(bucket)}</td>" + "".join(cells) + "</tr>")
    return "\n".join(rows) + "</table>"


def _result_list(title: str, results: list[dict], field: str) -> str:
    items = "".join(f"<li><code>{_e(r['case'])}</code> [{_e(r['backend'])}]: {_e(r.get(field, ''))}</li>"
                    for r in results)
    return f"<details><summary>{_e(title)}</summary><ul>{items}</ul></details>"


def render_html(model: ReportModel) -> str:
    s = model.summary
    t = s["execution_target"]
    parts = [f"<!doctype html><html lang='en'><head><meta charset='utf-8'>"
             f"<title>autograd-oracle report</title><style>{STYLE}</style></head><body>",
             "<h1>autograd-oracle report</h1>"]
    if not s["complete"]:
        parts.append("<p class='partial'>Partial run: interrupted before every case finished.</p>")
    parts.append(f"<p>{s['cases']} cases, {s['results']} results — python {_e(t['python'])}, "
                 f"numpy {_e(t['numpy'])}, torch {_e(t['torch'])}, paddle {_e(t['paddle'])}, "
                 f"device {_e(t['device'])}. Finite differences: "
                 f"{s['finite_differences']['checked']} gradient checks.</p>")
    for framework, pin in (s.get("framework_pins") or {}).items():
        if not pin["is_pinned"]:
            parts.append(f"<p class='partial'>Not the pinned {framework}: {_e(pin['ran'])} ran; "
                         f"the project pins {_e(pin['pinned'])}.</p>")
    parity = s.get("device_parity")
    if parity is not None:
        parts.append(f"<h2>Device parity (torch-cuda against torch-cpu)</h2><p>compared "
                     f"{parity['compared']}, same {parity['same']}, differ "
                     f"{len(parity['differ'])}</p>")
        parts.append(_reason_list("Not compared, by reason", parity["not_compared"]))
    parts.append(_reason_list("Gradients not checked, by reason", s["finite_differences"]["skipped"]))
    for backend, reasons in sorted((s.get("unsupported") or {}).items()):
        parts.append(_reason_list(f"Unsupported on {backend}, by reason", reasons))
    parts.append("<h2>Totals</h2><table id='totals'><tr><th>backend</th>"
                 + "".join(f"<th>{v}</th>" for v in VERDICT_ORDER) + "</tr>")
    for b in model.backends:
        per = s["counts"].get(b, {})
        parts.append(f"<tr><td>{_e(b)}</td>" + "".join(f"<td>{per.get(v, 0)}</td>" for v in VERDICT_ORDER)
                     + "</tr>")
    parts.append("</table><h2>Coverage: feature bucket × backend</h2>")
    parts.append(_heatmap_table(model))
    parts.append(f"<h2>Failures ({len(model.failures)})</h2>")
    for r in model.failures[:200]:
        parts.append(f"<details><summary>{_e(r['case'])} [{_e(r['backend'])}] — {_e(r['verdict'])}"
                     f"</summary><pre>{_e(r['detail'])}</pre>"
                     + (f"<pre>{_e(r['repro'])}</pre>" if r.get("repro") else "") + "</details>")
    parts.append(_result_list(f"Known divergences ({plural(len(model.known), 'result')})",
                              model.known, "known_reason"))
    parts.append(_result_list(f"Unsupported ({plural(len(model.unsupported), 'result')})",
                              model.unsupported, "detail"))
    parts.append(f"<h2>torch ↔ paddle divergences ({plural(len(model.divergences), 'class')})</h2>")
    for c in model.divergences:
        parts.append(f"<details><summary>{_e(c.name)} — {plural(len(c.cases), 'case')}</summary>"
                     f"<p>{_e(c.explanation)}</p><p>Minimal example <code>{_e(c.example)}</code>: "
                     f"{_e(c.difference)}</p><h4>torch</h4><pre>{_e(c.torch_program)}</pre>"
                     f"<h4>paddle</h4><pre>{_e(c.paddle_program)}</pre></details>")
    parts.append(f"<script>{SCRIPT}</script></body></html>")
    return "\n".join(parts)
