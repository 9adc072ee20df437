"""``torch.optim.Optimizer``: the base class of torch's optimizers and of the custom ones
research code writes. It keeps ``param_groups`` (dicts holding ``params`` and the
hyper-parameters, filled in from ``defaults``), per-parameter ``state`` and ``zero_grad``, with
torch's checks on what a group may hold; a subclass writes ``step``."""

from __future__ import annotations

import functools
import warnings
from collections import defaultdict
from typing import Any, Callable, Iterable, Optional, Union

from reference_engine.framework_names import instance_getattr
from reference_engine.graph import RemovableHandle
from reference_engine.rounding import note_read_by_optimizer
from reference_engine.torch._core import TORCH, Tensor, no_grad
from reference_engine.torch.nn.modules import clear_grads

__all__ = ["Optimizer", "PerParameter", "closure_loss", "check_nonnegative",
           "register_optimizer_step_post_hook", "register_optimizer_step_pre_hook", "required"]

# the step hooks every optimizer runs (torch.optim.optimizer's globals), before its own
_GLOBAL_PRE_HOOKS: dict[int, Callable[..., Any]] = {}
_GLOBAL_POST_HOOKS: dict[int, Callable[..., Any]] = {}


def register_optimizer_step_pre_hook(hook: Callable[..., Any]) -> RemovableHandle:
    """``hook(optimizer, args, kwargs)`` before every optimizer's step."""
    return RemovableHandle(_GLOBAL_PRE_HOOKS, hook)


def register_optimizer_step_post_hook(hook: Callable[..., Any]) -> RemovableHandle:
    """``hook(optimizer, args, kwargs)`` after every optimizer's step."""
    return RemovableHandle(_GLOBAL_POST_HOOKS, hook)


def _with_step_hooks(step: Callable[..., Any]) -> Callable[..., Any]:
    """A subclass's ``step`` running the global, then the optimizer's own, pre-hooks (each handed
    the call's arguments, the optimizer first, and free to return new ``(args, kwargs)``) before
    it and post-hooks after it, as torch wraps it."""
    @functools.wraps(step)
    def hooked(*args: Any, **kwargs: Any) -> Any:
        self = args[0]
        for hook in [*_GLOBAL_PRE_HOOKS.values(), *self._step_pre_hooks.values()]:
            replaced = hook(self, args, kwargs)
            if replaced is not None:
                if not (isinstance(replaced, tuple) and len(replaced) == 2):
                    raise RuntimeError(f"{step} must return None or a tuple of (new_args, new_kwargs), "
                                       f"but got {replaced}.")
                args, kwargs = replaced
        out = step(*args, **kwargs)
        for hook in [*self._step_post_hooks.values(), *_GLOBAL_POST_HOOKS.values()]:
            hook(self, args, kwargs)
        return out
    hooked.hooked = True  # type: ignore[attr-defined]
    return hooked


class _RequiredParameter:
    """A default that each group must set itself (``torch.optim.optimizer.required``)."""

    def __repr__(self) -> str:
        return "<required parameter>"


required: Any = _RequiredParameter()

Params = Union[Iterable[Tensor], Iterable[dict[str, Any]]]


class Optimizer:
    """Parameter groups, state and ``zero_grad``; ``step`` is the subclass's."""

    __getattr__ = instance_getattr("torch.optim.Optimizer")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "step" in cls.__dict__ and not getattr(cls.__dict__["step"], "hooked", False):
            cls.step = _with_step_hooks(cls.__dict__["step"])  # type: ignore[method-assign]

    def __init__(self, params: Params, defaults: dict[str, Any]) -> None:
        self._step_pre_hooks: dict[int, Callable[..., Any]] = {}
        self._step_post_hooks: dict[int, Callable[..., Any]] = {}
        self.defaults = defaults
        self.state: defaultdict[Tensor, dict[str, Any]] = defaultdict(dict)
        self.param_groups: list[dict[str, Any]] = []
        if isinstance(params, Tensor):
            raise TORCH.error("optim_params_type", type_name=_type_name(params))
        groups = list(params)
        if not groups:
            raise TORCH.error("optim_empty_params")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, param_group: dict[str, Any]) -> None:
        """Add a group: its ``params`` listed, each a leaf tensor in no other group, and every
        hyper-parameter it does not set taken from ``defaults``."""
        if not isinstance(param_group, dict):
            raise TORCH.error("optim_group_type", type=type(param_group))
        params = param_group["params"]
        if isinstance(params, Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TORCH.error("optim_params_set")
        else:
            param_group["params"] = list(params)
        for param in param_group["params"]:
            if not isinstance(param, Tensor):
                raise TORCH.error("optim_param_type", type_name=_type_name(param))
            if not self.defaults.get("differentiable") and not (param.is_leaf or param.retains_grad):
                raise TORCH.error("optim_non_leaf")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise TORCH.error("optim_required", name=name)
            param_group.setdefault(name, default)
        ids = [id(p) for p in param_group["params"]]
        if len(ids) != len(set(ids)):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in future, "
                          "this will cause an error; see github.com/pytorch/pytorch/issues/40967 for "
                          "more information", stacklevel=3)
        held = {id(p) for group in self.param_groups for p in group["params"]}
        if held & set(ids):
            raise TORCH.error("optim_shared_param")
        self.param_groups.append(param_group)

    def register_step_pre_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """``hook(optimizer, args, kwargs)`` before each step; it may return new arguments."""
        return RemovableHandle(self._step_pre_hooks, hook)

    def register_step_post_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """``hook(optimizer, args, kwargs)`` after each step."""
        return RemovableHandle(self._step_post_hooks, hook)

    def zero_grad(self, set_to_none: bool = True) -> None:
        clear_grads((p for group in self.param_groups for p in group["params"]), set_to_none)

    def step(self, closure: Optional[Callable[[], Any]] = None) -> Any:
        raise NotImplementedError

    def state_dict(self) -> dict[str, Any]:
        """``state`` keyed by each parameter's position over all groups, and the groups with
        positions for their ``params``."""
        index: dict[int, int] = {}
        groups = []
        for group in self.param_groups:
            positions = []
            for p in group["params"]:
                positions.append(index.setdefault(id(p), len(index)))
            groups.append({**{k: v for k, v in group.items() if k != "params"}, "params": positions})
        state = {index[id(p)]: value for p, value in self.state.items() if id(p) in index}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """The groups' hyper-parameters and the per-parameter state from ``state_dict``, matched
        by position."""
        groups = state_dict["param_groups"]
        if len(groups) != len(self.param_groups):
            raise TORCH.error("optim_state_groups")
        params = [p for group in self.param_groups for p in group["params"]]
        for own, saved in zip(self.param_groups, groups):
            if len(own["params"]) != len(saved["params"]):
                raise TORCH.error("optim_state_group_size")
            own.update({k: v for k, v in saved.items() if k != "params"})
        self.state = defaultdict(dict)
        for position, value in state_dict["state"].items():
            self.state[params[position]] = dict(value)

    def __repr__(self) -> str:
        lines = [f"{type(self).__name__} ("]
        for i, group in enumerate(self.param_groups):
            lines.append(f"Parameter Group {i}")
            lines.extend(f"    {key}: {group[key]}" for key in sorted(group) if key != "params")
        lines.append(")")
        return "\n".join(lines)


def _type_name(obj: Any) -> str:
    """``torch.typename``: a tensor's type as torch spells it, else the class's dotted name."""
    if isinstance(obj, Tensor):
        return "torch." + {"float32": "FloatTensor", "float64": "DoubleTensor",
                           "int64": "LongTensor"}.get(str(obj._data.dtype), "Tensor")
    cls = type(obj)
    return cls.__name__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__qualname__}"


def closure_loss(closure: Optional[Callable[[], Any]]) -> Any:
    """What ``step(closure)`` returns: the closure's loss, computed with recording on."""
    if closure is None:
        return None
    from reference_engine.torch._core import enable_grad

    with enable_grad():
        return closure()


def check_nonnegative(values: dict[str, float]) -> None:
    """torch's checks that the hyperparameters are not negative, each named as its message
    names it ("learning rate", "weight_decay value")."""
    for what, value in values.items():
        if value < 0.0:
            raise TORCH.error("optim_invalid", what=what, value=value)


class PerParameter(Optimizer):
    """An optimizer whose ``step`` is its ``_update(p, grad, group, state)`` for each parameter
    with a gradient (negated to maximize), without recording; the closure's loss returned."""

    def step(self, closure: Optional[Callable[[], Any]] = None) -> Any:
        loss = closure_loss(closure)
        with no_grad():
            note_read_by_optimizer(p.grad for group in self.param_groups for p in group["params"])
            for group in self.param_groups:
                for p in group["params"]:
                    if p.grad is not None:
                        g = -p.grad if group.get("maximize") else p.grad
                        self._update(p, g, group, self.state[p])
        return loss

    def _update(self, p: Any, g: Any, group: dict[str, Any], state: dict[str, Any]) -> None:
        raise NotImplementedError
