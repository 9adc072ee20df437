"""One run per report folder: a run holds a lock file in its ``--out`` while it writes there.

Two runs writing one folder would interleave their results and overwrite each other's reports.
The lock file names its holder (process id, host, start time and command); a second run into
the folder is refused with that name. A lock whose process is gone (a run that was killed) is
taken over, and the caller is told so.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import time
from pathlib import Path
from typing import Iterator, Optional

LOCK_FILE = ".autograd-oracle.lock"


class FolderInUseError(Exception):
    """Another live run holds the report folder."""


def _alive(holder: dict) -> bool:
    if holder.get("host") != socket.gethostname():
        return True  # another machine's process cannot be checked from here: assume it runs
    try:
        os.kill(int(holder["pid"]), 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # it exists, under another user
        return True
    except (KeyError, ValueError, TypeError):
        return False  # not a lock this tool wrote
    return True


def _describe(holder: dict) -> str:
    return (f"pid {holder.get('pid')} on {holder.get('host')}, started {holder.get('started')}: "
            f"autograd-oracle {' '.join(holder.get('argv') or [])}").rstrip(": ")


@contextlib.contextmanager
def run_lock(folder: Path, argv: list[str]) -> Iterator[Optional[str]]:
    """Hold ``folder``'s lock for the block; yields a note when it took over a dead run's lock.
    Raises ``FolderInUseError`` when a live run holds it."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / LOCK_FILE
    me = {"pid": os.getpid(), "host": socket.gethostname(),
          "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "argv": argv}
    note = None
    for _ in range(2):
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            try:
                holder = json.loads(path.read_text(encoding="utf-8") or "{}")
            except (OSError, json.JSONDecodeError):
                holder = {}
            if _alive(holder):
                raise FolderInUseError(f"{folder} is being written by another run ({_describe(holder)}); "
                                       "wait for it to end or choose another --out") from None
            note = f"took over the lock of a run that is gone ({_describe(holder)})"
            path.unlink(missing_ok=True)
            continue
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(me, handle)
        break
    else:
        raise FolderInUseError(f"{folder}: another run took the lock while this one was taking it over")
    try:
        yield note
    finally:
        with contextlib.suppress(OSError):
            if json.loads(path.read_text(encoding="utf-8")).get("pid") == me["pid"]:
                path.unlink()
