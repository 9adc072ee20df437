"""Every derivative rule against calculus: float64 central differences, first and second order.

Written with numpy only (no torch), so the engine is checkable on its own. For an op ``f`` and a
fixed random cotangent ``w``, the first-order check compares ``grad(sum(f(x) * w), x)`` with
central differences of ``sum(f(x) * w)``; the second-order check differentiates the first
gradient again (``create_graph=True``) and compares it with central differences of that
gradient. Inputs are chosen inside each op's smooth domain (no ties, no kinks, positive where a
log or sqrt needs it). A last test requires that the cases reach every rule of the table.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import reference_engine.torch as torch
from conformance.corpus.op_registry import DOMAINS, REGISTERED
from reference_engine import devices
from reference_engine.rules import RULES, elementwise_functions
from tests.finite_differences import EPS, Dialect, check_first_order, check_second_order, rules_reached

rng = np.random.default_rng(20261130)

TORCH = Dialect(
    leaf=lambda a: torch.tensor(a, dtype=torch.float64, requires_grad=True),
    const=lambda a: torch.tensor(a, dtype=torch.float64),
    grad=lambda out, inputs, create_graph: list(torch.autograd.grad(
        out, inputs, allow_unused=True, create_graph=create_graph)),
    no_grad=torch.no_grad,
    numpy=lambda t: t.detach().numpy(),
    requires_grad=lambda t: t.requires_grad,
)


def _distinct(*shape: int, low: float = -2.0, high: float = 2.0, positive: bool = False) -> np.ndarray:
    """Values with no ties and none near zero (kinks of abs, relu, max sit at ties and zero)."""
    n = int(np.prod(shape)) if shape else 1
    values = np.linspace(0.3, 1.9, n) * rng.permutation([1.0 if positive or i % 2 else -1.0
                                                         for i in range(n)])
    return values.reshape(shape) if shape else np.asarray(values[0])


def _positive(*shape: int) -> np.ndarray:
    return np.abs(_distinct(*shape)) + 0.2


CASES: dict[str, tuple[Callable[..., Any], list[np.ndarray], float]] = {}


def case(name: str, fn: Callable[..., Any], *inputs: np.ndarray, eps: float = EPS) -> None:
    CASES[name] = (fn, list(inputs), eps)


# the layers, composed from the table's rules (reference_engine.layers); the class weights and
# padding_idx are no calculus (constant weights, a row defined to get no gradient): the
# differential programs pin them
_nnf = torch.nn.functional
_rows = torch.tensor([[0, 2, 1], [2, 2, 0]])
case("layer_norm", lambda a, w, b: _nnf.layer_norm(a, (3,), w, b),
     _distinct(2, 3), _positive(3), _distinct(3))
case("batch_norm_training", lambda a, w: _nnf.batch_norm(a, None, None, w, None, training=True),
     _distinct(4, 2, 3), _positive(2))
case("batch_norm_eval", lambda a, m, v: _nnf.batch_norm(a, m, v),
     _distinct(3, 2), _distinct(2), _positive(2))
case("conv1d_padded_strided", lambda a, w, b: _nnf.conv1d(a, w, b, stride=2, padding=1, dilation=2),
     _distinct(1, 2, 5), _distinct(3, 2, 2), _distinct(3))
case("conv2d_groups", lambda a, w: _nnf.conv2d(a, w, groups=2, padding=1), _distinct(1, 4, 3, 3),
     _distinct(2, 2, 2, 2))
case("embedding", lambda w: _nnf.embedding(_rows, w) * w[0], _distinct(3, 2))
case("cross_entropy_weighted",
     lambda a: _nnf.cross_entropy(a, torch.tensor([1, 0, 2, 1]), weight=torch.tensor([0.5, 2.0, 1.5]),
                                  ignore_index=2), _distinct(4, 3))
case("dropout_eval", lambda a: _nnf.dropout(a * a, 0.4, training=False), _distinct(3))
case("addmm_scaled", lambda c, a, b: torch.addmm(c, a, b, beta=0.5, alpha=2.0), _distinct(3), _distinct(2, 4),
     _distinct(4, 3))
case("einsum_contraction_and_diagonal",
     lambda a, b, m: torch.einsum("ij,jk->ik", a, b) * torch.einsum("ii->i", m)[:2].sum(),
     _distinct(2, 3), _distinct(3, 2), _distinct(3, 3))
case("add_broadcast", lambda a, b: a + b, _distinct(3, 1), _distinct(4))
case("sub_scalar", lambda a: 3.0 - a, _distinct(2, 3))
case("mul_broadcast", lambda a, b: a * b, _distinct(2, 3), _distinct(3))
case("div", lambda a, b: a / b, _distinct(2, 3), _positive(2, 1))
case("number_over_tensor", lambda a: 3.0 / a, _positive(2, 3))  # torch: reciprocal, then mul
case("neg", lambda a: -a, _distinct(4))
case("add_sub_alpha", lambda a, b: torch.add(a, b * b, alpha=3.0) * torch.sub(a, b, alpha=0.5),
     _distinct(2, 3), _distinct(3))
case("pow_scalar", lambda a: a ** 3, _distinct(2, 2))
case("pow_fractional", lambda a: a ** 0.5, _positive(3))
case("pow_zero", lambda a: a ** 0 * a, _distinct(3))
case("pow_tensor", lambda a, b: a ** b, _positive(2, 2), _distinct(2, 2))
case("rpow", lambda a: 2.0 ** a, _distinct(3))
case("dot", lambda a, b: a @ b, _distinct(3), _distinct(3))
case("mv", lambda a, b: a @ b, _distinct(2, 3), _distinct(3))
case("mm", lambda a, b: a @ b, _distinct(2, 3), _distinct(3, 4))
case("vm", lambda a, b: a @ b, _distinct(3), _distinct(3, 2))
case("bmm_broadcast", lambda a, b: a @ b, _distinct(2, 1, 2, 3), _distinct(3, 3, 2))
case("bmm_vector", lambda a, b: a @ b, _distinct(3), _distinct(2, 3, 2))
case("sum_all", lambda a: (a * a).sum(), _distinct(2, 3))
case("sum_dims", lambda a: (a * a).sum((0, 2), keepdim=True), _distinct(2, 3, 2))
case("mean_all", lambda a: (a * a).mean(), _distinct(2, 3))
case("mean_dim", lambda a: (a * a).mean(1), _distinct(2, 3))
case("amax", lambda a: (a * a).amax(1), _distinct(3, 4))
case("amin", lambda a: torch.amin(a * a, (0, 1), keepdim=True), _distinct(3, 4))
case("max_all", lambda a: (a * a).max(), _distinct(3, 4))
case("min_all", lambda a: (a * a).min(), _distinct(3, 4))
case("max_dim", lambda a: (a * a).max(0).values, _distinct(3, 4))
case("min_dim", lambda a: (a * a).min(1, keepdim=True).values, _distinct(3, 4))
case("exp", lambda a: a.exp(), _distinct(2, 3))
case("log", lambda a: a.log(), _positive(2, 3))
case("sqrt", lambda a: a.sqrt(), _positive(2, 3))
case("abs", lambda a: (a * a * a).abs(), _distinct(5))
case("sign", lambda a: torch.sign(a) * a, _distinct(5))
# away from integers, floor, ceil and round are locally constant: the product's derivative is
# the rounded value
case("norm2", lambda a: a.norm(dim=1) * a.norm(), _distinct(2, 3))
case("linear", lambda x, w, b: torch.nn.functional.linear(x * x, w, b), _distinct(2, 3), _distinct(4, 3),
     _distinct(4))
case("norm_p", lambda a: a.norm(p=3, dim=1) * a.norm(p=1.5) + a.norm(p=1) + a.norm(p=float("inf")),
     _distinct(2, 3))
case("prod", lambda a: (a * a).prod(1), _distinct(2, 3))
case("prod_all", lambda a: a.prod() * a, _distinct(4))
# a polynomial: central differences are exact at the zeros, where torch's gradient is the
# product of the other elements
case("prod_at_zeros", lambda a: a.prod(1) + a.prod(), np.array([[0.0, 1.3, -0.7], [0.9, 0.0, 0.0]]))
case("split", lambda a: (a * a).split(2, 1)[0] * 2.0, _distinct(2, 5))
case("split_with_sizes", lambda a: torch.cat([p * p for p in a.split([1, 2], 1)], 1), _distinct(2, 3))
case("unbind", lambda a: a.unbind(0)[1] * a.unbind(0)[2], _distinct(3, 2))
case("floor", lambda a: torch.floor(a * 2.9) * a, _distinct(5))
case("ceil", lambda a: torch.ceil(a * 2.9) * a, _distinct(5))
case("round", lambda a: torch.round(a * 2.9) * a, _distinct(5))
case("round_decimals", lambda a: torch.round(a * 2.93, decimals=1) * a + a.round(decimals=-1), _distinct(5))
# the clipping activations at values away from their kinks (-3, 3 and the bounds); prelu
# with one slope and with one per channel
case("hardtanh", lambda a: _nnf.hardtanh(a * 1.3, -1.5, 1.2) * a + _nnf.relu6(a * 4.0), _distinct(6))
case("hardswish", lambda a: _nnf.hardswish(a * 2.1), _distinct(6))
case("hardsigmoid", lambda a: _nnf.hardsigmoid(a * 2.1) * a, _distinct(6))
case("prelu", lambda a, w: _nnf.prelu(a, w), _distinct(2, 3, 2), _distinct(3))
case("prelu_one_slope", lambda a, w: _nnf.prelu(a * a * a, w), _distinct(2, 3), _distinct(1))
case("sin", lambda a: a.sin(), _distinct(5))
case("tan", lambda a: (a * 0.5).tan(), _distinct(5))
case("sinh", lambda a: a.sinh(), _distinct(5))
case("cosh", lambda a: a.cosh(), _distinct(5))
case("atan", lambda a: a.atan(), _distinct(5))
case("asin", lambda a: (a * 0.4).asin(), _distinct(5))
case("acos", lambda a: (a * 0.4).acos(), _distinct(5))
case("log1p", lambda a: a.log1p(), _positive(5))
case("expm1", lambda a: a.expm1(), _distinct(5))
case("log2", lambda a: a.log2(), _positive(5))
case("log10", lambda a: a.log10(), _positive(5))
case("reciprocal", lambda a: a.reciprocal(), _positive(5))
case("rsqrt", lambda a: a.rsqrt(), _positive(5))
case("erf", lambda a: a.erf(), _distinct(5))
case("cos", lambda a: a.cos(), _distinct(5))
case("tanh", lambda a: a.tanh(), _distinct(5))
case("sigmoid", lambda a: a.sigmoid(), _distinct(5))
case("relu", lambda a: (a * a * a).relu(), _distinct(6))
case("leaky_relu", lambda a: torch.nn.functional.leaky_relu(a * a * a, 0.2), _distinct(6))
case("softplus", lambda a: torch.nn.functional.softplus(a, beta=2.0, threshold=3.0), _distinct(6))
case("elu", lambda a: torch.nn.functional.elu(a, 0.5), _distinct(6))
case("gelu", lambda a: torch.nn.functional.gelu(a), _distinct(6))
case("gelu_tanh", lambda a: torch.nn.functional.gelu(a, approximate="tanh"), _distinct(6))
case("silu", lambda a: torch.nn.functional.silu(a), _distinct(6))
case("clamp", lambda a: (a * a).clamp(0.5, 2.0), _distinct(6))
case("clamp_low", lambda a: (a * a).clamp(min=1.0), _distinct(6))
case("clamp_tensor", lambda a, lo, hi: torch.clamp(a * a, min=lo, max=hi + 2.0),
     _distinct(6), _distinct(6), _distinct(6))
case("clamp_tensor_low", lambda a, lo: torch.clamp(a, min=lo), _distinct(6), _distinct(6) * 0.9)
case("maximum", lambda a, b: torch.maximum(a * a, b), _distinct(5), _distinct(5))
case("minimum", lambda a, b: torch.minimum(a * a, b), _distinct(5), _distinct(5))
case("where", lambda a, b: torch.where(a > 0, a * a, b * a), _distinct(5), _distinct(5))
case("masked_fill", lambda a: (a * a).masked_fill(a > 0, 0.5) * a, _distinct(5))
case("gather", lambda a: torch.gather(a * a, 1, torch.tensor([[0, 2], [1, 1]])) * a[:, :2], _distinct(2, 3))
case("cumsum", lambda a: torch.cumsum(a * a, 1) * torch.cumsum(a, 0), _distinct(2, 3))


def _well_conditioned(*shape: int) -> np.ndarray:
    """Square matrices (a batch of them) with a dominant diagonal: far from singular."""
    return _distinct(*shape) * 0.4 + 2.5 * np.eye(shape[-1])


case("inverse", lambda a: torch.linalg.inv(a * a), _well_conditioned(2, 3, 3))
# the factorizations, through what does not depend on the sign LAPACK gives each vector
# (eigenvalues of a symmetric matrix, squared vector entries, products of the factors)


def _eigh_parts(a: Any) -> Any:
    symmetric = a + a.transpose(-2, -1)
    values, vectors = torch.linalg.eigh(symmetric)
    return values.unsqueeze(-1) * vectors ** 2 + torch.linalg.eigvalsh(symmetric, UPLO="U").unsqueeze(-2)


def _svd_parts(a: Any) -> Any:
    u, s, vh = torch.linalg.svd(a, full_matrices=False)
    largest = torch.linalg.svdvals(a)[..., 0]
    vectors = (u ** 2 * s.unsqueeze(-2)).sum((-2, -1)) + (vh ** 3 * s.unsqueeze(-1)).abs().sum((-2, -1))
    return vectors + largest


def _qr_parts(a: Any) -> Any:
    q, r = torch.linalg.qr(a)
    return q * r.sum(-2).unsqueeze(-2) + q ** 3


def _tall_well_conditioned(*shape: int) -> np.ndarray:
    """Tall matrices (a batch of them) whose top square is dominant: full column rank, with
    singular values well apart."""
    out = _distinct(*shape) * 0.3
    out[..., :shape[-1], :] += np.diag(np.arange(1.0, shape[-1] + 1.0) * 1.5)
    return out


case("affine_grid", lambda t: torch.nn.functional.affine_grid(t, (2, 1, 3, 4), align_corners=False) ** 2,
     _distinct(2, 2, 3))
case("eigh", _eigh_parts, _well_conditioned(2, 3, 3))
case("svd", _svd_parts, _tall_well_conditioned(2, 4, 3))
case("svd_wide", lambda a: _svd_parts(a.transpose(-2, -1)), _tall_well_conditioned(2, 4, 3))
case("qr", _qr_parts, _tall_well_conditioned(2, 4, 3))
case("pinv", lambda a: torch.linalg.pinv(a) * torch.linalg.pinv(a.transpose(-2, -1)).transpose(-2, -1),
     _tall_well_conditioned(2, 4, 3))
# the special functions, inside their smooth domains (positive for the gamma family, inside
# (0, 1) for erfinv and logit, away from integers for trunc and frac)
case("lgamma_digamma", lambda a: torch.lgamma(a) * torch.digamma(a), _positive(2, 3))
case("polygamma", lambda a: torch.polygamma(1, a) + torch.special.polygamma(2, a), _positive(2, 3))
case("erfinv", lambda a: torch.erfinv(a), _distinct(2, 3) * 0.45)
case("logit", lambda a: torch.logit(a) + torch.logit(a, eps=0.1), np.abs(_distinct(2, 3)) * 0.45 + 0.05)
case("trunc_frac", lambda a: torch.frac(a) * a + torch.trunc(a) * a, _distinct(2, 3) + 0.05)
case("atan2", lambda a, b: torch.atan2(a, b), _distinct(2, 3), _distinct(2, 3)[::-1].copy())
case("erfc_sinc_entr", lambda a: torch.erfc(a) * torch.sinc(a) + torch.special.entr(a * a), _distinct(2, 3))
case("xlogy_copysign_fmax_fmin_logaddexp2",
     lambda a, b: torch.xlogy(a, b * b) + torch.copysign(a, b) * torch.fmax(a, b) + torch.fmin(a * a, b)
     + torch.logaddexp2(a, b), _distinct(2, 3), _distinct(2, 3)[::-1].copy() * 0.9)
# (quotients away from integers, where the divisor's derivative steps)
case("remainder_fmod", lambda a, b: torch.remainder(a * 3.0, b) * a + torch.fmod(a * 3.0, b) * b,
     _distinct(2, 3) + 0.05, _distinct(2, 3)[::-1].copy() + 0.5)
case("deg2rad", lambda a: torch.deg2rad(a) * torch.rad2deg(a), _distinct(2, 3))
case("cumprod", lambda a: torch.cumprod(a, 1) * torch.cumprod(a, 0), _distinct(2, 3))
case("cross", lambda a, b: torch.linalg.cross(a, b) * a, _distinct(2, 3), _distinct(1, 3))
# (inputs away from each kink: ±λ and the threshold)
case("shrinks", lambda a: _nnf.softshrink(a * a, 0.2) * a + _nnf.hardshrink(a, 0.5) * a
     + _nnf.threshold(a, 0.1, -2.0) * a + _nnf.tanhshrink(a), _distinct(2, 3) + 0.07)
case("pixel_shuffle", lambda a: _nnf.pixel_unshuffle(_nnf.pixel_shuffle(a * a, 2).exp(), 2) * a,
     _distinct(1, 4, 2, 2))
case("det", lambda a: torch.linalg.det(a) * torch.det(a[0]), _well_conditioned(2, 3, 3))
case("cholesky", lambda a: torch.linalg.cholesky(a @ a.transpose(-2, -1))
     * torch.linalg.cholesky(a[0] @ a[0].T, upper=True), _well_conditioned(2, 3, 3))
case("slogdet", lambda a: torch.linalg.slogdet(a).logabsdet * torch.slogdet(-a).sign + torch.logdet(a),
     _well_conditioned(2, 3, 3))
case("linalg_solve", lambda a, b, c: torch.linalg.solve(a, b).sum(-1) * torch.linalg.solve(a[1], c),
     _well_conditioned(2, 3, 3), _distinct(2, 3, 2), _distinct(3))
case("var_std", lambda a: a.var(1).sum() * a.std() + torch.std(a, 0, correction=0), _distinct(2, 3))
case("mse_loss", lambda a, b: torch.nn.functional.mse_loss(a * a, b, reduction="none"),
     _distinct(2, 3), _distinct(2, 3))
case("nll_loss", lambda a: torch.nn.functional.cross_entropy(a * a, torch.tensor([0, 2])), _distinct(2, 3))
case("binary_cross_entropy", lambda a, b: torch.nn.functional.binary_cross_entropy(
    a.sigmoid(), (b * 0.2).sigmoid(), reduction="sum"), _distinct(2, 3), _distinct(2, 3))
case("bce_with_logits", lambda a, b: torch.nn.functional.binary_cross_entropy_with_logits(a * a, b),
     _distinct(2, 3), _distinct(2, 3))
case("softmax", lambda a: a.softmax(1), _distinct(2, 3))
case("log_softmax", lambda a: a.log_softmax(0), _distinct(3, 2))
case("reshape", lambda a: (a * a).reshape(3, 2), _distinct(2, 3))
case("transpose", lambda a: (a * a).transpose(0, 2), _distinct(2, 3, 2))
case("t", lambda a: (a * a).t(), _distinct(2, 3))
case("permute", lambda a: (a * a).permute(2, 0, 1), _distinct(2, 3, 2))
case("squeeze_unsqueeze", lambda a: (a * a).unsqueeze(1).squeeze(), _distinct(1, 3))
case("expand", lambda a: (a * a).expand(2, 3, 4), _distinct(3, 1))


def _view_of_view_after_a_quiet_write(a: Any) -> Any:
    """A view of a view whose base a write without recording moved on: torch makes its node
    anew (as_strided, AsStridedBackward0) from the base. The write adds zero."""
    base = a * a
    view = base.transpose(0, 1)[1:].unsqueeze(0)
    with torch.no_grad():
        base.add_(0.0)
    return view * view


def _written_through_a_view(a: Any, b: Any) -> Any:
    """A recorded write through a view of a view: the base's node is torch's CopySlices
    (copy_slices), running the write's node on the view's part of its gradient."""
    base = a * a
    view = base.transpose(0, 1)[1:]
    view.mul_(b)
    view.tanh_()
    return base * base


case("as_strided", _view_of_view_after_a_quiet_write, _distinct(2, 3))
case("copy_slices", _written_through_a_view, _distinct(2, 3), _distinct(2, 2))
case("getitem_select", lambda a: a[1] * a[1], _distinct(3, 2))
case("getitem_slice", lambda a: (a * a)[:, 1:, None, ...], _distinct(3, 3))
case("getitem_index", lambda a: (a * a)[[0, 2, 2]], _distinct(3, 2))
case("cat", lambda a, b: torch.cat([a * a, b], 1), _distinct(2, 2), _distinct(2, 3))
case("stack", lambda a, b: torch.stack([a * a, b], 1), _distinct(2, 3), _distinct(2, 3))
case("clone", lambda a: (a * a).clone(), _distinct(3))
case("cast", lambda a: (a * a).to(torch.float32).to(torch.float64), _distinct(3), eps=1e-2)


def _there_and_back(a):
    """A copy to the device and back: its gradient returns to the device the input is on."""
    with devices.simulating("cuda"):
        return (a.cuda() * a.to("cuda")).cpu()


case("to_device", _there_and_back, _distinct(3))
case("setitem", lambda a, b: _setitem(a, b), _distinct(3, 2), _distinct(2))
case("fill", lambda a: _filled(a), _distinct(3))


def _setitem(a: Any, b: Any) -> Any:
    h = a * a
    h[1] = b * b
    return h


def _filled(a: Any) -> Any:
    h = a * 1
    h.fill_(2.0)
    return h * a


def _in_domain(op: str, n: int) -> np.ndarray:
    """``n`` distinct values inside the op registry's domain of ``op``, their signs alternating
    where the domain has both."""
    low, high, signed = DOMAINS[REGISTERED[op].domain] if op in REGISTERED else DOMAINS["any"]
    magnitudes = np.linspace(low, high, n + 2)[1:-1] / 1000
    return magnitudes * np.where(np.arange(n) % 2 & signed, -1.0, 1.0)


# every elementwise function of the rule table not checked above, inside its domain
for _op in elementwise_functions():
    if _op not in CASES:
        case(_op, lambda a, op=_op: getattr(a, op)(), _in_domain(_op, 5))


@pytest.mark.parametrize("name", sorted(CASES))
def test_first_derivative_matches_finite_differences(name):
    fn, arrays, eps = CASES[name]
    check_first_order(TORCH, fn, arrays, eps)


# torch 2.13 has no derivative for hardsigmoid_backward: a second derivative through it raises
SECOND_ORDER_REFUSED = {"hardsigmoid": "derivative for aten::hardsigmoid_backward is not implemented"}


@pytest.mark.parametrize("name", sorted(CASES))
def test_second_derivative_matches_finite_differences(name):
    fn, arrays, eps = CASES[name]
    if name in SECOND_ORDER_REFUSED:
        with pytest.raises(RuntimeError, match=SECOND_ORDER_REFUSED[name]):
            check_second_order(TORCH, fn, arrays, eps)
        return
    check_second_order(TORCH, fn, arrays, eps)


def test_torch_cases_reach_every_rule_but_paddle_only_ones():
    reached: set[str] = set()
    for fn, arrays, _ in CASES.values():
        reached |= rules_reached(TORCH, fn, arrays)
    # zero_link is recorded for paddle's links only, and silu_backward for paddle's fused silu
    # gradient; grad_copy by torch's accumulation of a first create_graph gradient,
    # once_differentiable_error by a once_differentiable backward in a create_graph pass (it
    # refuses to be differentiated) and div_number only where the gradient a mean divides
    # requires grad (differentiating with respect to a seed), which the differential programs
    # check
    # layer_norm_scale is paddle's layer_norm weight product, log_backward paddle's log_grad,
    # selu paddle's selu kernel (torch composes selu from elu);
    # unique, unique_dim, floor_divide(_) and remainder_of_number (a number % a tensor) have
    # no derivative (running theirs raises, as programs check);
    # slogdet_stacked is paddle's slogdet (the registry's differential cases check it), and
    # tanh_shrink paddle's tanhshrink kernel (torch composes it from tanh), tensor_unfold
    # paddle's unfold (its gradient is not a derivative where windows overlap), heaviside
    # paddle's step (zero gradients, pinned by a differential program), conj the conjugate in
    # paddle's composite log double grad (a copy of real values; its third derivative's node
    # names are pinned by a differential program)
    # bincount_weighted has no derivative (torch's NotImplemented node; a differential program
    # pins it); unstack is paddle's (unbind's derivative, which the torch cases reach, under
    # paddle's node; a differential program pins it); sigmoid_cross_entropy_with_logits is
    # paddle's kernel of the logits loss (at a logit of exactly 0 its gradient is not the
    # derivative; a differential program pins it)
    assert set(RULES) - reached <= {"sigmoid_cross_entropy_with_logits",
                                    "zero_link", "silu_backward", "grad_copy", "conj", "bincount_weighted",
                                    "once_differentiable_error", "div_number", "layer_norm_scale",
                                    "log_backward", "unique", "unique_dim", "selu", "slogdet_stacked",
                                    "tanh_shrink", "floor_divide", "floor_divide_", "remainder_of_number",
                                    "tensor_unfold", "heaviside", "unstack"}
