"""What torch shows of a tensor on a device: the probe behind the reference engine's device model.

    python -m conformance.probes.torch_device [DEVICE]     # default: cuda

Runs each probe program below on ``DEVICE`` (and, for comparison, on the CPU) and prints one JSON
line per program: what it printed or the error it raised, type and text. The reference engine's
device model (``reference_engine.torch.devices``) is written from this output, and
``tests/test_devices.py`` pins the texts it relies on; run it again on a new torch to see what
changed. Needs torch and a GPU for ``cuda``; prints ``{"unavailable": ...}`` without one.
"""

from __future__ import annotations

import json
import sys
from typing import Any, Callable

PROBES: dict[str, str] = {
    # what a tensor shows
    "repr": "x = torch.tensor([1.0, 2.0], device=D); out = repr(x)",
    "repr requires_grad": "x = torch.tensor([1.0, 2.0], device=D, requires_grad=True); out = repr(x * 2)",
    "repr 0-d": "out = repr(torch.tensor(3.0, device=D))",
    "device": "out = repr(torch.tensor([1.0], device=D).device)",
    "str device": "out = str(torch.tensor([1.0], device=D).device)",
    "torch.device(D)": "out = repr(torch.device(D))",
    "is_cuda": "out = torch.tensor([1.0], device=D).is_cuda",
    "type()": "out = torch.tensor([1.0], device=D).type()",
    "type() double": "out = torch.tensor([1.0], device=D, dtype=torch.float64).type()",
    "numpy": "out = torch.tensor([1.0], device=D).numpy()",
    "numpy requires_grad": "out = torch.tensor([1.0], device=D, requires_grad=True).numpy()",
    "item": "out = torch.tensor([1.5], device=D).item()",
    "tolist": "out = torch.tensor([1.5], device=D).tolist()",
    "cpu": "x = torch.tensor([1.0], device=D, requires_grad=True); y = x.cpu(); "
           "out = (repr(y.device), y.grad_fn.name(), y.is_leaf)",
    "to(D) of a cpu leaf": "x = torch.tensor([1.0], requires_grad=True); y = x.to(D); "
                           "y.sum().backward(); out = (y.grad_fn.name(), repr(x.grad.device))",
    "cuda()": "x = torch.tensor([1.0], requires_grad=True); y = x.cuda(); "
              "out = (y.grad_fn.name(), y.is_leaf)",
    "to same device": "x = torch.tensor([1.0], device=D, requires_grad=True); out = x.to(D) is x",
    "grad device": "x = torch.tensor([1.0, 2.0], device=D, requires_grad=True); (x * x).sum().backward(); "
                   "out = repr(x.grad)",
    "zeros_like": "out = repr(torch.zeros_like(torch.tensor([1.0], device=D)).device)",
    "zeros(device=)": "out = repr(torch.zeros(2, device=D))",
    # mixing devices
    "add cpu": "out = torch.tensor([1.0], device=D) + torch.tensor([1.0])",
    "add cpu 0-d": "out = repr(torch.tensor([1.0], device=D) + torch.tensor(1.0))",
    "add cpu 0-d left": "out = repr(torch.tensor(1.0) + torch.tensor([1.0], device=D))",
    "add cpu, cpu first": "out = torch.tensor([1.0]) + torch.tensor([1.0], device=D)",
    "mul cpu": "out = torch.tensor([1.0], device=D) * torch.tensor([2.0])",
    "mm cpu": "out = torch.mm(torch.ones(2, 2, device=D), torch.ones(2, 2))",
    "matmul cpu": "out = torch.matmul(torch.ones(2, 2, device=D), torch.ones(2, 2))",
    "cat cpu": "out = torch.cat([torch.ones(2, device=D), torch.ones(2)])",
    "stack cpu": "out = torch.stack([torch.ones(2, device=D), torch.ones(2)])",
    "where cpu": "out = torch.where(torch.ones(2) > 0, torch.ones(2, device=D), torch.ones(2, device=D))",
    "maximum cpu": "out = torch.maximum(torch.ones(2, device=D), torch.ones(2))",
    "linear cpu weight": "out = torch.nn.Linear(2, 2)(torch.ones(1, 2, device=D))",
    "add_ cpu": "x = torch.ones(2, device=D); x.add_(torch.ones(2)); out = repr(x)",
    "copy_ cpu": "x = torch.ones(2, device=D); x.copy_(torch.zeros(2)); out = repr(x)",
    "setitem cpu tensor": "x = torch.ones(2, device=D); x[0] = torch.tensor([5.0]); out = repr(x)",
    # autograd across devices
    "backward cpu seed": "x = torch.tensor([1.0], device=D, requires_grad=True); "
                         "(x * 2).backward(torch.ones(1)); out = repr(x.grad)",
    "grad cpu seed": "x = torch.tensor([1.0], device=D, requires_grad=True); "
                     "out = torch.autograd.grad(x * 2, x, torch.ones(1))",
    "grad setter cpu": "x = torch.tensor([1.0], device=D, requires_grad=True); "
                       "x.grad = torch.ones(1); out = 1",
    "hook returns cpu": "x = torch.tensor([1.0], device=D, requires_grad=True); y = x * 2; "
                        "y.register_hook(lambda g: g.cpu()); y.backward(torch.ones(1, device=D)); "
                        "out = repr(x.grad)",
    "version error": "x = torch.tensor([1.0, 2.0, 3.0], device=D, requires_grad=True); y = x.exp(); "
                     "y.add_(1); y.sum().backward()",
    "version error double": "x = torch.tensor([1.0, 2.0, 3.0], device=D, dtype=torch.float64, "
                            "requires_grad=True); y = x.exp(); y.add_(1); y.sum().backward()",
    "setitem expanded": "x = torch.tensor([[0.5, 1.0]], device=D, requires_grad=True); "
                        "v = torch.relu(x).expand(2, 2)\nwith torch.no_grad(): v[0] = 1.5\nout = v._version",
    "setitem expanded tensor value": "x = torch.tensor([[0.5, 1.0]], device=D, requires_grad=True); "
                                     "v = torch.relu(x).expand(2, 2)\nwith torch.no_grad(): "
                                     "v[0] = torch.tensor(1.5, device=D)\nout = v._version",
    "mm float32 float64": "out = torch.mm(torch.ones(2, 2, device=D), "
                          "torch.ones(2, 2, device=D, dtype=torch.float64))",
    "module to(D)": "m = torch.nn.Linear(2, 1).to(D); out = (repr(m.weight.device), m.weight.is_leaf)",
    "cuda.is_available": "out = torch.cuda.is_available()",
    "cuda.device_count": "out = torch.cuda.device_count()",
}


def run_probe(torch: Any, device: str, program: str) -> dict[str, Any]:
    namespace: dict[str, Any] = {"torch": torch, "D": device}
    try:
        exec(program, namespace)  # noqa: S102 - the probe's own programs, above
    except Exception as exc:  # noqa: BLE001 - the framework's error is the observation
        return {"error": type(exc).__name__, "message": str(exc)}
    out = namespace.get("out")
    return {"out": out if isinstance(out, (bool, int, float, str)) else repr(out)}


def main(argv: list[str]) -> int:
    import torch

    device = argv[0] if argv else "cuda"
    available: Callable[[], bool] = getattr(torch, device).is_available if device != "cpu" else (lambda: True)
    if not available():
        print(json.dumps({"unavailable": device, "torch": torch.__version__}))
        return 0
    print(json.dumps({"torch": torch.__version__, "device": device}))
    for name, program in PROBES.items():
        line = {"probe": name, device: run_probe(torch, device, program),
                "cpu": run_probe(torch, "cpu", program)}
        print(json.dumps(line))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
