"""The op registry: one entry per operation, from which everything outside the rule comes.

An entry says how each dialect calls the op (a function of the framework module, or a method
of the first operand, with the neutral keywords renamed), what its operands may hold (its
domain), how their shapes relate, where its derivative is not smooth, and which keyword sets
the generator draws. From it come:

- the case vocabulary's ``OPS`` entry (``conformance.corpus.vocabulary``);
- the adapters' call (``conformance.run.adapters``: the attribute path looked up on the
  module that runs, real framework or reference facade);
- the repro program's text (``conformance.run.repro``: the same path, printed), so the
  program a report shows is the call that ran by construction;
- the generator's builder (``conformance.corpus.generators.registry_ops``), which reaches every
  entry in each dialect that has it, at ordinary points, at its special points and to second
  order.

The derivative itself stays in ``reference_engine/rules.py``; ``REFERENCE_RULES`` names the
rule each entry exercises, and a test keeps every user-facing rule reached by an entry or
listed in ``INTERNAL_RULES`` with why. Adding an op is its rule, one entry here, and the facade
function where a dialect's API needs one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Optional

from conformance.corpus.field_types import BOOL, DIMS, NUMBER

# What an op's operands may hold, as the generator draws them: ranges of magnitudes (in
# thousandths) and whether the sign is drawn.
DOMAINS: dict[str, tuple[int, int, bool]] = {
    "any": (300, 1900, True),
    "positive": (300, 1900, False),
    "unit": (50, 900, True),           # inside (-1, 1): acos, asin
    "small": (100, 1200, True),        # where tan, sinh, cosh and expm1 stay moderate
    "probability": (50, 950, False),   # inside (0, 1): binary cross entropy's input
    "above_one": (1100, 2500, False),  # above 1: acosh
}
# How the operands' shapes relate: "elementwise" (one operand, or two of one shape), "reduce"
# (one operand reduced over ``dim``), "dot" (two vectors), "mv" (a matrix and a vector),
# "bmm" (two batches of matrices), "loss" (input and a target of its shape that needs no grad),
# "scan" (one operand, a result of its shape computed along ``dim``), "square" (a square matrix
# or a batch of them, far from singular), "solve" (such a matrix and a right-hand side: a
# vector or a matrix of columns), "cross" (two operands of one shape whose last dimension is 3).
LAYOUTS = ("elementwise", "reduce", "dot", "mv", "bmm", "loss", "scan", "square", "solve", "cross")


@dataclass(frozen=True)
class Call:
    """How one dialect calls an op: ``path`` is an attribute path of the framework module
    (``nn.functional.gelu``) or, starting with a dot, a method of the first operand (``.std``);
    ``keywords`` renames the neutral keywords (``{"dim": "axis"}``)."""

    path: str
    keywords: Mapping[str, str] = field(default_factory=dict)

    @property
    def is_method(self) -> bool:
        return self.path.startswith(".")

    def keyword(self, neutral: str) -> str:
        return self.keywords.get(neutral, neutral)


@dataclass(frozen=True)
class RegisteredOp:
    """One operation of the registry (see the module's docstring)."""

    name: str
    torch: Optional[Call]
    paddle: Optional[Call]
    operands: int = 1
    kwargs: Mapping[str, str] = field(default_factory=dict)
    domain: str = "any"
    layout: str = "elementwise"
    saves: bool = True
    special: str = ""  # where its derivative is not smooth, in words
    special_values: tuple[float, ...] = ()  # such points, placed among its operand's values
    samples: tuple[Mapping[str, Any], ...] = ({},)  # keyword sets the generator draws
    rule: str = ""  # the reference rule it exercises (default: its own name)

    def call(self, dialect: str) -> Optional[Call]:
        """How ``dialect`` calls it (None: the dialect has no such API)."""
        return self.torch if dialect == "torch" else self.paddle

    @property
    def dialects(self) -> tuple[str, ...]:
        return tuple(d for d in ("torch", "paddle") if self.call(d) is not None)


def _both(path: str, **keywords: str) -> dict[str, Call]:
    """The same function in both frameworks, paddle spelling ``dim`` as ``axis``."""
    return {"torch": Call(path), "paddle": Call(path, {"dim": "axis", **keywords})}


def _unary(name: str, domain: str = "any", special: str = "", special_values: tuple[float, ...] = (),
           path: Optional[str] = None, **extra: Any) -> RegisteredOp:
    return RegisteredOp(name, **_both(path or name), domain=domain, special=special,
                        special_values=special_values, **extra)


_STEP = "a jump (its derivative is 0 on each side)"
_FUNCTIONAL = "nn.functional."
_REDUCE_SAMPLES = ({}, {"dim": -1}, {"dim": 0, "keepdim": True}, {"dim": 1})

REGISTRY: tuple[RegisteredOp, ...] = (
    _unary("acos", "unit"), _unary("asin", "unit"), _unary("atan"), _unary("atanh", "unit"),
    _unary("asinh"), _unary("acosh", "above_one"),
    _unary("sinh", "small"), _unary("cosh", "small"), _unary("tan", "small"),
    _unary("erf"), _unary("expm1", "small"), _unary("log1p", "positive"),
    _unary("log2", "positive"), _unary("log10", "positive"), _unary("rsqrt", "positive"),
    _unary("reciprocal", "positive"),
    _unary("lgamma", "positive"), _unary("digamma", "positive"), _unary("erfinv", "unit"),
    _unary("deg2rad"), _unary("frac", special=_STEP, special_values=(1.0, -2.0)),
    _unary("trunc", special=_STEP, special_values=(1.0, -1.0), saves=False),
    _unary("logit", "probability", kwargs={"eps": NUMBER}, samples=({}, {"eps": 0.2}),
           special="its clamp's bounds (eps)", special_values=(0.2, 0.8)),
    RegisteredOp("atan2", **_both("atan2"), operands=2),
    RegisteredOp("remainder", **_both("remainder"), operands=2,
                 special="a jump where a / b is an integer (b's derivative steps by 1)"),
    RegisteredOp("fmod", torch=Call("fmod"), paddle=None, operands=2,
                 special="a jump where a / b is an integer (b's derivative steps by 1)"),
    RegisteredOp("erfc", torch=Call("erfc"), paddle=None),
    RegisteredOp("heaviside", torch=None, paddle=Call("heaviside"), operands=2, saves=False,
                 special=_STEP, special_values=(0.0,)),
    RegisteredOp("sinc", torch=Call("sinc"), paddle=None, special="its removable singularity at 0",
                 special_values=(0.0,)),
    RegisteredOp("entr", torch=Call("special.entr"), paddle=None, domain="positive"),
    RegisteredOp("xlogy", torch=Call("xlogy"), paddle=None, operands=2, domain="positive"),
    RegisteredOp("copysign", torch=Call("copysign"), paddle=None, operands=2,
                 special="a sign switch at 0 (its derivative is 0 there)", special_values=(0.0,)),
    RegisteredOp("fmax", torch=Call("fmax"), paddle=None, operands=2),
    RegisteredOp("fmin", torch=Call("fmin"), paddle=None, operands=2),
    RegisteredOp("logaddexp2", torch=Call("logaddexp2"), paddle=None, operands=2),
    _unary("sign", special=_STEP, special_values=(0.0,), saves=False),
    _unary("floor", special=_STEP, special_values=(1.0, -1.0), saves=False),
    _unary("ceil", special=_STEP, special_values=(1.0, -1.0), saves=False),
    _unary("round", special=_STEP, special_values=(0.5, -1.5), saves=False),
    _unary("silu", path=_FUNCTIONAL + "silu"),
    _unary("gelu", path=_FUNCTIONAL + "gelu"),
    _unary("softplus", path=_FUNCTIONAL + "softplus"),
    _unary("elu", path=_FUNCTIONAL + "elu", special="zero", special_values=(0.0,),
           kwargs={"alpha": NUMBER}, samples=({}, {"alpha": 0.5})),
    _unary("leaky_relu", path=_FUNCTIONAL + "leaky_relu", special="zero", special_values=(0.0,),
           kwargs={"negative_slope": NUMBER}, samples=({}, {"negative_slope": 0.2})),
    RegisteredOp("hardtanh", torch=Call(_FUNCTIONAL + "hardtanh", {"min": "min_val", "max": "max_val"}),
                 paddle=Call(_FUNCTIONAL + "hardtanh"), kwargs={"min": NUMBER, "max": NUMBER},
                 samples=({}, {"min": -0.5, "max": 1.2}),
                 special="its bounds (the gradient passes strictly inside)",
                 special_values=(-1.0, 1.0)),
    _unary("relu6", path=_FUNCTIONAL + "relu6", special="0 (and 6)", special_values=(0.0, 6.0),
           rule="hardtanh"),
    _unary("selu", path=_FUNCTIONAL + "selu", special="zero", special_values=(0.0,)),
    _unary("hardswish", path=_FUNCTIONAL + "hardswish", special="-3 and 3", special_values=(-3.0, 3.0)),
    _unary("hardsigmoid", path=_FUNCTIONAL + "hardsigmoid", special="-3 and 3", special_values=(-3.0, 3.0)),
    RegisteredOp("softshrink", torch=Call(_FUNCTIONAL + "softshrink", {"threshold": "lambd"}),
                 paddle=Call(_FUNCTIONAL + "softshrink"), kwargs={"threshold": NUMBER},
                 samples=({}, {"threshold": 0.3}), special="±threshold (a kink)", special_values=(0.5, -0.5)),
    RegisteredOp("hardshrink", torch=Call(_FUNCTIONAL + "hardshrink", {"threshold": "lambd"}),
                 paddle=Call(_FUNCTIONAL + "hardshrink"), kwargs={"threshold": NUMBER},
                 samples=({}, {"threshold": 0.3}),
                 special="±threshold (a jump; torch zeroes x = ±λ, paddle keeps it)",
                 special_values=(0.5, -0.5)),
    _unary("tanhshrink", path=_FUNCTIONAL + "tanhshrink", rule="tanh_shrink"),
    RegisteredOp("threshold", torch=Call(_FUNCTIONAL + "threshold"),
                 paddle=Call(_FUNCTIONAL + "thresholded_relu"), kwargs={"threshold": NUMBER, "value": NUMBER},
                 samples=({"threshold": 0.5, "value": 0.0}, {"threshold": -0.2, "value": 0.7}),
                 special="the threshold (a jump to value)", special_values=(0.5, -0.2)),
    RegisteredOp("std", **_both("std"), layout="reduce", kwargs={"dim": DIMS, "keepdim": BOOL},
                 samples=_REDUCE_SAMPLES),
    RegisteredOp("var", **_both("var"), layout="reduce", kwargs={"dim": DIMS, "keepdim": BOOL},
                 samples=_REDUCE_SAMPLES),
    RegisteredOp("norm", **_both("norm"), layout="reduce",
                 kwargs={"p": NUMBER, "dim": DIMS, "keepdim": BOOL},
                 samples=({}, {"p": 2, "dim": -1}, {"p": 1, "dim": 0}, {"p": 2, "dim": 1, "keepdim": True}),
                 special="a zero vector (2-norm), zero elements (1-norm)", rule="norm_p"),
    RegisteredOp("cumsum", **_both("cumsum"), layout="scan", kwargs={"dim": DIMS},
                 samples=({"dim": 0}, {"dim": -1}, {"dim": 1}), saves=False),
    RegisteredOp("cumprod", torch=Call("cumprod"), paddle=Call("cumprod"), layout="scan",
                 kwargs={"dim": DIMS}, samples=({"dim": 0}, {"dim": -1}, {"dim": 1})),
    RegisteredOp("cross", torch=Call("linalg.cross"), paddle=Call("cross", {"dim": "axis"}), operands=2,
                 layout="cross", kwargs={"dim": DIMS}, samples=({"dim": -1},)),
    RegisteredOp("dot", **_both("dot"), operands=2, layout="dot"),
    RegisteredOp("mv", **_both("mv"), operands=2, layout="mv"),
    RegisteredOp("bmm", **_both("bmm"), operands=2, layout="bmm"),
    RegisteredOp("inverse", **_both("linalg.inv"), layout="square"),
    RegisteredOp("det", **_both("linalg.det"), layout="square"),
    RegisteredOp("linalg_solve", **_both("linalg.solve"), operands=2, layout="solve"),
    RegisteredOp("mse_loss", **_both(_FUNCTIONAL + "mse_loss"), operands=2, layout="loss"),
    RegisteredOp("binary_cross_entropy", **_both(_FUNCTIONAL + "binary_cross_entropy"),
                 operands=2, layout="loss", domain="probability"),
    RegisteredOp("binary_cross_entropy_with_logits",
                 **_both(_FUNCTIONAL + "binary_cross_entropy_with_logits"), operands=2,
                 layout="loss", special="paddle's gradient at a logit of exactly 0 is one less",
                 special_values=(0.0,)),
)
REGISTERED: dict[str, RegisteredOp] = {op.name: op for op in REGISTRY}

# Rules of the reference's table that no case op calls by that name, and why: the derivatives
# of other rules, the variants an op picks by its arguments, and the engine's own steps.
INTERNAL_RULES: dict[str, str] = {
    **{f"{name}_backward": f"the derivative of {name}'s rule, recorded for second order"
       for name in ("elu", "gelu", "leaky_relu", "log", "log_softmax", "relu", "sigmoid", "silu",
                    "softmax", "softplus", "tanh", "hardtanh", "hardswish", "hardsigmoid", "softshrink",
                    "hardshrink", "threshold")},
    "sigmoid_cross_entropy_with_logits": "paddle's kernel of binary_cross_entropy_with_logits (the case "
                                         "op's rule in the paddle dialect)",
    "prelu": "needs a per-channel weight operand the vocabulary's ops do not take",
    "prelu_input_backward": "the derivative of prelu's rule for its input, recorded for second order",
    "prelu_weight_backward": "the derivative of prelu's rule for its weight, recorded for second order",
    "round_decimals": "round with decimals: a keyword the vocabulary's round does not draw",
    "add_scaled": "add with alpha (torch)", "sub_scaled": "sub with alpha (torch)",
    "addmm_scaled": "torch.addmm with beta or alpha: three matrices the vocabulary's ops do not take "
                    "(torch's OpInfo samples and a finite-difference case check it)",
    "div_number": "a division by a count in a derivative (mean's)",
    "conj": "the conjugate paddle's composite log double grad records (real values: a copy)",
    "bincount_weighted": "torch's bincount of weights: integer indices the vocabulary does not draw",
    "rsub": "a number minus a tensor", "rpow": "a number to a tensor's power",
    "pow_scalar": "pow with a number exponent", "clamp_tensor": "clamp with tensor bounds",
    "sum_all": "sum without dims", "mean_all": "mean without dims", "prod_all": "prod without dims",
    "prod_others": "prod's derivative at a single zero", "max_all": "max without dims",
    "min_all": "min without dims", "max_dim": "max over a dim", "min_dim": "min over a dim",
    "norm2": "the 2-norm a normalisation composes", "vm": "matmul of a vector and a matrix",
    "getitem_index": "indexing by integer lists", "getitem_select": "indexing by an integer",
    "getitem_slice": "indexing by slices", "index_backward": "indexing's derivative",
    "split_with_sizes": "split by sections", "unsafe_view": "a reshape that copies",
    "unstack": "paddle's unstack: unbind's rule under its own node, its pieces copies (a "
               "differential program checks it)",
    "as_strided": "a view made anew from its base once its version moved on (torch)",
    "copy_slices": "a base written through one of its views (torch's CopySlices)",
    "sgn": "abs's derivative (torch), whose own derivative is a ZeroTensor",
    "t": "matmul's transposes", "setitem": "writing through an index (in-place steps)",
    "fill": "fill_ (in-place steps)", "grad_copy": "the engine's copy of a gradient",
    "zero_link": "the engine's zero gradient", "scatter_add_zeros": "gather's derivative",
    "once_differentiable_error": "a once_differentiable function run to second order",
    "layer_norm_scale": "paddle's layer_norm kernel (modules)",
    "addmm": "a Linear layer with a bias (module steps)", "to_device": "a copy between devices",
    "gather": "indexing by a tensor of indices: needs integer operands the vocabulary lacks",
    "masked_fill": "needs a boolean mask operand the vocabulary's ops do not take",
    "nll_loss": "needs integer class indices the vocabulary's ops do not take",
    "unique": "not differentiable (torch records it, its derivative raises)",
    "unique_dim": "unique along a dim: not differentiable",
    "slogdet": "torch's slogdet returns two tensors, the vocabulary's ops one",
    "polygamma": "digamma's derivative, recorded for second order (torch and paddle order its "
                 "arguments differently: polygamma(n, x), polygamma(x, n))",
    "rad2deg": "deg2rad's inverse, one constant apart (a differential program checks it)",
    "pixel_shuffle": "needs channels a square multiple of the factor (differential programs check it)",
    "pixel_unshuffle": "pixel_shuffle's inverse and derivative (differential programs check it)",
    "slogdet_sign": "slogdet's sign (no gradient)",
    "slogdet_stacked": "paddle's slogdet: its sign needs no gradient and its log one of det's",
    "div_rounded": "remainder's and fmod's derivative for the divisor (torch's div with rounding_mode)",
    "floor_divide": "not differentiable (torch records it, its derivative raises; paddle's stops gradient)",
    "floor_divide_": "floor_divide in place (torch): not differentiable",
    "cholesky": "needs a positive-definite operand, which the registry's layouts do not make (finite "
                "differences and torch's OpInfo samples check it)",
    "remainder_of_number": "torch's number % tensor: not differentiable (its derivative raises)",
    **{name: "a factorization of several outputs, the vocabulary's ops have one; the sign of each vector "
             "is the LAPACK library's choice (torch's MKL and numpy's OpenBLAS differ), so finite "
             "differences and differential programs check what does not depend on it"
       for name in ("eigh", "svd", "qr")},
    "affine_grid": "theta of shape (N, 2, 3) and an output size, which the vocabulary's ops do not take "
                   "(finite differences and a differential program check it)",
    "pinv": "far from singular only on tall or wide operands, which the registry's square layouts do "
            "not make (finite differences and differential programs check it)",
    "tensor_unfold": "paddle's Tensor.unfold: needs window sizes the vocabulary's ops do not take "
                     "(a differential program checks it)",
}
