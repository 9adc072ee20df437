"""``summary.json``: what ran where, on which corpus, with which verdicts."""

from __future__ import annotations

import hashlib
import json
import platform
import sys
from pathlib import Path
from typing import Any, Optional

from conformance.corpus.generator import DEFAULT_VERSION, corpus_sha256, generated_corpus
from conformance.corpus.inputs import InputError, read_json, schema_problem
from conformance.corpus.loader import case_files, hand_written_dir
from conformance.report.parity import PAIR, device_parity
from conformance.report.pins import framework_pins
from conformance.run.backends import distribution_version

SCHEMA_VERSION = 1


def execution_target(backends: list[str]) -> dict[str, Any]:
    """Python, numpy, torch and paddle versions; the device and CUDA where a CUDA backend ran."""
    target: dict[str, Any] = {"python": platform.python_version(), "platform": platform.platform(),
                              "numpy": distribution_version("numpy"), "torch": None, "paddle": None,
                              "device": "cpu", "cuda": None, "driver": None}
    # the frameworks installed where it ran: the reference's programs and shims over them use them
    target["torch"] = distribution_version("torch")
    target["paddle"] = distribution_version("paddlepaddle")
    if "torch-cuda" in backends and target["torch"]:
        import torch

        if torch.cuda.is_available():
            target["device"] = torch.cuda.get_device_name(0)
            target["cuda"] = torch.version.cuda
            try:
                import subprocess

                target["driver"] = subprocess.run(
                    ["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                    capture_output=True, text=True, timeout=20).stdout.strip() or None
            except (OSError, subprocess.SubprocessError):
                target["driver"] = None
    return target


def corpus_manifest(kind: str, seed: int, count: int, cases_dir: Optional[Path] = None,
                    generated: Optional[list[dict[str, Any]]] = None,
                    version: int = DEFAULT_VERSION) -> dict[str, Any]:
    manifest: dict[str, Any] = {"kind": kind}
    if kind in ("hand", "all"):
        directory = cases_dir or hand_written_dir()
        digest = hashlib.sha256()
        files = case_files(directory)
        for p in files:
            digest.update(p.name.encode() + b"\0" + p.read_bytes())
        manifest["hand_written"] = {"files": len(files), "sha256": digest.hexdigest()}
    if kind in ("generated", "all"):
        manifest["generated"] = {
            "generator_version": version, "seed": seed, "count": count,
            "sha256": corpus_sha256(list(generated or generated_corpus(seed, count, version)))}
    return manifest


def counts(results: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """``{backend: {verdict: count}}``."""
    out: dict[str, dict[str, int]] = {}
    for r in results:
        per = out.setdefault(r["backend"], {})
        per[r["verdict"]] = per.get(r["verdict"], 0) + 1
    return out


def unsupported_by_reason(results: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """``{backend: {reason: count}}`` for the unsupported results: what the run could not observe."""
    out: dict[str, dict[str, int]] = {}
    for r in results:
        if r["verdict"] == "unsupported":
            per = out.setdefault(r["backend"], {})
            per[r["detail"]] = per.get(r["detail"], 0) + 1
    return out


def backends_under_test(results: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """``{backend: {dialect, module, subject[, unavailable]}}``: the module each backend drove and
    what it is (``subject``: description, distribution, version, as its process reported; None
    where it never loaded, and then ``unavailable`` says why: the import error, the memory cap,
    the missing device)."""
    out: dict[str, dict[str, Any]] = {}
    for r in results:
        entry = out.setdefault(r["backend"], {"dialect": r.get("dialect"), "module": r.get("module"),
                                              "subject": None})
        if entry["subject"] is None and r.get("subject"):
            entry["subject"] = r["subject"]
        if r["verdict"] == "unavailable" and r.get("detail"):
            entry.setdefault("unavailable", r["detail"])
    for entry in out.values():
        if entry["subject"] is not None:
            entry.pop("unavailable", None)
    return dict(sorted(out.items()))


def backend_line(name: str, about: dict[str, Any]) -> str:
    """``paddle-as-torch: torch:conformance.subjects.paddle_as_torch → paddle 3.3.1 (torch
    proxy)``: the backend, the module it drove and what that module is."""
    module = f"{about['dialect']}:{about['module']}" if about.get("module") else "module not recorded"
    subject = (about.get("subject") or {}).get("description") or (
        f"not loaded: {about['unavailable']}" if about.get("unavailable") else "not loaded")
    return f"{name}: {module} → {subject}"


def build_summary(results: list[dict[str, Any]], manifest: dict[str, Any], complete: bool,
                  stale: list[dict[str, str]], oracle_skips: Optional[dict[str, int]] = None,
                  argv: Optional[list[str]] = None,
                  classes: Optional[list[dict[str, Any]]] = None,
                  notes: Optional[list[str]] = None) -> dict[str, Any]:
    """The summary; ``argv`` is the command of the run (kept in run.json), not of a rebuild;
    ``classes``: the failure classes (``judge.classes``), largest first."""
    backends = sorted({r["backend"] for r in results})
    target = execution_target(backends)
    checked = sum((r.get("oracle") or {}).get("checked", 0) for r in results)
    skips: dict[str, int] = dict(oracle_skips or {})
    for r in results:
        for reason, n in ((r.get("oracle") or {}).get("skipped") or {}).items():
            skips[reason] = skips.get(reason, 0) + n
    return {
        "schema_version": SCHEMA_VERSION,
        "complete": complete,
        "execution_target": target,
        "framework_pins": framework_pins(target),
        "argv": argv if argv is not None else sys.argv[1:],
        "corpus": manifest,
        "cases": len({r["case"] for r in results}),
        "results": len(results),
        "backends": backends_under_test(results),
        "counts": counts(results),
        "failure_classes": classes or [],
        "notes": notes or [],  # what the reader should know about how the results were read
        "finite_differences": {"checked": checked, "skipped": skips},
        "unsupported": unsupported_by_reason(results),
        "stale_known_divergences": stale,
        **({"device_parity": device_parity(results)} if PAIR[1] in backends else {}),
    }


SUMMARY_SCHEMA = json.loads((Path(__file__).parent / "schemas" / "summary.schema.json").read_text())


def read_summary(directory: Path) -> dict[str, Any]:
    """A report folder's ``summary.json``, held to its schema; a usage error when the folder has
    none yet (``autograd-oracle report`` writes it)."""
    path = directory / "summary.json"
    if not path.exists():
        raise InputError(str(directory), "has no summary.json; run 'autograd-oracle report "
                         f"{directory}' first")
    summary = read_json(path)
    problem = schema_problem(summary, SUMMARY_SCHEMA)
    if problem:
        raise InputError(str(path), problem)
    return summary
