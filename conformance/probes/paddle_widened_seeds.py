"""Measure what paddle's gradient kernels do with a seed wider than the output they recorded.

A write under ``no_grad`` that promotes (``out.multiply_(float64 tensor)`` on a float32 output)
widens a root after its node recorded it; ``backward()`` then fills the root's seed in its new
dtype and hands it to the node as it is. The root's hooks and retained gradient see it so; what
the node's kernel makes of it depends on the kernel:

- ``wide``: the kernel computes in the seed's dtype and hands that on (scale, add, reshape,
  concat…); a leaf made from data collects a float64 ``.grad``;
- ``recorded``: the input's gradient comes out in the dtype the node recorded (sum, mean, cast);
- ``refuse: seed dtype``: a kernel typed by the gradient cannot read a saved operand as the
  seed's dtype (multiply, sin, clip…);
- ``refuse: recorded dtype``: a kernel typed by its input cannot read the seed as the input's
  dtype (slice, transpose, abs…);
- ``refuse: list dtypes``: a kernel that concatenates the gradients of several outputs refuses
  pieces of two dtypes (split);
- ``version``: the node saved the output the write changed, which paddle refuses first.

A write into some views (a transpose, a slice of columns) is refused, but only once it has made
the view float64 (its values are then uninitialised memory); ``write`` records that refusal,
and the backward that follows is measured all the same.

Every form of ``paddle_kernels.FORMS`` and of the op registry's elementwise ops is measured with
float32 inputs (and constants) made from data. An entry records the node's name and the outcome,
per input of the form for the ``wide``/``recorded`` ones::

    python -m conformance.probes.paddle_widened_seeds                          # the installed paddle
    python -m conformance.probes.paddle_widened_seeds reference_engine.paddle  # the reference
    python -m conformance.probes.paddle_widened_seeds --write                  # refresh the table

The reference's paddle policy reads the committed table
(``reference_engine/dialects/paddle_widened_seeds.json``); ``tests/test_paddle_widened_seeds.py``
checks that it is what paddle measures, whenever paddle is installed, and what the reference
measures, always.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

import reference_engine
from conformance.corpus.op_registry import REGISTRY, RegisteredOp
from conformance.probes.measured_table import run, table_text
from conformance.probes.paddle_kernels import FORMS, Form, unary_input

TABLE_FILE = Path(reference_engine.__file__).resolve().parent / "dialects" / "paddle_widened_seeds.json"

def _registry_form(entry: RegisteredOp) -> Form:
    """The op registry's elementwise ``entry``, called as paddle spells it on operands from its
    domain, with its first keyword set."""
    call = entry.paddle
    assert call is not None
    keywords = {call.keyword(k): v for k, v in entry.samples[0].items()}

    def apply(fw: Any, *operands: Any) -> Any:
        if call.is_method:
            return getattr(operands[0], call.path[1:])(*operands[1:], **keywords)
        target = fw
        for part in call.path.split("."):
            target = getattr(target, part)
        return target(*operands, **keywords)

    return (unary_input(entry.name) * entry.operands, apply)


# the measured forms: the higher-order probe's, two whose writes paddle allows where that
# probe's spelling refuses it (an integer index, ``.t()``), and the registry's elementwise ops
# (paddle's unstack is left out: its kernel crashes the process on a widened piece)
MEASURED_FORMS: dict[str, Form] = {
    **FORMS,
    "getitem/int": ([[[0.5, 1.2, 0.8], [1.5, 0.3, 0.9]]], lambda fw, x: x[1]),
    "transpose/t": ([[[0.5, 1.2, 0.8], [1.5, 0.3, 0.9]]], lambda fw, x: x.t()),
    **{f"registry/{entry.name}": _registry_form(entry) for entry in REGISTRY
       if entry.paddle is not None and entry.layout == "elementwise" and entry.name not in FORMS},
}

_RETRIEVE = re.compile(r"The type of data we are trying to retrieve \((\w+)\)")


def _refusal(exc: Exception) -> str:
    text = str(exc)
    if type(exc).__name__ == "UndefinedInFrameworkError":  # (the reference's refusal)
        return "undefined"
    if "has been modified by an inplace operation" in text:
        return "version"
    found = _RETRIEVE.search(text)
    if found:
        return "refuse: seed dtype" if found.group(1) == "float64" else "refuse: recorded dtype"
    if "The data_type of input tensor in list isn't consistent" in text:
        return "refuse: list dtypes"
    return f"error: {type(exc).__name__}: {text.splitlines()[0]}"


def _dtype_outcome(grad: Any) -> str:
    if grad is None:
        return "none"
    return "wide" if str(grad.dtype).endswith("float64") else "recorded"


class _Float32Constants:
    """``module`` with the constants a form makes from float64 data made float32, as its inputs
    are: the form's op then records float32 throughout."""

    def __init__(self, module: ModuleType) -> None:
        self._module = module

    def __getattr__(self, name: str) -> Any:
        return getattr(self._module, name)

    def to_tensor(self, data: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(data, np.ndarray) and data.dtype == np.float64 and not args and "dtype" not in kwargs:
            data = data.astype(np.float32)
        return self._module.to_tensor(data, *args, **kwargs)


def probe_form(module: ModuleType, form: Form) -> dict[str, str]:
    """One form's entry: its node, the inputs the node lists, and what the widened seed gives."""
    values, op = form
    inputs = [module.to_tensor(np.asarray(v, dtype="float32"), stop_gradient=False) for v in values]
    out = op(_Float32Constants(module), *inputs)
    entry = {"node": out.grad_fn.name()}
    try:
        with module.no_grad():
            out.multiply_(module.to_tensor(2.0, dtype="float64"))
    except Exception as exc:  # a view's write refused after it widened the view (not its values)
        entry["write"] = _refusal(exc)
    try:
        module.autograd.backward([out])
    except Exception as exc:  # the kernel's refusal, or one that comes before it
        entry["outcome"] = _refusal(exc)
        return entry
    entry["outcome"] = ",".join(_dtype_outcome(t.grad) for t in inputs)
    return entry


def probe(module: ModuleType) -> dict[str, dict[str, str]]:
    """The whole table, measured on ``module`` (paddle, or a module shaped like it)."""
    return {name: probe_form(module, form) for name, form in MEASURED_FORMS.items()}


def render(table: dict[str, dict[str, str]], version: str) -> str:
    """The table as the text of ``reference_engine/dialects/paddle_widened_seeds.json``."""
    about = ("what paddle's gradient kernels do with a seed wider than the output they recorded, "
             "as measured by `python -m conformance.probes.paddle_widened_seeds --write` (see that "
             "module for what an outcome means). The reference's paddle policy reads it; do not "
             "edit by hand.")
    return table_text("forms", table, version, about)


def _show(table: dict[str, dict[str, str]]) -> None:
    for form, entry in table.items():
        refused = f"  (write: {entry['write']})" if "write" in entry else ""
        print(f"{form:<28} {entry['node']:<28} {entry['outcome']}{refused}")


def main(argv: list[str] | None = None) -> int:
    return run(argv, __doc__.split("\n\n")[0], TABLE_FILE, probe, render, _show)


if __name__ == "__main__":
    sys.exit(main())
