"""What ``torch.nn.Module`` and ``paddle.nn.Layer`` share: parameters and sub-modules registered
by assignment, calling ``forward``, ``Sequential`` and the activation modules. The facades add
their own names (``zero_grad`` / ``clear_gradients``) and their ``Linear``."""

from __future__ import annotations

import inspect
import math
from typing import Any, Callable, ClassVar, Iterable, Iterator, Optional, Sequence

import numpy as np

from reference_engine import devices
from reference_engine.dtypes import is_floating
from reference_engine.grad_mode import no_grad
from reference_engine.graph import RemovableHandle
from reference_engine.messages import not_supported


class ModuleBase:
    """A container of parameters, buffers and sub-modules; calling it runs the forward pre-hooks,
    ``forward`` and the forward hooks. What both frameworks share; the facades name it."""

    parameter_type: ClassVar[type] = type(None)  # the dialect's parameter class
    tensor_type: ClassVar[type] = type(None)     # the dialect's tensor class
    repr_style: ClassVar[str] = "torch"          # how the dialect prints a module (``__repr__``)
    table_type: ClassVar[type] = dict            # the mapping that holds parameters, buffers, children

    def __init__(self) -> None:
        object.__setattr__(self, "_parameters", self.table_type())
        object.__setattr__(self, "_buffers", self.table_type())
        object.__setattr__(self, "_non_persistent", set())
        object.__setattr__(self, "_children", self.table_type())
        object.__setattr__(self, "_forward_pre_hooks", {})
        object.__setattr__(self, "_forward_hooks", {})
        # the forward hooks registered with_kwargs, and those called even when forward raises
        object.__setattr__(self, "_forward_pre_hooks_with_kwargs", set())
        object.__setattr__(self, "_forward_hooks_with_kwargs", set())
        object.__setattr__(self, "_forward_hooks_always_called", set())
        object.__setattr__(self, "_backward_hooks", {})
        object.__setattr__(self, "_backward_pre_hooks", {})
        object.__setattr__(self, "training", True)

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, self.parameter_type):
            self._parameters[name] = value
        elif isinstance(value, ModuleBase):
            self._children[name] = value
        elif name in self._buffers:
            self._buffers[name] = value
        elif name in self._parameters and value is None:
            self._parameters[name] = None
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        for table in (self._parameters, self._buffers, self._children):
            table.pop(name, None)
        object.__delattr__(self, name)

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise self.tensor_type._policy.error("module_no_forward", name=type(self).__name__)

    def extra_repr(self) -> str:
        """What the module prints between its name's parentheses, before its children."""
        return ""

    def __repr__(self) -> str:
        """``print(model)``: the name, ``extra_repr`` and each child indented under its name,
        laid out as the dialect lays it out (torch puts a one-line extra alone on the first
        line, paddle always does, its children after)."""
        extra = self.extra_repr()
        children = [f"({name}): {_indented(repr(child))}" for name, child in self._children.items()]
        if self.repr_style == "torch":
            lines = (extra.split("\n") if extra else []) + children
            body = lines[0] if len(lines) == 1 and not children else (
                "\n  " + "\n  ".join(lines) + "\n" if lines else "")
        else:
            extra_lines = extra.split("\n")
            body = "\n  " + "\n  ".join(extra_lines) + "\n" if len(extra_lines) > 1 else extra_lines[0]
            if children:
                body += "\n  " + "\n  ".join(children) + "\n"
        return f"{type(self).__name__}({body})"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        for key, hook in list(self._forward_pre_hooks.items()):
            if key in self._forward_pre_hooks_with_kwargs:
                replaced = hook(self, args, kwargs)
                if replaced is not None:
                    if not (isinstance(replaced, tuple) and len(replaced) == 2):
                        raise RuntimeError("forward pre-hook must return None or a tuple of (new_args, "
                                           f"new_kwargs), but got {replaced}.")
                    args, kwargs = replaced
                continue
            replaced = hook(self, args)
            if replaced is not None:
                args = replaced if isinstance(replaced, tuple) else (replaced,)
        backward_hook = self._backward_hook() if self._backward_hooks or self._backward_pre_hooks else None
        if backward_hook is not None:
            args = backward_hook.setup_input_hook(args)
        try:
            output = self.forward(*args, **kwargs)
        except Exception:
            for key, hook in list(self._forward_hooks.items()):
                if key in self._forward_hooks_always_called:
                    self._run_forward_hook(key, hook, args, kwargs, None)
            raise
        for key, hook in list(self._forward_hooks.items()):
            replaced = self._run_forward_hook(key, hook, args, kwargs, output)
            if replaced is not None:
                output = replaced
        if backward_hook is not None:
            output = backward_hook.setup_output_hook(output)
        return output

    def _run_forward_hook(self, key: int, hook: Callable[..., Any], args: tuple[Any, ...],
                          kwargs: dict[str, Any], output: Any) -> Any:
        if key in self._forward_hooks_with_kwargs:
            return hook(self, args, kwargs, output)
        return hook(self, args, output)

    def _forward_hook(self, kind: str, hook: Callable[..., Any], prepend: bool = False,
                      with_kwargs: bool = False, always_call: bool = False) -> RemovableHandle:
        """A forward ("forward") or forward pre-hook ("forward_pre") with torch's options: first
        in line (``prepend``), handed the keyword arguments too (``with_kwargs``), or also run
        when forward raises (``always_call``, forward hooks)."""
        handle = self._hook(kind, hook)
        if with_kwargs:
            getattr(self, f"_{kind}_hooks_with_kwargs").add(handle.id)
        if always_call:
            self._forward_hooks_always_called.add(handle.id)
        if prepend:
            hooks = getattr(self, f"_{kind}_hooks")
            reordered = {handle.id: hooks.pop(handle.id), **hooks}
            hooks.clear()
            hooks.update(reordered)
        return handle

    def _backward_hook(self) -> Any:
        """The dialect's bookkeeping for this call's full backward hooks (torch only)."""
        raise not_supported(f"full backward hooks on {type(self).__name__}")

    # --- registration ---------------------------------------------------------------------

    def _add_buffer(self, name: str, tensor: Any, persistent: bool) -> None:
        """``register_buffer``, with the checks both frameworks make in the same order (each
        with its own message)."""
        policy = self.tensor_type._policy
        if "." in name:
            raise policy.error("buffer_name_dot")
        if name == "":
            raise policy.error("buffer_name_empty")
        if hasattr(self, name) and name not in self._buffers:
            raise policy.error("buffer_name_taken", name=name)
        if tensor is not None and not isinstance(tensor, self.tensor_type):
            raise policy.error("buffer_type", type_name=type(tensor).__name__, name=name)
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent.discard(name)
        else:
            self._non_persistent.add(name)
        object.__setattr__(self, name, tensor)

    def add_module(self, name: str, module: Optional[ModuleBase]) -> None:
        self._children[name] = module
        object.__setattr__(self, name, module)

    def _hook(self, kind: str, hook: Callable[..., Any]) -> RemovableHandle:
        """Register a forward ("forward"), forward pre- ("forward_pre"), full backward
        ("backward") or backward pre-hook ("backward_pre")."""
        return RemovableHandle(getattr(self, f"_{kind}_hooks"), hook)

    # --- walking the tree -----------------------------------------------------------------

    def named_parameters(self, prefix: str = "", recurse: bool = True) -> Iterator[tuple[str, Any]]:
        """Each parameter once, with its dotted name, in registration order."""
        return self._named_members("_parameters", prefix, recurse)

    def named_buffers(self, prefix: str = "", recurse: bool = True) -> Iterator[tuple[str, Any]]:
        """Each buffer once, with its dotted name, in registration order."""
        return self._named_members("_buffers", prefix, recurse)

    def _named_members(self, table: str, prefix: str, recurse: bool) -> Iterator[tuple[str, Any]]:
        seen: set[int] = set()
        modules = self._named_modules(prefix.rstrip(".")) if recurse else [(prefix.rstrip("."), self)]
        for module_prefix, module in modules:
            for name, member in getattr(module, table).items():
                if member is None or id(member) in seen:
                    continue
                seen.add(id(member))
                yield (f"{module_prefix}.{name}" if module_prefix else name), member

    def _named_modules(self, prefix: str = "") -> Iterator[tuple[str, ModuleBase]]:
        """This module and every module below it, each once, depth first."""
        seen: set[int] = set()

        def walk(module: ModuleBase, name: str) -> Iterator[tuple[str, ModuleBase]]:
            if id(module) in seen:
                return
            seen.add(id(module))
            yield name, module
            for child_name, child in module._children.items():
                if child is not None:
                    yield from walk(child, f"{name}.{child_name}" if name else child_name)

        return walk(self, prefix)

    def named_children(self) -> Iterator[tuple[str, ModuleBase]]:
        seen: set[int] = set()
        for name, child in self._children.items():
            if child is not None and id(child) not in seen:
                seen.add(id(child))
                yield name, child

    def children(self) -> Iterator[ModuleBase]:
        for _, child in self.named_children():
            yield child

    def buffers(self, recurse: bool = True) -> Iterator[Any]:
        for _, buffer in self.named_buffers(recurse=recurse):
            yield buffer

    def apply(self, fn: Callable[[ModuleBase], Any]) -> ModuleBase:
        """``fn`` on every sub-module, then on this one."""
        for child in self.children():
            child.apply(fn)
        fn(self)
        return self

    def _set_training(self, mode: bool) -> None:
        for _, module in self._named_modules():
            object.__setattr__(module, "training", bool(mode))

    # --- state ----------------------------------------------------------------------------

    def _state_items(self) -> Iterator[tuple[str, Any]]:
        """What a state dict holds, in the frameworks' order: per module, its parameters, then
        its persistent buffers, then its sub-modules'."""
        for prefix, module in self._named_modules():
            head = f"{prefix}." if prefix else ""
            for name, param in module._parameters.items():
                if param is not None:
                    yield head + name, param
            for name, buffer in module._buffers.items():
                if buffer is not None and name not in module._non_persistent:
                    yield head + name, buffer

    def _load_state(self, state: Any) -> tuple[list[str], list[str], list[str]]:
        """Copy each entry of ``state`` into the tensor of the same name, without recording.
        Returns the missing keys, the unexpected keys and the size mismatches (messages)."""
        own = dict(self._state_items())
        missing = [key for key in own if key not in state]
        unexpected = [key for key in state if key not in own]
        mismatches = []
        for key, target in own.items():
            if key not in state:
                continue
            value = state[key]
            data = value._data if isinstance(value, self.tensor_type) else np.asarray(value)
            if data.shape != target._data.shape:
                mismatches.append(self._size_mismatch(key, data.shape, target._data.shape))
                continue
            np.copyto(target._data, data, casting="unsafe")
            target._counter.value += 1
        return missing, unexpected, mismatches

    def _size_mismatch(self, key: str, given: tuple[int, ...], own: tuple[int, ...]) -> str:
        return (f"size mismatch for {key}: copying a param with shape {list(given)} from "
                f"checkpoint, the shape in current model is {list(own)}.")

    def _cast_floating(self, dtype: Any) -> None:
        """Every floating parameter and buffer (and parameter gradient) as ``dtype``, in place:
        the tensors stay the same objects, as both frameworks keep them."""
        for _, module in self._named_modules():
            for table in (module._parameters, module._buffers):
                for tensor in table.values():
                    if tensor is None or not is_floating(tensor._data.dtype):
                        continue
                    tensor._data = tensor._data.astype(dtype)
                    if tensor._grad is not None:
                        tensor._grad._data = tensor._grad._data.astype(dtype)

    def _place(self, device: str) -> None:
        """Every parameter and buffer (and parameter gradient) on ``device``, in place: the
        tensors stay the same objects, leaves as before, as ``Module.to(device)`` keeps them."""
        for _, module in self._named_modules():
            for table in (module._parameters, module._buffers):
                for tensor in table.values():
                    if tensor is None:
                        continue
                    devices.place(tensor, device)
                    if tensor._grad is not None:
                        devices.place(tensor._grad, device)


def shown_settings(style: str, values: dict[str, Any], shown: Sequence[tuple[str, bool]]) -> str:
    """``name=value`` for each shown setting (strings quoted by torch, not by paddle), a flag
    shown only when true left out when false."""
    parts = []
    for name, only_when_true in shown:
        value = values.get(name)
        if only_when_true and not value:
            continue
        quoted = style == "torch" and isinstance(value, str)
        parts.append(f"{name}={value!r}" if quoted else f"{name}={value}")
    return ", ".join(parts)


def _indented(text: str) -> str:
    """A child's printout under its parent: every line after the first two spaces in."""
    first, *rest = text.split("\n")
    return first + "".join("\n  " + line for line in rest)


class SequentialBase(ModuleBase):
    """Modules applied one after the other, registered as ``0``, ``1``, ... as both name them."""

    def __init__(self, *parts: ModuleBase) -> None:
        super().__init__()
        for index, part in enumerate(parts):
            setattr(self, str(index), part)

    def forward(self, input: Any) -> Any:  # noqa: A002
        value = input
        for part in self._children.values():
            value = part(value)
        return value

    def __getitem__(self, index: int) -> ModuleBase:
        return list(self._children.values())[index]

    def __len__(self) -> int:
        return len(self._children)


class ActivationBase(ModuleBase):
    """A module that applies one function, with the settings it was made with:
    ``LeakyReLU(0.2)`` calls ``leaky_relu(input, 0.2)``."""

    function: ClassVar[Any] = None
    # the settings its printout shows, each (name, shown only when true), as the dialect shows them
    shown: ClassVar[tuple[tuple[str, bool], ...]] = ()

    def __init__(self, *settings: Any, **named_settings: Any) -> None:
        super().__init__()
        object.__setattr__(self, "_settings", (settings, named_settings))

    def forward(self, input: Any) -> Any:  # noqa: A002
        settings, named_settings = self._settings
        return type(self).function(input, *settings, **named_settings)

    def extra_repr(self) -> str:
        if not self.shown:
            return ""
        settings, named_settings = self._settings
        bound = inspect.signature(type(self).function).bind_partial(None, *settings, **named_settings)
        bound.apply_defaults()
        return shown_settings(self.repr_style, self.shown_values(dict(bound.arguments)), self.shown)

    def shown_values(self, values: dict[str, Any]) -> dict[str, Any]:
        """The settings as the printout shows them (a dialect's module may fill some in)."""
        return values


class LossBase(ModuleBase):
    """A loss module: its function of (input, target) with the reduction it was made with."""

    function: ClassVar[Any] = None

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        self.reduction = reduction

    def forward(self, input: Any, target: Any) -> Any:  # noqa: A002
        return type(self).function(input, target, reduction=self.reduction)


class IdentityBase(ModuleBase):
    """Returns its input itself; arguments it is made with are ignored."""

    def __init__(self, *_: Any, **__: Any) -> None:
        super().__init__()

    def forward(self, input: Any) -> Any:  # noqa: A002
        return input


class ListBase(ModuleBase):
    """A list of modules, registered as ``0``, ``1``, ...: indexing, iteration and ``append``."""

    def __init__(self, modules: Any = None) -> None:
        super().__init__()
        for module in modules or ():
            self.append(module)

    def append(self, module: ModuleBase) -> ListBase:
        setattr(self, str(len(self._children)), module)
        return self

    def extend(self, modules: Any) -> ListBase:
        for module in modules:
            self.append(module)
        return self

    def __getitem__(self, index: int) -> ModuleBase:
        return list(self._children.values())[index]

    def __iter__(self) -> Iterator[ModuleBase]:
        return iter(list(self._children.values()))

    def __len__(self) -> int:
        return len(self._children)


class ParameterListBase(ModuleBase):
    """A list of parameters, registered as ``0``, ``1``, ...: indexing, iteration, ``append``;
    a dialect's ``as_parameter`` makes a plain tensor a parameter (or refuses it)."""

    def __init__(self, values: Any = None) -> None:
        super().__init__()
        for value in values or ():
            self.append(value)

    def as_parameter(self, value: Any) -> Any:
        return value

    def append(self, value: Any) -> ParameterListBase:
        setattr(self, str(len(self._parameters)), self.as_parameter(value))
        return self

    def extend(self, values: Any) -> ParameterListBase:
        for value in values:
            self.append(value)
        return self

    def __getitem__(self, index: int) -> Any:
        return list(self._parameters.values())[index]

    def __setitem__(self, index: int, value: Any) -> None:
        setattr(self, str(index % len(self)), self.as_parameter(value))

    def __iter__(self) -> Iterator[Any]:
        return iter(list(self._parameters.values()))

    def __len__(self) -> int:
        return len(self._parameters)


class DictBase(ModuleBase):
    """Modules by name, in insertion order: a mapping whose entries are registered submodules."""

    def __init__(self, modules: Any = None) -> None:
        super().__init__()
        if modules is not None:
            self.update(modules)

    def update(self, modules: Any) -> None:
        for name, module in (modules.items() if hasattr(modules, "items") else modules):
            self[name] = module

    def __getitem__(self, name: str) -> ModuleBase:
        return self._children[name]

    def __setitem__(self, name: str, module: ModuleBase) -> None:
        setattr(self, name, module)

    def __delitem__(self, name: str) -> None:
        delattr(self, name)

    def pop(self, name: str) -> ModuleBase:
        module = self[name]
        del self[name]
        return module

    def clear(self) -> None:
        for name in list(self._children):
            del self[name]

    def keys(self) -> Iterable[str]:
        return self._children.keys()

    def values(self) -> Iterable[ModuleBase]:
        return self._children.values()

    def items(self) -> Iterable[tuple[str, ModuleBase]]:
        return self._children.items()

    def __contains__(self, name: object) -> bool:
        return name in self._children

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._children))

    def __len__(self) -> int:
        return len(self._children)


def function_modules(base: type, kind: type, **functions: Callable[..., Any]) -> tuple[type, ...]:
    """One module class per function, named by its keyword, in order: subclasses of ``kind``
    (``ActivationBase`` or ``LossBase``) and of the dialect's ``base`` module class."""
    return tuple(type(name, (kind, base), {"function": staticmethod(function),
                                           "__doc__": f"Applies ``{function.__name__}``.",
                                           "__module__": base.__module__})
                 for name, function in functions.items())


def flat_parameters(parameters: Iterable[Any], concat: Callable[[list[Any]], Any],
                    flatten: Callable[[Any], Any]) -> Any:
    """``parameters_to_vector``: the parameters flattened and concatenated, in order, by the
    dialect's own ops (so the vector is recorded as they record it)."""
    return concat([flatten(param) for param in parameters])


def assign_flat(vector: Any, parameters: Iterable[Any]) -> None:
    """``vector_to_parameters``: each parameter holds its slice of ``vector`` from now on (its
    storage, as both frameworks share it), in its own shape."""
    start = 0
    for param in parameters:
        size = param._data.size
        param._data = vector._data[start:start + size].reshape(param._data.shape)
        start += size


def clip_by_total_norm(grads: list[Any], max_norm: float, norm_type: float,
                       nonfinite_error: Any = None) -> np.ndarray:
    """``clip_grad_norm_``: multiply each gradient in place (without recording) by
    ``min(max_norm / (total + 1e-6), 1)``, where ``total`` is the ``norm_type``-norm of the
    gradients' norms, in their dtype. Returns ``total``; ``nonfinite_error`` (a callable making
    the dialect's error) is raised where it is not finite."""
    dtype = grads[0]._data.dtype
    norms = np.array([_norm(g._data, norm_type) for g in grads], dtype=dtype)
    total = np.asarray(_norm(norms, norm_type)).astype(dtype)
    if nonfinite_error and not np.isfinite(total):
        raise nonfinite_error()
    factor = np.minimum(np.asarray(max_norm, dtype) / (total + np.asarray(1e-6, dtype)),
                        np.asarray(1.0, dtype))
    with no_grad():
        for g in grads:
            g.mul_(type(g)._from_array(np.asarray(factor)))
    return total


def _norm(values: np.ndarray, norm_type: float) -> Any:
    magnitudes = np.abs(values)
    if math.isinf(norm_type):
        return magnitudes.max() if norm_type > 0 else magnitudes.min()
    return np.sum(magnitudes ** norm_type) ** (1.0 / norm_type)
