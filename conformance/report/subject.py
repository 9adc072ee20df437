"""A subject's conformance page (``docs/subjects/<backend>.md``): how a torch- or paddle-shaped
module under test fares, measured by a run.

The page names the module and what it is, the run that measured it, its verdict totals, and its
failure classes (``judge.classes``), largest first. Each class shows its smallest case as a
program in the subject's dialect and what the real framework and the module under test print
when it runs. ``autograd-oracle subject RUN --backend NAME`` writes it; rerun it after a run to
keep the page current.
"""

from __future__ import annotations

from typing import Any, Optional

from conformance.judge.classes import FAILING, FailureClass
from conformance.report.escape import markdown_block as _fence
from conformance.report.escape import markdown_code as _code
from conformance.report.escape import markdown_text as _text
from conformance.report.markdown import VERDICT_ORDER
from conformance.report.model import plural
from conformance.report.summary import backend_line


def _corpus_words(corpus: dict[str, Any]) -> str:
    parts = []
    if "hand_written" in corpus:
        parts.append(f"the hand-written cases ({corpus['hand_written']['files']} files, sha256 "
                     f"{corpus['hand_written']['sha256'][:12]})")
    if "generated" in corpus:
        g = corpus["generated"]
        parts.append(f"{g['count']} generated cases (generator {g['generator_version']}, seed "
                     f"{g['seed']}, sha256 {g['sha256'][:12]})")
    return " and ".join(parts) or "no cases"


def render_subject(summary: dict[str, Any], backend: str, classes: list[FailureClass],
                   abouts: dict[str, str], printed: Optional[dict[str, list[str]]] = None,
                   command: str = "") -> str:
    """The page. ``printed``: what each class's program printed, by who ran it (the real
    framework's name, the subject's description), in the order of ``classes``."""
    about = summary["backends"][backend]
    subject = (about.get("subject") or {}).get("description") or backend
    dialect = about["dialect"]
    counts = summary["counts"].get(backend, {})
    failing = sum(counts.get(v, 0) for v in FAILING)
    mine = [c for c in classes if c.backend == backend]
    out = [f"# {backend}: {_text(subject)}, judged as {dialect}", "",
           f"<!-- written by `{command or 'autograd-oracle subject'}` from a run; do not edit -->", "",
           f"- module under test: {_text(backend_line(backend, about))}",
           f"- measured by: `autograd-oracle {' '.join(summary.get('argv') or [])}`",
           f"- corpus: {_corpus_words(summary['corpus'])}",
           f"- judged against the reference engine's {dialect} semantics; each program below was "
           f"also run on the real {dialect} ({summary['execution_target'].get(dialect) or 'not installed'})",
           "", "## Totals", "",
           "| " + " | ".join(VERDICT_ORDER) + " |", "|" + "---:|" * len(VERDICT_ORDER),
           "| " + " | ".join(str(counts.get(v, 0)) for v in VERDICT_ORDER) + " |", "",
           f"## Failure classes ({plural(len(mine), 'class')}, {plural(failing, 'failing result')})", "",
           "A class is how a result first differs from the reference: the step, what differs and "
           "the error categories, never the values. Later differences of a result often follow "
           "from its first and do not split a class.", "",
           "| # | how it fails | results | smallest case |", "|---:|---|---:|---|"]
    out += [f"| [{i}](#{i}) | {_text(c.signature)} | {len(c.cases)} | {_code(c.example or '')} |"
            for i, c in enumerate(mine, 1)]
    out.append("")
    for i, c in enumerate(mine, 1):
        out += [f"<a id='{i}'></a>", f"### {i}. {_text(c.signature)} — {plural(len(c.cases), 'result')}",
                "", f"Smallest case {_code(c.example or '')}: {_text(abouts.get(c.example or '', ''))}", ""]
        if c.repro:
            out += [_fence(c.repro), ""]
        for who, texts in (printed or {}).items():
            out += [f"{_text(who)} prints:", "", _fence(texts[i - 1].rstrip("\n") or "(nothing)", "text"), ""]
    return "\n".join(out) + "\n"
