"""The zoo's table: one planted bug per row, on the real torch or paddle.

``plant(real)`` changes the framework in the backend process that imports the mutant and
returns the names the mutant module hands out in place of the framework's (an op with a wrong
special point). An op's bug changes only the gradient, and only where its special point occurs
(``_reroute``), so a case that never reaches the point cannot tell the mutant from the
framework: what the corpus kills, it kills for the bug.

Left out as equivalent (no program can tell them from the framework): paddle.grad ignoring
``retain_graph`` — it runs on a copy of the graph and frees nothing either way.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Callable, Optional


@dataclass(frozen=True)
class Mutant:
    what: str
    plant: Callable[[Any], Optional[dict[str, Any]]]


MUTANTS: dict[tuple[str, str], Mutant] = {}


def mutant(dialect: str, what: str) -> Callable[[Callable[[Any], Any]], Callable[[Any], Any]]:
    def register(plant: Callable[[Any], Any]) -> Callable[[Any], Any]:
        MUTANTS[(dialect, plant.__name__)] = Mutant(what, plant)
        return plant
    return register


def _wrap(owner: Any, name: str, make: Callable[[Callable[..., Any]], Callable[..., Any]]) -> None:
    original = getattr(owner, name)
    setattr(owner, name, functools.wraps(original)(make(original)))


def _drop_keyword(owner: Any, name: str, keyword: str) -> None:
    """``owner.name`` called without ``keyword`` (as if the caller never gave it)."""
    def make(original):
        def call(*args, **kwargs):
            kwargs.pop(keyword, None)
            return original(*args, **kwargs)
        return call
    _wrap(owner, name, make)


def _force_keyword(owner: Any, name: str, keyword: str, value: Any, only_if_missing: bool = False) -> None:
    """``owner.name`` called with ``keyword=value`` (always, or where the caller gave none)."""
    def make(original):
        def call(*args, **kwargs):
            if not only_if_missing or kwargs.get(keyword) is None:
                kwargs[keyword] = value
            return original(*args, **kwargs)
        return call
    _wrap(owner, name, make)


def _twice(owner: Any, name: str) -> None:
    """``owner.name`` does its work twice (an optimizer step applied twice)."""
    def make(original):
        def call(*args, **kwargs):
            original(*args, **kwargs)
            return original(*args, **kwargs)
        return call
    _wrap(owner, name, make)


def _on_register_hook(owner: Any, hook: Callable[[Callable[..., Any]], Callable[..., Any]] = lambda h: h,
                      handle: Callable[[Any], Any] = lambda h: h) -> None:
    """``owner.register_hook`` registers ``hook(user_hook)`` and hands out ``handle(handle)``."""
    def make(original):
        def register_hook(self, user_hook):
            return handle(original(self, hook(user_hook)))
        return register_hook
    _wrap(owner, "register_hook", make)


def _result_ignored(hook: Callable[..., Any]) -> Callable[..., Any]:
    return lambda g: (hook(g), None)[1]


def _applied_twice(hook: Callable[..., Any]) -> Callable[..., Any]:
    def twice(g):
        first = hook(g)
        second = hook(g if first is None else first)
        return second if second is not None else first
    return twice


def _unremovable(handle: Any) -> Any:
    handle.remove = lambda: None
    return handle


def _reroute(real: Any, value: Any, x: Any, mask: Any, slope: Any) -> Any:
    """``value`` with its gradient to ``x`` changed by ``slope`` where ``mask`` holds (the values
    stay): ``value + slope * mask * (x - x.detach())``. Nothing changes where no element is masked."""
    if not bool(mask.any()) or not _requires_grad(x):
        return value
    zeros = real.zeros_like(x.detach())
    weights = real.where(mask, zeros + slope, zeros)  # where, not a product: nan * 0 is nan
    if isinstance(slope, float) and slope != slope:  # nan: a product would make the value nan
        delta = x - x.detach()
        delta.register_hook(lambda g: g * weights)
        return value + delta
    return value + (x - x.detach()) * weights


def _requires_grad(t: Any) -> bool:
    return bool(getattr(t, "requires_grad", None)) if not hasattr(t, "stop_gradient") \
        else not t.stop_gradient


# --- torch: the autograd API's arguments --------------------------------------------------

@mutant("torch", "backward frees the graph even with retain_graph=True")
def backward_frees_despite_retain_graph(torch: Any) -> None:
    _drop_keyword(torch.Tensor, "backward", "retain_graph")
    _drop_keyword(torch.autograd, "backward", "retain_graph")


@mutant("torch", "backward ignores inputs= (every leaf accumulates)")
def backward_ignores_inputs(torch: Any) -> None:
    _drop_keyword(torch.Tensor, "backward", "inputs")
    _drop_keyword(torch.autograd, "backward", "inputs")


@mutant("torch", "backward ignores create_graph")
def backward_ignores_create_graph(torch: Any) -> None:
    _drop_keyword(torch.Tensor, "backward", "create_graph")
    _drop_keyword(torch.autograd, "backward", "create_graph")


@mutant("torch", "backward keeps the graph when retain_graph is not given")
def backward_keeps_the_graph(torch: Any) -> None:
    _force_keyword(torch.Tensor, "backward", "retain_graph", True, only_if_missing=True)
    _force_keyword(torch.autograd, "backward", "retain_graph", True, only_if_missing=True)


@mutant("torch", "grad ignores materialize_grads")
def grad_ignores_materialize_grads(torch: Any) -> None:
    _drop_keyword(torch.autograd, "grad", "materialize_grads")


def _without_seeds(owner: Any, name: str) -> None:
    """``owner.name(outputs, inputs, grad_outputs, ...)`` with its seeds dropped, however given."""
    def make(original):
        def call(outputs, inputs, *args, **kwargs):
            kwargs.pop("grad_outputs", None)
            return original(outputs, inputs, None, *args[1:], **kwargs)
        return call
    _wrap(owner, name, make)


@mutant("torch", "grad ignores grad_outputs")
def grad_ignores_grad_outputs(torch: Any) -> None:
    _without_seeds(torch.autograd, "grad")


@mutant("torch", "grad with allow_unused=True gives zeros instead of None")
def grad_zeros_for_unused(torch: Any) -> None:
    def make(original):
        def grad(outputs, inputs, *args, **kwargs):
            found = original(outputs, inputs, *args, **kwargs)
            listed = [inputs] if isinstance(inputs, torch.Tensor) else list(inputs)
            return tuple(torch.zeros_like(i) if g is None else g for g, i in zip(found, listed))
        return grad
    _wrap(torch.autograd, "grad", make)


@mutant("torch", "grad ignores create_graph")
def grad_ignores_create_graph(torch: Any) -> None:
    _drop_keyword(torch.autograd, "grad", "create_graph")


@mutant("torch", "grad keeps the graph when retain_graph is not given")
def grad_keeps_the_graph(torch: Any) -> None:
    _force_keyword(torch.autograd, "grad", "retain_graph", True, only_if_missing=True)


@mutant("torch", "grad accepts unused inputs without allow_unused")
def grad_always_allows_unused(torch: Any) -> None:
    def make(original):
        def grad(*args, **kwargs):
            kwargs["allow_unused"] = True
            kwargs.pop("materialize_grads", None)
            return original(*args, **kwargs)
        return grad
    _wrap(torch.autograd, "grad", make)


@mutant("torch", "Tensor.backward ignores its gradient argument for a one-element tensor")
def backward_ignores_scalar_seed(torch: Any) -> None:
    def make(original):
        def backward(self, gradient=None, *args, **kwargs):
            if gradient is not None and self.numel() == 1:
                gradient = None
            return original(self, gradient, *args, **kwargs)
        return backward
    _wrap(torch.Tensor, "backward", make)


# --- torch: state ---------------------------------------------------------------------------

@mutant("torch", "retain_grad does nothing")
def retain_grad_does_nothing(torch: Any) -> None:
    torch.Tensor.retain_grad = lambda self: None


@mutant("torch", "a tensor hook's return value is ignored")
def hook_result_ignored(torch: Any) -> None:
    _on_register_hook(torch.Tensor, hook=_result_ignored)


@mutant("torch", "no_grad records anyway")
def no_grad_records(torch: Any) -> dict[str, Any]:
    return {"no_grad": torch.enable_grad}


@mutant("torch", "set_grad_enabled(False) records anyway")
def set_grad_enabled_ignored(torch: Any) -> dict[str, Any]:
    return {"set_grad_enabled": lambda mode: torch.set_grad_enabled(True)}


@mutant("torch", "requires_grad_(False) is ignored")
def requires_grad_off_ignored(torch: Any) -> None:
    def make(original):
        def requires_grad_(self, requires_grad=True):
            return self if not requires_grad else original(self, requires_grad)
        return requires_grad_
    _wrap(torch.Tensor, "requires_grad_", make)


@mutant("torch", "Optimizer.zero_grad leaves the gradients")
def zero_grad_keeps_gradients(torch: Any) -> None:
    torch.optim.Optimizer.zero_grad = lambda self, set_to_none=True: None


# --- torch: ops at their special points ----------------------------------------------------

@mutant("torch", "clamp's gradient at its bounds is 0")
def clamp_strict_at_bounds(torch: Any) -> dict[str, Any]:
    def clamp(a, min=None, max=None):  # noqa: A002
        value = torch.clamp(a, min, max)
        at = torch.zeros_like(a, dtype=torch.bool)
        for bound in (min, max):
            if bound is not None:
                at = at | (a.detach() == bound)
        return _reroute(torch, value, a, at, -1.0)
    return {"clamp": clamp}


@mutant("torch", "maximum gives a tie's whole gradient to the first operand")
def maximum_tie_to_first(torch: Any) -> dict[str, Any]:
    def maximum(a, b):
        value = torch.maximum(a, b)
        if not isinstance(b, torch.Tensor) or a.shape != b.shape:
            return value
        tie = a.detach() == b.detach()
        value = _reroute(torch, value, a, tie, 0.5)
        return _reroute(torch, value, b, tie, -0.5)
    return {"maximum": maximum}


@mutant("torch", "abs's gradient at 0 is 1")
def abs_slope_one_at_zero(torch: Any) -> dict[str, Any]:
    def abs(a):  # noqa: A001
        return _reroute(torch, torch.abs(a), a, a.detach() == 0, 1.0)
    return {"abs": abs}


@mutant("torch", "prod's gradient with a zero element is nan (it divides)")
def prod_divides_at_zero(torch: Any) -> dict[str, Any]:
    def prod(a, *args, **kwargs):
        value = torch.prod(a, *args, **kwargs)
        return _reroute(torch, value, a, a.detach() == 0, float("nan")) if value.dim() == 0 else value
    return {"prod": prod}


@mutant("torch", "sqrt's gradient at 0 is 0 instead of inf")
def sqrt_zero_slope_at_zero(torch: Any) -> dict[str, Any]:
    def sqrt(a):
        value = torch.sqrt(a)
        at = a.detach() == 0
        if not bool(at.any()) or not a.requires_grad:
            return value
        return torch.where(at, a - a.detach(), value) * 1.0
    return {"sqrt": sqrt}


# --- paddle: the autograd API's arguments ---------------------------------------------------

def _paddle_backward_retains(paddle: Any, retain: bool) -> None:
    """paddle's ``Tensor.backward(grad_tensor, retain_graph)`` with ``retain_graph`` fixed."""
    def make(original):
        def backward(self, grad_tensor=None, retain_graph=False, **kwargs):
            return original(self, grad_tensor, retain, **kwargs)
        return backward
    _wrap(paddle.Tensor, "backward", make)


@mutant("paddle", "backward frees the graph even with retain_graph=True")
def paddle_backward_frees_despite_retain_graph(paddle: Any) -> None:
    _paddle_backward_retains(paddle, False)

    def make_function(original):
        def backward(tensors, grad_tensors=None, retain_graph=False):
            return original(tensors, grad_tensors, False)
        return backward
    _wrap(paddle.autograd, "backward", make_function)


@mutant("paddle", "paddle.grad with allow_unused=True gives zeros instead of None")
def paddle_grad_zeros_for_unused(paddle: Any) -> dict[str, Any]:
    def grad(outputs, inputs, *args, **kwargs):
        found = paddle.grad(outputs, inputs, *args, **kwargs)
        listed = [inputs] if isinstance(inputs, paddle.Tensor) else list(inputs)
        return [paddle.zeros_like(i) if g is None else g for g, i in zip(found, listed)]
    return {"grad": grad}


@mutant("paddle", "paddle.grad ignores create_graph")
def paddle_grad_ignores_create_graph(paddle: Any) -> None:
    _drop_keyword(paddle, "grad", "create_graph")


@mutant("paddle", "paddle.grad ignores no_grad_vars")
def paddle_grad_ignores_no_grad_vars(paddle: Any) -> None:
    _drop_keyword(paddle, "grad", "no_grad_vars")


@mutant("paddle", "paddle.grad ignores allow_unused (always allows)")
def paddle_grad_always_allows_unused(paddle: Any) -> None:
    _force_keyword(paddle, "grad", "allow_unused", True)


@mutant("paddle", "paddle.grad ignores grad_outputs")
def paddle_grad_ignores_grad_outputs(paddle: Any) -> None:
    _without_seeds(paddle, "grad")


@mutant("paddle", "Tensor.backward ignores its grad_tensor")
def paddle_backward_ignores_seed(paddle: Any) -> None:
    def make(original):
        def backward(self, grad_tensor=None, retain_graph=False, **kwargs):
            return original(self, None, retain_graph, **kwargs)
        return backward
    _wrap(paddle.Tensor, "backward", make)


# --- paddle: state --------------------------------------------------------------------------

@mutant("paddle", "a tensor hook's return value is ignored")
def paddle_hook_result_ignored(paddle: Any) -> None:
    _on_register_hook(paddle.Tensor, hook=_result_ignored)


@mutant("paddle", "no_grad records anyway")
def paddle_no_grad_records(paddle: Any) -> dict[str, Any]:
    return {"no_grad": paddle.enable_grad}


@mutant("paddle", "clear_grad(set_to_zero=False) zeroes instead of clearing")
def paddle_clear_grad_always_zeroes(paddle: Any) -> None:
    def make(original):
        def clear_grad(self, set_to_zero=True):
            return original(self, True)
        return clear_grad
    _wrap(paddle.Tensor, "clear_grad", make)


@mutant("paddle", "retain_grads does nothing")
def paddle_retain_grads_does_nothing(paddle: Any) -> None:
    paddle.Tensor.retain_grads = lambda self: None


# --- paddle: ops at their special points ---------------------------------------------------

@mutant("paddle", "clip's gradient at its bounds is 0")
def paddle_clip_strict_at_bounds(paddle: Any) -> dict[str, Any]:
    def clip(a, min=None, max=None, name=None):  # noqa: A002
        value = paddle.clip(a, min, max)
        at = paddle.zeros_like(a, dtype="bool")
        for bound in (min, max):
            if bound is not None:
                at = paddle.logical_or(at, a.detach() == bound)
        return _reroute(paddle, value, a, at, -1.0)
    return {"clip": clip}


@mutant("paddle", "maximum gives a tie's whole gradient to the first operand")
def paddle_maximum_tie_to_first(paddle: Any) -> dict[str, Any]:
    def maximum(a, b, name=None):
        value = paddle.maximum(a, b)
        if not isinstance(b, paddle.Tensor) or a.shape != b.shape:
            return value
        tie = a.detach() == b.detach()
        value = _reroute(paddle, value, a, tie, 0.5)
        return _reroute(paddle, value, b, tie, -0.5)
    return {"maximum": maximum}


@mutant("paddle", "abs's gradient at 0 is 1")
def paddle_abs_slope_one_at_zero(paddle: Any) -> dict[str, Any]:
    def abs(a, name=None):  # noqa: A001
        return _reroute(paddle, paddle.abs(a), a, a.detach() == 0, 1.0)
    return {"abs": abs}


# --- more state: hooks run twice, handles that do not remove, optimizers, modules ------------

@mutant("torch", "a tensor hook is applied twice")
def hook_applied_twice(torch: Any) -> None:
    _on_register_hook(torch.Tensor, hook=_applied_twice)


@mutant("paddle", "a tensor hook is applied twice")
def paddle_hook_applied_twice(paddle: Any) -> None:
    _on_register_hook(paddle.Tensor, hook=_applied_twice)


@mutant("torch", "a hook handle's remove() does nothing")
def hook_handle_keeps_the_hook(torch: Any) -> None:
    _on_register_hook(torch.Tensor, handle=_unremovable)


@mutant("paddle", "a hook handle's remove() does nothing")
def paddle_hook_handle_keeps_the_hook(paddle: Any) -> None:
    _on_register_hook(paddle.Tensor, handle=_unremovable)


@mutant("torch", "SGD's step is applied twice")
def sgd_steps_twice(torch: Any) -> None:
    _twice(torch.optim.SGD, "step")


@mutant("torch", "Adam's step is applied twice")
def adam_steps_twice(torch: Any) -> None:
    _twice(torch.optim.Adam, "step")


@mutant("paddle", "SGD's step is applied twice")
def paddle_sgd_steps_twice(paddle: Any) -> None:
    _twice(paddle.optimizer.SGD, "step")


@mutant("torch", "Module.zero_grad zeroes instead of setting None")
def module_zero_grad_zeroes(torch: Any) -> None:
    _force_keyword(torch.nn.Module, "zero_grad", "set_to_none", False)


@mutant("torch", "Optimizer.zero_grad(set_to_none=False) sets None")
def optimizer_zero_grad_always_none(torch: Any) -> None:
    _force_keyword(torch.optim.Optimizer, "zero_grad", "set_to_none", True)


@mutant("torch", "post-accumulate-grad hooks never run")
def post_accumulate_hooks_never_run(torch: Any) -> None:
    torch.Tensor.register_post_accumulate_grad_hook = lambda self, hook: _NoHandle()


class _NoHandle:
    def remove(self) -> None:
        pass


@mutant("torch", "enable_grad inside no_grad records nothing")
def enable_grad_does_nothing(torch: Any) -> dict[str, Any]:
    return {"enable_grad": torch.no_grad}


@mutant("paddle", "enable_grad inside no_grad records nothing")
def paddle_enable_grad_does_nothing(paddle: Any) -> dict[str, Any]:
    return {"enable_grad": paddle.no_grad}


@mutant("paddle", "clear_grad(set_to_zero=True) sets None")
def paddle_clear_grad_always_none(paddle: Any) -> None:
    _force_keyword(paddle.Tensor, "clear_grad", "set_to_zero", False)


# --- more ops at special points: rare arguments and values ----------------------------------

@mutant("torch", "relu's gradient at 0 is 1")
def relu_slope_one_at_zero(torch: Any) -> None:
    relu = torch.nn.functional.relu
    torch.nn.functional.relu = lambda a, inplace=False: _reroute(torch, relu(a), a, a.detach() == 0, 1.0)


@mutant("paddle", "relu's gradient at 0 is 1")
def paddle_relu_slope_one_at_zero(paddle: Any) -> None:
    relu = paddle.nn.functional.relu
    paddle.nn.functional.relu = lambda a, name=None: _reroute(paddle, relu(a), a, a.detach() == 0, 1.0)


def _mean_keepdim_bug(real: Any, mean: Callable[..., Any]) -> Callable[..., Any]:
    def patched(a, *args, **kwargs):
        value = mean(a, *args, **kwargs)
        dims = args[0] if args else kwargs.get("dim", kwargs.get("axis"))
        keep = (args[1] if len(args) > 1 else kwargs.get("keepdim", False))
        if not keep or not isinstance(dims, (list, tuple)) or len(dims) < 2:
            return value
        shape = list(a.shape)
        sizes = [shape[d] for d in dims]
        wrong, right = 1.0 / sizes[0], 1.0 / float(functools.reduce(lambda x, y: x * y, sizes))
        return _reroute(real, value, a, a.detach() == a.detach(), wrong - right) if wrong != right else value
    return patched


@mutant("torch", "mean over several dims with keepdim divides its gradient by one dim's size")
def mean_keepdim_counts_one_dim(torch: Any) -> dict[str, Any]:
    return {"mean": _mean_keepdim_bug(torch, torch.mean)}


@mutant("paddle", "mean over several axes with keepdim divides its gradient by one axis's size")
def paddle_mean_keepdim_counts_one_dim(paddle: Any) -> dict[str, Any]:
    return {"mean": _mean_keepdim_bug(paddle, paddle.mean)}


def _pow_nan_at_zero_to_the_zero(real: Any) -> None:
    """``a ** 0`` (the operator, as programs write it) has a nan gradient where ``a`` is 0."""
    def make(original):
        def power(a, exponent):
            value = original(a, exponent)
            if isinstance(exponent, real.Tensor) or exponent != 0:
                return value
            return _reroute(real, value, a, a.detach() == 0, float("nan"))
        return power
    _wrap(real.Tensor, "__pow__", make)


@mutant("torch", "pow's gradient at base 0 with exponent 0 is nan")
def pow_nan_at_zero_to_the_zero(torch: Any) -> None:
    _pow_nan_at_zero_to_the_zero(torch)


@mutant("torch", "sum over a negative dim doubles its gradient")
def sum_negative_dim_doubles(torch: Any) -> dict[str, Any]:
    def sum(a, *args, **kwargs):  # noqa: A001
        value = torch.sum(a, *args, **kwargs)
        dims = args[0] if args else kwargs.get("dim")
        dims = dims if isinstance(dims, (list, tuple)) else [dims]
        if any(isinstance(d, int) and d < 0 for d in dims):
            return _reroute(torch, value, a, a.detach() == a.detach(), 1.0)
        return value
    return {"sum": sum}


@mutant("torch", "exp's float64 gradient is computed in float32")
def exp_float64_gradient_in_float32(torch: Any) -> dict[str, Any]:
    def exp(a):
        value = torch.exp(a)
        if a.dtype != torch.float64:
            return value
        rounded = value.detach().float().double()
        return _reroute(torch, value, a, a.detach() == a.detach(), rounded - value.detach())
    return {"exp": exp}


@mutant("torch", "sigmoid's float32 gradient is off by one part in a million")
def sigmoid_float32_drift(torch: Any) -> dict[str, Any]:
    def sigmoid(a):
        value = torch.sigmoid(a)
        if a.dtype != torch.float32:
            return value
        slope = value.detach() * (1 - value.detach()) * 1e-6
        return _reroute(torch, value, a, a.detach() == a.detach(), slope)
    return {"sigmoid": sigmoid}


@mutant("paddle", "Tensor.backward keeps the graph when retain_graph is not given")
def paddle_backward_keeps_the_graph(paddle: Any) -> None:
    _paddle_backward_retains(paddle, True)


@mutant("paddle", "sum over a negative axis doubles its gradient")
def paddle_sum_negative_axis_doubles(paddle: Any) -> dict[str, Any]:
    def sum(a, axis=None, *args, **kwargs):  # noqa: A001
        value = paddle.sum(a, axis, *args, **kwargs)
        axes = axis if isinstance(axis, (list, tuple)) else [axis]
        if any(isinstance(d, int) and d < 0 for d in axes):
            return _reroute(paddle, value, a, a.detach() == a.detach(), 1.0)
        return value
    return {"sum": sum}


@mutant("paddle", "exp's float64 gradient is computed in float32")
def paddle_exp_float64_gradient_in_float32(paddle: Any) -> dict[str, Any]:
    def exp(a, name=None):
        value = paddle.exp(a)
        if a.dtype != paddle.float64:
            return value
        rounded = value.detach().astype("float32").astype("float64")
        return _reroute(paddle, value, a, a.detach() == a.detach(), rounded - value.detach())
    return {"exp": exp}


@mutant("paddle", "sqrt's gradient at 0 is 0 instead of inf")
def paddle_sqrt_zero_slope_at_zero(paddle: Any) -> dict[str, Any]:
    def sqrt(a, name=None):
        value = paddle.sqrt(a)
        at = a.detach() == 0
        if not bool(at.any()) or a.stop_gradient:
            return value
        return paddle.where(at, a - a.detach(), value) * 1.0
    return {"sqrt": sqrt}


@mutant("paddle", "pow's gradient at base 0 with exponent 0 is nan")
def paddle_pow_nan_at_zero_to_the_zero(paddle: Any) -> None:
    _pow_nan_at_zero_to_the_zero(paddle)


@mutant("paddle", "Momentum's step is applied twice")
def paddle_momentum_steps_twice(paddle: Any) -> None:
    _twice(paddle.optimizer.Momentum, "step")
