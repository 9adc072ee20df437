"""What a fuzz run writes: ``cases/<class>.json`` (one minimal case per failure class, a valid
case file ready to copy into ``cases/``), ``summary.json`` and ``report.md``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conformance.corpus.case import Case
from conformance.fuzz.explore import FuzzRun
from conformance.report.escape import markdown_block as _fence
from conformance.report.escape import markdown_code as _code
from conformance.report.escape import markdown_text as _text
from conformance.report.model import plural
from conformance.run.repro import program


def fuzz_summary(run: FuzzRun) -> dict[str, Any]:
    return {
        "seed": run.seed, "dtype": run.dtype, "backends": run.backends, "programs": run.programs,
        "failing_results": run.failures, "seconds": round(run.seconds, 1),
        "classes": [{
            "backend": c.backend, "signature": c.signature, "count": c.count, "first": c.first,
            "found_after_seconds": round(c.found_after, 1),
            "case_file": f"cases/{c.slug}.json",
            "steps": {"before": c.stats.steps_before, "after": c.stats.steps_after} if c.stats else None,
            "shrink": {"seconds": round(c.shrink_seconds, 1), "trials": c.stats.trials,
                       "invalid": c.stats.invalid} if c.stats else None,
            "reference": c.reference, "framework": c.framework,
        } for c in sorted(run.classes.values(), key=lambda c: (-c.count, c.backend, c.signature))],
    }


def write_fuzz(out: Path, run: FuzzRun, dialects: dict[str, str]) -> None:
    """The run's files; ``dialects``: each backend's dialect, for the repro programs."""
    (out / "cases").mkdir(parents=True, exist_ok=True)
    summary = fuzz_summary(run)
    for c in run.classes.values():
        if c.case is not None:
            (out / "cases" / f"{c.slug}.json").write_text(
                json.dumps({"format": 1, "cases": [c.case]}, indent=1) + "\n", encoding="utf-8")
    (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    lines = ["# autograd-oracle fuzz report", "",
             f"- seed {run.seed}{'' if run.dtype == 'mixed' else f' ({run.dtype} programs)'}, "
             f"{run.programs} programs in {run.seconds:.0f} s on "
             f"{', '.join(_code(b) for b in run.backends)}",
             f"- {plural(run.failures, 'failing result')} in {plural(len(run.classes), 'class')}", ""]
    for i, c in enumerate(sorted(run.classes.values(), key=lambda c: (-c.count, c.backend, c.signature)), 1):
        lines += [f"## {i}. {_text(c.signature)} [{_text(c.backend)}] — {plural(c.count, 'result')}", ""]
        if c.stats is not None:
            lines += [f"Shrunk from {c.stats.steps_before} to {c.stats.steps_after} steps in "
                      f"{c.shrink_seconds:.1f} s ({c.stats.trials} runs) from {_code(c.first)}; "
                      f"saved as {_code(f'cases/{c.slug}.json')}. On the reference: {c.reference}"
                      + (f"; on the real framework: {c.framework}" if c.framework else "") + ".", ""]
        if c.case is not None:
            lines += [_fence(program(Case.trusted(c.case, "<fuzz>"), dialects[c.backend])), ""]
    (out / "report.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
