"""``summary.json``: what ran where, on which corpus, with which verdicts."""

from __future__ import annotations

import hashlib
import platform
import sys
from pathlib import Path
from typing import Any, Optional

from conformance.corpus.generator import DEFAULT_VERSION, corpus_sha256, generated_corpus
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
    if any(b.startswith("torch") for b in backends):
        target["torch"] = distribution_version("torch")
    if any(b.startswith("paddle") for b in backends):
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


def build_summary(results: list[dict[str, Any]], manifest: dict[str, Any], complete: bool,
                  stale: list[dict[str, str]], oracle_skips: Optional[dict[str, int]] = None,
                  argv: Optional[list[str]] = None) -> dict[str, Any]:
    """The summary; ``argv`` is the command of the run (kept in run.json), not of a rebuild."""
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
        "counts": counts(results),
        "finite_differences": {"checked": checked, "skipped": skips},
        "unsupported": unsupported_by_reason(results),
        "stale_known_divergences": stale,
        **({"device_parity": device_parity(results)} if PAIR[1] in backends else {}),
    }
