"""``repr`` of a tensor in torch's print format (``tensor([1., 2.], requires_grad=True)``).

Follows ``torch/_tensor_str.py``: four decimals, integer mode when every finite value is whole,
scientific mode for wide ranges, right-aligned columns, wrapping at 80 characters and
summarising tensors of more than 1000 elements with their first and last three entries.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np

from reference_engine.dtypes import is_floating

PRECISION = 4
LINEWIDTH = 80
THRESHOLD: float = 1000
EDGEITEMS = 3
SCI_MODE: Any = None  # None: chosen from the values; True or False: forced

_PROFILES = {"default": (4, 1000, 3, 80), "short": (2, 1000, 2, 80), "full": (4, math.inf, 3, 80)}


def set_print_options(precision: Any = None, threshold: Any = None, edgeitems: Any = None,
                      linewidth: Any = None, profile: Any = None, sci_mode: Any = None) -> None:
    """``torch.set_printoptions``: a profile sets all four numbers, each given one overrides it;
    ``sci_mode`` is always set (None: chosen from the values)."""
    global PRECISION, THRESHOLD, EDGEITEMS, LINEWIDTH, SCI_MODE
    if profile is not None:
        PRECISION, THRESHOLD, EDGEITEMS, LINEWIDTH = _PROFILES[profile]
    PRECISION = PRECISION if precision is None else precision
    THRESHOLD = THRESHOLD if threshold is None else threshold
    EDGEITEMS = EDGEITEMS if edgeitems is None else edgeitems
    LINEWIDTH = LINEWIDTH if linewidth is None else linewidth
    SCI_MODE = sci_mode


class _Formatter:
    def __init__(self, values: np.ndarray) -> None:
        self.floating = is_floating(values.dtype)
        if self.floating and values.dtype.kind != "f":  # bfloat16: formatted from its float32 values
            values = values.astype(np.float32)
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1
        flat = values.reshape(-1)
        if not self.floating:
            for v in flat.tolist():
                self.max_width = max(self.max_width, len(str(v)))
            return
        finite = flat[np.isfinite(flat) & (flat != 0)].astype(np.float64)
        if finite.size == 0:
            return
        magnitudes = np.abs(finite)
        low, high = float(magnitudes.min()), float(magnitudes.max())
        self.int_mode = bool(np.all(finite == np.ceil(finite)))
        wide = high / low > 1000.0 or high > 1.0e8
        if SCI_MODE is not None:
            wide = bool(SCI_MODE)
        if self.int_mode:
            self.sci_mode = wide
            template = f"{{:.{PRECISION}e}}" if wide else "{:.0f}"
            extra = 0 if wide else 1
        else:
            self.sci_mode = wide or (low < 1.0e-4 and SCI_MODE is None)
            template = f"{{:.{PRECISION}e}}" if self.sci_mode else f"{{:.{PRECISION}f}}"
            extra = 0
        for v in finite.tolist():
            self.max_width = max(self.max_width, len(template.format(v)) + extra)

    def width(self) -> int:
        return self.max_width

    def format(self, value: object) -> str:
        if self.floating:
            v = float(value)  # type: ignore[arg-type]
            if self.sci_mode:
                text = "{:{w}.{p}e}".format(v, w=self.max_width, p=PRECISION)
            elif self.int_mode:
                text = f"{v:.0f}" + ("" if math.isinf(v) or math.isnan(v) else ".")
            else:
                text = "{:.{p}f}".format(v, p=PRECISION)
        else:
            text = str(value)
        return (self.max_width - len(text)) * " " + text


def _summarized(data: np.ndarray) -> np.ndarray:
    if data.ndim == 0:
        return data
    if data.shape[0] > 2 * EDGEITEMS:
        parts = [data[:EDGEITEMS], data[-EDGEITEMS:]]
        return np.concatenate([_summarized(p) for p in parts]) if data.ndim == 1 else \
            np.stack([_summarized(x) for x in (*parts[0], *parts[1])])
    return np.stack([_summarized(x) for x in data]) if data.ndim > 1 else data


def _vector(data: np.ndarray, indent: int, summarize: bool, fmt: _Formatter) -> str:
    per_line = max(1, int(math.floor((LINEWIDTH - indent) / (fmt.width() + 2))))
    if summarize and data.shape[0] > 2 * EDGEITEMS:
        items = ([fmt.format(v) for v in data[:EDGEITEMS].tolist()] + [" ..."]
                 + [fmt.format(v) for v in data[-EDGEITEMS:].tolist()])
    else:
        items = [fmt.format(v) for v in data.tolist()]
    lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _nested(data: np.ndarray, indent: int, summarize: bool, fmt: _Formatter) -> str:
    if data.ndim == 0:
        return fmt.format(data.item())
    if data.ndim == 1:
        return _vector(data, indent, summarize, fmt)
    if summarize and data.shape[0] > 2 * EDGEITEMS:
        rows = ([_nested(data[i], indent + 1, summarize, fmt) for i in range(EDGEITEMS)] + ["..."]
                + [_nested(data[i], indent + 1, summarize, fmt)
                   for i in range(data.shape[0] - EDGEITEMS, data.shape[0])])
    else:
        rows = [_nested(x, indent + 1, summarize, fmt) for x in data]
    return "[" + ("," + "\n" * (data.ndim - 1) + " " * (indent + 1)).join(rows) + "]"


def tensor_body(data: np.ndarray, indent: int) -> str:
    """The nested-list part of the print, with torch's widths and line breaks."""
    if data.size == 0:
        return "[]"
    summarize = data.size > THRESHOLD
    fmt = _Formatter(_summarized(data) if summarize else data)
    return _nested(data, indent, summarize, fmt)


def with_suffixes(text: str, suffixes: Sequence[str], indent: int) -> str:
    """Append ``, name=value`` suffixes, breaking the line where torch breaks it."""
    parts = [text]
    last_line = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if last_line + len(suffix) + 2 > LINEWIDTH:
            parts.append(",\n" + " " * indent + suffix)
            last_line = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


# --- paddle's print format (paddle/tensor/to_string.py) -------------------------------------

PADDLE_PRECISION = 8


def _paddle_item(value: Any, max_width: int = 0, signed: bool = False) -> str:
    if isinstance(value, np.floating):
        if np.ceil(value) == value:
            text = f"{value:.0f}."
        else:
            text = f"{value:.{PADDLE_PRECISION}f}"
    else:
        text = f"{value}"
    if max_width > len(text):
        if signed:
            return text.ljust(max_width) if value < 0 else " " + text.ljust(max_width - 1)
        return text.ljust(max_width)
    return text


def _paddle_summary(data: np.ndarray) -> np.ndarray:
    if data.size == 0:
        return np.array([])
    if data.ndim == 0:
        return data
    if data.ndim == 1:
        return np.concatenate([data[:EDGEITEMS], data[-EDGEITEMS:]]) \
            if data.shape[0] > 2 * EDGEITEMS else data
    rows = list(data[:EDGEITEMS]) + list(data[-EDGEITEMS:]) if data.shape[0] > 2 * EDGEITEMS \
        else list(data)
    return np.stack([_paddle_summary(x) for x in rows])


def _paddle_nested(data: np.ndarray, summary: bool, indent: int, width: int, signed: bool) -> str:
    if data.ndim == 0:
        return _paddle_item(data[()], width, signed)
    count = data.shape[0]
    shown = (list(range(EDGEITEMS)) + [None] + list(range(count - EDGEITEMS, count))
             if summary and count > 2 * EDGEITEMS else list(range(count)))
    if data.ndim == 1:
        per_line = max(1, (LINEWIDTH - indent) // (width + 2))
        items = ["..." if i is None else _paddle_item(data[i], width, signed) for i in shown]
        lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
        return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"
    rows = ["..." if i is None else _paddle_nested(data[i], summary, indent + 1, width, signed)
            for i in shown]
    return "[" + ("," + "\n" * (data.ndim - 1) + " " * (indent + 1)).join(rows) + "]"


def paddle_repr(data: np.ndarray, stop_gradient: bool, place: str = "Place(cpu)") -> str:
    """``Tensor(shape=[2], dtype=float32, place=Place(cpu), stop_gradient=True,\\n       [1., 2.])``."""
    prefix = "Tensor"
    indent = len(prefix) + 1
    summary = data.size > THRESHOLD
    # bfloat16 (ml_dtypes' type, not a numpy floating one) is shown as its float32 values
    shown = data.astype(np.float32) if data.dtype.name == "bfloat16" else data
    width, signed = 0, False
    for item in _paddle_summary(shown).flatten():
        signed = signed or bool(item < 0)
        width = max(width, len(_paddle_item(item)))
    body = _paddle_nested(shown, summary, indent, width, signed)
    return (f"{prefix}(shape={list(data.shape)}, dtype={data.dtype}, place={place}, "
            f"stop_gradient={stop_gradient},\n{' ' * indent}{body})")
