"""What ``torch.nn.Module`` and ``paddle.nn.Layer`` share: parameters and sub-modules registered
by assignment, calling ``forward``, ``Sequential`` and the activation modules. The facades add
their own names (``zero_grad`` / ``clear_gradients``) and their ``Linear``."""

from __future__ import annotations

from typing import Any, ClassVar, Iterator


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
    """A module that applies one function."""

    function: ClassVar[Any] = None

    def forward(self, input: Any) -> Any:  # noqa: A002
        return type(self).function(input)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"
