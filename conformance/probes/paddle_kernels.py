"""Measure paddle's higher-order gradient kernels: which orders exist, what each order's gradient
is connected to, and where a gradient is ``None`` rather than zeros.

For every op and argument form in ``FORMS`` the probe differentiates the op's output again and
again with ``paddle.grad(..., create_graph=True, allow_unused=True)``, along every path of
inputs: ``x.y`` is the derivative with respect to ``y`` of the first-order gradient with respect
to ``x``. The seed ``s`` of the first pass is an input too (it requires grad), so the table shows
which kernels read the incoming gradient. Each path ends in one outcome:

- ``None``: not connected (``allow_unused`` returned ``None``);
- ``zeros`` / ``value``: a tensor, all zeros or not, followed by ``+graph`` when it does not stop
  gradient and the pass recorded a node for it (its ``grad_fn``), ``+no grad_fn`` when it does
  not stop gradient but has no node;
- ``error: <kernel>``: the order does not exist; ``<kernel>`` is the kernel paddle names;
- ``error: undefined``: paddle fails inside a kernel (a shape check, an uninitialised tensor), which
  the reference refuses as undefined rather than imitating.

``x:node`` is the name of the node a first-order gradient comes from (its ``grad_fn``): paddle
names it after the op's gradient kernel (``ExpDoubleGradNode``), which the reference follows.

Connectivity is recorded for three orders (what the corpus's create_graph programs reach); a
fourth order is only asked whether it exists.

The same probe runs on any module shaped like paddle, so the reference engine's dialect is
measured the same way::

    python -m conformance.probes.paddle_kernels                          # the installed paddle
    python -m conformance.probes.paddle_kernels reference_engine.paddle  # the reference
    python -m conformance.probes.paddle_kernels --write                  # refresh the table

The reference's paddle policy reads the committed table (``reference_engine/dialects/paddle_kernels.json``);
``tests/test_paddle_kernels.py`` checks that the table is what paddle measures, whenever paddle is
installed, and what the reference measures, always.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

import numpy as np

import reference_engine
from conformance.corpus.op_registry import DOMAINS, REGISTERED
from conformance.probes.measured_table import run, table_text
from reference_engine.rule import elementwise_functions

CONNECTIVITY_ORDERS = 3  # every path up to this order; one order more for which orders exist
TABLE_FILE = Path(reference_engine.__file__).resolve().parent / "dialects" / "paddle_kernels.json"

# generic values: no ties, no zeros, away from every op's special points
_X = [[0.5, 1.2, 0.8], [1.5, 0.3, 0.9]]
_Y = [[1.1, 0.7, 1.3], [0.6, 1.4, 0.4]]
_ROW = [0.9, 1.6, 0.2]
_M = [[0.3, 1.1], [0.8, 0.5], [1.2, 0.7]]
_V2 = [0.4, 1.3]
_V3 = [0.7, 0.2, 1.1]
_B = [[[0.5, 1.2, 0.8], [1.5, 0.3, 0.9]], [[0.2, 0.6, 1.4], [1.0, 0.1, 0.7]]]
_BM = [[[0.3, 1.1], [0.8, 0.5], [1.2, 0.7]], [[0.9, 0.4], [0.6, 1.3], [0.2, 1.0]]]

def _set_row(fw: ModuleType, x: Any, row: Any) -> Any:
    out = x * 2.0
    out[0] = row
    return out


def _set_number(fw: ModuleType, x: Any) -> Any:
    out = x * 2.0
    out[0] = 0.5
    return out


# form name -> (input values, the op applied to the module and the input tensors)
Form = tuple[list[Any], Callable[..., Any]]
def unary_input(op: str) -> list[Any]:
    """``_X``, or where the op's domain (the op registry's) leaves some of it out, values spread
    over the domain, their signs alternating where it has both."""
    registered = REGISTERED.get(op)
    low, high, signed = DOMAINS[registered.domain if registered is not None else "any"]
    if all(low <= v * 1000 <= high for row in _X for v in row):
        return [_X]
    count = sum(len(row) for row in _X)
    spread = [(low + (high - low) * (i + 1) / (count + 1)) / 1000 * (-1 if signed and i % 2 else 1)
              for i in range(count)]
    return [[spread[i * len(_X[0]):(i + 1) * len(_X[0])] for i in range(len(_X))]]


FORMS: dict[str, Form] = {
    # the rule table's elementwise functions (each measured as it is added), abs, tanh, reciprocal
    **{op: (unary_input(op), lambda fw, x, op=op: getattr(fw, op)(x))
       for op in (*elementwise_functions(), "abs", "tanh", "reciprocal", "floor", "ceil", "round")},
    **{op: ([_X], lambda fw, x, op=op: getattr(fw.nn.functional, op)(x))
       for op in ("sigmoid", "relu")},
    # negative values too: the slope side
    "leaky_relu": ([[[0.5, -1.2, 0.8], [-1.5, 0.3, -0.9]]],
                   lambda fw, x: fw.nn.functional.leaky_relu(x, 0.1)),
    **{op: ([[[0.5, -1.2, 0.8], [-1.5, 0.3, -0.9]]],
            lambda fw, x, op=op: getattr(fw.nn.functional, op)(x)) for op in ("silu", "gelu")},
    "softplus": ([[[0.5, -1.2, 0.8], [-1.5, 0.3, -0.9]]],
                 lambda fw, x: fw.nn.functional.softplus(x, beta=2.0, threshold=1.0)),
    "elu": ([[[0.5, -1.2, 0.8], [-1.5, 0.3, -0.9]]], lambda fw, x: fw.nn.functional.elu(x, 0.5)),
    "neg": ([_X], lambda fw, x: -x),
    "clone": ([_X], lambda fw, x: x.clone()),
    **{f"{op}/tensor-tensor": ([_X, _Y], lambda fw, x, y, op=op: getattr(fw, op)(x, y))
       for op in ("add", "subtract", "multiply", "divide", "pow", "maximum", "minimum")},
    **{f"{op}/broadcast": ([_X, _ROW], lambda fw, x, y, op=op: getattr(fw, op)(x, y))
       for op in ("add", "subtract", "multiply", "divide", "pow", "maximum", "minimum")},
    **{f"{op}/constant": ([_X], lambda fw, x, op=op: getattr(fw, op)(x, fw.to_tensor(np.asarray(_Y))))
       for op in ("multiply", "divide", "maximum")},
    "add/tensor-number": ([_X], lambda fw, x: x + 2.0),
    "add/number-tensor": ([_X], lambda fw, x: 2.0 + x),
    "subtract/tensor-number": ([_X], lambda fw, x: x - 2.0),
    "subtract/number-tensor": ([_X], lambda fw, x: 2.0 - x),
    "multiply/tensor-number": ([_X], lambda fw, x: x * 3.0),
    "multiply/number-tensor": ([_X], lambda fw, x: 3.0 * x),
    "divide/tensor-number": ([_X], lambda fw, x: x / 3.0),
    "divide/number-tensor": ([_X], lambda fw, x: 3.0 / x),
    "pow/tensor-number": ([_X], lambda fw, x: x ** 3.0),
    "pow/number-tensor": ([_X], lambda fw, x: 3.0 ** x),
    "matmul/1d-1d": ([_V3, _V3], lambda fw, a, b: fw.matmul(a, b)),
    "matmul/2d-2d-constant": ([_X], lambda fw, a: fw.matmul(a, fw.to_tensor(np.asarray(_M)))),
    "matmul/2d-1d": ([_X, _V3], lambda fw, a, b: fw.matmul(a, b)),
    "matmul/1d-2d": ([_V3, _M], lambda fw, a, b: fw.matmul(a, b)),
    "matmul/2d-2d": ([_X, _M], lambda fw, a, b: fw.matmul(a, b)),
    "matmul/3d-3d": ([_B, _BM], lambda fw, a, b: fw.matmul(a, b)),
    "matmul/3d-2d": ([_B, _M], lambda fw, a, b: fw.matmul(a, b)),
    "matmul/2d-3d": ([_X, _BM], lambda fw, a, b: fw.matmul(a, b)),
    "matmul/3d-1d": ([_B, _V3], lambda fw, a, b: fw.matmul(a, b)),
    "matmul/1d-3d": ([_V3, _BM], lambda fw, a, b: fw.matmul(a, b)),
    # batches of different ranks: paddle cannot reduce the lower-rank side's gradient, so only
    # the higher-rank side requires grad
    "matmul/4d-3d": ([[_B]], lambda fw, a: fw.matmul(a, fw.to_tensor(np.asarray(_BM)))),
    "matmul/3d-4d": ([[_BM]], lambda fw, b: fw.matmul(fw.to_tensor(np.asarray(_B)), b)),
    "sum/all": ([_X], lambda fw, x: fw.sum(x)),
    "sum/axis": ([_X], lambda fw, x: fw.sum(x, axis=-1)),
    "mean/all": ([_X], lambda fw, x: fw.mean(x)),
    "prod/all": ([_X], lambda fw, x: fw.prod(x)),
    "norm/2": ([_X], lambda fw, x: fw.linalg.norm(x)),
    "norm/3": ([_X], lambda fw, x: fw.linalg.norm(x, p=3)),
    "prod/axis": ([_X], lambda fw, x: fw.prod(x, axis=1)),
    "mean/axis": ([_X], lambda fw, x: fw.mean(x, axis=0, keepdim=True)),
    **{f"{op}/all": ([_X], lambda fw, x, op=op: getattr(fw, op)(x))
       for op in ("max", "min", "amax", "amin")},
    **{f"{op}/axis": ([_X], lambda fw, x, op=op: getattr(fw, op)(x, axis=1))
       for op in ("max", "min", "amax", "amin")},
    "clip/both": ([_X], lambda fw, x: fw.clip(x, 0.4, 1.0)),
    "clip/min": ([_X], lambda fw, x: fw.clip(x, min=0.4)),
    "where/tensor-tensor": ([_X, _Y], lambda fw, x, y: fw.where(x > y, x, y)),
    "where/zeros": ([_X], lambda fw, x: fw.where(x > 0.7, x, fw.zeros_like(x))),
    "masked_fill": ([_X], lambda fw, x: fw.masked_fill(x, x > 0.7, 0.5)),
    "softmax": ([_X], lambda fw, x: fw.nn.functional.softmax(x, axis=-1)),
    "log_softmax": ([_X], lambda fw, x: fw.nn.functional.log_softmax(x, axis=-1)),
    "reshape": ([_X], lambda fw, x: fw.reshape(x, [3, 2])),
    "view": ([_X], lambda fw, x: fw.view(x, [3, 2])),
    "transpose": ([_X], lambda fw, x: fw.transpose(x, [1, 0])),
    "squeeze": ([[_ROW]], lambda fw, x: fw.squeeze(x, axis=0)),
    "unsqueeze": ([_X], lambda fw, x: fw.unsqueeze(x, axis=1)),
    "expand": ([[_ROW]], lambda fw, x: fw.expand(x, [2, 3])),
    "getitem/slice": ([_X], lambda fw, x: x[:, 1:]),
    "getitem/index": ([_X], lambda fw, x: x[[1, 0, 1]]),
    "concat": ([_X, _Y], lambda fw, x, y: fw.concat([x, y], axis=0)),
    "stack": ([_X, _Y], lambda fw, x, y: fw.stack([x, y], axis=1)),
    # one piece of several (the others are not differentiated)
    "split/num": ([_X], lambda fw, x: fw.split(x, 3, axis=1)[1]),
    "split/sections": ([_X], lambda fw, x: fw.split(x, [1, 2], axis=1)[1]),
    "unbind": ([_X], lambda fw, x: fw.unbind(x, axis=0)[0]),
    "cast": ([_X], lambda fw, x: fw.cast(x, "float32")),
    "fill_": ([_X], lambda fw, x: (x * 2.0).fill_(1.5)),
    "setitem/tensor": ([_X, _ROW], _set_row),
    "setitem/number": ([_X], _set_number),
}

_NO_GRAD_OP = re.compile(r"The Op (\w+) doesn't have any grad op")


def _outcome(module: ModuleType, g: Any) -> str:
    if g is None:
        return "None"
    kind = "zeros" if not np.any(np.asarray(g.numpy())) else "value"
    if g.stop_gradient:
        return kind
    return kind + ("+graph" if g.grad_fn is not None else "+no grad_fn")


def _error(module: ModuleType, exc: Exception) -> str:
    """The kernel an order lacks; ``undefined`` for paddle's internal failures and for the
    reference's refusals of them; anything else in full, so that it shows as a difference."""
    found = _NO_GRAD_OP.search(str(exc))
    if found:
        return "error: " + found.group(1)
    if module.__name__ == "paddle" or type(exc).__name__ == "UndefinedInFrameworkError":
        return "error: undefined"
    return f"error: {type(exc).__name__}: {exc}"


def probe_form(module: ModuleType, form: Form) -> dict[str, str]:
    """Every path's outcome for one form, in the order the paths are explored."""
    values, op = form
    inputs = [module.to_tensor(np.asarray(v, dtype="float64"), stop_gradient=False) for v in values]
    out = op(module, *inputs)
    seed = module.to_tensor(np.linspace(0.5, 1.5, int(np.prod(out.shape)) or 1)
                            .reshape(out.shape), dtype="float64", stop_gradient=False)
    names = ["x", "y", "z"][:len(inputs)] + ["s"]
    table: dict[str, str] = {}
    frontier: list[tuple[str, Any]] = [("", None)]
    for order in range(1, CONNECTIVITY_ORDERS + 2):
        next_frontier: list[tuple[str, Any]] = []
        for path, target in frontier:
            wrt = inputs if order == 1 else inputs + [seed]
            try:
                if order == 1:
                    grads = module.grad([out], wrt, grad_outputs=[seed], create_graph=True,
                                        allow_unused=True)
                else:
                    grads = module.grad([target], wrt, create_graph=True, allow_unused=True)
            except Exception as exc:  # the order does not exist: one outcome for the prefix
                table[f"{path}.*" if path else "*"] = _error(module, exc)
                continue
            if order > CONNECTIVITY_ORDERS:
                continue
            for name, g in zip(names, grads):
                key = f"{path}.{name}" if path else name
                table[key] = _outcome(module, g)
                if order == 1 and g is not None and g.grad_fn is not None:
                    table[f"{key}:node"] = g.grad_fn.name()  # the gradient kernel's node
                if g is not None and not g.stop_gradient:
                    next_frontier.append((key, g))
        frontier = next_frontier
    return table


def probe(module: ModuleType) -> dict[str, dict[str, str]]:
    """The whole table, measured on ``module`` (paddle, or a module shaped like it)."""
    return {name: probe_form(module, form) for name, form in FORMS.items()}


def render(table: dict[str, dict[str, str]], version: str) -> str:
    """The table as the text of ``reference_engine/dialects/paddle_kernels.json``."""
    about = ("paddle's higher-order gradient kernels, as measured by `python -m "
             "conformance.probes.paddle_kernels --write` (see that module for what a path and an "
             "outcome mean). The reference's paddle policy reads it; do not edit by hand.")
    return table_text("kernels", table, version, about)


def _show(table: dict[str, dict[str, str]]) -> None:
    for form, paths in table.items():
        print(form)
        for path, outcome in paths.items():
            print(f"  {path:<10} {outcome}")


def main(argv: list[str] | None = None) -> int:
    return run(argv, __doc__.split("\n\n")[0], TABLE_FILE, probe, render, _show)


if __name__ == "__main__":
    sys.exit(main())
