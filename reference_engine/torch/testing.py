"""``torch.testing.assert_close``: tensors, numbers and sequences of them compared elementwise
within the dtype's default tolerances, failing with torch 2.13's messages (the mismatch count,
the greatest absolute and relative differences and where they are, the item of a sequence);
and the deprecated ``assert_allclose`` over it."""

from __future__ import annotations

import warnings
from typing import Any, Optional

import numpy as np

from reference_engine.torch._core import Tensor
from reference_engine.torch._core import tensor as as_tensor

__all__ = ["assert_allclose", "assert_close"]

# torch's default (rtol, atol) by dtype; integers and booleans compare exactly
_PRECISIONS = {"float16": (1e-3, 1e-5), "bfloat16": (1.6e-2, 1e-5), "float32": (1.3e-6, 1e-5),
               "float64": (1e-7, 1e-7)}


def _difference_line(kind: str, diff: float, index: Optional[tuple[int, ...]], tolerance: float) -> str:
    line = f"{kind.title()} difference: {diff}" if index is None else \
        f"Greatest {kind} difference: {diff} at index {index}"
    return line + (f" (up to {tolerance} allowed)" if tolerance > 0 else "")


def _mismatch(identifier: str, extra: str, abs_diff: Any, abs_index: Any, rel_diff: Any, rel_index: Any,
              rtol: float, atol: float) -> str:
    equality = rtol == 0 and atol == 0
    lines = [f"{identifier} are not {'equal' if equality else 'close'}!", "", extra,
             _difference_line("absolute", abs_diff, abs_index, atol),
             _difference_line("relative", rel_diff, rel_index, rtol)]
    return "\n".join(lines)


def _compare(actual: Tensor, expected: Tensor, rtol: Optional[float], atol: Optional[float],
             equal_nan: bool, check_dtype: bool) -> Optional[str]:
    """The failure message for two tensors, or None where they are close."""
    if actual.shape != expected.shape:
        return f"The values for attribute 'shape' do not match: {actual.shape} != {expected.shape}."
    if check_dtype and actual.dtype != expected.dtype:
        return f"The values for attribute 'dtype' do not match: {actual.dtype} != {expected.dtype}."
    name = str(actual.dtype).split(".")[-1]
    default = _PRECISIONS.get(name, (0.0, 0.0))
    rtol, atol = (default[0] if rtol is None else rtol), (default[1] if atol is None else atol)
    a, e = actual._data, expected._data.astype(actual._data.dtype)
    floating = a.dtype.kind in "fc"
    if not floating:
        a, e = a.astype(np.int64), e.astype(np.int64)
    with np.errstate(all="ignore"):
        matches = np.abs(a - e) <= np.asarray(atol, a.dtype if floating else np.float64) + \
            np.asarray(rtol, a.dtype if floating else np.float64) * np.abs(e)
        matches = matches | (a == e) | (equal_nan & np.isnan(a) & np.isnan(e) if floating else False)
        if matches.all():
            return None
        if a.shape == ():
            abs_diff = abs(a.item() - e.item())
            rel_diff = float("inf") if e.item() == 0 else abs_diff / abs(e.item())
            return _mismatch("Scalars", f"Expected {e.item()} but got {a.item()}.", abs_diff, None, rel_diff,
                             None, rtol, atol)
        abs_flat = np.abs(a - e).reshape(-1)
        abs_flat[matches.reshape(-1)] = 0
        # integers' relative differences are divided in the default float dtype, as torch's are
        rel_flat = abs_flat / np.abs(e.reshape(-1)) if floating else \
            (abs_flat.astype(np.float32) / np.abs(e.reshape(-1)).astype(np.float32))
        rel_flat[matches.reshape(-1)] = 0
    count, mismatched = matches.size, int(matches.size - matches.sum())
    extra = f"Mismatched elements: {mismatched} / {count} ({mismatched / count:.1%})"
    where = [_greatest(v) for v in (abs_flat, rel_flat)]
    places = [tuple(int(i) for i in np.unravel_index(w, a.shape)) for w in where]
    return _mismatch("Tensor-likes", extra, abs_flat[where[0]].item(), places[0],
                     rel_flat[where[1]].item(), places[1], rtol, atol)


def _greatest(values: np.ndarray) -> int:
    """Where ``torch.max`` finds the greatest value: the first NaN if there is one, else the
    first of the largest."""
    nans = np.flatnonzero(np.isnan(values))
    return int(nans[0]) if nans.size else int(np.argmax(values))


def _as_tensor(value: Any) -> Tensor:
    """A number as torch compares it: a Python float as float64, an int as int64."""
    if isinstance(value, Tensor):
        return value
    if isinstance(value, bool):
        return as_tensor(np.asarray(value))
    if isinstance(value, int):
        return as_tensor(np.asarray(value, np.int64))
    if isinstance(value, float):
        return as_tensor(np.asarray(value, np.float64))
    return as_tensor(value)


def _first_failure(actual: Any, expected: Any, path: str, **options: Any) -> Optional[str]:
    if isinstance(expected, (list, tuple)):
        for i, (a, e) in enumerate(zip(actual, expected)):
            failure = _first_failure(a, e, f"{path}[{i}]", **options)
            if failure is not None:
                return failure
        return None
    a, e = _as_tensor(actual), _as_tensor(expected)
    failure = _compare(a.detach(), e.detach(), **options)
    if failure is None or not path:
        return failure
    return f"{failure}\n\nThe failure occurred for item {path}"


def assert_close(actual: Any, expected: Any, *, allow_subclasses: bool = True, rtol: Optional[float] = None,
                 atol: Optional[float] = None, equal_nan: bool = False, check_device: bool = True,
                 check_dtype: bool = True, check_layout: bool = True, check_stride: bool = False,
                 msg: Optional[str] = None) -> None:
    """Raise ``AssertionError`` unless ``actual`` and ``expected`` are close (``|a - e| <=
    atol + rtol |e|`` elementwise, in the dtype's arithmetic)."""
    failure = _first_failure(actual, expected, "", rtol=rtol, atol=atol, equal_nan=equal_nan,
                             check_dtype=check_dtype)
    if failure is not None:
        raise AssertionError(msg if msg is not None else failure)


# the tolerances assert_allclose took before assert_close (relative, absolute), by dtype
_LEGACY_TOLERANCES = {np.dtype(np.float16): (1e-3, 1e-3), np.dtype(np.float32): (1e-4, 1e-5),
                      np.dtype(np.float64): (1e-5, 1e-8)}


def assert_allclose(actual: Any, expected: Any, rtol: Optional[float] = None, atol: Optional[float] = None,
                    equal_nan: bool = True, msg: str = "") -> None:
    """The deprecated ``torch.testing.assert_allclose``: ``assert_close`` with its older
    tolerances (the looser of the two dtypes'), NaNs equal and dtypes unchecked; it warns."""
    warnings.warn("`torch.testing.assert_allclose()` is deprecated since 1.12 and will be removed in a "
                  "future release. Please use `torch.testing.assert_close()` instead. You can find "
                  "detailed upgrade instructions in https://github.com/pytorch/pytorch/issues/61844.",
                  FutureWarning, stacklevel=2)
    actual = actual if isinstance(actual, Tensor) else as_tensor(actual)
    expected = expected if isinstance(expected, Tensor) else as_tensor(expected, dtype=actual.dtype)
    if rtol is None and atol is None:
        pairs = [_LEGACY_TOLERANCES.get(t._data.dtype, (0.0, 0.0)) for t in (actual, expected)]
        rtol, atol = max(p[0] for p in pairs), max(p[1] for p in pairs)
    assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan, check_dtype=False,
                 msg=msg or None)

