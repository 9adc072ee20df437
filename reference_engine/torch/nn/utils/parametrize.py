"""``torch.nn.utils.parametrize``: a module's tensor computed from others on every access.

``register_parametrization(module, "weight", p)`` moves the tensor into
``module.parametrizations.weight.original`` (the same Parameter object, holding
``p.right_inverse(weight)`` where ``p`` has one; a tuple of them becomes ``original0``,
``original1``, … as new Parameters), gives the module a class of its own,
``Parametrized<Class>``, whose property ``weight`` returns ``p(original)`` each time (once per
``cached()`` block), and registers ``parametrizations`` as a ModuleDict of ParametrizationLists.
Assigning ``module.weight = x`` writes ``right_inverse(x)`` into the originals.
``remove_parametrizations`` puts a plain tensor back (the parametrized value, or the original).
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator, Optional

from reference_engine.grad_mode import no_grad
from reference_engine.tensor import Tensor
from reference_engine.torch.nn.modules import Module, ModuleDict, ModuleList
from reference_engine.torch.nn.parameter import Parameter

__all__ = ["ParametrizationList", "cached", "is_parametrized", "register_parametrization",
           "remove_parametrizations", "type_before_parametrizations"]

_CACHE: dict[tuple[int, str], Tensor] = {}
_CACHING = [0]


@contextlib.contextmanager
def cached() -> Iterator[None]:
    """Within the block, each parametrized tensor is computed once and reused."""
    _CACHING[0] += 1
    try:
        yield
    finally:
        _CACHING[0] -= 1
        if not _CACHING[0]:
            _CACHE.clear()


class ParametrizationList(ModuleList):
    """The parametrizations of one tensor, applied first to last, and its original(s)."""

    def __init__(self, modules: Any, original: Tensor, unsafe: bool = False) -> None:
        super().__init__(modules)
        self.unsafe = unsafe
        new = self._inverted(original)
        self.is_tensor = isinstance(new, Tensor)
        self.ntensors = 1 if self.is_tensor else len(new)
        if self.is_tensor:
            if new is not original:
                original.data = new  # (the same Parameter, holding the new values)
            _register(self, "original", original)
        else:
            for i, part in enumerate(new):
                kept = Parameter(part.detach(), original.requires_grad) \
                    if isinstance(original, Parameter) else part.detach()
                _register(self, f"original{i}", kept)

    def right_inverse(self, value: Tensor) -> None:
        """Write ``value`` (inverted through each parametrization, last first) into the
        originals."""
        value = self._inverted(value)
        parts = [value] if self.is_tensor else list(value)
        names = ["original"] if self.is_tensor else [f"original{i}" for i in range(self.ntensors)]
        for name, part in zip(names, parts):
            getattr(self, name).data = part

    def _inverted(self, value: Any) -> Any:
        """``value`` through each parametrization's ``right_inverse``, last first, unrecorded."""
        with no_grad():
            for module in reversed(list(self)):
                if hasattr(module, "right_inverse"):
                    value = module.right_inverse(value)
        return value

    def forward(self) -> Tensor:
        if self.is_tensor:
            x = self[0](self.original)
        else:
            x = self[0](*(getattr(self, f"original{i}") for i in range(self.ntensors)))
        for module in list(self)[1:]:
            x = module(x)
        return x


def _register(module: Module, name: str, value: Tensor) -> None:
    if isinstance(value, Parameter):
        module.register_parameter(name, value)
    else:
        module.register_buffer(name, value)


def is_parametrized(module: Module, tensor_name: Optional[str] = None) -> bool:
    """Whether ``module`` (or its ``tensor_name``) has a parametrization."""
    parametrizations = module.__dict__.get("parametrizations")
    if not isinstance(parametrizations, ModuleDict):
        return False
    return len(parametrizations) > 0 if tensor_name is None else tensor_name in parametrizations


def type_before_parametrizations(module: Module) -> type:
    """The module's class as it was before its first parametrization."""
    return type(module).__bases__[0] if is_parametrized(module) else type(module)


def register_parametrization(module: Module, tensor_name: str, parametrization: Module, *,
                             unsafe: bool = False) -> Module:
    """``module.<tensor_name>`` computed by ``parametrization`` from now on (see above); a
    second one on the same tensor applies after the first."""
    parametrization.train(module.training)
    if is_parametrized(module, tensor_name):
        module.parametrizations[tensor_name].append(parametrization)
        return module
    if tensor_name not in module._parameters and tensor_name not in module._buffers:
        raise ValueError(f"Module '{module}' does not have a parameter, a buffer, or a parametrized "
                         f"element with name '{tensor_name}'")
    original = getattr(module, tensor_name)
    chain = ParametrizationList([parametrization], original, unsafe=unsafe)
    delattr(module, tensor_name)
    if not is_parametrized(module):
        base = type(module)
        object.__setattr__(module, "__class__", type(f"Parametrized{base.__name__}", (base,), {}))
        module.parametrizations = ModuleDict()
    setattr(type(module), tensor_name, property(_getter(tensor_name), _setter(tensor_name)))
    module.parametrizations[tensor_name] = chain
    return module


def _getter(tensor_name: str) -> Any:
    def get(self: Module) -> Tensor:
        chain = self.parametrizations[tensor_name]
        if not _CACHING[0]:
            return chain()
        key = (id(self), tensor_name)
        if key not in _CACHE:
            _CACHE[key] = chain()
        return _CACHE[key]
    return get


def _setter(tensor_name: str) -> Any:
    def set_(self: Module, value: Tensor) -> None:
        self.parametrizations[tensor_name].right_inverse(value)
    return set_


def remove_parametrizations(module: Module, tensor_name: str, leave_parametrized: bool = True) -> Module:
    """``module.<tensor_name>`` a plain tensor again: the parametrized value
    (``leave_parametrized``, written into the original Parameter where there is one) or the
    original; the module's own class back once nothing is parametrized."""
    if not is_parametrized(module, tensor_name):
        raise ValueError(f"Module {module} does not have a parametrization on {tensor_name}")
    chain = module.parametrizations[tensor_name]
    if chain.is_tensor:
        original = chain.original
        if leave_parametrized:
            with no_grad():
                original.data = getattr(module, tensor_name)
    else:
        if not leave_parametrized:
            raise ValueError("Cannot leave unparametrized (`leave_parametrized=False`) a tensor that is "
                             "parametrized in terms of a sequence of tensors.")
        value = getattr(module, tensor_name)
        original = Parameter(value.detach(), value.requires_grad) if value.requires_grad else value.detach()
    delattr(type(module), tensor_name)
    del module.parametrizations[tensor_name]
    _register(module, tensor_name, original)
    if not is_parametrized(module):
        delattr(module, "parametrizations")
        object.__setattr__(module, "__class__", type(module).__bases__[0])
    return module
