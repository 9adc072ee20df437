"""Devices in the reference engine: what torch shows of a tensor on CUDA, and a run that keeps
everything a case makes on the backend's device.

The texts are torch's own, measured on an NVIDIA H200 by ``python -m conformance.probes.torch_device``
and kept in ``tests/measured/torch_cuda_probe.jsonl``: each probe program runs here on the
reference acting as a machine with CUDA, and must show what torch showed there.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import reference_engine.torch as reference_torch
from conformance.corpus import loader
from conformance.corpus.case import Case
from conformance.corpus.generator import generate
from conformance.judge.compare import compare_traces
from conformance.probes.torch_device import PROBES, run_probe
from conformance.run.backends import BUILT_IN, resolve
from conformance.run.interpreter import Interpreter
from conformance.run.trace import Trace
from reference_engine import devices

MEASURED = Path(__file__).resolve().parent / "measured" / "torch_cuda_probe.jsonl"
_HEADER, *_PROBED = [json.loads(line) for line in MEASURED.read_text().splitlines()]

# The probe ran on torch 2.11.0; the reference speaks torch 2.13.0, which names the node of a
# version error without its suffix (``output 0 of Exp`` for 2.11's ``ExpBackward0``), on every
# device (the release difference the 2.11 run found on the CPU as well).
_RELEASE_CHANGES = [(re.compile(r"(output \d+ of \w+)Backward0(, is at version)"), r"\1\2")]


def _as_released(observed: dict) -> dict:
    if "message" not in observed or _HEADER["torch"].startswith("2.13"):
        return observed
    message = observed["message"]
    for pattern, replacement in _RELEASE_CHANGES:
        message = pattern.sub(replacement, message)
    return {**observed, "message": message}


@pytest.fixture
def on_cuda(monkeypatch):
    """The reference acting as a machine with CUDA, for this test only."""
    monkeypatch.setattr(devices._State, "simulated", frozenset({"cuda"}))
    monkeypatch.setattr(devices._State, "placed", devices._State.placed)


def test_the_measured_probe_is_the_probe_of_this_project():
    assert _HEADER["device"] == "cuda" and [p["probe"] for p in _PROBED] == list(PROBES)


@pytest.mark.parametrize("probe", _PROBED, ids=[p["probe"] for p in _PROBED])
def test_the_reference_on_cuda_shows_what_torch_showed_there(probe, on_cuda):
    assert run_probe(reference_torch, "cuda", PROBES[probe["probe"]]) == _as_released(probe["cuda"])


def test_without_a_device_cuda_is_refused_as_torch_built_without_it(monkeypatch):
    """What the CPU build of torch pinned in constraints.txt answers, on both."""
    torch = pytest.importorskip("torch")
    if torch.cuda.is_available():
        pytest.skip("this torch has CUDA: it answers otherwise")
    monkeypatch.setattr(devices._State, "simulated", frozenset())
    for program in ("out = torch.cuda.is_available()", "out = torch.cuda.device_count()",
                    "out = torch.tensor([1.0], device='cuda')", "out = torch.zeros(2, device='cuda')",
                    "out = torch.ones(2).cuda()", "out = torch.ones(2).to('cuda:0')",
                    "out = torch.tensor([1.0], device=0)", "out = repr(torch.device('cuda:1'))",
                    "out = torch.device('gpu')", "out = torch.ones(2).get_device()",
                    "x = torch.ones(2, requires_grad=True); out = x.to('cpu') is x",
                    "out = repr(torch.ones(2).to('cpu', torch.float64))",
                    "out = torch.device('cuda') == torch.device('cuda:0')",
                    "out = torch.cuda.current_device()", "out = torch.cuda.synchronize()"):
        assert run_probe(reference_torch, "cpu", program) == run_probe(torch, "cpu", program), program


def test_a_copy_to_the_device_and_back_is_recorded_and_its_gradient_returns(on_cuda):
    x = reference_torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.cuda()
    z = (y * y).cpu()
    z.sum().backward()
    assert (y.grad_fn.name(), z.grad_fn.name()) == ("ToCopyBackward0", "ToCopyBackward0")
    assert str(x.grad.device) == "cpu" and x.grad.tolist() == [2.0, 4.0]
    assert str(y.device) == "cuda:0" and y.is_cuda and not z.is_cuda


def _cases(count: int) -> list[Case]:
    hand = loader.load_directory(loader.hand_written_dir())
    return [*hand, *(Case.trusted(raw, "<generated>") for raw in generate(0, count))]


def _run(case: Case, adapter) -> tuple[Trace, Interpreter]:
    trace = Trace(case.id, "reference")
    interpreter = Interpreter(case, adapter, trace)
    interpreter.run_steps(case.steps, "")
    interpreter.record_state(f"{len(case.steps)}.end")
    return trace, interpreter


def _reads_a_zero_tensor_through_a_copy(difference) -> bool:
    """A CUDA gradient is read as ``.grad.cpu().numpy()``, and a copy of a ZeroTensor is a
    plain tensor (pinned by ``abs_second_derivative_is_a_zero_tensor``): where the CPU refuses
    ``.grad.numpy()`` of one, CUDA reads its zeros."""
    refused = difference.expected.get("message", "")
    return difference.what == "kind" and difference.actual.get("kind") == "array" and \
        refused.startswith("Cannot convert a ZeroTensor to numpy")


def test_everything_a_case_makes_lives_on_the_backends_device():
    """Every case, run by the reference acting as CUDA: every tensor it binds (leaves, seeds,
    module parameters, optimizer-stepped parameters, functional and custom-function results) is
    on the device, and what it observes is what it observes on the CPU but for the device's
    tensor types in messages. Anything made on the CPU would meet a device tensor and raise
    torch's mixed-device error."""
    cpu, cuda = BUILT_IN["reference-torch"].load(), BUILT_IN["reference-torch-cuda"].load()
    try:
        misplaced, differences = [], []
        for case in _cases(400):
            if not case.runs_on("torch"):
                continue
            on_cpu, _ = _run(case, cpu)
            on_cuda, interpreter = _run(case, cuda)
            for name, value in interpreter.env.items():
                tensors = [value] if cuda.is_tensor(value) else \
                    list(value.parameters()) if hasattr(value, "parameters") else []
                misplaced += [(case.id, name) for t in tensors if devices.device_of(t) != "cuda:0"]
            for d in compare_traces(on_cpu, on_cuda).differences:
                cpu_text, cuda_text = d.expected.get("message", ""), d.actual.get("message", "")
                if _reads_a_zero_tensor_through_a_copy(d):
                    continue
                if d.what != "error message" or cuda_text != cpu_text.replace("[torch.", "[torch.cuda."):
                    differences.append((case.id, d.step, d.what))
        assert misplaced == []
        assert differences == []
    finally:
        devices.simulate()


def test_the_device_backends_are_judged_against_the_reference_on_that_device():
    assert resolve("torch-cuda").reference_for == "reference-torch-cuda"
    assert resolve("torch:mypkg.torchlike@cuda").reference_for == "reference-torch-cuda"
    assert resolve("torch:mypkg.torchlike").reference_for == "reference-torch"
    assert BUILT_IN["reference-torch-cuda"].simulates_device
    # a module the user names is never made to act as a device it does not have
    assert not resolve("torch:reference_engine.torch@cuda").simulates_device


def test_a_number_written_into_an_expanded_tensor_is_a_fill_on_cuda_only(on_cuda):
    """Measured on the GPU (shared device run, probe_fill): ``v[0] = -0.695`` into
    ``relu(x).expand(2, 3, 3)`` is refused on the CPU and written on CUDA; ``add_`` is refused
    on both."""
    results = {}
    for device in ("cpu", "cuda"):
        x = reference_torch.tensor([[[0.732, -1.532, 1.332]], [[-0.618, 0.931, 1.205]]],
                                   device=device, requires_grad=True)
        v = reference_torch.relu(x).expand(2, 3, 3)
        outcome = []
        for write in (lambda: v.__setitem__(0, -0.695), lambda: v.add_(1.0)):
            try:
                with reference_torch.no_grad():
                    write()
                outcome.append(f"version {v._version}")
            except RuntimeError as exc:
                outcome.append(str(exc).split(":")[0])
        results[device] = outcome
    assert results == {"cpu": ["unsupported operation", "unsupported operation"],
                       "cuda": ["version 1", "unsupported operation"]}


def test_the_repro_of_a_device_backend_makes_everything_on_the_device(tmp_path):
    """The program printed beside a torch-cuda result is what ran: leaves, seeds and modules
    made on the device. Run on the reference acting as CUDA, it prints what its CPU program
    prints, but for the device in each tensor's repr (anything left on the CPU would meet a
    device tensor and raise torch's mixed-device error)."""
    import os
    import subprocess
    import sys

    from conformance.run.repro import program

    hand = {c.id: c for c in loader.load_directory(loader.hand_written_dir())}
    cases = [hand["module/linear/gradients-accumulate-over-passes"],
             *(Case.trusted(raw, "<generated>") for raw in generate(0, 6))]
    env = {**os.environ, devices.ENVIRONMENT: "cuda"}
    for case in (c for c in cases if c.runs_on("torch")):
        printed = {}
        for device in ("cpu", "cuda"):
            path = tmp_path / f"{device}.py"
            path.write_text(program(case, "torch", device))
            done = subprocess.run([sys.executable, "-m", "reference_engine.standin", "torch", str(path)],
                                  capture_output=True, text=True, env=env, timeout=120)
            printed[device] = re.sub(r"0x[0-9a-f]+", "0x…", done.stdout + done.stderr[-300:])
        assert printed["cuda"].replace(", device='cuda:0'", "").replace("torch.cuda.", "torch.") \
            == printed["cpu"], case.id
        assert "device='cuda:0'" in printed["cuda"] or "tensor(" not in printed["cpu"], case.id
