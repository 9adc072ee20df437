"""How torch's losses read their reduction from the legacy ``size_average`` / ``reduce`` flags."""

from __future__ import annotations

import warnings
from typing import Any


def legacy_reduction(size_average: Any, reduce: Any) -> str:
    """The ``reduction`` torch reads from the legacy flags (each None meaning True), warning
    as torch warns."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    reduction = "mean" if size_average and reduce else ("sum" if reduce else "none")
    warnings.warn(f"size_average and reduce args will be deprecated, please use reduction='{reduction}' "
                  "instead.", UserWarning, stacklevel=3)
    return reduction
