"""Run a program on a torch-shaped module and record what it observes, for differential tests.

A program is a function of the module that returns a list of observations (tensors, numbers,
flags, None, tuples). Tensors are reduced to dtype, shape, values, requires_grad and whether they
have a grad_fn; an exception ends the program and is recorded as its class and message; warnings
are recorded by category and text (torch's "(Triggered internally at …)" tail removed).
"""

from __future__ import annotations

import warnings
from typing import Any, Callable

import numpy as np

from conformance.judge.compare import TOLERANCES, WARN_ONCE
from conformance.run.trace import clean_message


def _is_tensor(x: Any) -> bool:
    return hasattr(x, "grad_fn") and hasattr(x, "shape") and hasattr(x, "dtype")


def describe(x: Any) -> Any:
    if _is_tensor(x):
        reduced = str(x.dtype).endswith("bfloat16")  # numpy has no bfloat16: its float32 values
        data = (x.detach().float() if reduced else x.detach()).numpy()
        return {"dtype": str(x.dtype), "shape": tuple(x.shape), "values": np.array(data),
                "requires_grad": bool(x.requires_grad), "grad_fn": x.grad_fn is not None}
    if isinstance(x, (list, tuple)):
        return [describe(v) for v in x]
    return x


def attempt(fn: Callable[[], Any]) -> Any:
    """Run ``fn`` and describe its result, or the exception it raised."""
    try:
        return describe(fn())
    except Exception as exc:  # noqa: BLE001 - the exception is the observation
        return {"error": type(exc).__name__, "message": clean_message(str(exc))}


def run(program: Callable[[Any], list[Any]], module: Any) -> dict[str, Any]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = attempt(lambda: program(module))
    kept = [(w.category.__name__, clean_message(str(w.message))) for w in caught
            if w.category in (UserWarning, FutureWarning)]
    return {"result": result, "warnings": kept}


def without_unmatched_warn_once(ours: dict[str, Any], theirs: dict[str, Any]
                                ) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two ``run`` records without torch's once-per-process warnings where only one side shows
    them: whether it shows depends on what ran before in the process (the corpus judge does the
    same)."""
    def once(w: tuple[str, str]) -> bool:
        return w[1].startswith(WARN_ONCE)

    if sum(map(once, ours["warnings"])) == sum(map(once, theirs["warnings"])):
        return ours, theirs
    return ({**ours, "warnings": [w for w in ours["warnings"] if not once(w)]},
            {**theirs, "warnings": [w for w in theirs["warnings"] if not once(w)]})


def assert_same(ours: Any, theirs: Any, path: str = "") -> None:
    """Equal structure, dtypes, shapes and flags; values within torch.testing tolerances."""
    if isinstance(theirs, dict) and "values" in theirs:
        assert isinstance(ours, dict) and "values" in ours, f"{path}: {ours!r} vs tensor"
        for key in ("dtype", "shape", "requires_grad", "grad_fn"):
            assert ours[key] == theirs[key], f"{path}.{key}: {ours[key]!r} != {theirs[key]!r}"
        rtol, atol = TOLERANCES.get(theirs["dtype"].split(".")[-1], (0, 0))
        np.testing.assert_allclose(ours["values"], theirs["values"], rtol=rtol, atol=atol,
                                   equal_nan=True, err_msg=path)
    elif isinstance(theirs, dict):
        assert isinstance(ours, dict) and ours.keys() == theirs.keys(), f"{path}: {ours!r} vs {theirs!r}"
        for key in theirs:
            assert_same(ours[key], theirs[key], f"{path}.{key}")
    elif isinstance(theirs, list):
        assert isinstance(ours, list) and len(ours) == len(theirs), f"{path}: {ours!r} vs {theirs!r}"
        for i, (a, b) in enumerate(zip(ours, theirs)):
            assert_same(a, b, f"{path}[{i}]")
    elif isinstance(theirs, np.ndarray):
        assert isinstance(ours, np.ndarray) and ours.dtype == theirs.dtype, f"{path}: {ours!r}"
        rtol, atol = TOLERANCES.get(str(theirs.dtype), (0, 0))
        np.testing.assert_allclose(ours, theirs, rtol=rtol, atol=atol, equal_nan=True, err_msg=path)
    elif isinstance(theirs, float):
        assert isinstance(ours, float) and np.isclose(ours, theirs, rtol=1.3e-6, atol=1e-5,
                                                      equal_nan=True), f"{path}: {ours} != {theirs}"
    else:
        assert ours == theirs, f"{path}: {ours!r} != {theirs!r}"


def backward_after_writing(x: Any, op: Callable[[Any], Any], no_grad: Callable[[], Any],
                           write: Callable[[Any], Any]) -> list[Any]:
    """For ``op`` applied to a copy of ``x``: the backward after ``write`` (run without
    recording) changed its input, then after it changed its output. Shows which of the two the
    op saved."""
    seen = []
    for written in ("input", "output"):
        a = x * 1
        b = op(a)
        with no_grad():
            write(a if written == "input" else b)
        seen.append(attempt(lambda: b.sum().backward()))
    return seen
