"""``torch.set_num_threads`` and its kin: the counts a program sets and reads back. The
reference engine runs on one thread whatever they say; they only answer as torch does
(``OMP_NUM_THREADS``, else the machine's CPUs, until set)."""

from __future__ import annotations

import os
from typing import Any

__all__ = ["get_num_interop_threads", "get_num_threads", "set_num_interop_threads", "set_num_threads"]

_SET: dict[str, int] = {}


def _checked(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuntimeError(f"{name} expects an int, but got {type(value).__name__}")
    if value <= 0:
        raise RuntimeError(f"{name} expects a positive integer")
    return value


def set_num_threads(nthreads: int) -> None:
    _SET["intra"] = _checked("set_num_threads", nthreads)


def get_num_threads() -> int:
    if "intra" in _SET:
        return _SET["intra"]
    given = os.environ.get("OMP_NUM_THREADS", "")
    return int(given) if given.isdigit() and int(given) > 0 else (os.cpu_count() or 1)


def set_num_interop_threads(nthreads: int) -> None:
    _SET["inter"] = _checked("set_num_interop_threads", nthreads)


def get_num_interop_threads() -> int:
    return _SET.get("inter", os.cpu_count() or 1)
