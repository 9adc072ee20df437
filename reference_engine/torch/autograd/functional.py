"""``torch.autograd.functional``: Jacobians, Hessians and vector products of a function, built
from ``torch.autograd.grad`` as torch 2.13 builds them (reverse mode; ``jvp`` through the
double-backward trick). Results are detached unless ``create_graph``; an output that does not
depend on an input gives zeros, or with ``strict`` torch's errors (an output computed without
the inputs; jacobian: an output independent of an input)."""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

from reference_engine import grad_mode
from reference_engine.dialects.torch_policy import TORCH
from reference_engine.framework_names import module_getattr
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


def _autograd_grad(outputs: Sequence[Any], inputs: tuple[Tensor, ...],
                   seeds: Optional[Sequence[Any]] = None, create_graph: bool = False,
                   retain_graph: Optional[bool] = None) -> tuple[Optional[Tensor], ...]:
    """``autograd.grad`` over the outputs that require grad (None for an input none reaches;
    all None when no output requires grad)."""
    seeds = list(seeds) if seeds is not None else [None] * len(outputs)
    pairs = [(o, s) for o, s in zip(outputs, seeds) if o is not None and o.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    return tuple(grad([o for o, _ in pairs], inputs, grad_outputs=[s for _, s in pairs],
                      retain_graph=retain_graph, create_graph=create_graph, allow_unused=True))


_REQUIRES_GRAD_ERRORS = {"outputs": "functional_strict_no_grad",
                         "grad_inputs": "functional_strict_grad_inputs",
                         "jacobian": "functional_strict_jacobian",
                         "hessian": "functional_strict_hessian"}


def _check_requires_grad(tensors: Sequence[Any], kind: str, strict: bool) -> None:
    """``strict``: each of the ``kind`` (outputs, grad_inputs, jacobian, hessian) must exist
    and require grad."""
    if not strict:
        return
    for i, t in enumerate(tensors):
        if t is None:
            raise TORCH.error("functional_strict_unreached", index=i)
        if not t.requires_grad:
            raise TORCH.error(_REQUIRES_GRAD_ERRORS[kind], index=i)


_NONE_ERRORS = {"back": "functional_strict_unreached", "back_trick": "functional_strict_back_trick",
                "double_back": "functional_strict_double_back",
                "double_back_trick": "functional_strict_double_back_trick"}


def _fill_in_zeros(grads: Sequence[Optional[Tensor]], refs: Sequence[Tensor], strict: bool,
                   create_graph: bool, stage: str) -> tuple[Tensor, ...]:
    """Zeros for the Nones; ``strict`` refuses a None, and with ``create_graph`` a gradient
    that does not require grad (torch's message names the stage)."""
    out = []
    for i, (g, ref) in enumerate(zip(grads, refs)):
        if g is None:
            if strict:
                raise TORCH.error(_NONE_ERRORS[stage], index=i)
            g = zeros_like(ref)
        elif strict and create_graph and not g.requires_grad:
            raise TORCH.error("functional_strict_create_graph", index=i,
                              what="hessian" if "double" in stage else "jacobian")
        out.append(g)
    return tuple(out)


def _evaluated(func: Callable[..., Any], ins: tuple[Tensor, ...],
               strict: bool) -> tuple[bool, tuple[Tensor, ...]]:
    """(whether ``func`` returned a tuple, its outputs as a tuple), checked in strict mode."""
    outputs_tuple, outs = _as_tuple(func(*ins))
    _check_requires_grad(outs, "outputs", strict)
    return outputs_tuple, outs


def _single_output(api: str, outputs_tuple: bool, outs: tuple[Any, ...]) -> None:
    """vhp, hvp and hessian differentiate a function of one single-element tensor."""
    if outputs_tuple or not isinstance(outs[0], Tensor):
        raise TORCH.error("functional_single_tensor", api=api)
    if outs[0].numel() != 1:
        raise TORCH.error("functional_single_element", api=api)


def _products(outs: tuple[Tensor, ...], outputs_tuple: bool, found: tuple[Tensor, ...],
              found_tuple: bool, create_graph: bool) -> tuple[Any, Any]:
    """``(outputs, products)`` as torch returns them: detached unless ``create_graph``."""
    outs_done = tuple(_finish(o, create_graph) for o in outs)
    found = tuple(_finish(g, create_graph) for g in found)
    return (outs_done if outputs_tuple else outs_done[0]), (found if found_tuple else found[0])


def _finish(t: Tensor, create_graph: bool) -> Tensor:
    return t if create_graph else t.detach()


def _vector(v: Any, reference: tuple[Tensor, ...], error: str) -> tuple[Any, ...]:
    """The vector of a product as a tuple; None only against one single-element tensor."""
    if v is None:
        if len(reference) != 1 or reference[0].numel() != 1:
            raise TORCH.error(error)
        return (None,)
    return _as_tuple(v)[1]


def jacobian(func: Callable[..., Any], inputs: Any, create_graph: bool = False,
             strict: bool = False, vectorize: bool = False,
             strategy: str = "reverse-mode") -> Any:
    """The Jacobian of ``func`` at ``inputs``: output shape followed by input shape, nested as
    torch nests it (outputs, then inputs) when either is a tuple; one ``grad`` per output
    element, checked in strict mode element by element as torch checks them."""
    inputs_tuple, ins = _as_tuple(inputs)
    with grad_mode.enable_grad():
        ins = _prepare(ins, create_graph)
        outputs_tuple, outs = _evaluated(func, ins, strict)
        per_output = []
        for index, out in enumerate(outs):
            flat = out.reshape(-1)
            columns: list[list[Tensor]] = [[] for _ in ins]
            for k in range(flat.shape[0]):
                row = _autograd_grad([flat[k]], ins, retain_graph=True, create_graph=create_graph)
                for i, (g, t) in enumerate(zip(row, ins)):
                    if g is None:
                        if strict:
                            raise TORCH.error("functional_strict_independent", output=index,
                                              input=i)
                        g = zeros_like(t)
                    elif strict and create_graph and not g.requires_grad:
                        # (torch names the output's index here)
                        raise TORCH.error("functional_strict_create_graph", index=index,
                                          what="jacobian")
                    columns[i].append(g)
            per_input = []
            for t, column in zip(ins, columns):
                block = stack(column) if column else zeros_like(t).reshape(0, *t.shape)
                per_input.append(_finish(block.reshape(*out.shape, *t.shape), create_graph))
            per_output.append(tuple(per_input) if inputs_tuple else per_input[0])
    return tuple(per_output) if outputs_tuple else per_output[0]


def hessian(func: Callable[..., Any], inputs: Any, create_graph: bool = False,
            strict: bool = False, vectorize: bool = False,
            outer_jacobian_strategy: str = "reverse-mode") -> Any:
    """The Hessian of a scalar ``func``: the Jacobian of its Jacobian."""
    inputs_tuple, ins = _as_tuple(inputs)

    def single_output(*xs: Tensor) -> Any:
        out_tuple, outs = _as_tuple(func(*xs))
        _check_requires_grad(outs, "outputs", strict)
        _single_output("hessian", out_tuple, outs)
        return outs[0].squeeze()

    def jacobian_of(*xs: Tensor) -> Any:
        jac = jacobian(single_output, xs if inputs_tuple else xs[0], create_graph=True)
        _check_requires_grad(_as_tuple(jac)[1], "jacobian", strict)
        return jac

    return jacobian(jacobian_of, ins if inputs_tuple else ins[0], create_graph=create_graph,
                    strict=strict)


def vjp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple[Any, Any]:
    """``(func(inputs), vᵀ·J)``."""
    inputs_tuple, ins = _as_tuple(inputs)
    with grad_mode.enable_grad():
        ins = _prepare(ins, create_graph)
        outputs_tuple, outs = _evaluated(func, ins, strict)
        seeds = _vector(v, outs, "functional_v_none_output")
        found = _fill_in_zeros(_autograd_grad(outs, ins, seeds, create_graph), ins, strict,
                               create_graph, "back")
    return _products(outs, outputs_tuple, found, inputs_tuple, create_graph)


def jvp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple[Any, Any]:
    """``(func(inputs), J·v)``, by differentiating ``uᵀ·J`` with respect to ``u``."""
    inputs_tuple, ins = _as_tuple(inputs)
    with grad_mode.enable_grad():
        ins = _prepare(ins, create_graph)
        tangents = _vector(v, ins, "functional_v_none_input")
        outputs_tuple, outs = _evaluated(func, ins, strict)
        dummies = tuple(zeros_like(o).requires_grad_(True) for o in outs)
        back = _autograd_grad(outs, ins, dummies, create_graph=True)
        _check_requires_grad(back, "grad_inputs", strict)
        found = _fill_in_zeros(_autograd_grad(back, dummies, tangents, create_graph), outs,
                               strict, create_graph, "back_trick")
    return _products(outs, outputs_tuple, found, outputs_tuple, create_graph)


def _second_order(api: str, func: Callable[..., Any], inputs: Any, v: Any, create_graph: bool,
                  strict: bool) -> Any:
    """``(func(inputs), vᵀ·H)`` (vhp: the gradient of ``<jacobian, v>``) or ``H·v`` (hvp: by the
    double backward trick) for a scalar ``func``."""
    inputs_tuple, ins = _as_tuple(inputs)
    with grad_mode.enable_grad():
        ins = _prepare(ins, create_graph)
        vs = _vector(v, ins, "functional_v_none_input")
        outputs_tuple, outs = _evaluated(func, ins, strict)
        _single_output(api, outputs_tuple, outs)
        jac = _autograd_grad(outs, ins, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict)
        if api == "vhp":
            found = _fill_in_zeros(_autograd_grad(jac, ins, vs, create_graph), ins, strict,
                                   create_graph, "double_back")
        else:
            dummies = tuple(zeros_like(t).requires_grad_(True) for t in ins)
            back = _autograd_grad(jac, ins, dummies, create_graph=True)
            _check_requires_grad(jac, "hessian", strict)  # (torch checks the jacobian again)
            found = _fill_in_zeros(_autograd_grad(back, dummies, vs, create_graph), ins, strict,
                                   create_graph, "double_back_trick")
    found = tuple(_finish(g, create_graph) for g in found)
    return _finish(outs[0], create_graph), (found if inputs_tuple else found[0])


def vhp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple[Any, Any]:
    return _second_order("vhp", func, inputs, v, create_graph, strict)


def hvp(func: Callable[..., Any], inputs: Any, v: Any = None, create_graph: bool = False,
        strict: bool = False) -> tuple[Any, Any]:
    return _second_order("hvp", func, inputs, v, create_graph, strict)

__getattr__ = module_getattr("torch.autograd.functional")
