"""The paddle op names of ``reference_engine.paddle`` against float64 finite differences.

Same checks as ``test_finite_differences.py``, through paddle's names and signatures
(``axis``, ``perm``, ``clip``, ``concat``, ``transpose_y`` …). Where paddle 3.3.1 has no double
gradient for a kernel, the reference raises paddle's error instead (pinned by the differential
tests), so the second-order check is skipped there with that reason.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import reference_engine.paddle as paddle
from reference_engine.dialects.paddle_policy import DERIVATIVE_ORDER_LIMITS, WITHOUT_DOUBLE_GRAD
from tests.finite_differences import Dialect, check_first_order, check_second_order, rules_reached

PADDLE = Dialect(
    leaf=lambda a: paddle.to_tensor(a, dtype="float64", stop_gradient=False),
    const=lambda a: paddle.to_tensor(a, dtype="float64"),
    grad=lambda out, inputs, create_graph: paddle.grad(out, inputs, allow_unused=True,
                                                       create_graph=create_graph),
    no_grad=paddle.no_grad,
    numpy=lambda t: t.numpy(),
    requires_grad=lambda t: not t.stop_gradient,
)

_rng = np.random.default_rng(3)


def _distinct(*shape: int) -> np.ndarray:
    n = int(np.prod(shape))
    signs = np.where(np.arange(n) % 2, 1.0, -1.0)
    return (_rng.permutation(np.linspace(0.3, 1.9, n)) * signs).reshape(shape)


def _positive(*shape: int) -> np.ndarray:
    return np.abs(_distinct(*shape)) + 0.2


F = paddle.nn.functional


def _zeros(n: int) -> Any:
    return paddle.zeros([n], "float64")


def _weights() -> Any:  # class weights: constants, as in paddle's kernel
    return paddle.to_tensor([0.5, 2.0, 1.5], dtype="float64")


CASES: dict[str, tuple[Callable[..., Any], list[np.ndarray], str]] = {
    "add": (lambda a, b: paddle.add(a, b), [_distinct(3, 1), _distinct(4)], "add"),
    "subtract": (lambda a, b: paddle.subtract(a, b), [_distinct(2, 3), _distinct(3)], "sub"),
    "multiply": (lambda a, b: paddle.multiply(a, b), [_distinct(2, 3), _distinct(3)], "mul"),
    "divide": (lambda a, b: paddle.divide(a, b), [_distinct(2, 3), _positive(2, 1)], "div"),
    "pow_scalar": (lambda a: paddle.pow(a, 3.0), [_distinct(2, 2)], "pow_scalar"),
    "pow_tensor": (lambda a, b: paddle.pow(a, b), [_positive(2, 2), _distinct(2, 2)], "pow"),
    "matmul": (lambda a, b: paddle.matmul(a, b), [_distinct(2, 3), _distinct(3, 4)], "mm"),
    "matmul_transpose_y": (lambda a, b: paddle.matmul(a, b, transpose_y=True),
                           [_distinct(2, 3), _distinct(4, 3)], "mm"),
    "sum_axis": (lambda a: paddle.sum(a * a, axis=[0, 2], keepdim=True), [_distinct(2, 3, 2)], "sum"),
    "mean_axis": (lambda a: paddle.mean(a * a, axis=1), [_distinct(2, 3)], "mean"),
    "max_axis": (lambda a: paddle.max(a * a, axis=1), [_distinct(3, 4)], "max"),
    "min_all": (lambda a: paddle.min(a * a), [_distinct(3, 4)], "min"),
    "amax": (lambda a: paddle.amax(a * a, axis=0), [_distinct(3, 4)], "amax"),
    "exp": (lambda a: paddle.exp(a), [_distinct(2, 3)], "exp"),
    "log": (lambda a: paddle.log(a), [_positive(2, 3)], "log"),
    "sqrt": (lambda a: paddle.sqrt(a), [_positive(2, 3)], "sqrt"),
    "abs": (lambda a: paddle.abs(a * a * a), [_distinct(5)], "abs"),
    "sin": (lambda a: paddle.sin(a), [_distinct(5)], "sin"),
    "cos": (lambda a: paddle.cos(a), [_distinct(5)], "cos"),
    "tanh": (lambda a: paddle.tanh(a), [_distinct(5)], "tanh"),
    **{op: (lambda a, op=op: getattr(paddle, op)(a), [_positive(5) * 0.5], op)
       for op in ("tan", "sinh", "cosh", "atan", "log1p", "expm1", "log2", "log10",
                  "reciprocal", "rsqrt", "erf")},
    **{op: (lambda a, op=op: getattr(paddle, op)(a * 0.4), [_distinct(5)], op)
       for op in ("asin", "acos")},
    "sigmoid": (lambda a: F.sigmoid(a), [_distinct(5)], "sigmoid"),
    "relu": (lambda a: F.relu(a * a * a), [_distinct(6)], "relu"),
    "leaky_relu": (lambda a: F.leaky_relu(a * a * a, 0.2), [_distinct(6)], "leaky_relu"),
    "softplus": (lambda a: F.softplus(a, beta=2.0, threshold=3.0), [_distinct(6)], "softplus"),
    "elu": (lambda a: F.elu(a, 0.5), [_distinct(6)], "elu"),
    "gelu": (lambda a: F.gelu(a), [_distinct(6)], "gelu"),
    "gelu_tanh": (lambda a: F.gelu(a, approximate=True), [_distinct(6)], "gelu"),
    "silu": (lambda a: F.silu(a), [_distinct(6)], "silu"),
    "norm": (lambda a: paddle.linalg.norm(a, axis=1) + paddle.linalg.norm(a, p=3), [_distinct(2, 3)],
             "norm2"),
    "softmax": (lambda a: F.softmax(a, axis=1), [_distinct(2, 3)], "softmax"),
    "log_softmax": (lambda a: F.log_softmax(a, axis=0), [_distinct(3, 2)], "log_softmax"),
    "clip": (lambda a: paddle.clip(a * a, 0.5, 2.0), [_distinct(6)], "clamp"),
    "maximum": (lambda a, b: paddle.maximum(a * a, b), [_distinct(5), _distinct(5)], "maximum"),
    "minimum": (lambda a, b: paddle.minimum(a * a, b), [_distinct(5), _distinct(5)], "minimum"),
    "where": (lambda a, b: paddle.where(a > 0, a * a, b * a), [_distinct(5), _distinct(5)], "where"),
    "reshape": (lambda a: paddle.reshape(a * a, [3, 2]), [_distinct(2, 3)], "reshape"),
    "transpose": (lambda a: paddle.transpose(a * a, [2, 0, 1]), [_distinct(2, 3, 2)], "permute"),
    "squeeze_unsqueeze": (lambda a: paddle.squeeze(paddle.unsqueeze(a * a, 1)), [_distinct(1, 3)],
                          "squeeze"),
    "expand": (lambda a: paddle.expand(a * a, [2, 3, 4]), [_distinct(3, 1)], "expand"),
    "index": (lambda a: a[1] * a[1] + a[:, 0:1].sum(), [_distinct(3, 2)], "getitem_select"),
    "concat": (lambda a, b: paddle.concat([a * a, b], axis=1), [_distinct(2, 2), _distinct(2, 3)],
               "cat"),
    "stack": (lambda a, b: paddle.stack([a * a, b], axis=1), [_distinct(2, 3), _distinct(2, 3)],
              "stack"),
    "cast": (lambda a: paddle.cast(paddle.cast(a * a, "float32"), "float64"), [_distinct(3)], "cast"),
    "prod_axis": (lambda a: paddle.prod(a * a, axis=1), [_distinct(2, 3)], "prod"),
    "prod_all": (lambda a: paddle.prod(a) * a, [_distinct(4)], "prod_all"),
    "split": (lambda a: paddle.split(a * a, 2, axis=1)[0] * 2.0, [_distinct(2, 4)], "split"),
    "split_sections": (lambda a: paddle.concat([p * p for p in paddle.split(a, [1, -1], axis=1)], 1),
                       [_distinct(2, 3)], "split_with_sizes"),
    "unbind": (lambda a: paddle.unbind(a, 0)[1] * paddle.unbind(a, 0)[2], [_distinct(3, 2)], "unbind"),
    # the layers, composed from the table's rules (reference_engine.layers); the weight's
    # gradient is taken too, where paddle's layer_norm scales the input's by it
    "layer_norm": (lambda a, w, b: F.layer_norm(a, [3], w, b),
                   [_distinct(2, 3), _positive(3), _distinct(3)], "layer_norm_kernel"),
    "batch_norm_training": (lambda a, w: F.batch_norm(a, _zeros(2), _zeros(2) + 1.0, w, None, training=True),
                            [_distinct(4, 2, 3), _positive(2)], "batch_norm"),
    "conv1d": (lambda a, w: F.conv1d(a, w, stride=2, padding=1, dilation=2),
               [_distinct(1, 2, 5), _distinct(3, 2, 2)], "conv1d"),
    "conv2d": (lambda a, w: F.conv2d(a, w, padding=1),
               [_distinct(1, 2, 3, 3), _distinct(2, 2, 2, 2)], "conv2d"),
    "embedding": (lambda w: F.embedding(paddle.to_tensor([[0, 2, 1], [2, 2, 0]]), w) * w[0],
                  [_distinct(3, 2)], "embedding_kernel"),
    "nll_loss_weighted": (lambda a: F.nll_loss(F.log_softmax(a, 1), paddle.to_tensor([1, 0, 2, 1]),
                                               _weights(), ignore_index=2),
                          [_distinct(4, 3)], "nll_loss_kernel"),
    # the activations composed in reference_engine/paddle/nn/activation_functions.py, away
    # from their kinks, and the selu rule
    "relu6": (lambda a: F.relu6(a * 4.0), [_distinct(6)], "relu6_kernel"),
    "hardtanh": (lambda a: F.hardtanh(a * 1.3, -1.5, 1.2) * a, [_distinct(6)], "hardtanh_kernel"),
    "hardswish": (lambda a: F.hardswish(a * 2.1), [_distinct(6)], "hardswish_kernel"),
    "hardsigmoid": (lambda a: F.hardsigmoid(a * 2.1) * a, [_distinct(6)], "hardsigmoid_kernel"),
    "mish": (lambda a: F.mish(a), [_distinct(6)], "mish_kernel"),
    "log_sigmoid": (lambda a: F.log_sigmoid(a * 3.0), [_distinct(6)], "logsigmoid_kernel"),
    "softsign": (lambda a: F.softsign(a), [_distinct(6)], "softsign_kernel"),
    "selu": (lambda a: F.selu(a), [_distinct(6)], "selu_kernel"),
    "prelu": (lambda a, w: F.prelu(a, w), [_distinct(2, 3, 2), _distinct(3)], "prelu_kernel"),
    "glu": (lambda a: F.glu(a, axis=1), [_distinct(2, 4)], "mul"),
    "instance_norm": (lambda a, w: F.instance_norm(a, weight=w), [_distinct(2, 3, 4), _positive(3)],
                      "instance_norm"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_first_derivative_matches_finite_differences(name):
    fn, arrays, _ = CASES[name]
    check_first_order(PADDLE, fn, arrays, 1e-2 if name == "cast" else 1e-6)


@pytest.mark.parametrize("name", sorted(CASES))
def test_second_derivative_matches_finite_differences(name):
    fn, arrays, op = CASES[name]
    if op in WITHOUT_DOUBLE_GRAD:
        pytest.skip(f"paddle 3.3.1 has no double grad for {DERIVATIVE_ORDER_LIMITS[op][1]}")
    check_second_order(PADDLE, fn, arrays, 1e-2 if name == "cast" else 1e-6)


def test_the_reference_refuses_where_paddle_has_no_double_grad():
    x = paddle.to_tensor([0.3, 0.7], dtype="float64", stop_gradient=False)
    with pytest.raises(RuntimeError, match="softmax_grad doesn't have any grad op"):
        paddle.grad(F.softmax(x, axis=0).sum() * 2, x, create_graph=True)


def test_paddle_cases_reach_the_paddle_only_rules():
    reached: set[str] = set()
    for fn, arrays, op in CASES.values():
        if op not in WITHOUT_DOUBLE_GRAD:  # create_graph raises there, as in paddle
            reached |= rules_reached(PADDLE, fn, arrays)
    assert {"zero_link", "silu_backward", "log_backward"} <= reached
    # layer_norm has no double grad: its weight product is found in its forward graph (under
    # the bias's addition)
    fn, arrays, _ = CASES["layer_norm"]
    added = fn(*[PADDLE.leaf(a) for a in arrays])._grad_fn
    assert "layer_norm_scale" in {edge.rule.op for edge in added.edges if edge is not None}
