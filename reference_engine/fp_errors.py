"""Floating-point errors as values: numpy computes inf and nan silently, as both frameworks do.

``np.errstate(all="ignore")`` says the same, but building and entering one costs about as much as
a small op's numpy work, and the engine enters it once per op. ``ignored()`` sets numpy's error
state directly (the context variable ``errstate`` itself sets) and ``restore`` puts the previous
one back; on a numpy without that variable they fall back to ``errstate``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    from numpy._core._ufunc_config import _extobj_contextvar, _make_extobj
except ImportError:  # numpy < 2 or a later layout: the public, slower way
    _extobj_contextvar = None


if _extobj_contextvar is not None:
    _IGNORE_ALL = _make_extobj(all="ignore")

    def ignored() -> Any:
        """Ignore floating-point errors until ``restore(token)``; returns the token."""
        return _extobj_contextvar.set(_IGNORE_ALL)

    def restore(token: Any) -> None:
        """Restore the error state ``ignored()`` replaced."""
        _extobj_contextvar.reset(token)
else:
    def ignored() -> Any:
        """Ignore floating-point errors until ``restore(token)``; returns the token."""
        state = np.errstate(all="ignore")
        state.__enter__()
        return state

    def restore(token: Any) -> None:
        """Restore the error state ``ignored()`` replaced."""
        token.__exit__(None, None, None)
