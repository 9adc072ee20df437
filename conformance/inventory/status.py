"""What the reference facades do with each API of the inventory.

Every API gets one status:

- ``modelled``: the facade has it, as an op of the engine, a class or an attribute;
- ``composed``: the facade has it, built from modelled ops (``reference_engine.composed``, the
  module and layer families, the optimizers);
- ``refused``: the facade raises ``NotModelledError`` naming it;
- ``out of scope``: a namespace the reference does not set out to model, with the reason;
- ``absent``: the pinned framework release has no such name (renamed or removed APIs, or a
  syntactic count that was not an API); counted nowhere.

Beside its status, an API lists the automatic checks that run it against the real framework:
the differential programs and field programs (``tests/programs``, ``tests/field``; found by the
inventory's own scanner) and the op registry's generated cases.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Optional

from conformance.inventory.names import method_owners, resolve
from reference_engine.messages import NotModelledError

STATUSES = ("modelled", "composed", "refused", "out of scope", "absent")
IN_SCOPE = ("modelled", "composed", "refused")

_IO = "files and data loading: I/O, not autograd"
_DISTRIBUTED = "distributed and multi-process training"
_COMPILE = "static graphs, compilation, export and inference deployment"
_COMPLEX = "complex numbers and Fourier transforms: the reference models real dtypes"
_SPARSE = "sparse and quantised tensors"
_TOOLING = "profiling, logging and high-level training tooling"
_DOMAIN = "domain libraries (vision, text, audio datasets and models)"

# The names (and the namespaces under them) the reference does not set out to model, per
# framework, and why.
OUT_OF_SCOPE: dict[str, dict[str, str]] = {
    "torch": {
        "torch.utils.data.distributed": _DISTRIBUTED, "torch.save": _IO, "torch.load": _IO,
        "torch.utils.tensorboard": _TOOLING,
        "torch.hub": _IO, "torch.distributed": _DISTRIBUTED,
        "torch.multiprocessing": _DISTRIBUTED, "torch.nn.parallel": _DISTRIBUTED,
        "torch.nn.DataParallel": _DISTRIBUTED, "torch.jit": _COMPILE, "torch.compile": _COMPILE,
        "torch.nn.Module.compile": _COMPILE, "torch.onnx": _COMPILE, "torch.fx": _COMPILE,
        "torch.export": _COMPILE, "torch._dynamo": _COMPILE, "torch._inductor": _COMPILE,
        "torch.fft": _COMPLEX, "torch.complex": _COMPLEX, "torch.complex64": _COMPLEX,
        "torch.complex128": _COMPLEX, "torch.view_as_complex": _COMPLEX, "torch.view_as_real": _COMPLEX,
        "torch.Tensor.real": _COMPLEX, "torch.Tensor.imag": _COMPLEX, "torch.sparse": _SPARSE,
        "torch.quantization": _SPARSE, "torch.ao": _SPARSE, "torch.profiler": _TOOLING,
        "torch.utils.benchmark": _TOOLING, "torch.utils.cpp_extension": _COMPILE,
    },
    "paddle": {
        "paddle.save": _IO, "paddle.load": _IO,
        "paddle.jit": _COMPILE,
        "paddle.static": _COMPILE, "paddle.enable_static": _COMPILE, "paddle.disable_static": _COMPILE,
        "paddle.inference": _COMPILE, "paddle.onnx": _COMPILE,
        "paddle.distributed": _DISTRIBUTED, "paddle.DataParallel": _DISTRIBUTED,
        "paddle.vision": _DOMAIN, "paddle.text": _DOMAIN, "paddle.audio": _DOMAIN, "paddle.fft": _COMPLEX,
        "paddle.complex": _COMPLEX, "paddle.complex64": _COMPLEX, "paddle.complex128": _COMPLEX,
        "paddle.as_complex": _COMPLEX, "paddle.as_real": _COMPLEX, "paddle.Tensor.real": _COMPLEX,
        "paddle.Tensor.imag": _COMPLEX, "paddle.signal": _COMPLEX, "paddle.sparse": _SPARSE,
        "paddle.quantization": _SPARSE, "paddle.profiler": _TOOLING, "paddle.utils": _TOOLING,
        "paddle.hub": _IO, "paddle.metric": _TOOLING,
        "paddle.summary": _TOOLING, "paddle.flops": _TOOLING, "paddle.sysconfig": _TOOLING,
    },
}
# Facade modules whose functions and classes are built from modelled ops.
_COMPOSING_MODULES = ("reference_engine.composed", "reference_engine.modules", "reference_engine.layers",
                      ".nn", ".optim", ".optimizer", ".func", ".incubate", ".autograd.functional")


@dataclass(frozen=True)
class ApiStatus:
    """One API's status, the reason where it is out of scope or refused, and its checks."""

    api: str
    status: str
    reason: str = ""
    checks: tuple[str, ...] = ()


def out_of_scope_reason(framework: str, api: str) -> Optional[str]:
    """Why ``api`` is out of scope (it is, or lies under, a listed name), or None."""
    for prefix, reason in OUT_OF_SCOPE[framework].items():
        if api == prefix or api.startswith(prefix + "."):
            return reason
    return None


def _facade(framework: str) -> Any:
    return importlib.import_module(f"reference_engine.{framework}")


def _kind(obj: Any) -> str:
    module = getattr(obj, "__module__", None) or ""
    if any(module.startswith(m) if m.startswith("reference_engine") else m in module
           for m in _COMPOSING_MODULES):
        return "composed"
    return "modelled"


def facade_status(framework: str, api: str) -> ApiStatus:
    """Whether the facade has ``api``, refuses it by name, or lacks it some other way (which
    is itself reported as refused, with the error it gave, so that it shows as a gap)."""
    try:
        obj = resolve(_facade(framework), api)
    except NotModelledError as error:
        return ApiStatus(api, "refused", str(error))
    except (AttributeError, ImportError) as error:
        return ApiStatus(api, "refused", f"not refused by name: {type(error).__name__}: {error}")
    return ApiStatus(api, _kind(obj))


def classify(framework: str, api: str, absent: Iterable[str], checks: tuple[str, ...] = ()) -> ApiStatus:
    if api in absent:
        return ApiStatus(api, "absent")
    reason = out_of_scope_reason(framework, api)
    if reason is not None:
        return ApiStatus(api, "out of scope", reason)
    status = facade_status(framework, api)
    return ApiStatus(api, status.status, status.reason, checks)


def checked_apis(framework: str, repository_root: Path) -> dict[str, set[str]]:
    """API -> the automatic checks that call it: the differential and field programs (scanned
    like any body of code, with the real framework's method names) and the op registry."""
    from conformance.corpus.op_registry import REGISTRY
    from conformance.inventory.scan import body_files, scan_files

    out: dict[str, set[str]] = {}
    for label, folder in (("differential programs", "tests/programs"), ("field programs", "tests/field")):
        counts, _ = scan_files(body_files(repository_root / folder / framework), framework,
                               method_owners(framework))
        for api in counts:
            out.setdefault(api, set()).add(label)
    owner = {"torch": "torch.Tensor", "paddle": "paddle.Tensor"}[framework]
    for entry in REGISTRY:
        call = entry.call(framework)
        if call is not None:
            api = owner + call.path if call.is_method else f"{framework}.{call.path}"
            out.setdefault(api, set()).add("generated cases")
    return out
