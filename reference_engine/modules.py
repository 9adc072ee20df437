"""What ``torch.nn.Module`` and ``paddle.nn.Layer`` share: parameters and sub-modules registered
by assignment, calling ``forward``, ``Sequential`` and the activation modules. The facades add
their own names (``zero_grad`` / ``clear_gradients``) and their ``Linear``."""

from __future__ import annotations

from typing import Any, Callable, ClassVar, Iterator


class ModuleBase:
    """A container of parameters and sub-modules; calling it calls ``forward``."""

    parameter_type: ClassVar[type] = type(None)  # the dialect's parameter class

    def __init__(self) -> None:
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_children", {})
        object.__setattr__(self, "training", True)

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, self.parameter_type):
            self._parameters[name] = value
        elif isinstance(value, ModuleBase):
            self._children[name] = value
        object.__setattr__(self, name, value)

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required '
                                  '"forward" function')

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.forward(*args, **kwargs)

    def named_parameters(self, prefix: str = "") -> Iterator[tuple[str, Any]]:
        """Each parameter once, with its dotted name, in registration order."""
        seen: set[int] = set()
        for name, param in self._named(prefix):
            if id(param) not in seen:
                seen.add(id(param))
                yield name, param

    def _named(self, prefix: str) -> Iterator[tuple[str, Any]]:
        for name, param in self._parameters.items():
            yield prefix + name, param
        for name, child in self._children.items():
            yield from child._named(f"{prefix}{name}.")


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

    def __init__(self, *settings: Any, **named_settings: Any) -> None:
        super().__init__()
        object.__setattr__(self, "_settings", (settings, named_settings))

    def forward(self, input: Any) -> Any:  # noqa: A002
        settings, named_settings = self._settings
        return type(self).function(input, *settings, **named_settings)

    def __repr__(self) -> str:
        settings, named_settings = self._settings
        shown = [repr(v) for v in settings] + [f"{k}={v!r}" for k, v in named_settings.items()]
        return f"{type(self).__name__}({', '.join(shown)})"


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


def function_modules(base: type, kind: type, **functions: Callable[..., Any]) -> tuple[type, ...]:
    """One module class per function, named by its keyword, in order: subclasses of ``kind``
    (``ActivationBase`` or ``LossBase``) and of the dialect's ``base`` module class."""
    return tuple(type(name, (kind, base), {"function": staticmethod(function),
                                           "__doc__": f"Applies ``{function.__name__}``.",
                                           "__module__": base.__module__})
                 for name, function in functions.items())
