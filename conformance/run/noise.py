"""Warnings a framework prints about its own start-up or environment: never a case's observation.

A warning a program's step raises is what the program observes, and the judge compares it. Some
warnings say nothing about the program: torch warns that CUDA could not initialise when a
process cannot reach the driver (seen on a GPU machine when the first call that asks about CUDA
ran inside a case), paddle's import warns that it finds no ccache. Whether they appear depends
on the machine, the process and which case ran first in it, so recording them would make the
results depend on ``-n``. Each pattern here is such a warning, as measured.
"""

from __future__ import annotations

import re

ENVIRONMENT_WARNINGS = re.compile(
    r"^CUDA initialization: "          # torch: the driver could not be reached from this process
    r"|^No ccache found"                # paddle's import: its C++ extension builder
)


def is_environment_noise(message: str) -> bool:
    """Whether a warning's text is about the framework's start-up or environment."""
    return ENVIRONMENT_WARNINGS.search(message) is not None
