"""Scan the bodies of code into the inventory file (``inventory.json`` beside this module).

The scan needs checkouts of the bodies and the real frameworks (their class attributes decide
what counts as a method); the file it writes is what everything else reads, so a test run
needs neither.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from conformance.inventory.names import METHOD_CLASSES, method_owners, resolve
from conformance.inventory.scan import body_files, scan_files
from conformance.inventory.sources import BODIES, MAPPING, Body

INVENTORY = Path(__file__).with_name("inventory.json")


class CheckoutMissingError(Exception):
    """A body's checkout is not where ``--checkouts`` says."""


def _exists(framework: str, api: str) -> bool:
    """Whether the installed framework has ``api`` (a name the scan counted may be a renamed
    or removed API, or not an API at all)."""
    try:
        resolve(importlib.import_module(framework), api)
    except Exception:  # noqa: BLE001 - any failure to resolve a name means it is not there
        return False
    return True


def _checkout(checkouts: Path, body: Body) -> Path:
    root = checkouts / body.checkout_name
    if not root.is_dir():
        raise CheckoutMissingError(f"{body.repository}: no checkout at {root} "
                                   f"(a folder named {body.checkout_name})")
    return root


def paconvert_mapping(checkouts: Path) -> dict[str, str]:
    """torch API -> its paddle counterpart (an empty string where PaConvert names none)."""
    folder = _checkout(checkouts, MAPPING) / "paconvert"
    entries = json.loads((folder / "api_mapping.json").read_text())
    entries.update(json.loads((folder / "attribute_mapping.json").read_text()))
    out = {}
    for api, entry in entries.items():
        if not api.startswith("torch."):
            continue
        if entry.get("paddle_api"):
            out[api] = entry["paddle_api"]
        elif entry.get("Matcher") == "ChangePrefixMatcher":
            out[api] = "paddle" + api[len("torch"):]
        else:
            out[api] = ""
    return out


def scan(checkouts: Path) -> dict[str, Any]:
    """The inventory: per framework and API, the uses in each body; the bodies' provenance; and
    PaConvert's counterparts."""
    apis: dict[str, dict[str, dict[str, int]]] = {f: {} for f in METHOD_CLASSES}
    bodies = []
    for body in BODIES:
        files = body_files(_checkout(checkouts, body), body.folders, body.excluded)
        record = {"repository": body.repository, "commit": body.commit, "what": body.what,
                  "folders": list(body.folders), "excluded": list(body.excluded), "files": {}}
        for framework in body.frameworks:
            counts, using = scan_files(files, framework, method_owners(framework))
            record["files"][framework] = using
            for api, count in counts.items():
                apis[framework].setdefault(api, {})[body.repository] = count
        bodies.append(record)
    return {
        "versions": {f: importlib.import_module(f).__version__ for f in METHOD_CLASSES},
        "absent": {f: sorted(api for api in uses if not _exists(f, api)) for f, uses in apis.items()},
        "bodies": bodies,
        "mapping": {"repository": MAPPING.repository, "commit": MAPPING.commit,
                    "torch_to_paddle": dict(sorted(paconvert_mapping(checkouts).items()))},
        "apis": {f: dict(sorted(uses.items())) for f, uses in apis.items()},
    }


def write(inventory: dict[str, Any], path: Path = INVENTORY) -> None:
    path.write_text(json.dumps(inventory, indent=1, sort_keys=False) + "\n")


def load(path: Path = INVENTORY) -> dict[str, Any]:
    return json.loads(path.read_text())


# The framework namespaces a facade mirrors: modules, and classes whose instances programs use.
NAMESPACES = {
    "torch": ("torch", "torch.nn", "torch.nn.functional", "torch.nn.init", "torch.nn.utils",
              "torch.nn.utils.rnn", "torch.utils", "torch.utils.data", "torch.backends",
              "torch.backends.cudnn", "torch.backends.mps",
              "torch.autograd", "torch.autograd.functional", "torch.optim", "torch.optim.lr_scheduler",
              "torch.linalg", "torch.amp", "torch.cuda", "torch.func", "torch.Tensor", "torch.nn.Module",
              "torch.optim.Optimizer", "torch.autograd.Function"),
    "paddle": ("paddle", "paddle.nn", "paddle.nn.functional", "paddle.nn.initializer", "paddle.nn.utils",
               "paddle.autograd", "paddle.io", "paddle.optimizer", "paddle.optimizer.lr", "paddle.linalg",
               "paddle.amp",
               "paddle.base", "paddle.framework", "paddle.device", "paddle.incubate.autograd",
               "paddle.Tensor", "paddle.nn.Layer", "paddle.optimizer.Optimizer", "paddle.autograd.PyLayer"),
}


def framework_names() -> dict[str, Any]:
    """Each mirrored namespace's public names in the installed frameworks, listed by a fresh
    interpreter with the environment the frameworks see at their import: a module's ``dir``
    also shows the submodules imported so far, which depends on what the asking process did
    (importing paddle sets ``OMP_NUM_THREADS``, under which torch's import differs)."""
    code = ("import json, sys; from conformance.inventory import build; "
            "json.dump(build.names_here(), sys.stdout)")
    environment = {k: v for k, v in os.environ.items()
                   if k not in ("OMP_NUM_THREADS", "CUSTOM_DEVICE_ROOT")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env=environment)
    return json.loads(done.stdout)


def names_here() -> dict[str, Any]:
    """``framework_names`` in this process (imports both frameworks)."""
    out: dict[str, list[str]] = {}
    for framework, namespaces in NAMESPACES.items():
        root = importlib.import_module(framework)
        for namespace in namespaces:
            obj = resolve(root, namespace)
            out[namespace] = sorted(n for n in dir(obj) if not n.startswith("__"))
    return {"versions": {f: importlib.import_module(f).__version__ for f in NAMESPACES}, "namespaces": out}
