"""The memory cap of a backend process: a case that needs more fails alone, as ``crashed``.

Without a cap, a case that expands a tensor to 20000 × 20000 and multiplies it by itself takes
the machine down with every other run on it. Each backend process on the CPU runs under a
data-segment limit (``RLIMIT_DATA``: the private writable memory it maps, which is where every
array lives); an allocation past it raises ``MemoryError`` in Python or the framework's own
out-of-memory error, the interpreter turns either into ``OutOfMemory``, and the process reports
the case and exits, to be replaced by a fresh one. The default leaves the machine usable: half
its memory, shared among the backend processes of the run, and never less than ``FLOOR`` (a
framework's import alone takes most of a gigabyte).

Not the address space (``RLIMIT_AS``): CUDA's driver reserves address space far beyond what it
uses, so under such a cap a CPU process that merely asks ``torch.cuda.is_available()`` fails to
initialise CUDA and warns ("CUDA initialization: ... out of memory"), measured on an NVIDIA H200;
under the data limit it initialises and still cannot allocate past the cap. A CUDA process is
not capped at all: its memory is the device's.
"""

from __future__ import annotations

import os
import re
from typing import Optional

FLOOR = 4 << 30
_UNITS = {"": 1, "B": 1, "K": 1 << 10, "KB": 1 << 10, "M": 1 << 20, "MB": 1 << 20,
          "G": 1 << 30, "GB": 1 << 30, "T": 1 << 40, "TB": 1 << 40}
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([KMGT]?B?)\s*$", re.I)
_OUT_OF_MEMORY = re.compile(r"can't allocate memory|cannot allocate memory|out of memory|"
                            r"ResourceExhausted|std::bad_alloc", re.I)


class OutOfMemory(MemoryError):  # noqa: N818 - what happened, as MemoryError says it
    """A case needed more memory than its backend process may use."""


def is_out_of_memory(exc: BaseException) -> bool:
    """Whether an exception says an allocation failed (Python's, torch's or paddle's words)."""
    return isinstance(exc, MemoryError) or bool(_OUT_OF_MEMORY.search(str(exc)[:2000]))


def parse_size(text: str) -> Optional[int]:
    """``"1GB"`` → bytes (units K, M, G, T with or without B, powers of 1024); ``"none"`` or
    ``"0"`` → None (no cap). Raises ValueError for anything else."""
    if text.strip().lower() in ("none", "0", "off"):
        return None
    match = _SIZE.match(text)
    if not match:
        raise ValueError(f"expected a size such as 1GB, 512MB or none, got {text!r}")
    return int(float(match.group(1)) * _UNITS[match.group(2).upper()])


def format_size(size: Optional[int]) -> str:
    if size is None:
        return "no cap"
    for unit in ("TB", "GB", "MB", "KB"):
        if size >= _UNITS[unit]:
            return f"{size / _UNITS[unit]:.3g} {unit}"
    return f"{size} B"


def physical_memory() -> int:
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def default_cap(processes: int) -> int:
    """Half the machine's memory shared among ``processes`` backend processes, at least FLOOR."""
    return max(physical_memory() // 2 // max(processes, 1), FLOOR)


def limit_memory(cap: Optional[int]) -> None:
    """Cap this process's data memory (call it in a backend process, before the framework is
    imported)."""
    if cap is None:
        return
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_DATA, (cap, hard))
