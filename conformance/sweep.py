"""Sweep a framework over releases: each version in an environment of its own, each run diffed
against the version before and against the project's baseline.

    autograd-oracle sweep paddle 3.2.2 3.3.0 3.3.1 [--count 2000] [--out reports/sweep]

For each version a fresh virtual environment (``python -m venv``) gets this project (a wheel
built once from the checkout) and the framework at that version from the package registry; the
environment's ``autograd-oracle run`` runs the hand-written cases and ``--count`` generated ones on
the reference and the framework (CPU). A version that does not install, or whose run does not
complete, is reported as such and the sweep goes on. Then each run is diffed against the one
before (the change classes of ``report.diff``) and against the shipped baseline of the pinned
version, and ``index.md`` lists the steps: the crashes first, then each step's classes, with a
page per step (``<old>-to-<new>.md``, ``.html`` and ``.json``).

Environments are made with ``python -m venv`` and pip by default: it needs nothing beyond Python
and reads the machine's pip configuration (its indexes and wheel folders) as the main install
does. ``--installer uv`` makes them with uv instead, measured six times faster (an environment
with this project and paddle 3.2.2: 2.1 s against 13.3 s), but uv does not read pip's
configuration: where a framework wheel comes from a local index, pip finds it and uv may
download another build.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

from conformance.report.diff import diff_runs, render_diff_html, render_diff_markdown

FRAMEWORKS = {"torch": ("torch", "torch-cpu", "reference-torch"),
              "paddle": ("paddlepaddle", "paddle-cpu", "reference-paddle")}
BASELINES = {"torch": "torch-2.13.0-cpu", "paddle": "paddle-3.3.1-cpu"}


class SweepError(Exception):
    """The sweep cannot start (no checkout to install in the environments, an unknown framework)."""


@dataclass
class Step:
    version: str
    run: Optional[Path] = None
    problem: str = ""          # why it has no complete run (did not install, run failed)
    seconds: float = 0.0
    crashed: list[dict[str, Any]] = field(default_factory=list)


def project_root() -> Path:
    """The checkout this copy of the project runs from (the sweep installs it in each
    environment); a SweepError for an installed wheel, which has none."""
    import conformance

    root = Path(conformance.__file__).resolve().parent.parent
    if not (root / "pyproject.toml").exists():
        raise SweepError("sweep installs this project in each environment and needs it as a "
                         "checkout (pip install -e .): this copy is an installed wheel")
    return root


def _last_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    return lines[-1].strip() if lines else ""


def _isolated_environment() -> dict[str, str]:
    """This process's environment without the variables that put other code on a fresh
    environment's path: with ``PYTHONPATH`` at a checkout, pip would find this project installed
    already and skip the wheel, and the run would import the checkout."""
    return {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}


def run_version(framework: str, version: str, wheel: Path, count: int, out: Path,
                scratch: Path, installer: str = "pip") -> Step:
    """One version: its environment, then its run into ``out``."""
    distribution, backend, reference = FRAMEWORKS[framework]
    step = Step(version)
    started = time.monotonic()
    venv = scratch / f"{framework}-{version}"
    requirements = [str(wheel), f"{distribution}=={version}"]
    if installer == "uv":
        made = subprocess.run(["uv", "venv", "-q", "--python", sys.executable, str(venv)],
                              capture_output=True, text=True)
        install = ["uv", "pip", "install", "-q", "--python", str(venv / "bin" / "python"), *requirements]
    else:
        made = subprocess.run([sys.executable, "-m", "venv", str(venv)], capture_output=True, text=True)
        install = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", *requirements]
    installed = made if made.returncode else subprocess.run(install, capture_output=True, text=True,
                                                            timeout=1800, env=_isolated_environment())
    if installed.returncode:
        step.problem = f"did not install: {_last_line(installed.stderr) or installed.returncode}"
        step.seconds = time.monotonic() - started
        return step
    done = subprocess.run([str(venv / "bin" / "autograd-oracle"), "run", "--backends",
                           f"{reference},{backend}", "--count", str(count), "--out", str(out)],
                          capture_output=True, text=True, timeout=7200, env=_isolated_environment())
    step.seconds = time.monotonic() - started
    if done.returncode not in (0, 1) or not (out / "summary.json").exists():
        step.problem = f"the run did not complete (exit {done.returncode}): {_last_line(done.stderr)}"
        return step
    step.run = out
    with (out / "results.jsonl").open(encoding="utf-8") as handle:
        step.crashed = [r for r in map(json.loads, handle)
                        if r["backend"] == backend and r["verdict"] in ("crashed", "timeout")]
    return step


def _write_diff(base: Path, new: Path, out: Path, name: str) -> dict[str, Any]:
    from conformance.report.build import load_run

    try:
        cases = load_run(new)[2]
    except (OSError, ValueError):
        cases = {}
    d = diff_runs(base, new, cases)
    (out / f"{name}.md").write_text(render_diff_markdown(d), encoding="utf-8")
    (out / f"{name}.html").write_text(render_diff_html(d), encoding="utf-8")
    (out / f"{name}.json").write_text(json.dumps(d, indent=1) + "\n", encoding="utf-8")
    return d


def _reused(version: str, run: Path, backend: str) -> Step:
    step = Step(version, run=run)
    with (run / "results.jsonl").open(encoding="utf-8") as handle:
        step.crashed = [r for r in map(json.loads, handle)
                        if r["backend"] == backend and r["verdict"] in ("crashed", "timeout")]
    return step


def sweep(framework: str, versions: list[str], count: int, out: Path,
          say: Callable[[str], None] = print, reuse: bool = False, installer: str = "pip") -> list[Step]:
    """Run every version, diff the runs, write ``out/index.md``; returns the steps. ``reuse``:
    a version whose complete run is already in ``out`` is not run again (the diffs are)."""
    if framework not in FRAMEWORKS:
        raise SweepError(f"sweep takes torch or paddle, not {framework!r}")
    from conformance import data

    root = project_root()
    out.mkdir(parents=True, exist_ok=True)
    steps: list[Step] = []
    with tempfile.TemporaryDirectory(prefix="autograd-oracle-sweep-") as scratch:
        wheels = Path(scratch) / "wheel"
        # an isolated build: it takes the setuptools pyproject.toml asks for, not this one's
        built = subprocess.run([sys.executable, "-m", "pip", "wheel", str(root), "--no-deps",
                                "-q", "-w", str(wheels)],
                               capture_output=True, text=True)
        if built.returncode:
            raise SweepError(f"could not build this project's wheel: {_last_line(built.stderr)}")
        wheel = next(wheels.glob("*.whl"))
        for version in versions:
            folder = out / f"{framework}-{version}"
            if reuse and (folder / "summary.json").exists():
                say(f"sweep: {framework} {version}: the run in {folder} is reused")
                steps.append(_reused(version, folder, FRAMEWORKS[framework][1]))
                continue
            say(f"sweep: {framework} {version} …")
            step = run_version(framework, version, wheel, count, folder, Path(scratch), installer)
            say(f"sweep: {framework} {version}: " + (step.problem or f"ran in {step.seconds:.0f} s, "
                                                       f"{len(step.crashed)} crashed or timed out"))
            steps.append(step)
    pages = []
    ran = [s for s in steps if s.run is not None]
    for old, new in zip(ran, ran[1:]):
        name = f"{framework}-{old.version}-to-{new.version}"
        pages.append((name, f"{old.version} → {new.version}", _write_diff(old.run, new.run, out, name)))
    baseline = data.baselines_dir() / BASELINES[framework]
    for step in ran:
        name = f"{BASELINES[framework]}-to-{framework}-{step.version}"
        pages.append((name, f"baseline {BASELINES[framework]} → {step.version}",
                      _write_diff(baseline, step.run, out, name)))
    (out / "index.md").write_text(render_index(framework, steps, pages, count), encoding="utf-8")
    return steps


def render_index(framework: str, steps: list[Step], pages: list[tuple[str, str, dict[str, Any]]],
                 count: int) -> str:
    lines = [f"# {framework} release sweep", "",
             f"Each version ran the hand-written cases and {count} generated ones on the reference and "
             f"{FRAMEWORKS[framework][1]}, in an environment of its own.", "", "## Crashes", ""]
    crashes = [(s, r) for s in steps for r in s.crashed]
    lines += [f"- {framework} {s.version}: `{r['case']}` {r['verdict']}: {r.get('detail', '')}"
              for s, r in crashes] or ["None."]
    lines += ["", "## Versions", "", "| version | run | seconds |", "|---|---|---:|"]
    lines += [f"| {s.version} | {s.problem or 'complete'} | {s.seconds:.0f} |" for s in steps]
    lines += ["", "## Steps", ""]
    for name, title, d in pages:
        classes = d["change_classes"]
        lines += [f"### {title}: {sum(c['count'] for c in classes)} changed results in "
                  f"{len(classes)} classes ([page]({name}.md))", ""]
        lines += [f"- {c['count']} [{c['backend']}] {c['signature']} (e.g. `{c['example']}`)"
                  for c in classes]
        lines.append("")
    return "\n".join(lines) + "\n"
