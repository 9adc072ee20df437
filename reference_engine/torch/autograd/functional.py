"""``torch.autograd.functional``: Jacobians, Hessians and vector products of a function, built
from ``torch.autograd.grad`` as torch 2.13 builds them (reverse mode; ``jvp`` through the
double-backward trick). Results are detached unless ``create_graph``; an output that does not
depend on an input gives zeros, or with ``strict`` torch's errors (an output computed without
the inputs; jacobian: an output independent of an input)."""

from __future__ import annotations

from typing import Any, Callable, Sequence

from reference_engine import grad_mode
from reference_engine.dialects.torch_policy import TORCH
from reference_engine.torch._core import Tensor, stack, zeros_like
from reference_engine.torch.autograd._core import grad

__all__ = ["hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"]


def _as_tuple(value: Any) -> tuple[bool, tuple[Any, ...]]:
    """(whether it was a tuple, the value as a tuple)."""
    if isinstance(value, (tuple, list)):
        return True, tuple(value)
    return False, (value,)


def _prepare(inputs: tuple[Tensor, ...], create_graph: bool) -> tuple[Tensor, ...]:
    """Fresh leaves that require grad (kept connected to the originals with create_graph)."""
    if create_graph:
        return tuple(t if t.requires_grad else t.detach().requires_grad_(True) for t in inputs)
    return tuple(t.detach().requires_grad_(True) for t in inputs)


def _grads(outputs: Sequence[Tensor], inputs: tuple[Tensor, ...], seeds: Sequence[Any],
           create_graph: bool) -> tuple[Tensor, ...]:
    pairs = [(o, s) for o, s in zip(outputs, seeds) if o.requires_grad]  # others add nothing
    if not pairs:
        return tuple(zeros_like(t) for t in inputs)
    found = grad([o for o, _ in pairs], inputs, grad_outputs=[s for _, s in pairs],
                 retain_graph=True, create_graph=create_graph, allow_unused=True)
    return tuple(zeros_like(t) if g is None else g for g, t in zip(found, inputs))


def _check_outputs(outs: Sequence[Tensor], strict: bool) -> None:
    """``strict``: every output must have been computed from the inputs."""
    for i, out in enumerate(outs):
        if strict and not out.requires_grad:
            raise TORCH.error("functional_strict_no_grad", index=i)


def _check_reached(outputs: Sequence[Tensor], inputs: tuple[Tensor, ...], output_index: int,
                   strict: bool) -> None:
    """``strict``: the output must depend on every input (jacobian's check)."""
    if not strict:
        return
    found = grad(list(outputs), inputs, retain_graph=True, allow_unused=True)
    for i, g in enumerate(found):
        if g is None:
            raise TORCH.error("functional_strict_independent", output=output_index, input=i)


def _evaluated(func: Callable[..., Any], ins: tuple[Tensor, ...],
               strict: bool) -> tuple[bool, tuple[Tensor, ...]]:
    """(whether ``func`` returned a tuple, its outputs as a tuple), checked in strict mode."""
    outputs_tuple, outs = _as_tuple(func(*ins))
    _check_outputs(outs, strict)
    return outputs_tuple, outs


def _products(outs: tuple[Tensor, ...], outputs_tuple: bool, found: tuple[Tensor, ...],
              found_tuple: bool, create_graph: bool) -> tuple[Any, Any]:
    """``(outputs, products)`` as torch returns them: detached unless ``create_graph``."""
    outs_done = tuple(_finish(o, create_graph) for o in outs)
    found = tuple(_finish(g, create_graph) for g in found)
    return (outs_done if outputs_tuple else outs_done[0]), (found if found_tuple else found[0])


def _finish(t: Tensor, create_graph: bool) -> Tensor:
    return t if create_graph else t.detach()


def jacobian(func: Callable[..., Any], inputs: Any, create_graph: bool = False,
             strict: bool = False, vectorize: bool = False,
             strategy: str = "reverse-mode") -> Any:
    """The Jacobian of ``func`` at ``inputs``: output shape followed by input shape, nested as
    torch nests it (outputs, then inputs) when either is a tuple."""
    inputs_tuple, ins = _as_tuple(inputs)
    with grad_mode.enable_grad():
        ins = _prepare(ins, create_graph)
        outputs_tuple, outs = _evaluated(func, ins, strict)
        per_output = []
        for index, out in enumerate(outs):
            flat = out.reshape(-1)
            if flat.shape[0]:
                _check_reached([flat[0]], ins, index, strict)
            rows = [_grads([flat[k]], ins, [None], create_graph) for k in range(flat.shape[0])]
            per_input = []
            for i, t in enumerate(ins):
                column = [row[i] for row in rows]
                block = stack(column) if column else zeros_like(t).reshape(0, *t.shape)
                per_input.append(_finish(block.reshape(*out.shape, *t.shape), create_graph))
            per_output.append(tuple(per_input) if inputs_tuple else per_input[0])
    return tuple(per_output) if outputs_tuple else per_output[0]


def hessian(func: Callable[..., Any], inputs: Any, create_graph: bool = False,
            strict: bool = False, vectorize: bool = False,
            outer_jacobian_strategy: str = "reverse-mode") -> Any:
    """The Hessian of a scalar ``func``: the Jacobian of its gradient."""
    inputs_tuple, ins = _as_tuple(inputs)

    def gradient(*xs: Tensor) -> Any:
        out = func(*xs)
        _check_outputs([out], strict)
        found = _grads([out], xs, [None], create_graph=True)
        return found if inputs_tuple else found[0]

    return jacobian(gradient, ins if inputs_tuple else ins[0], create_graph=create_graph)


def vjp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple[Any, Any]:
    """``(func(inputs), vᵀ·J)``."""
    inputs_tuple, ins = _as_tuple(inputs)
    with grad_mode.enable_grad():
        ins = _prepare(ins, create_graph)
        outputs_tuple, outs = _evaluated(func, ins, strict)
        _, seeds = _as_tuple(v) if v is not None else (False, (None,) * len(outs))
        found = _grads(list(outs), ins, list(seeds), create_graph)
    return _products(outs, outputs_tuple, found, inputs_tuple, create_graph)


def jvp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple[Any, Any]:
    """``(func(inputs), J·v)``, by differentiating ``uᵀ·J`` with respect to ``u``."""
    inputs_tuple, ins = _as_tuple(inputs)
    with grad_mode.enable_grad():
        ins = _prepare(ins, create_graph)
        outputs_tuple, outs = _evaluated(func, ins, strict)
        dummies = tuple(zeros_like(o).requires_grad_(True) for o in outs)
        back = _grads(list(outs), ins, list(dummies), create_graph=True)
        _, tangents = _as_tuple(v) if v is not None else (False, (None,) * len(ins))
        found = _grads(list(back), dummies, list(tangents), create_graph)
    return _products(outs, outputs_tuple, found, outputs_tuple, create_graph)


def _second_order(func: Callable[..., Any], inputs: Any, v: Any, create_graph: bool,
                  strict: bool) -> Any:
    """``(func(inputs), H·v)`` for a scalar ``func`` (H is symmetric, so also ``vᵀ·H``)."""
    inputs_tuple, ins = _as_tuple(inputs)
    with grad_mode.enable_grad():
        ins = _prepare(ins, create_graph)
        out = func(*ins)
        _check_outputs([out], strict)
        first = _grads([out], ins, [None], create_graph=True)
        _, vs = _as_tuple(v)
        found = _grads(list(first), ins, list(vs), create_graph)
    found = tuple(_finish(g, create_graph) for g in found)
    return _finish(out, create_graph), (found if inputs_tuple else found[0])


def vhp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple[Any, Any]:
    return _second_order(func, inputs, v, create_graph, strict)


def hvp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple[Any, Any]:
    return _second_order(func, inputs, v, create_graph, strict)
