"""Every program of ``tests/programs/torch/`` and ``tests/programs/paddle/`` observes the
same under the real framework as under the reference engine's facade for it."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from conformance.corpus.op_registry import REGISTERED
from conformance.corpus.vocabulary import OPS
from conformance.run.adapters import ADAPTERS
from tests import observe
from tests.programs.registry import programs

PROGRAMS = {"torch": programs("torch"), "paddle": programs("paddle")}


@pytest.mark.parametrize("dialect, name", [(d, n) for d, programs in PROGRAMS.items()
                                           for n in sorted(programs)])
def test_same_observations_as_the_framework(dialect, name, request):
    program = PROGRAMS[dialect][name]
    theirs = observe.run(program, request.getfixturevalue(f"real_{dialect}"))
    ours = observe.run(program, request.getfixturevalue(f"ref_{dialect}"))
    observe.assert_same(*observe.without_unmatched_warn_once(ours, theirs), name)


@pytest.mark.parametrize("dialect, name", [(d, n) for d, programs in PROGRAMS.items()
                                           for n in sorted(programs)])
def test_every_check_of_a_program_runs(dialect, name, request):
    """A program that stops at an uncaught error skips the checks after it: errors a program
    expects are caught where they happen (``attempt``), so each program runs to its end."""
    theirs = observe.run(PROGRAMS[dialect][name], request.getfixturevalue(f"real_{dialect}"))
    result = theirs["result"]
    assert not (isinstance(result, dict) and "error" in result), f"{name} stopped at {result}"


# Arguments for the vocabulary's ops where the two operands' defaults do not suffice.
_NODE_NAME_KWARGS = {
    "softmax": {"dim": 1}, "log_softmax": {"dim": 0}, "reshape": {"shape": [3, 2]},
    "transpose": {"dim0": 0, "dim1": 1}, "permute": {"dims": [1, 0]}, "unsqueeze": {"dim": 0},
    "expand": {"shape": [2, 2, 3]}, "getitem": {"index": [0]}, "cast": {"dtype": "float64"},
    "clamp": {"min": 0.5, "max": 1.5}, "max": {"dim": 1}, "min": {"dim": 0}, "sum": {"dim": [0]},
    "squeeze": {"dim": 0}, "split": {"sections": [1, 1], "dim": 1}, "unbind": {"dim": 2},
    "prod": {"dim": 2, "keepdim": True}, "cumsum": {"dim": -1}, "cumprod": {"dim": -1},
}
# ops a case must give arguments (split takes sections, chunks or a size)
_NEEDS_KWARGS = {"split", "cumsum", "cumprod"}
_NODE_NAME_FORMS = [(op, kwargs) for op, spec in OPS.items() if spec.differentiable
                    for kwargs in ({}, _NODE_NAME_KWARGS.get(op)) if kwargs is not None
                    and (kwargs or op not in _NEEDS_KWARGS)] + [("split", {"chunks": 2, "dim": 1})]


def _apply_form(adapter_cls, module, op: str, kwargs: dict, scalar: bool):
    """The dialect's adapter, the first of two fixed operands, and ``op`` applied to them (a
    number for the second where ``scalar``; of several results, the last)."""
    adapter = adapter_cls(module)
    a = adapter.leaf(np.linspace(0.2, 1.7, 6).reshape(1, 2, 3).tolist(), "float32", True)
    b = adapter.leaf(np.linspace(1.7, 0.2, 6).reshape(1, 2, 3).tolist(), "float32", True)
    spec = OPS[op]
    if spec.operands == "list":
        args = [[a, b]]
    elif op == "where":
        args = [adapter.op("gt", [a, 1.0], {}), a, b]
    elif op == "matmul" or (op in REGISTERED and REGISTERED[op].layout == "bmm"):
        args = [a, adapter.op("permute", [b], {"dims": [0, 2, 1]})]
    elif op in REGISTERED and REGISTERED[op].layout in ("dot", "mv"):
        flat = adapter.op("reshape", [b], {"shape": [6]})
        args = [adapter.op("reshape", [a], {"shape": [6] if REGISTERED[op].layout == "dot" else [2, 3]}),
                flat if REGISTERED[op].layout == "dot" else adapter.op("getitem", [b], {"index": [0, 0]})]
    elif op in REGISTERED and REGISTERED[op].domain == "probability":  # operands inside (0, 1)
        args = [adapter.op("sigmoid", [a], {}), adapter.op("sigmoid", [b], {})][:spec.operands]
    elif op in REGISTERED and REGISTERED[op].domain == "unit":  # inside (-1, 1)
        args = [adapter.op("mul", [a, 0.5], {})]
    elif op in REGISTERED and REGISTERED[op].layout in ("square", "solve"):  # far from singular
        a = adapter.leaf((np.eye(3) * 3 + np.linspace(0.2, 1.7, 9).reshape(3, 3)).tolist(), "float32", True)
        args = [a, adapter.op("reshape", [b], {"shape": [3, 2]})][:spec.operands]
    else:
        args = [a, 2.5 if scalar else b][:spec.operands]
    y = adapter.op(op, args, dict(kwargs))
    return adapter, a, y[-1] if spec.several else y  # the node of every result


def _node_name(adapter_cls, module, op: str, kwargs: dict, scalar: bool) -> str:
    y = _apply_form(adapter_cls, module, op, kwargs, scalar)[2]
    return "no grad_fn" if y.grad_fn is None else y.grad_fn.name()


@pytest.mark.parametrize("dialect", ["torch", "paddle"])
@pytest.mark.parametrize("op, kwargs", _NODE_NAME_FORMS, ids=lambda v: str(v))
def test_every_op_names_its_node_as_the_framework_does(dialect, op, kwargs, request):
    real = request.getfixturevalue(f"real_{dialect}")
    ref = request.getfixturevalue(f"ref_{dialect}")
    forms = [False, True] if OPS[op].scalar_operands and OPS[op].operands == 2 else [False]
    for scalar in forms:
        theirs = observe.attempt(lambda: _node_name(ADAPTERS[dialect], real, op, kwargs, scalar))
        ours = observe.attempt(lambda: _node_name(ADAPTERS[dialect], ref, op, kwargs, scalar))
        assert ours == theirs, f"{op}{kwargs} (number operand: {scalar})"


def _values_and_gradient(adapter_cls, module, op: str, kwargs: dict, scalar: bool):
    """The op's output values through a dialect's adapter, and the gradient of their sum for
    the first operand (None where it gets none)."""
    adapter, a, y = _apply_form(adapter_cls, module, op, kwargs, scalar)
    values = np.asarray(y.detach().numpy(), dtype=np.float64)
    adapter.backward([adapter.op("sum", [y], {})], [], {}, "method")
    grad = adapter.grad_of(a)
    return values, None if grad is None else np.asarray(grad.numpy(), np.float64)


# forms whose operands (0.2 … 1.7 by 0.3) reach a point where the frameworks compute differently,
# as measured: the point, and what torch and paddle give there
_MEASURED_BOUNDARIES = {
    # paddle 3.3.1's hardshrink keeps x = ±threshold (x >= t), torch 2.13's zeroes it (|x| > lambd)
    ("hardshrink", False): (0.5, 0.0, 0.5),
}


def _compared_away_from_boundary(op: str, scalar: bool, t_values: np.ndarray, p_values: np.ndarray) -> Any:
    """The elements to compare (an index): where the form has a measured boundary among its
    operands, each framework's value there is checked and those elements are left out."""
    if (op, scalar) not in _MEASURED_BOUNDARIES:
        return ...
    point, torch_value, paddle_value = _MEASURED_BOUNDARIES[op, scalar]
    at = np.isclose(np.linspace(0.2, 1.7, 6).reshape(t_values.shape), point)
    assert at.any() and (t_values[at] == torch_value).all() and np.allclose(p_values[at], paddle_value)
    return ~at


def test_both_dialects_adapters_compute_the_same_op():
    """An op of the vocabulary means the same computation in both dialects: on the real torch
    and paddle, every form both accept gives the same values and gradient (an adapter that
    passed a keyword to the wrong argument, or dropped one, would differ)."""
    import paddle
    import torch

    compared = 0
    for op, kwargs in _NODE_NAME_FORMS:
        forms = [False, True] if OPS[op].scalar_operands and OPS[op].operands == 2 else [False]
        for scalar in forms:
            try:
                t_values, t_grad = _values_and_gradient(ADAPTERS["torch"], torch, op, kwargs, scalar)
                p_values, p_grad = _values_and_gradient(ADAPTERS["paddle"], paddle, op, kwargs, scalar)
            except Exception:  # noqa: BLE001 - a form one framework refuses is compared elsewhere
                continue
            where = f"{op}{kwargs} (number operand: {scalar})"
            kept = _compared_away_from_boundary(op, scalar, t_values, p_values)
            np.testing.assert_allclose(p_values[kept], t_values[kept], rtol=1e-5, atol=1e-6, err_msg=where)
            assert (t_grad is None) == (p_grad is None), where
            if t_grad is not None:
                np.testing.assert_allclose(p_grad[kept], t_grad[kept], rtol=1e-5, atol=1e-6, err_msg=where)
            compared += 1
    assert compared >= 50
