"""Backends: a dialect adapter, the module it drives and a device.

Built in: ``reference-torch``, ``reference-paddle``, ``torch-cpu``, ``torch-cuda`` and
``paddle-cpu``, and ``paddle-as-torch`` (paddle's torch proxy, a subject judged as torch).
``reference-torch-cuda`` is the reference acting as a machine with CUDA: torch-cuda is judged
against it, so that what the device shows (its tensor types in messages, its kernels) is
expected where torch shows it. Any
other module with torch's or paddle's API is named as ``DIALECT:MODULE`` (``torch:mypkg.torchlike``),
the way array-api-tests picks its module under test. A backend whose framework or device is
missing is unavailable, with the reason; a module the user named that cannot be imported is a
usage error.
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
from dataclasses import dataclass
from typing import Any, Optional

from conformance.run.adapters import ADAPTERS, Adapter


class BackendUnavailable(Exception):  # noqa: N818 - a skip reason, not a failure
    """The framework or the device this backend needs is missing here."""


@dataclass(frozen=True)
class Backend:
    name: str
    dialect: str
    module: str
    device: str = "cpu"
    reference_for: Optional[str] = None  # the reference backend this one is checked against
    # the reference engine asked to act as a machine with this backend's device
    simulates_device: bool = False

    @property
    def is_reference(self) -> bool:
        return self.module.startswith("reference_engine.")

    def load(self) -> Adapter:
        """Import the module and prepare the device; raise BackendUnavailable with the reason."""
        if self.simulates_device:
            from reference_engine import devices

            devices.simulate(self.device.partition(":")[0])
        try:
            module = importlib.import_module(self.module)
        except ImportError as exc:
            raise BackendUnavailable(f"{self.module} is not installed ({exc})") from None
        if self.dialect == "torch" and self.device == "cuda":
            if not module.cuda.is_available():
                raise BackendUnavailable("CUDA not available")
            if not self.is_reference:
                module.backends.cuda.matmul.allow_tf32 = False  # or matmuls will not agree
                module.backends.cudnn.allow_tf32 = False
        if self.dialect == "paddle" and not self.is_reference:
            module.set_device(self.device)
        return ADAPTERS[self.dialect](module, self.device)


BUILT_IN: dict[str, Backend] = {b.name: b for b in (
    Backend("reference-torch", "torch", "reference_engine.torch"),
    Backend("reference-paddle", "paddle", "reference_engine.paddle"),
    Backend("torch-cpu", "torch", "torch", "cpu", reference_for="reference-torch"),
    Backend("reference-torch-cuda", "torch", "reference_engine.torch", "cuda", simulates_device=True),
    Backend("torch-cuda", "torch", "torch", "cuda", reference_for="reference-torch-cuda"),
    Backend("paddle-cpu", "paddle", "paddle", "cpu", reference_for="reference-paddle"),
    # a subject: paddle's torch proxy, judged as torch (conformance/subjects/paddle_as_torch.py)
    Backend("paddle-as-torch", "torch", "conformance.subjects.paddle_as_torch", "cpu",
            reference_for="reference-torch"),
)}
REFERENCES = {"torch": "reference-torch", "paddle": "reference-paddle"}
REFERENCE_BACKENDS = frozenset(b.name for b in BUILT_IN.values() if b.is_reference)


def reference_name(dialect: str, device: str) -> str:
    """The reference a backend of this dialect on this device is judged against: the reference
    acting as that device where it can (torch on CUDA), else the dialect's."""
    if dialect == "torch" and device.partition(":")[0] == "cuda":
        return "reference-torch-cuda"
    return REFERENCES[dialect]


def resolve(name: str) -> Backend:
    """A built-in backend by name, or ``DIALECT:MODULE[@DEVICE]`` for any torch/paddle-like module."""
    if name in BUILT_IN:
        return BUILT_IN[name]
    if ":" in name:
        dialect, _, rest = name.partition(":")
        module, _, device = rest.partition("@")
        if dialect not in ADAPTERS or not module:
            raise ValueError(f"backend '{name}': expected DIALECT:MODULE with DIALECT one of "
                             f"{', '.join(ADAPTERS)}")
        device = device or "cpu"
        return Backend(name, dialect, module, device, reference_for=reference_name(dialect, device))
    raise ValueError(f"unknown backend '{name}'; built in: {', '.join(BUILT_IN)}, "
                     "or DIALECT:MODULE")


def distribution_version(distribution: str) -> Optional[str]:
    """An installed distribution's version, read from its metadata (no import of the framework)."""
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


@functools.lru_cache(maxsize=1)
def framework_versions() -> dict[str, Optional[str]]:
    """The installed torch and paddle, by distribution name, as known-divergence entries name them."""
    return {name: distribution_version(name) for name in ("torch", "paddlepaddle")}


@dataclass(frozen=True)
class Subject:
    """What a backend's module is: the framework under test, as the report names it."""

    description: str   # "paddle 3.3.1 (torch proxy)", "torch 2.13.0+cpu"
    distribution: str  # the installed distribution a known-divergence entry is measured on
    version: str

    def to_json(self) -> dict[str, str]:
        return {"description": self.description, "distribution": self.distribution,
                "version": self.version}


def describe_module(module: Any) -> Subject:
    """The module under test: what it declares (``SUBJECT``, ``SUBJECT_DISTRIBUTION``; a shim
    over another framework says which), else the distribution that installed its top-level
    package and its version. A module no distribution installed is named by itself."""
    top = module.__name__.split(".")[0]
    owners = importlib.metadata.packages_distributions().get(top) or []
    distribution = getattr(module, "SUBJECT_DISTRIBUTION", None) or (owners[0] if owners else top)
    version = distribution_version(distribution) or str(getattr(module, "__version__", "unversioned"))
    declared = getattr(module, "SUBJECT", None)
    return Subject(str(declared) if declared else f"{distribution} {version}", distribution, version)


def import_problem(backend: Backend) -> Optional[str]:
    """Why the module of a backend named by the user (``DIALECT:MODULE``) cannot be imported, or
    None. It is imported in a fresh interpreter with this one's ``sys.path``, as a backend process
    is: importing a framework here could change this process (paddle's torch proxy changes what
    ``import torch`` means)."""
    import subprocess
    import sys

    # the backend processes are spawned with this process's sys.path: so is the check
    program = (f"import importlib, sys; sys.path[:] = {sys.path!r}; "
               f"importlib.import_module({backend.module!r})")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True)
    if done.returncode == 0:
        return None
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    why = lines[-1].strip() if lines else f"the import exited with {done.returncode}"
    return f"backend '{backend.name}': cannot import {backend.module}: {why}"
