"""``torch.nn.Module``, ``Linear`` and ``MSELoss``: what training loops need on the way to their
autograd. Parameters are registered by assignment, as torch registers them; ``Linear`` draws its
initial values from torch's scheme (uniform in ±1/√in_features) with numpy's generator, so a
program that compares values with torch sets them itself."""

from __future__ import annotations

import math
from typing import Iterable, Iterator

import numpy as np

from reference_engine import ops as F
from reference_engine import rng
from reference_engine.modules import ActivationBase, ModuleBase, SequentialBase
from reference_engine.torch import Tensor, no_grad, relu, sigmoid, tanh, tensor
from reference_engine.torch.nn.parameter import Parameter

__all__ = ["CrossEntropyLoss", "Linear", "MSELoss", "Module", "ReLU", "Sequential", "Sigmoid", "Tanh",
           "clear_grads"]

def clear_grads(params: Iterable[Tensor], set_to_none: bool) -> None:
    """``zero_grad``: drop each gradient, or zero it in place (detached from any graph)."""
    for param in params:
        if param.grad is None:
            continue
        if set_to_none:
            param.grad = None
        else:
            param.grad.detach_().zero_()


class Module(ModuleBase):
    """``torch.nn.Module``."""

    parameter_type = Parameter

    @property
    def _modules(self) -> dict[str, ModuleBase]:
        return self._children

    def parameters(self) -> Iterator[Parameter]:
        for _, param in self.named_parameters():
            yield param

    def zero_grad(self, set_to_none: bool = True) -> None:
        clear_grads(self.parameters(), set_to_none)

    def train(self, mode: bool = True) -> Module:
        object.__setattr__(self, "training", mode)
        for child in self._children.values():
            if isinstance(child, Module):
                child.train(mode)
        return self

    def eval(self) -> Module:
        return self.train(False)


class Linear(Module):
    """``y = x Wᵀ + b`` with ``W`` of shape (out_features, in_features)."""

    def __init__(self, in_features: int, out_features: int, bias: bool = True) -> None:
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        bound = 1 / math.sqrt(in_features) if in_features else 0.0
        self.weight = Parameter(_uniform((out_features, in_features), bound))
        self.bias = Parameter(_uniform((out_features,), bound)) if bias else None

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        return F.linear(input, self.weight, self.bias)

    def __repr__(self) -> str:
        return (f"Linear(in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None})")


def _uniform(shape: tuple[int, ...], bound: float) -> Tensor:
    with no_grad():
        return tensor(rng.generator().uniform(-bound, bound, shape).astype(np.float32))


class MSELoss(Module):
    """The mean (or sum) of squared differences."""

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        self.reduction = reduction

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        squared = (input - target) ** 2
        if self.reduction == "none":
            return squared
        return squared.sum() if self.reduction == "sum" else squared.mean()


class Sequential(SequentialBase, Module):
    """``torch.nn.Sequential``."""


class ReLU(ActivationBase, Module):
    function = staticmethod(relu)


class Tanh(ActivationBase, Module):
    function = staticmethod(tanh)


class Sigmoid(ActivationBase, Module):
    function = staticmethod(sigmoid)


class CrossEntropyLoss(Module):
    """Class-index targets: ``nll_loss(log_softmax(input, 1), target)``."""

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        self.reduction = reduction

    def forward(self, input: Tensor, target: Tensor) -> Tensor:  # noqa: A002
        from reference_engine.torch.nn.functional import cross_entropy

        return cross_entropy(input, target, self.reduction)
