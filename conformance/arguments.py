"""The command line's value types: each option is parsed and checked where argparse reads it.

A value that is out of range, not a number, or a path that cannot be what the option needs (a
file where a folder is written, a folder where a file is) becomes argparse's error naming the
option, before any work starts and before any earlier report is touched.
"""

from __future__ import annotations

import argparse
import math
import os
from pathlib import Path
from typing import Callable

MAX_COUNT = 1_000_000  # generated cases or fuzz programs in one command
MAX_SEED = 2**63 - 1
MAX_SECONDS = 7 * 24 * 3600.0  # a timeout or a fuzz budget: a week


def bounded_int(low: int, high: int) -> Callable[[str], int]:
    """An integer from ``low`` to ``high``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"expected a number from {low:,} to {high:,}, got {text}")
        return value

    parse.__name__ = "number"  # what argparse calls the type in its own messages
    return parse


count = bounded_int(0, MAX_COUNT)
seed = bounded_int(0, MAX_SEED)


def seconds(text: str) -> float:
    """A number of seconds above zero, at most :data:`MAX_SECONDS`."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not (math.isfinite(value) and 0 < value <= MAX_SECONDS):
        raise argparse.ArgumentTypeError(f"expected seconds above 0 and at most {MAX_SECONDS:,.0f}, "
                                         f"got {text}")
    return value


def output_folder(text: str) -> str:
    """A folder to write into: it may not exist yet, but it is not a file, and what it would be
    made in is a folder."""
    path = Path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a file, not a folder")
    _check_parents(path, text)
    return text


def output_file(text: str) -> str:
    """A file to write: not a folder, and its folder can be made."""
    path = Path(text)
    if path.is_dir() or text.endswith(os.sep):
        raise argparse.ArgumentTypeError(f"{text} is a folder, not a file")
    if path.exists() and not os.access(path, os.W_OK):
        raise argparse.ArgumentTypeError(f"{text} cannot be written (permission denied)")
    _check_parents(path, text)
    return text


def _check_parents(path: Path, text: str) -> None:
    """The nearest existing folder above ``path`` must be a folder this process may write in."""
    for parent in path.absolute().parents:
        if parent.exists():
            if not parent.is_dir():
                raise argparse.ArgumentTypeError(f"{text}: {parent} is a file, not a folder")
            if not os.access(parent, os.W_OK | os.X_OK):
                raise argparse.ArgumentTypeError(f"{text}: cannot write in {parent} (permission "
                                                 "denied)")
            return


def plain_name(text: str) -> str:
    """A name that becomes one folder (a baseline's): no separators, not ``.`` or ``..``."""
    if not text or text in (".", "..") or "/" in text or (os.altsep or "/") in text \
            or os.sep in text or not text.isprintable():
        raise argparse.ArgumentTypeError(f"{text!r} is not a plain name (one folder's name, such as "
                                         "torch-2.13.0-cpu)")
    return text
