"""Device parity and framework pins in the reports: what a CUDA check on a device writes."""

from __future__ import annotations

import copy
import os
import subprocess
import sys
from pathlib import Path

from conformance.report.parity import device_parity
from conformance.report.pins import DEFAULT_PINS, framework_pins, pinned_versions

ROOT = Path(__file__).resolve().parent.parent
TENSOR = {"step": "3", "kind": "tensor", "dtype": "float32", "shape": [2],
          "values": [1.0, 2.0], "requires_grad": False, "has_grad_fn": False}


def _result(case: str, backend: str, observations: list, verdict: str = "pass") -> dict:
    return {"case": case, "backend": backend, "verdict": verdict, "observations": observations,
            "detail": ""}


def test_parity_compares_each_case_run_on_both_devices():
    moved = copy.deepcopy(TENSOR)
    moved["values"] = [1.0, 2.5]
    results = [_result("same", "torch-cpu", [TENSOR]), _result("same", "torch-cuda", [TENSOR]),
               _result("moved", "torch-cpu", [TENSOR]), _result("moved", "torch-cuda", [moved]),
               _result("rounded", "torch-cpu", [TENSOR]),
               _result("rounded", "torch-cuda", [{**TENSOR, "values": [1.0, 2.0000001]}]),
               _result("cpu only", "torch-cpu", [TENSOR]),
               _result("no gpu", "torch-cpu", [TENSOR]),
               _result("no gpu", "torch-cuda", None, verdict="unavailable")]
    parity = device_parity(results)
    assert parity["compared"] == 3 and parity["same"] == 2
    assert [d["case"] for d in parity["differ"]] == ["moved"]
    assert parity["not_compared"] == {"ran on one device only": 1,
                                      "torch-cuda unavailable: ": 1}


def test_a_device_difference_the_reference_shows_too_is_modelled_not_differing():
    """The version error names torch.cuda.FloatTensor on CUDA: the reference acting as CUDA says
    so too, so parity lists it as modelled; a difference the references do not show differs,
    and both are counted by class."""
    def error(text: str) -> dict:
        return {"step": "5", "kind": "error", "error": "RuntimeError", "category": "version-counter",
                "message": f"... [{text} [3]] is at version 1"}
    cpu_text, cuda_text = error("torch.FloatTensor"), error("torch.cuda.FloatTensor")
    results = []
    for case in ("named", "real"):
        results += [_result(case, "torch-cpu", [TENSOR, cpu_text]),
                    _result(case, "reference-torch", [TENSOR, cpu_text])]
    results += [_result("named", "torch-cuda", [TENSOR, cuda_text]),
                _result("named", "reference-torch-cuda", [TENSOR, cuda_text]),
                _result("real", "torch-cuda", [{**TENSOR, "values": [1.0, 3.0]}, cpu_text]),
                _result("real", "reference-torch-cuda", [TENSOR, cpu_text])]
    parity = device_parity(results)
    assert parity["compared"] == 2 and parity["same"] == 0
    assert [d["case"] for d in parity["modelled"]] == ["named"]
    assert [d["case"] for d in parity["differ"]] == ["real"]
    assert parity["modelled_classes"] == {"error message differs": 1}
    assert parity["classes"] == {"values differs": 1}


def test_a_difference_in_a_case_torch_cudas_known_file_pins_is_known():
    moved = copy.deepcopy(TENSOR)
    moved["values"] = [1.0, 2.5]
    results = [_result("pinned", "torch-cpu", [TENSOR]),
               {**_result("pinned", "torch-cuda", [moved]), "known_entry": "torch-cuda:pinned"}]
    parity = device_parity(results)
    assert [d["case"] for d in parity["known"]] == ["pinned"] and parity["differ"] == []


def test_values_inside_grad_results_compare_within_the_tolerance_of_what_the_case_computes_in():
    """A float64 grad result computed through float32 (measured: 0.44872909784317017 on CUDA
    against -0.44872915744781494's neighbour on the CPU) agrees within float32's tolerance."""
    def grads(second: float) -> list:
        return [{"step": "3", "kind": "tensor", "dtype": "float32", "shape": [1], "values": [1.0],
                 "requires_grad": False, "has_grad_fn": False},
                {"step": "14", "kind": "list", "items": [
                    {"kind": "tensor", "dtype": "float64", "shape": [2, 1], "requires_grad": True,
                     "has_grad_fn": True, "values": [[0.44872909784317017], [second]]}]}]
    results = [_result("c", "torch-cpu", grads(-0.44872915744781494)),
               _result("c", "torch-cuda", grads(-0.44872909784317017))]
    assert device_parity(results)["same"] == 1


def test_a_run_on_another_torch_is_marked_as_such():
    pins = {"torch": "2.13.0", "paddle": "3.3.1"}
    off = framework_pins({"torch": "2.11.0+cu128", "paddle": None}, pins)
    assert off == {"torch": {"pinned": "2.13.0", "ran": "2.11.0+cu128", "is_pinned": False}}
    assert framework_pins({"torch": "2.13.0+cpu", "paddle": "3.3.1"}, pins) == {
        "torch": {"pinned": "2.13.0", "ran": "2.13.0+cpu", "is_pinned": True},
        "paddle": {"pinned": "3.3.1", "ran": "3.3.1", "is_pinned": True}}


def test_the_built_in_pins_are_those_of_constraints_txt():
    assert pinned_versions(ROOT / "constraints.txt") == DEFAULT_PINS


def test_the_cuda_check_dry_runs_on_a_cpu_machine(tmp_path):
    """benchmarks/cuda_check.sh with a tiny slice: torch-cuda is skipped with its reason, and
    the report carries the parity section and the torch version."""
    out = tmp_path / "cuda"
    done = subprocess.run(["bash", str(ROOT / "benchmarks" / "cuda_check.sh"), str(out)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "CUDA_CHECK_COUNT": "20",
                               "CUDA_CHECK_SELECT": "seeds/*,gen4/*", "PYTHON": sys.executable})
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    report = (out / "report.md").read_text()
    assert "## Device parity (torch-cuda against torch-cpu)" in report
    assert "torch-cuda unavailable" in report
    assert "torch " in done.stdout and "parity" in done.stdout
