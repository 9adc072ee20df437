"""``report.html``: one self-contained page (no network) — the backends and their modules,
totals, the failure classes with the repro of each, every result with filters by backend,
verdict and class, the coverage heatmap, the failures one by one, and the torch ↔ paddle
divergence classes.

Every table is in the page itself, so it reads without JavaScript; a few lines of inline script
colour the coverage heatmap and apply the result filters (and mark both, so a browser check sees
that the script ran).
"""

from __future__ import annotations

from typing import Optional

from conformance.judge.classes import class_index
from conformance.report.escape import html_text as _e
from conformance.report.markdown import FLAT_LIST_LIMIT, VERDICT_ORDER
from conformance.report.model import ReportModel, plural
from conformance.report.summary import backend_line

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
(function () {
  // the results table: show the rows the backend, verdict and class filters select
  const rows = Array.from(document.querySelectorAll('#results tbody tr'));
  const pick = {backend: document.getElementById('filter-backend'),
                verdict: document.getElementById('filter-verdict'),
                klass: document.getElementById('filter-class')};
  const shown = document.getElementById('results-shown');
  function apply() {
    let n = 0;
    rows.forEach(function (row) {
      const keep = Object.keys(pick).every(function (key) {
        return pick[key].value === '' || row.dataset[key] === pick[key].value;
      });
      row.hidden = !keep;
      n += keep;
    });
    shown.textContent = n + ' of ' + rows.length + ' results shown';
  }
  // a link may preset the filters: report.html#backend=torch-cpu&verdict=fail&class=3
  new URLSearchParams(location.hash.slice(1)).forEach(function (value, key) {
    const select = pick[key === 'class' ? 'klass' : key];
    if (select && Array.from(select.options).some(function (o) { return o.value === value; })) {
      select.value = value;
    }
  });
  Object.values(pick).forEach(function (select) { select.addEventListener('change', apply); });
  document.getElementById('results').dataset.enhanced = '1';
  apply();
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


def _failure_classes(model: ReportModel) -> str:
    """The classes, largest first: a table, then each with the repro of its smallest case."""
    if not model.classes:
        return ""
    parts = [f"<h2>Failure classes ({plural(len(model.classes), 'class')}, "
             f"{plural(len(model.failures), 'failing result')})</h2>",
             "<table id='classes'><tr><th>#</th><th>backend</th><th>how it fails</th>"
             "<th>results</th><th>smallest case</th></tr>"]
    parts += [f"<tr><td>{i}</td><td>{_e(c.backend)}</td><td>{_e(c.signature)}</td>"
              f"<td>{len(c.cases)}</td><td><code>{_e(c.example or '')}</code></td></tr>"
              for i, c in enumerate(model.classes, 1)]
    parts.append("</table>")
    for i, c in enumerate(model.classes, 1):
        parts.append(f"<details class='class'><summary>{i}. {_e(c.signature)} [{_e(c.backend)}] — "
                     f"{plural(len(c.cases), 'result')}</summary><p>Smallest case "
                     f"<code>{_e(c.example or '')}</code></p><pre>{_e(c.repro)}</pre>"
                     f"<p>{', '.join(f'<code>{_e(x)}</code>' for x in c.cases)}</p></details>")
    return "\n".join(parts)


def _select(key: str, label: str, options: list[tuple[str, str]]) -> str:
    items = "".join(f"<option value='{_e(value)}'>{_e(text)}</option>" for value, text in options)
    return (f"<label>{label} <select id='filter-{key}'><option value=''>all</option>{items}"
            f"</select></label> ")


def _results_table(model: ReportModel, results: list[dict]) -> str:
    """Every result, with filters by backend, verdict and class (the script applies them; the
    table reads whole without it)."""
    index = class_index(model.classes)
    verdicts = [v for v in VERDICT_ORDER if any(r["verdict"] == v for r in results)]
    parts = ["<h2>Results</h2><p>"
             + _select("backend", "backend", [(b, b) for b in model.backends])
             + _select("verdict", "verdict", [(v, v) for v in verdicts])
             + _select("class", "class", [(str(i), f"{i}. {c.signature} [{c.backend}]")
                                          for i, c in enumerate(model.classes, 1)])
             + "<span id='results-shown'></span></p>",
             "<table id='results'><thead><tr><th>case</th><th>backend</th><th>verdict</th>"
             "<th>class</th></tr></thead><tbody>"]
    for r in results:
        i = index.get((r["case"], r["backend"]))
        klass = "" if i is None else str(i + 1)
        parts.append(f"<tr data-backend='{_e(r['backend'])}' data-verdict='{r['verdict']}' "
                     f"data-klass='{klass}'><td>{_e(r['case'])}</td><td>{_e(r['backend'])}</td>"
                     f"<td>{r['verdict']}</td><td>{klass}</td></tr>")
    parts.append("</tbody></table>")
    return "\n".join(parts)


def render_html(model: ReportModel, results: Optional[list[dict]] = None) -> str:
    """The page; ``results``: every result of the run, for the filterable table (default: the
    failing, known and unsupported ones the model holds)."""
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
    parts += [f"<p class='partial'>Note: {_e(note)}</p>" for note in s.get("notes") or []]
    for framework, pin in (s.get("framework_pins") or {}).items():
        if not pin["is_pinned"]:
            parts.append(f"<p class='partial'>Not the pinned {framework}: {_e(pin['ran'])} ran; "
                         f"the project pins {_e(pin['pinned'])}.</p>")
    parity = s.get("device_parity")
    if parity is not None:
        parts.append(f"<h2>Device parity (torch-cuda against torch-cpu)</h2><p>compared "
                     f"{parity['compared']}, same {parity['same']}, modelled by the reference "
                     f"{len(parity.get('modelled', []))}, known {len(parity.get('known', []))}, "
                     f"differ {len(parity['differ'])}</p>")
        parts.append(_reason_list("Not compared, by reason", parity["not_compared"]))
        parts.append(_reason_list("Differences between the devices, by class",
                                  parity.get("classes") or {}))
        parts.append(_reason_list("Device differences the reference models, by class",
                                  parity.get("modelled_classes") or {}))
    parts.append(_reason_list("Gradients not checked, by reason", s["finite_differences"]["skipped"]))
    for backend, reasons in sorted((s.get("unsupported") or {}).items()):
        parts.append(_reason_list(f"Unsupported on {backend}, by reason", reasons))
    parts.append("<h2>Backends</h2><ul>" + "".join(
        f"<li>{_e(backend_line(name, about))}</li>" for name, about in (s.get("backends") or {}).items())
        + "</ul>")
    parts.append("<h2>Totals</h2><table id='totals'><tr><th>backend</th>"
                 + "".join(f"<th>{v}</th>" for v in VERDICT_ORDER) + "</tr>")
    for b in model.backends:
        per = s["counts"].get(b, {})
        parts.append(f"<tr><td>{_e(b)}</td>" + "".join(f"<td>{per.get(v, 0)}</td>" for v in VERDICT_ORDER)
                     + "</tr>")
    parts.append("</table>")
    parts.append(_failure_classes(model))
    parts.append(_results_table(model, results if results is not None else
                                sorted(model.failures + model.known + model.unsupported,
                                       key=lambda r: (r["case"], r["backend"]))))
    parts.append("<h2>Coverage: feature bucket × backend</h2>")
    parts.append(_heatmap_table(model))
    parts.append(f"<h2>Failures ({len(model.failures)})</h2><details id='failures'><summary>every "
                 f"failing result, by case ({min(len(model.failures), FLAT_LIST_LIMIT)} shown)</summary>")
    for r in model.failures[:FLAT_LIST_LIMIT]:
        parts.append(f"<details><summary>{_e(r['case'])} [{_e(r['backend'])}] — {_e(r['verdict'])}"
                     f"</summary><pre>{_e(r['detail'])}</pre>"
                     + (f"<pre>{_e(r['repro'])}</pre>" if r.get("repro") else "") + "</details>")
    parts.append("</details>")
    parts.append(_result_list(f"Known divergences ({plural(len(model.known), 'result')})",
                              model.known, "known_reason"))
    parts.append(_result_list(f"Unsupported ({plural(len(model.unsupported), 'result')})",
                              model.unsupported, "detail"))
    guide = model.guide
    parts.append(f"<h2>torch ↔ paddle divergences ({plural(len(guide), 'class')})</h2>"
                 f"<p>{guide.diverging} of {guide.compared} cases both frameworks run observe "
                 f"something different. <a href='guide.html'>The porting guide</a> explains each "
                 f"class, with a checked rewrite and the shortest case side by side.</p><ul>")
    parts += [f"<li><a href='guide.html#{_e(c.key)}'>{_e(c.title)}</a> — {plural(len(c.cases), 'case')}</li>"
              for c in sorted(guide.classes + guide.unexplained, key=lambda c: -len(c.cases))]
    parts.append("</ul>")
    parts.append(f"<script>{SCRIPT}</script></body></html>")
    return "\n".join(parts)
