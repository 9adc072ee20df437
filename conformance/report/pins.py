"""The framework versions the project pins, and whether a run used them.

The pins are those of ``constraints.txt`` (``torch==2.13.0``), held here so that an installed
copy knows them too (a test keeps the two equal). A run on another version (a device machine's
own torch, a release candidate) still reports, but its summary and report say that its results
are not from the pinned framework.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Optional

# what constraints.txt pins (tests/test_device_parity.py keeps the two equal)
DEFAULT_PINS = {"torch": "2.13.0", "paddle": "3.3.1"}
DISTRIBUTIONS = {"torch": "torch", "paddle": "paddlepaddle"}
_PIN = re.compile(r"^\s*([A-Za-z0-9_.-]+)\s*==\s*([^\s;#]+)")


def pinned_versions(path: Optional[Path] = None) -> dict[str, str]:
    """``{"torch": "2.13.0", "paddle": "3.3.1"}``: the project's pins, or those of a constraints
    file."""
    if path is None:
        return dict(DEFAULT_PINS)
    found = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        match = _PIN.match(line)
        if match:
            found[match.group(1).lower()] = match.group(2)
    return {framework: found[dist] for framework, dist in DISTRIBUTIONS.items() if dist in found}


def framework_pins(target: dict[str, Any],
                   pins: Optional[dict[str, str]] = None) -> dict[str, dict[str, Any]]:
    """For each framework that ran: the pinned version, the one that ran, and whether they are
    the same release (a local build suffix such as ``+cpu`` does not count)."""
    pins = pinned_versions() if pins is None else pins
    out: dict[str, dict[str, Any]] = {}
    for framework, ran in ((f, target.get(f)) for f in DISTRIBUTIONS):
        if ran is None:
            continue
        pinned = pins.get(framework)
        out[framework] = {"pinned": pinned, "ran": ran,
                          "is_pinned": pinned is not None and ran.split("+")[0] == pinned}
    return out
