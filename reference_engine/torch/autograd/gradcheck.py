"""``torch.autograd.gradcheck`` and ``gradgradcheck`` (torch's slow mode): each differentiable
output's Jacobian by backward passes against central differences, as torch computes both.

The numerical Jacobian perturbs each input element by ``eps`` in the input's dtype, in place and
outside autograd (torch perturbs ``input.data``: no version change); the analytical one runs one
``grad`` per output element, twice (torch's reentrancy check), with ``retain_graph``. Both are laid
out (input elements, output elements). Also as torch: the double-precision warning, the error for
inputs none of which requires grad, and the check that zero output gradients give zero (or no)
input gradients. ``check_forward_ad`` compares the Jacobian forward-mode AD gives as well;
``gradgradcheck`` draws its gradient outputs from the default generator, as torch's
``make_tensor`` does. After the Jacobians, as torch: zero output gradients must give zero input
gradients, and (``check_undefined_grad``) so must undefined ones, on a fresh run of the function.
Not modelled: torch's undefined gradients in that check (zeros stand in for them), fast mode
and the batched checks.
"""

from __future__ import annotations

import warnings
from typing import Any, Callable, Optional

import numpy as np

from reference_engine.dialects.torch_policy import TORCH
from reference_engine.messages import GradcheckError, not_supported
from reference_engine.tensor import Tensor
from reference_engine.torch.autograd import forward_ad

__all__ = ["GradcheckError", "gradcheck", "gradgradcheck"]


def gradcheck(func: Callable[..., Any], inputs: Any, *, eps: float = 1e-6, atol: float = 1e-5,
              rtol: float = 1e-3, raise_exception: bool = True, nondet_tol: float = 0.0,
              check_undefined_grad: bool = True, check_grad_dtypes: bool = False,
              check_batched_grad: bool = False, check_batched_forward_grad: bool = False,
              check_forward_ad: bool = False, check_backward_ad: bool = True,
              fast_mode: bool = False, masked: Optional[bool] = None) -> bool:
    """True when every differentiable output's analytical Jacobian matches central differences
    within ``atol + rtol * |numerical|``; otherwise raises :class:`GradcheckError` (or returns
    False when ``raise_exception`` is False)."""
    if fast_mode or check_batched_grad or check_batched_forward_grad:
        raise not_supported("gradcheck beyond torch's slow mode (fast mode, batched checks)", "torch")
    tupled = (inputs,) if isinstance(inputs, Tensor) else tuple(inputs)
    try:
        _check(func, tupled, eps, atol, rtol, check_backward_ad and check_undefined_grad,
               backward=check_backward_ad, forward=check_forward_ad)
    except GradcheckError:
        if raise_exception:
            raise
        return False
    return True


def gradgradcheck(func: Callable[..., Any], inputs: Any, grad_outputs: Any = None, *,
                  eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
                  gen_non_contig_grad_outputs: bool = False, raise_exception: bool = True,
                  nondet_tol: float = 0.0, check_undefined_grad: bool = True,
                  check_grad_dtypes: bool = False, check_batched_grad: bool = False,
                  check_fwd_over_rev: bool = False, check_rev_over_rev: bool = True,
                  fast_mode: bool = False, masked: bool = False) -> bool:
    """``gradcheck`` of the function computing ``func``'s gradients (``create_graph=True``)
    from the inputs and gradient outputs: second derivatives against differences of the first."""
    tupled = (inputs,) if isinstance(inputs, Tensor) else tuple(inputs)
    if grad_outputs is None:
        outputs = _differentiable(func(*tupled))
        grad_outputs = tuple(_random_like(o) for o in outputs)
    else:
        grad_outputs = (grad_outputs,) if isinstance(grad_outputs, Tensor) else tuple(grad_outputs)
    count = len(tupled)

    def first_derivatives(*values: Any) -> tuple[Any, ...]:
        ins, outs_grads = values[:count], values[count:]
        outputs = _differentiable(func(*ins))
        wanted = [t for t in ins if isinstance(t, Tensor) and t.requires_grad]
        grads = TORCH.grad(outputs, wanted, outs_grads, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(first_derivatives, tupled + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, check_undefined_grad=check_undefined_grad)


def _check(func: Callable[..., Any], inputs: tuple[Any, ...], eps: float, atol: float,
           rtol: float, check_undefined: bool, backward: bool = True, forward: bool = False) -> None:
    wanted = [(i, t) for i, t in enumerate(inputs) if isinstance(t, Tensor) and t.requires_grad]
    if not wanted:
        raise TORCH.error("gradcheck_no_inputs")
    for i, t in wanted:
        if t._data.dtype != np.float64:
            warnings.warn(f"Input #{i} requires gradient and is not a double precision floating "
                          "point or complex. This check will likely fail if all the inputs are "
                          "not of double precision floating point or complex. ", stacklevel=4)
    leaves = [t for _, t in wanted]
    outputs = _differentiable(func(*inputs))
    numerical = _numerical(func, inputs, leaves, eps)
    if not outputs:
        if any(np.any(j != 0) for per_input in numerical for j in per_input):
            raise TORCH.error("gradcheck_not_zero")
        return
    for i, output in enumerate(outputs if backward else ()):
        analytical = _analytical(output, leaves)
        _analytical(output, leaves)  # torch runs every backward twice (its reentrancy check)
        _compare(analytical, numerical[i], i, rtol, atol, "Jacobian mismatch", type(output))
    if forward:
        for i, analytical in enumerate(_forward_analytical(func, inputs, leaves)):
            _compare(analytical, numerical[i], i, rtol, atol, "Jacobian computed with forward mode mismatch",
                     type(outputs[0]))
    if backward:
        _backward_multiplies_grad_output(outputs, leaves)
    if check_undefined:
        _undefined_output_grads(func, inputs, leaves)


def _compare(analytical: list[np.ndarray], numerical: list[np.ndarray], output: int, rtol: float,
             atol: float, what: str, cls: type) -> None:
    for j, (a, n) in enumerate(zip(analytical, numerical)):
        if not np.allclose(a, n, rtol=rtol, atol=atol):
            raise GradcheckError(f"{what} for output {output} with respect to input {j},\n"
                                 f"numerical:{cls._from_array(n)!r}\nanalytical:{cls._from_array(a)!r}\n")


def _forward_analytical(func: Callable[..., Any], inputs: tuple[Any, ...],
                        leaves: list[Any]) -> list[list[np.ndarray]]:
    """[output][input] Jacobians by forward-mode AD, laid out as ``_analytical``'s: column k of
    input j is the outputs' tangent when input j's element k has tangent 1."""
    columns: list[list[list[np.ndarray]]] = []  # [input][element] -> per output tangent
    for leaf in leaves:
        per_element = []
        for k in range(leaf._data.size):
            unit = np.zeros(leaf._data.shape, leaf._data.dtype)
            unit.flat[k] = 1
            with forward_ad.dual_level():
                duals = tuple(forward_ad.make_dual(t, type(t)._from_array(unit)) if t is leaf else t
                              for t in inputs)
                out = func(*duals)
                outs = (out,) if isinstance(out, Tensor) else tuple(out)
                tangents = [forward_ad.unpack_dual(o).tangent for o in outs if isinstance(o, Tensor)]
                per_element.append([np.zeros(o._data.size) if t is None else np.asarray(t._data).reshape(-1)
                                    for o, t in zip(outs, tangents)])
        columns.append(per_element)
    count = len(columns[0][0]) if columns and columns[0] else 0
    return [[np.stack([element[i] for element in per_element]) for per_element in columns]
            for i in range(count)]


def _differentiable(out: Any) -> list[Any]:
    outs = (out,) if isinstance(out, Tensor) else tuple(out)
    return [o for o in outs if isinstance(o, Tensor) and o.requires_grad]


def _numerical(func: Callable[..., Any], inputs: tuple[Any, ...], leaves: list[Any],
               eps: float) -> list[list[np.ndarray]]:
    """[output][input] Jacobians by central differences, (input numel, output numel) each."""
    columns: list[list[list[np.ndarray]]] = []  # [input][element] -> per output d out / d x_k
    for leaf in leaves:
        data = leaf._data
        per_element = []
        for k in range(data.size):
            place = np.unravel_index(k, data.shape)
            original = data[place].copy()
            data[place] = original - eps
            before = _values(func, inputs)
            data[place] = original + eps
            after = _values(func, inputs)
            data[place] = original
            per_element.append([(b - a) / (2 * eps) for a, b in zip(before, after)])
        columns.append(per_element)
    count = len(columns[0][0]) if columns and columns[0] else 0
    return [[np.stack([element[i].reshape(-1) for element in per_element]) if per_element
             else np.zeros((0, 0)) for per_element in columns] for i in range(count)]


def _values(func: Callable[..., Any], inputs: tuple[Any, ...]) -> list[np.ndarray]:
    out = func(*inputs)
    outs = (out,) if isinstance(out, Tensor) else tuple(out)
    return [np.array(o._data) for o in outs if isinstance(o, Tensor)]


def _analytical(output: Any, leaves: list[Any]) -> list[np.ndarray]:
    """Per input, (input numel, output numel): row i of the output's Jacobian is the gradient
    of its element i, one backward pass each."""
    rows: list[list[np.ndarray]] = [[] for _ in leaves]
    for i in range(output._data.size):
        seed = np.zeros(output._data.shape, output._data.dtype)
        seed.flat[i] = 1
        grads = TORCH.grad([output], leaves, [type(output)._from_array(seed)], retain_graph=True,
                           allow_unused=True)
        for per_input, leaf, g in zip(rows, leaves, grads):
            per_input.append(np.zeros(leaf._data.size, leaf._data.dtype) if g is None
                             else np.asarray(g._data).reshape(-1))
    return [np.stack(per_input, axis=1) if per_input else np.zeros((leaf._data.size, 0))
            for per_input, leaf in zip(rows, leaves)]


def _zero_seeds(outputs: list[Any]) -> list[Any]:
    return [type(o)._from_array(np.zeros(o._data.shape, o._data.dtype)) for o in outputs]


def _backward_multiplies_grad_output(outputs: list[Any], leaves: list[Any]) -> None:
    """torch's check that zero output gradients give zero input gradients (one pass, which
    frees the graph)."""
    grads = TORCH.grad(outputs, leaves, _zero_seeds(outputs), allow_unused=True)
    if any(g is not None and np.any(g._data != 0) for g in grads):
        raise TORCH.error("gradcheck_not_multiplied")


def _undefined_output_grads(func: Callable[..., Any], inputs: tuple[Any, ...], leaves: list[Any]) -> None:
    """torch's undefined-gradient check: the function run again and differentiated with every
    output gradient undefined, then (for several outputs) with one undefined at a time, each on
    a fresh run. The reference hands zeros for the undefined ones."""
    outputs = _differentiable(func(*inputs))
    runs = [outputs]
    if len(outputs) > 1:
        runs += [_differentiable(func(*inputs)) for _ in outputs]
    for outs in runs:
        try:
            grads = TORCH.grad(outs, leaves, _zero_seeds(outs), allow_unused=True)
        except RuntimeError as exc:
            _warn_undefined_check_is_new()
            raise TORCH.error("gradcheck_undefined_grads") from exc
        if any(g is not None and np.any(g._data != 0) for g in grads):
            _warn_undefined_check_is_new()
            raise TORCH.error("gradcheck_zero_grads")


def _warn_undefined_check_is_new() -> None:
    warnings.warn("Backwards compatibility: New undefined gradient support checking feature is enabled by "
                  "default, but it may break existing callers of this function. If this is true for you, "
                  "you can call this function with \"check_undefined_grad=False\" to disable the feature",
                  stacklevel=4)


def _random_like(t: Any) -> Any:
    """A random gradient output for ``t``, as ``torch.testing.make_tensor`` draws it: uniform in
    [-1, 1) from the default generator (so a program's later draws follow torch's), in ``t``'s
    floating dtype (float64 for another), requiring grad."""
    from reference_engine.torch._core import _DTYPES, empty

    dtype = t._data.dtype if t._data.dtype.kind == "f" else np.dtype(np.float64)
    made = empty(tuple(t._data.shape), dtype=_DTYPES[dtype]).uniform_(-1.0, 1.0)
    return made.requires_grad_(True)
