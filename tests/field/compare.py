"""Comparing two printouts of one program: the same text, with each number allowed to differ by
float32 rounding (the frameworks' kernels sum and fuse in orders the reference does not copy
bit for bit; paddle prints eight decimals)."""

from __future__ import annotations

import re

NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
# where an object lives in memory (``<MulBackward0 object at 0x7f…>``) differs from run to run
ADDRESS = re.compile(r"\b0x[0-9a-fA-F]+\b")
RTOL, ATOL = 1e-4, 1e-6


def numbers_close(a: str, b: str) -> bool:
    x, y = float(a), float(b)
    return x == y or abs(x - y) <= ATOL + RTOL * abs(y)


def same_printout(ours: str, theirs: str) -> bool:
    """The same words and punctuation, and numbers equal up to rounding (memory addresses
    aside)."""
    if ours == theirs:
        return True
    ours, theirs = ADDRESS.sub("0x…", ours), ADDRESS.sub("0x…", theirs)
    if NUMBER.sub("#", ours) != NUMBER.sub("#", theirs):
        return False
    return all(numbers_close(a, b) for a, b in zip(NUMBER.findall(ours), NUMBER.findall(theirs)))


def first_difference(ours: str, theirs: str) -> str:
    """The first line that differs, both ways, for a failure message."""
    for i, (a, b) in enumerate(zip(ours.splitlines(), theirs.splitlines()), 1):
        if not same_printout(a, b):
            return f"line {i}:\n  reference: {a}\n  framework: {b}"
    return f"the printouts have {len(ours.splitlines())} and {len(theirs.splitlines())} lines"
