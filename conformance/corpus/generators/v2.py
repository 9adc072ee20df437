"""Generator version 2: the base's programs (``generators/base.py``) without extensions.

Kept byte for byte (its corpus hash is pinned): the default corpus before version 3.
"""

from __future__ import annotations

from typing import Any

from conformance.corpus.generators.base import build_case

VERSION = 2


def generate_case(seed: int, index: int) -> dict[str, Any]:
    """Case ``index`` of the corpus ``seed``."""
    return build_case(seed, index, VERSION)
