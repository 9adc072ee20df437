"""The derivative table: every differentiable operation, its forward and its vector-Jacobian rules.

Each :class:`~reference_engine.rule.Rule` names its forward (a numpy function of the input
arrays and the call's attributes) and one rule per tensor input, written in engine operations
so that a backward pass run with ``create_graph=True`` is itself recorded and can be
differentiated again. A rule's
parameter names say what it needs, as in PyTorch's ``derivatives.yaml``: ``g`` (the incoming
gradient, always first), an input name (``a``, ``b``, ``c``), ``result``, or an attribute of the
call. The engine saves exactly the inputs and the result that the rules it will run refer to,
which is what decides whether a node can run a second time after its saved tensors were freed.

Broadcasting is undone once, by the engine (a gradient is summed to its input's shape and cast
to its input's dtype), never inside a rule. Helpers the rules share are in
``reference_engine.rule_helpers`` (``H.name``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from reference_engine import kernel_order
from reference_engine import ops as F
from reference_engine import rule_helpers as H
from reference_engine import special_functions as S
from reference_engine.rule import RULES, Rule, elementwise_functions, rule

__all__ = ["RULES", "Rule", "elementwise_functions", "rule"]

# --- the table ----------------------------------------------------------------------------

AB = {"inputs": ("a", "b")}
# a function both frameworks and the tensor name as the op (``Rule.elementwise_function``)
FUNCTION = {"elementwise_function": True}

rule("add", "AddBackward0", np.add, lambda g: g, lambda g: g, **AB)
# torch's addmm, c + a @ b (two matrices): what a linear layer with a bias records
rule("addmm", "AddmmBackward0", lambda c, a, b: c + a @ b, lambda g: g,
     lambda g, b: F.matmul(g, F.t(b)), lambda g, a: F.matmul(F.t(a), g), inputs=("c", "a", "b"))
# and torch.addmm's scaled form, beta * c + alpha * a @ b (c ignored where beta is 0, its
# gradient then zeros)
rule("addmm_scaled", "AddmmBackward0", lambda c, a, b, *, beta, alpha: H.np_addmm(c, a, b, beta, alpha),
     lambda g, beta: F.mul(g, beta), lambda g, b, alpha: F.mul(F.matmul(g, F.t(b)), alpha),
     lambda g, a, alpha: F.mul(F.matmul(F.t(a), g), alpha), inputs=("c", "a", "b"))
rule("sub", "SubBackward0", np.subtract, lambda g: g, lambda g: F.neg(g), **AB)
# torch's add / sub with alpha: the other operand's gradient is scaled
rule("add_scaled", "AddBackward0", lambda a, b, *, alpha: H.np_fused(a, b, alpha),
     lambda g: g, lambda g, alpha: F.mul(g, alpha), **AB)
rule("sub_scaled", "SubBackward0", lambda a, b, *, alpha: H.np_fused(a, b, -alpha),
     lambda g: g, lambda g, alpha: F.mul(F.neg(g), alpha), **AB)
rule("mul", "MulBackward0", np.multiply, lambda g, b: F.mul(g, b), lambda g, a: F.mul(g, a), **AB)
# paddle 3.3.1's layer_norm kernel scales the input's gradient by the weight only when the pass
# computes the weight's gradient too (measured: with the weight stopping gradient, or left out
# of paddle.grad's inputs, x's gradient is the unscaled normalisation's)
rule("layer_norm_scale", "LayerNormGradNode", np.multiply,
     lambda g, b, needed: F.mul(g, b) if needed[1] else g, lambda g, a: F.mul(g, a),
     reads_needed=True, **AB)
rule("div", "DivBackward0", np.divide, lambda g, b: F.div(g, b),
     lambda g, a, b: F.mul(F.neg(g), F.div(F.div(a, b), b)), **AB)
rule("neg", "NegBackward0", np.negative, lambda g: F.neg(g))
# a derivative's division by a count (mean's): the number is an attribute, not an input
rule("div_number", "DivBackward1", lambda a, *, divisor: a / np.asarray(divisor, a.dtype),
     lambda g, divisor: F.div_number(g, divisor))
# torch's number - tensor: one input, the number an attribute
rule("rsub", "RsubBackward1", lambda a, *, minuend: np.subtract(np.asarray(minuend, a.dtype), a),
     lambda g: F.neg(g))
# torch's number / tensor is the tensor's reciprocal times the number
rule("reciprocal", "ReciprocalBackward0", np.reciprocal,
     lambda g, result: F.mul(F.neg(g), F.mul(result, result)))
rule("pow_scalar", "PowBackward0", lambda a, *, exponent: np.power(a, np.asarray(exponent, a.dtype)),
     lambda g, a, exponent: F.zeros_like(g) if exponent == 0
     else F.mul(g, F.mul(exponent, F.pow(a, exponent - 1))))
rule("pow", "PowBackward1", np.power, H.pow_grad_base, H.pow_grad_exponent, **AB)
rule("rpow", "PowBackward2", lambda a, *, base: np.power(np.asarray(base, a.dtype), a),
     H.rpow_grad)
for _op, _name in (("dot", "DotBackward0"), ("mv", "MvBackward0"), ("mm", "MmBackward0"),
                   ("vm", "SqueezeBackward4"), ("bmm", "UnsafeViewBackward0")):
    rule(_op, _name, np.matmul,
         H.matmul_grad_a, H.matmul_grad_b, **AB)

# running sums: the kernel keeps nothing of its input
rule("cumsum", "CumsumBackward0", lambda a, *, dim: np.cumsum(a, axis=dim),
     lambda g, dim: H.reverse_cumsum(g, dim))
rule("sum", "SumBackward1", H.np_sum,
     lambda g, in_shape, dims: F.expand(H.restore_reduced(g, in_shape, dims), in_shape))
rule("sum_all", "SumBackward0", lambda a, *, summation: H.np_sum(a, dims=H.every_dim(a), keepdim=False,
                                                                  summation=summation),
     lambda g, in_shape: F.expand(g, in_shape))
rule("mean", "MeanBackward1", H.np_mean,
     lambda g, in_shape, dims: F.div_number(F.expand(H.restore_reduced(g, in_shape, dims), in_shape),
                                            H.reduce_count(in_shape, dims)))
# the 2-norm over dims (None: every element); its derivative a / norm is 0 where the norm is
rule("norm2", "LinalgVectorNormBackward0", lambda a, *, dims, keepdim: np.sqrt(
         np.sum(a * a, axis=dims, keepdims=keepdim)),
     lambda g, a, result, dims, keepdim: H.norm_grad(g, a, result, dims, keepdim))
rule("prod", "ProdBackward1", lambda a, *, dims, keepdim: np.prod(a, axis=dims, keepdims=keepdim),
     lambda g, a, result, dims, keepdim: H.prod_grad(g, a, result, dims, keepdim))
rule("prod_all", "ProdBackward0", lambda a: np.prod(a),
     lambda g, a, result: H.prod_grad(g, a, result, None, False))
# each element's product of the others along dim (torch's prod gradient where an input is zero)
rule("prod_others", "MulBackward0", H.np_prod_others, lambda g, a, dim: H.prod_others_grad(g, a, dim))
# split / unbind: the node's forward hands the input on; each piece is an output slot of the
# node (``ops.several_outputs``), whose backward gets one gradient per piece
rule("split", "SplitBackward0", lambda a, *, sizes, dim: a,
     lambda grads, in_shape, sizes, dim: H.split_grad(grads, in_shape, sizes, dim))
rule("split_with_sizes", "SplitWithSizesBackward0", lambda a, *, sizes, dim: a,
     lambda grads, in_shape, sizes, dim: H.split_grad(grads, in_shape, sizes, dim))
rule("unbind", "UnbindBackward0", lambda a, *, dim: a,
     lambda grads, in_shape, dim: H.unbind_grad(grads, in_shape, dim))
# paddle's unstack: unbind's pieces as copies (its kernel writes new memory)
rule("unstack", "UnstackBackward0", lambda a, *, dim: a,
     lambda grads, in_shape, dim: H.unbind_grad(grads, in_shape, dim))
# the p-norm for p other than 2: |x|_1, max |x| (inf), min |x| (-inf), (sum |x|^p)^(1/p)
rule("norm_p", "LinalgVectorNormBackward0", lambda a, *, p, dims, keepdim: H.np_norm_p(a, p, dims, keepdim),
     lambda g, a, result, p, dims, keepdim: H.norm_p_grad(g, a, result, p, dims, keepdim))
rule("mean_all", "MeanBackward0", lambda a, *, summation: H.np_mean(a, dims=H.every_dim(a), keepdim=False,
                                                                    summation=summation),
     lambda g, in_shape: F.div_number(F.expand(g, in_shape), math.prod(in_shape)))
for _op, _np_fn in (("amax", np.amax), ("amin", np.amin)):
    rule(_op, _op.capitalize() + "Backward0",
         lambda a, *, dims, keepdim, _f=_np_fn: _f(a, axis=dims, keepdims=keepdim),
         H.evenly_to_ties)
    rule(_op[1:] + "_all", _op[1:].capitalize() + "Backward1",
         lambda a, _f=_np_fn: _f(a), H.evenly_to_all_ties)
    rule(_op[1:] + "_dim", _op[1:].capitalize() + "Backward0",
         lambda a, *, dims, keepdim, _f=_np_fn: _f(a, axis=dims, keepdims=keepdim),
         H.to_index, saved_attrs=("indices",))

rule("exp", "ExpBackward0", np.exp, lambda g, result: F.mul(g, result), **FUNCTION)
rule("log", "LogBackward0", np.log, lambda g, a: F.fused_grad("log", g, a), **FUNCTION)
# paddle's log_grad as one node; its double grad is composite: ddx / conj(x) for the gradient
# and -(dout * ddx) / (conj(x) * conj(x)) for the input, one conj squared (so the third
# derivative at 0 is inf * 0, nan), recorded as those ops (Policy.composite_derivatives)
rule("log_backward", "LogBackwardBackward0", lambda a, b: a / b,
     lambda g, b: F.div(g, F.conj(b)),
     lambda g, a, b: F.div(F.neg(F.mul(a, g)), H.squared(F.conj(b))), **AB)
# the complex conjugate: of real values, a copy (paddle records it, in its composite kernels)
rule("conj", "ConjBackward0", np.conj, lambda g: F.conj(g))
rule("sqrt", "SqrtBackward0", np.sqrt, lambda g, result: F.div(g, F.mul(result, 2)), **FUNCTION)
rule("abs", "AbsBackward0", np.abs, lambda g, a: F.abs_grad(g, a))
rule("sign", "SignBackward0", np.sign, lambda g: g._policy.sign_gradient(g))
# torch's sgn (abs's derivative): its own derivative is a ZeroTensor
rule("sgn", "SgnBackward0", np.sign, lambda g: g._policy.efficient_zeros(g))
rule("floor", "FloorBackward0", np.floor, lambda g: F.zeros_like(g))
rule("ceil", "CeilBackward0", np.ceil, lambda g: F.zeros_like(g))
rule("round", "RoundBackward0", np.rint, lambda g: F.zeros_like(g))  # halves to even
rule("trunc", "TruncBackward0", np.trunc, lambda g: F.zeros_like(g), **FUNCTION)
# torch's frac (paddle composes x - trunc(x)): the gradient passes unchanged
rule("frac", "FracBackward0", lambda a: a - np.trunc(a), lambda g: g)
# torch's round(decimals=d): rint(a * 10^d) / 10^d (or rint(a / 10^-d) * 10^-d), in the dtype
rule("round_decimals", "RoundBackward1",
     lambda a, *, decimals: (np.rint(a * a.dtype.type(10.0 ** decimals)) / a.dtype.type(10.0 ** decimals)
                             if decimals >= 0 else
                             np.rint(a / a.dtype.type(10.0 ** -decimals)) * a.dtype.type(10.0 ** -decimals)),
     lambda g: F.zeros_like(g))
rule("sin", "SinBackward0", np.sin, lambda g, a: F.mul(g, F.cos(a)), **FUNCTION)
rule("cos", "CosBackward0", np.cos, lambda g, a: F.mul(g, F.neg(F.sin(a))), **FUNCTION)
# more elementwise functions, with torch's formulas (what they save decides version errors)
rule("tan", "TanBackward0", np.tan, lambda g, result: F.mul(g, F.add(F.mul(result, result), 1.0)), **FUNCTION)
rule("sinh", "SinhBackward0", np.sinh, lambda g, a: F.mul(g, F.cosh(a)), **FUNCTION)
rule("cosh", "CoshBackward0", np.cosh, lambda g, a: F.mul(g, F.sinh(a)), **FUNCTION)
rule("atan", "AtanBackward0", np.arctan, lambda g, a: F.div(g, F.add(F.mul(a, a), 1.0)), **FUNCTION)
rule("atanh", "AtanhBackward0", np.arctanh,
     lambda g, a: F.div(g, F.add(F.mul(F.neg(a), a), 1.0)), **FUNCTION)
rule("asinh", "AsinhBackward0", np.arcsinh,
     lambda g, a: F.mul(g, F.rsqrt(F.add(F.mul(a, a), 1.0))), **FUNCTION)
rule("acosh", "AcoshBackward0", np.arccosh,
     lambda g, a: F.mul(g, F.rsqrt(F.sub(F.mul(a, a), 1.0))), **FUNCTION)
rule("asin", "AsinBackward0", np.arcsin,
     lambda g, a: F.mul(g, F.rsqrt(F.add(F.mul(F.neg(a), a), 1.0))), **FUNCTION)
rule("acos", "AcosBackward0", np.arccos,
     lambda g, a: F.mul(g, F.neg(F.rsqrt(F.add(F.mul(F.neg(a), a), 1.0)))), **FUNCTION)
rule("log1p", "Log1PBackward0", np.log1p, lambda g, a: F.div(g, F.add(a, 1.0)), **FUNCTION)
rule("expm1", "Expm1Backward0", np.expm1, lambda g, result: F.mul(g, F.add(result, 1.0)), **FUNCTION)
rule("log2", "Log2Backward0", np.log2, lambda g, a: F.div(g, F.mul(a, math.log(2.0))), **FUNCTION)
rule("log10", "Log10Backward0", np.log10, lambda g, a: F.div(g, F.mul(a, math.log(10.0))), **FUNCTION)
rule("rsqrt", "RsqrtBackward0", lambda a: np.reciprocal(np.sqrt(a)),
     lambda g, result: F.mul(F.mul(g, -0.5), F.pow(result, 3)), **FUNCTION)
rule("erf", "ErfBackward0", lambda a: H.np_erf(a),
     lambda g, a: F.mul(F.mul(F.exp(F.neg(F.pow(a, 2))), 2.0 / math.sqrt(math.pi)), g), **FUNCTION)
rule("tanh", "TanhBackward0", lambda a, *, fast: H.tanh(a, fast),
     lambda g, result: F.fused_grad("tanh", g, result))
rule("sigmoid", "SigmoidBackward0", lambda a: 1 / (1 + np.exp(-a)),
     lambda g, result: F.fused_grad("sigmoid", g, result))
# tanh's and sigmoid's gradients as torch records them: one node each (tanh_backward,
# sigmoid_backward), differentiable in the gradient and in the saved output
rule("tanh_backward", "TanhBackwardBackward0", lambda a, b: a * H.one_minus_square(b),
     lambda g, b: F.fused_grad("tanh", g, b), lambda g, a, b: F.mul(g, F.mul(F.mul(b, -2.0), a)),
     **AB)
rule("sigmoid_backward", "SigmoidBackwardBackward0", lambda a, b: a * (1 - b) * b,
     lambda g, b: F.fused_grad("sigmoid", g, b),
     lambda g, a, b: F.mul(F.mul(g, a), F.add(F.mul(b, -2.0), 1.0)), **AB)
rule("relu", "ReluBackward0", lambda a: np.maximum(a, np.zeros((), a.dtype)),
     lambda g, result: F.relu_grad(g, result))
# torch's threshold_backward: differentiable in the gradient, and (with a zero derivative) in the
# result, so gradients of any order through relu stay connected to the graph as in torch
rule("relu_backward", "ThresholdBackwardBackward0",
     lambda a, b: np.where(b > 0, a, np.zeros((), a.dtype)),
     lambda g, b: F.relu_grad(g, b), lambda g: F.zeros_like(g), **AB)
rule("leaky_relu", "LeakyReluBackward0",
     lambda a, *, slope: np.where(a > 0, a, a * np.asarray(slope, a.dtype)),
     lambda g, a, slope: F.leaky_relu_grad(g, a, slope))
# torch's leaky_relu_backward: like threshold_backward, a zero derivative in the input. At 0
# torch's kernel takes the slope, paddle's (``zero_passes``) the gradient itself
rule("leaky_relu_backward", "LeakyReluBackwardBackward0",
     lambda a, b, *, slope, zero_passes: np.where((b >= 0) if zero_passes else (b > 0), a,
                                                  a * np.asarray(slope, a.dtype)),
     lambda g, b, slope: F.leaky_relu_grad(g, b, slope), lambda g: F.zeros_like(g), **AB)
# softplus, elu and gelu: each gradient is one node (torch's XBackwardBackward0, paddle's
# XDoubleGradNode) whose own derivatives are the gradient op again (for the incoming gradient)
# and the second derivative times both gradients (for the input)
rule("softplus", "SoftplusBackward0",
     lambda a, *, beta, threshold: np.where(a * beta > threshold, a, np.log1p(np.exp(a * beta)) / beta),
     lambda g, a, beta, threshold: F.activation_grad("softplus", g, a, beta=beta, threshold=threshold))
rule("softplus_backward", "SoftplusBackwardBackward0",
     lambda a, b, *, beta, threshold: np.where(b * beta > threshold, a,
                                               a * np.exp(b * beta) / (np.exp(b * beta) + 1)),
     lambda g, b, beta, threshold: F.activation_grad("softplus", g, b, beta=beta, threshold=threshold),
     lambda g, a, b, beta, threshold: F.mul(F.mul(g, a), H.softplus_curvature(b, beta, threshold)),
     **AB)
rule("elu", "EluBackward0", lambda a, *, alpha: np.where(a > 0, a, alpha * np.expm1(a)),
     lambda g, a, alpha: F.activation_grad("elu", g, a, alpha=alpha))
rule("elu_backward", "EluBackwardBackward0",
     lambda a, b, *, alpha: np.where(b > 0, a, a * alpha * np.exp(b)),
     lambda g, b, alpha: F.activation_grad("elu", g, b, alpha=alpha),
     lambda g, a, b, alpha: F.mul(F.mul(g, a), H.elu_curvature(b, alpha)),
     **AB)
rule("gelu", "GeluBackward0", lambda a, *, approximate: H.np_gelu(a, approximate)[0],
     lambda g, a, approximate: F.activation_grad("gelu", g, a, approximate=approximate))
rule("gelu_backward", "GeluBackwardBackward0",
     lambda a, b, *, approximate: a * H.np_gelu(b, approximate)[1],
     lambda g, b, approximate: F.activation_grad("gelu", g, b, approximate=approximate),
     lambda g, a, b, approximate: F.mul(F.mul(g, a), H.gelu_curvature(b, approximate)), **AB)
# torch's hardtanh (and relu6, its kernel): the gradient passes strictly inside (low, high); its
# own derivative is the gradient op again, and zero in the input
rule("hardtanh", "HardtanhBackward0", lambda a, *, low, high: H.np_clip(a, low, high),
     lambda g, a, low, high: F.activation_grad("hardtanh", g, a, low=low, high=high))
rule("hardtanh_backward", "HardtanhBackwardBackward0",
     lambda a, b, *, low, high: np.where((b > low) & (b < high), a, np.zeros((), a.dtype)),
     lambda g, b, low, high: F.activation_grad("hardtanh", g, b, low=low, high=high),
     lambda g: F.zeros_like(g), **AB)
# torch's shrinks and threshold: each gradient one node (XBackwardBackward0), the gradient op
# again for the incoming gradient and zero for the input; each backward kernel selects (a
# plain 0 inside the band, whatever the gradient's sign).
rule("softshrink", "SoftshrinkBackward0", lambda a, *, lambd: H.np_softshrink(a, lambd),
     lambda g, a, lambd: F.activation_grad("softshrink", g, a, lambd=lambd))
rule("softshrink_backward", "SoftshrinkBackwardBackward0",
     lambda a, b, *, lambd: np.where((b >= -lambd) & (b <= lambd), np.zeros((), a.dtype), a),
     lambda g, b, lambd: F.activation_grad("softshrink", g, b, lambd=lambd), lambda g: F.zeros_like(g), **AB)
rule("hardshrink", "HardshrinkBackward0",
     lambda a, *, lambd: np.where((a >= -lambd) & (a <= lambd), np.zeros((), a.dtype), a),
     lambda g, a, lambd: F.activation_grad("hardshrink", g, a, lambd=lambd))
rule("hardshrink_backward", "HardshrinkBackwardBackward0",
     lambda a, b, *, lambd: np.where((b >= -lambd) & (b <= lambd), np.zeros((), a.dtype), a),
     lambda g, b, lambd: F.activation_grad("hardshrink", g, b, lambd=lambd), lambda g: F.zeros_like(g), **AB)
rule("threshold", "ThresholdBackward0",
     lambda a, *, threshold, value: np.where(a <= threshold, np.asarray(value, a.dtype), a),
     lambda g, a, threshold: F.activation_grad("threshold", g, a, threshold=threshold))
rule("threshold_backward", "ThresholdBackwardBackward0",
     lambda a, b, *, threshold: np.where(b <= threshold, np.zeros((), a.dtype), a),
     lambda g, b, threshold: F.activation_grad("threshold", g, b, threshold=threshold),
     lambda g: F.zeros_like(g), **AB)
# torch's hardswish: x (x + 3) / 6 between -3 and 3, whose gradient x / 3 + 0.5 holds strictly
# inside (0 at -3, 1 at 3); its second derivative, 1/3 strictly inside
rule("hardswish", "HardswishBackward0", H.np_hardswish,
     lambda g, a: F.activation_grad("hardswish", g, a))
rule("hardswish_backward", "HardswishBackwardBackward0", lambda a, b: a * H.np_hardswish_slope(b),
     lambda g, b: F.activation_grad("hardswish", g, b),
     lambda g, a, b: H.where_zero(F.logical_and(F.gt(b, -3.0), F.lt(b, 3.0)), F.div(F.mul(g, a), 3.0)),
     **AB)
# torch's hardsigmoid: relu6(x + 3) / 6, the gradient 1/6 (a float's, in every dtype) strictly
# between -3 and 3; torch 2.13
# has no derivative for hardsigmoid_backward (its node is NotImplemented, which raises)
rule("hardsigmoid", "HardsigmoidBackward0", lambda a: H.np_clip(a + 3, 0, 6) / a.dtype.type(6),
     lambda g, a: F.activation_grad("hardsigmoid", g, a))
rule("hardsigmoid_backward", "torch::autograd::NotImplemented",
     lambda a, b: np.where((b > -3) & (b < 3), a * a.dtype.type(np.float32(1) / np.float32(6)),
                           np.zeros((), a.dtype)),
     H.not_implemented("hardsigmoid_backward"), H.not_implemented("hardsigmoid_backward"), **AB)
# torch's prelu kernel: x where positive, else weight * x (the weight viewed to broadcast over
# x's channels); at 0 the weight's branch. Its backward is one kernel of two outputs, here a
# node per input's gradient; their own derivatives switch at 0 (``self >= 0`` in torch's
# formulas) and are zero in the input for the input's gradient
rule("prelu", "PreluKernelBackward0", lambda a, b: np.where(a > 0, a, b * a),
     lambda g, a, b: F.prelu_grad("input", g, a, b), lambda g, a: F.prelu_grad("weight", g, a), **AB)
rule("prelu_input_backward", "PreluKernelBackwardBackward0", lambda a, b, c: np.where(b > 0, a, c * a),
     lambda g, b, c: F.where(F.ge(b, 0.0), g, F.mul(g, c)), lambda g: F.zeros_like(g),
     lambda g, a, b: H.where_zero(F.lt(b, 0.0), F.mul(a, g)), inputs=("a", "b", "c"))
rule("prelu_weight_backward", "PreluKernelBackwardBackward0",
     lambda a, b: np.where(b > 0, np.zeros((), a.dtype), a * b),
     lambda g, b: H.where_zero(F.lt(b, 0.0), F.mul(g, b)),
     lambda g, a, b: H.where_zero(F.lt(b, 0.0), F.mul(a, g)), **AB)
# paddle's selu kernel: scale * x, or scale * (alpha * exp(x) - alpha); its gradient reads the
# output, ``out + alpha * scale`` where the output is not positive (that product rounded to
# float32, as paddle's float attributes are); paddle has no double grad for it
rule("selu", "SeluGradNode",
     lambda a, *, scale, alpha: np.where(a > 0, a * a.dtype.type(scale),
                                         (a.dtype.type(alpha) * np.exp(a) - a.dtype.type(alpha))
                                         * a.dtype.type(scale)),
     lambda g, result, scale, alpha: F.mul(g, F.where(F.le(result, 0.0), F.add(
         result, float(np.float32(alpha) * np.float32(scale))), scale)))
# paddle's tanh_shrink kernel: x - tanh(x) (its fast float32 tanh), whose gradient it computes as
# dout · (tanh(x) · tanh(x)) (torch composes x - tanh(x)); paddle has no double grad for it
rule("tanh_shrink", "TanhShrinkGradNode", lambda a: a - H.tanh(a, fast=True),
     lambda g, a: F.mul(g, F.mul(F.tanh(a), F.tanh(a))))
# silu's gradient: torch records it composed (sigmoid, products); paddle as one node
rule("silu", "SiluBackward0", lambda a: a / (1 + np.exp(-a)), lambda g, a: F.silu_grad(g, a))
rule("silu_backward", "SiluBackwardBackward0",
     lambda a, b: a * H.np_silu_slope(b),
     lambda g, b: F.silu_grad(g, b),
     lambda g, a, b: F.mul(F.mul(g, a), H.silu_curvature(b)), **AB)
# Where a framework's backward kernel reads an operand it does not differentiate (paddle's
# multiply_grad reads both operands), the gradient it returns is still connected to that operand;
# the engine records this edge with ``F.link`` for the ops the dialect's policy lists.
# ``unrecorded``: the zeros come from no kernel (paddle's multiply_grad with a constant operand):
# they require grad but have no node, so nothing flows further
rule("zero_link", "ZeroLinkBackward", lambda a, b: a,
     lambda g: g,
     lambda g, b_shape, unrecorded=False: F.unrecorded_zeros(g, b_shape) if unrecorded
     else F.expand(F.sum(F.where(F.constant_like(g, np.zeros(g._data.shape, bool)), g, 0.0)),
                   b_shape), **AB)
rule("clamp", "ClampBackward1", H.np_clamp,
     lambda g, a, low, high: g if low is None and high is None else
     H.where_zero(H.clamp_mask(a, low, high), g))
# torch's clamp.Tensor: a bound gets the gradient where it clamps (and, with both bounds, only
# while min < max); the input keeps it within [min, max], ties included
rule("clamp_tensor", "ClampBackward0", lambda a, b, c: np.minimum(np.maximum(a, b), c),
     lambda g, a, low, high: H.where_zero(F.logical_and(F.ge(a, low), F.le(a, high)), g),
     lambda g, a, low, high: H.where_zero(F.logical_and(F.lt(a, low), F.lt(low, high)), g),
     lambda g, a, low, high: H.where_zero(F.logical_or(F.gt(a, high), F.lt(high, low)), g),
     inputs=("a", "low", "high"))
rule("maximum", "MaximumBackward0", np.maximum,
     lambda g, a, b: H.maximum_grad(g, a, b, F.lt, True),
     lambda g, a, b: H.maximum_grad(g, b, a, F.lt, False), **AB)
rule("minimum", "MinimumBackward0", np.minimum,
     lambda g, a, b: H.maximum_grad(g, a, b, F.gt, True),
     lambda g, a, b: H.maximum_grad(g, b, a, F.gt, False), **AB)
# torch's loss functions: one node each, the loss reduced ("mean", "sum" or "none")
rule("mse_loss", "MseLossBackward0", lambda a, b, *, reduction: H.np_reduce((a - b) ** 2, reduction),
     lambda g, a, b, reduction: H.mse_grad(g, F.sub(a, b), reduction),
     lambda g, a, b, reduction: H.mse_grad(g, F.sub(b, a), reduction), **AB)
rule("nll_loss", "NllLossBackward0",
     lambda a, *, classes, reduction: H.nll_reduce(-a[np.arange(len(classes)), list(classes)], reduction),
     lambda g, a, classes, reduction: H.nll_grad(g, a, classes, reduction))
rule("binary_cross_entropy", "BinaryCrossEntropyBackward0",
     lambda a, b, *, reduction: H.np_reduce(-(b * np.maximum(np.log(a), -100)
                                             + (1 - b) * np.maximum(np.log1p(-a), -100)),
                                           reduction),
     lambda g, a, b, reduction: F.mul(F.div(F.sub(a, b), F.clamp(F.mul(F.sub(1.0, a), a), 1e-12)),
                                      H.loss_grad(g, a, reduction)),
     lambda g, a, b, reduction: F.mul(F.sub(F.clamp(F.log(F.sub(1.0, a)), -100.0),
                                            F.clamp(F.log(a), -100.0)), H.loss_grad(g, b, reduction)),
     **AB)
rule("binary_cross_entropy_with_logits", "BinaryCrossEntropyWithLogitsBackward0",
     lambda a, b, *, reduction: H.np_reduce(np.maximum(a, 0) - a * b + np.log1p(np.exp(-np.abs(a))),
                                           reduction),
     lambda g, a, b, reduction: F.mul(F.sub(F.sigmoid(a), b), H.loss_grad(g, a, reduction)),
     lambda g, a, b, reduction: F.mul(F.neg(a), H.loss_grad(g, b, reduction)), **AB)
# paddle's kernel of the same loss, elementwise: its gradient has no part for the label, and at a
# logit of exactly 0 it is one less than sigmoid(x) - y (measured: -1.5 for a label of 1)
rule("sigmoid_cross_entropy_with_logits", "SigmoidCrossEntropyWithLogitsGradNode",
     lambda a, b: np.maximum(a, 0) - a * b + np.log1p(np.exp(-np.abs(a))),
     lambda g, a, b: F.mul(F.sub(F.sub(F.sigmoid(a), b), H.indicator(a, a._data == 0)), g), None, **AB)
# torch's var and std over dims (all of them when None): one node each
rule("var", "VarBackward0",
     lambda a, *, dims, correction, keepdim: np.var(a, axis=dims, ddof=correction, keepdims=keepdim),
     lambda g, a, dims, correction, keepdim: H.var_grad(g, a, dims, correction, keepdim))
rule("std", "StdBackward0",
     lambda a, *, dims, correction, keepdim: np.sqrt(np.var(a, axis=dims, ddof=correction,
                                                           keepdims=keepdim)),
     lambda g, a, result, dims, correction, keepdim: H.var_grad(
         F.masked_fill(F.div(g, F.mul(result, 2.0)), result._data == 0, 0), a, dims, correction,
         keepdim))
# torch's gather along dim, and its gradient: the gradient added into zeros at the gathered
# places (scatter_add), whose own gradient gathers again
rule("gather", "GatherBackward0", lambda a, *, dim, index: np.take_along_axis(a, index, axis=dim),
     lambda g, a, dim, index: F.scatter_add_zeros(g, a._data.shape, dim, index))
rule("scatter_add_zeros", "ScatterAddBackward0",
     lambda a, *, shape, dim, index: H.np_scatter_add(a, shape, dim, index),
     lambda g, dim, index: F.gather(g, dim, index))
# masked_fill with a number: the mask and the number are attributes, the tensor the only input
rule("masked_fill", "MaskedFillBackward0",
     lambda a, *, mask, value: np.where(mask, np.asarray(value, a.dtype), a),
     lambda g, mask: F.masked_fill(g, mask, 0))
rule("where", "WhereBackward0", np.where, None,
     lambda g, c: H.where_zero(c, g), lambda g, c: F.where(c, 0, g), inputs=("c", "a", "b"),
     unlisted=("c",))
rule("softmax", "SoftmaxBackward0", H.np_softmax,
     lambda g, result, dim: F.fused_grad("softmax", g, result, dim=dim))
rule("log_softmax", "LogSoftmaxBackward0", H.np_log_softmax,
     lambda g, result, dim: F.fused_grad("log_softmax", g, result, dim=dim))
# torch's _softmax_backward_data and _log_softmax_backward_data: one node each, differentiable
# in the gradient (a) and the saved output (b)
rule("softmax_backward", "SoftmaxBackwardDataBackward0",
     lambda a, b, *, dim: kernel_order.softmax_backward(a, b, dim),
     lambda g, b, dim: F.fused_grad("softmax", g, b, dim=dim),
     lambda g, a, b, dim: F.sub(F.sub(F.mul(a, g), F.mul(F.sum(F.mul(b, a), (dim,), True), g)),
                                F.mul(a, F.sum(F.mul(g, b), (dim,), True))), **AB)
rule("log_softmax_backward", "LogSoftmaxBackwardDataBackward0",
     lambda a, b, *, dim: kernel_order.log_softmax_backward(a, b, dim),
     lambda g, b, dim: F.sub(g, F.sum(F.mul(g, F.exp(b)), (dim,), True)),  # its transpose
     lambda g, a, b, dim: F.mul(F.mul(F.neg(F.sum(a, (dim,), True)), F.exp(b)), g), **AB)

rule("reshape", "ViewBackward0", lambda a, *, shape: np.reshape(a, shape),
     lambda g, in_shape: F.reshape(g, in_shape), view=True)
# torch's reshape of a layout no view has: of a contiguous copy (a new tensor, not a view)
rule("unsafe_view", "UnsafeViewBackward0", lambda a, *, shape: np.reshape(a, shape),
     lambda g, in_shape: F.reshape(g, in_shape))
# torch's node for a view made anew from its base (AsStridedBackward0), once a write moved its
# version on: the view's elements read from the base by where they lie in its memory
rule("as_strided", "AsStridedBackward0", lambda a, *, index: a[index],
     lambda g, index, in_shape: F.index_backward(g, in_shape, index), view=True)
# torch's node for a base one of its views was written through: the write's own node (fn) runs
# on the view's part of the gradient (engine._copy_slices_grads), the rest passes unchanged
rule("copy_slices", "torch::autograd::CopySlices", lambda a, *others, **attrs: a, None,
     variadic=True, holds_state=True)
# (a 0-d tensor's one "dim" swapped with itself: a view of it as it is)
rule("transpose", "TransposeBackward0",
     lambda a, *, dim0, dim1: np.swapaxes(a, dim0, dim1) if a.ndim else a.view(),
     lambda g, dim0, dim1: F.transpose(g, dim0, dim1), view=True)
rule("t", "TBackward0", lambda a: a.T, lambda g: F.t(g), view=True)
rule("permute", "PermuteBackward0", lambda a, *, dims: np.transpose(a, dims),
     lambda g, dims: F.permute(g, H.inverse(dims)), view=True)
rule("squeeze", "SqueezeBackward1", lambda a, *, dims: np.squeeze(a, dims),
     lambda g, dims: H.unsqueezed(g, dims), view=True)
rule("unsqueeze", "UnsqueezeBackward0", H.np_unsqueeze,
     lambda g, dim: F.squeeze(g, dim), view=True)
rule("expand", "ExpandBackward0", lambda a, *, shape: H.np_expand(a, shape), lambda g: g, view=True)


for _kind, _name in (("select", "SelectBackward0"), ("slice", "SliceBackward0")):
    rule("getitem_" + _kind, _name, H.np_getitem, H.basic_index_grad, view=True)
rule("getitem_index", "IndexBackward0", H.np_getitem,
     lambda g, index, in_shape: F.index_backward(g, in_shape, index), holds_state=True)
rule("index_backward", "SelectBackwardBackward0", H.np_index_backward,
     lambda g, index: F.getitem(g, index))
# row-contiguous whatever the inputs' layout, as torch's kernels write them
rule("cat", "CatBackward0", lambda *arrays, dim: np.ascontiguousarray(np.concatenate(arrays, axis=dim)),
     H.cat_grads, variadic=True)
rule("stack", "StackBackward0", lambda *arrays, dim: np.ascontiguousarray(np.stack(arrays, axis=dim)),
     H.stack_grads, variadic=True)
rule("clone", "CloneBackward0", H.np_copy, lambda g: g)
# torch's AccumulateGrad copies a first gradient that requires grad into .grad (create_graph)
rule("grad_copy", "torch::autograd::CopyBackwards", np.array, lambda g: g)
# torch's once_differentiable: what such a backward returns from a gradient that requires grad
# comes out of an Error node, which refuses to be differentiated
rule("once_differentiable_error", "torch::autograd::Error", np.array, lambda g: H.differentiated_twice(g))
rule("cast", "ToCopyBackward0", H.np_cast, lambda g: g)
# a copy to another device: the gradient goes back to the device the input is on
rule("to_device", "ToCopyBackward0", np.array, lambda g, source: F.to_device(g, source))


def _underivable(kernel: str) -> Any:
    """The derivative of a kernel torch has none for: running it raises, as torch does."""
    def vjp(g: Any) -> Any:
        raise NotImplementedError(f"the derivative for '{kernel}' is not implemented.")

    return vjp


# unique's values (sorted, over everything or along ``dim``): recorded, but not differentiable
rule("unique", "Unique2Backward0", lambda a: np.unique(a), _underivable("_unique2"))
rule("unique_dim", "UniqueDimBackward0", lambda a, *, dim: np.unique(a, axis=dim), _underivable("unique_dim"))
rule("fill", "FillBackward2", lambda a, *, value: np.full_like(a, value), lambda g: F.zeros_like(g))
rule("setitem", "torch::autograd::CopySlices", lambda a, b, *, index: H.np_setitem(a, b, index),
     lambda g, index: H.where_zero(F.constant_like(g, H.setitem_mask(g._data.shape, index)), g),
     lambda g, index: F.getitem(g, index), holds_state=True, **AB)



# --- linear algebra: square matrices (batches of them), torch's formulas (FunctionsManual) ----
# Each derivative solves again with the transposed matrix (torch's create_graph branch; without
# it torch reuses the LU factors, with the same values). paddle's kernels have no double grad.
rule("linalg_solve", "LinalgSolveExBackward0", H.np_solve, H.solve_grad_a,
     lambda g, a: H.solve_grad_b(g, a), **AB)
rule("inverse", "LinalgInvExBackward0", np.linalg.inv, H.inverse_grad)
rule("det", "LinalgDetBackward0", np.linalg.det, H.det_grad)
rule("cholesky", "LinalgCholeskyExBackward0", H.np_cholesky, H.cholesky_grad)
rule("slogdet", "LinalgSlogdetBackward0", lambda a: np.linalg.slogdet(a)[1], H.logabsdet_grad)
# slogdet's sign: an output of torch's node that passes no gradient (a real sign is constant)
rule("slogdet_sign", "LinalgSlogdetBackward0", lambda a: np.linalg.slogdet(a)[0], lambda g: None)
# paddle's slogdet: sign and log|det| stacked in one tensor, one node; only the second passes
rule("slogdet_stacked", "SlogdetGradNode", lambda a: np.stack(np.linalg.slogdet(a)),
     lambda g, a: H.logabsdet_grad(F.getitem(g, (1,)), a))

# affine_grid: each pixel's (x, y, 1) (the ``base`` points, an attribute: the node saves nothing,
# as torch's) times thetaᵀ; its derivative sums the gradient against the points
rule("affine_grid", "AffineGridGeneratorBackward0", lambda a, *, base, size: H.np_affine_grid(a, base, size),
     lambda g, base, size: H.affine_grid_grad(g, base))

# --- factorizations: one node of several outputs (``ops.factorization``), which it saves ------
# (the node's forward hands the input on; the caller computes the outputs)
rule("eigh", "LinalgEighBackward0", lambda a, *, count: a,
     lambda grads, eigenvalues, eigenvectors: H.eigh_grad(grads, eigenvalues, eigenvectors))
rule("svd", "LinalgSvdBackward0", lambda a, *, full_matrices, count: a,
     lambda grads, u, s, vh, full_matrices: H.svd_grad(grads, u, s, vh, full_matrices))
rule("qr", "LinalgQrBackward0", lambda a, *, mode, count: a,
     lambda grads, q, r, mode: H.qr_grad(grads, q, r, mode))
rule("pinv", "LinalgPinvBackward0",
     lambda a, *, hermitian, rtol: H.np_pinv(a, hermitian=hermitian, rtol=rtol),
     lambda g, a, result: H.pinv_grad(g, a, result))

# --- special functions (reference_engine.special_functions), torch's formulas -------------------
rule("lgamma", "LgammaBackward0", S.lgamma, lambda g, a: F.mul(g, F.digamma(a)), **FUNCTION)
rule("digamma", "DigammaBackward0", S.digamma, lambda g, a: F.mul(g, F.polygamma(a, 1)), **FUNCTION)
rule("polygamma", "PolygammaBackward0", lambda a, *, n: S.polygamma(n, a),
     lambda g, a, n: F.mul(g, F.polygamma(a, n + 1)))
# (outside [-1, 1] torch gives NaN and paddle's kernel ±inf: ``saturates``)
rule("erfinv", "ErfinvBackward0", lambda a, *, saturates: S.erfinv(a, saturates),
     lambda g, a: F.mul(H.times_scalar(F.exp(F.pow(F.erfinv(a), 2)), 0.5 * math.sqrt(math.pi)), g))
# logit of the input clamped to [eps, 1 - eps] (eps None: no clamp); its derivative is 0 outside
# that range (NaN outside [0, 1] without eps), torch's infinitely differentiable form
rule("logit", "LogitBackward0", lambda a, *, eps: H.np_logit(a, eps),
     lambda g, a, eps: H.logit_grad(g, a, eps))
# torch's erfc, xlogy, entr, sinc, copysign, fmax / fmin and logaddexp2 (torch 2.13's formulas)
rule("erfc", "ErfcBackward0", H.np_erfc,
     lambda g, a: F.mul(F.mul(F.exp(F.neg(F.pow(a, 2))), -2.0 / math.sqrt(math.pi)), g))
rule("xlogy", "XlogyBackward0", H.np_xlogy,
     lambda g, a, b: F.mul(g, F.xlogy(F.constant_like(b, np.broadcast_to(a._data != 0, a._data.shape)
                                                       .astype(b._data.dtype)), b)),
     lambda g, a, b: F.div(F.mul(g, a), b), **AB)
rule("entr", "SpecialEntrBackward0", H.np_entr, lambda g, a: F.mul(g, F.neg(F.add(F.log(a), 1.0))))
rule("sinc", "SincBackward0", H.np_sinc, H.sinc_grad)
rule("copysign", "CopysignBackward0", np.copysign,
     lambda g, a, result: F.mul(g, H.where_zero(F.ne(a, 0), F.div(result, a))),
     lambda g: F.zeros_like(g), **AB)
for _op, _node, _kept in (("fmax", "FmaxBackward0", np.greater_equal),
                          ("fmin", "FminBackward0", np.less_equal)):
    # the first operand's where it is kept (ties and a NaN second operand included), else the second's
    rule(_op, _node, getattr(np, _op),
         lambda g, a, b, kept=_kept: H.where_zero(F.constant_like(g, np.broadcast_to(
             kept(a._data, b._data) | np.isnan(b._data), g._data.shape)), g),
         lambda g, a, b, kept=_kept: H.where_zero(F.constant_like(g, ~np.broadcast_to(
             kept(a._data, b._data) | np.isnan(b._data), g._data.shape)), g), **AB)
rule("logaddexp2", "Logaddexp2Backward0", H.np_logaddexp2,
     lambda g, a, b: F.div(g, F.add(F.pow(2.0, F.sub(b, a)), 1.0)),
     lambda g, a, b: F.div(g, F.add(F.pow(2.0, F.sub(a, b)), 1.0)), **AB)
# paddle's heaviside: 0 below 0, the second operand at 0, 1 above; the first operand's gradient
# is zeros, the second's the incoming one where the first is 0 (measured on 3.3.1)
rule("heaviside", "HeavisideBackward0", np.heaviside, lambda g: F.zeros_like(g),
     lambda g, a: H.where_zero(F.eq(a, 0), g), **AB)
# paddle's Tensor.unfold: sliding windows, the gradient written back window by window
rule("tensor_unfold", "TensorUnfoldGradNode", H.np_windows,
     lambda g, axis, size, step, shape: H.unfold_grad_assigned(g, axis, size, step, shape))
# remainder (Python's %, the divisor's sign) and fmod (C's, the dividend's): the dividend's
# gradient passes unchanged, the divisor's is -g times the quotient rounded as the op rounds it,
# by torch's div with rounding_mode, whose own gradients are zeros (torch 2.13's formulas);
# paddle 3.3.1's remainder_grad floors the divided quotient instead (1.79 / -0.358 is -5.0
# there, where the floor division is -6: measured), and has no double grad
rule("remainder", "RemainderBackward1", H.np_remainder, lambda g: g,
     lambda g, a, b: F.mul(F.neg(g), F.rounded_division(a, b, g._policy.remainder_grad_quotient)), **AB)
rule("fmod", "FmodBackward1", np.fmod, lambda g: g,
     lambda g, a, b: F.mul(F.neg(g), F.rounded_division(a, b, "trunc")), **AB)
rule("div_rounded", "DivBackward2", H.np_rounded_division,
     lambda g: F.zeros_like(g), lambda g: F.zeros_like(g), **AB)
# torch records a // b, and remainder with a number dividend, under a node without derivative
for _kernel in ("floor_divide", "floor_divide_"):  # the in-place kernel's error names itself
    rule(_kernel, "torch::autograd::NotImplemented", np.floor_divide,
         H.not_implemented(_kernel), H.not_implemented(_kernel), **AB)
# torch's bincount with weights: the weights summed per index, under a node without derivative
rule("bincount_weighted", "torch::autograd::NotImplemented",
     lambda a, *, index, minlength: np.bincount(index, a, minlength).astype(
         a.dtype if a.dtype == np.float32 else np.float64),
     H.not_implemented("bincount"))
rule("remainder_of_number", "torch::autograd::NotImplemented",
     lambda a, *, dividend: H.np_remainder(np.asarray(dividend, a.dtype), a), H.not_implemented("remainder"))
rule("atan2", "Atan2Backward0", np.arctan2,
     lambda g, a, b: F.mul(F.mul(g, b), H.inverse_norm_square(a, b)),
     lambda g, a, b: F.mul(F.mul(g, F.neg(a)), H.inverse_norm_square(a, b)), **AB)
rule("deg2rad", "Deg2RadBackward0", lambda a: a * np.asarray(math.pi / 180, a.dtype),
     lambda g: H.times_scalar(g, math.pi / 180))
rule("rad2deg", "Rad2DegBackward0", lambda a: a * np.asarray(180 / math.pi, a.dtype),
     lambda g: H.times_scalar(g, 180 / math.pi))
rule("cumprod", "CumprodBackward0", lambda a, *, dim: np.cumprod(a, axis=dim).reshape(a.shape),
     lambda g, a, result, dim: H.cumprod_grad(g, a, result, dim))
rule("cross", "LinalgCrossBackward0", lambda a, b, *, dim: np.cross(a, b, axis=dim),
     lambda g, b, dim: F.cross(b, g, dim), lambda g, a, dim: F.cross(g, a, dim), **AB)
# pixel (un)shuffle: a permutation of the elements, each the other's derivative
rule("pixel_shuffle", "PixelShuffleBackward0", lambda a, *, factor: H.np_pixel_shuffle(a, factor),
     lambda g, factor: F.pixel_unshuffle(g, factor))
rule("pixel_unshuffle", "PixelUnshuffleBackward0", lambda a, *, factor: H.np_pixel_unshuffle(a, factor),
     lambda g, factor: F.pixel_shuffle(g, factor))
