"""``torch.nn.Module``, ``Linear`` and ``MSELoss``: what training loops need on the way to their
autograd. Parameters are registered by assignment, as torch registers them; ``Linear`` draws its
initial values from torch's scheme (uniform in ±1/√in_features) with numpy's generator, so a
program that compares values with torch sets them itself."""

from __future__ import annotations

import math
from typing import Iterable, Iterator

import numpy as np

from reference_engine import modules as shared
from reference_engine import ops as F
from reference_engine import rng
from reference_engine.torch import Tensor, no_grad, sigmoid, tanh, tensor
from reference_engine.torch.nn import functional
from reference_engine.torch.nn.parameter import Parameter

__all__ = ["BCELoss", "BCEWithLogitsLoss", "CrossEntropyLoss", "ELU", "Flatten", "GELU", "Identity",
           "L1Loss", "LeakyReLU", "Linear", "LogSoftmax", "MSELoss", "Module", "ModuleList", "NLLLoss",
           "ReLU", "Sequential", "SiLU", "Sigmoid", "Softmax", "Softplus", "Tanh", "clear_grads"]

def clear_grads(params: Iterable[Tensor], set_to_none: bool) -> None:
    """``zero_grad``: drop each gradient, or zero it in place (detached from any graph)."""
    for param in params:
        if param.grad is None:
            continue
        if set_to_none:
            param.grad = None
        else:
            param.grad.detach_().zero_()


class Module(shared.ModuleBase):
    """``torch.nn.Module``."""

    parameter_type = Parameter

    @property
    def _modules(self) -> dict[str, shared.ModuleBase]:
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


class Sequential(shared.SequentialBase, Module):
    """``torch.nn.Sequential``."""


class ModuleList(shared.ListBase, Module):
    """``torch.nn.ModuleList``."""


class Identity(shared.IdentityBase, Module):
    """``torch.nn.Identity``."""


class Flatten(Module):
    """``torch.nn.Flatten``: dimensions ``start_dim`` (1: the batch stays) to ``end_dim``."""

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim, self.end_dim = start_dim, end_dim

    def forward(self, input: Tensor) -> Tensor:  # noqa: A002
        from reference_engine.torch.extras import flatten  # loaded after torch.nn

        return flatten(input, self.start_dim, self.end_dim)


(ReLU, Tanh, Sigmoid, LeakyReLU, ELU, GELU, SiLU, Softplus, Softmax,
 LogSoftmax) = shared.function_modules(
    Module, shared.ActivationBase, ReLU=functional.relu, Tanh=tanh, Sigmoid=sigmoid,
    LeakyReLU=functional.leaky_relu, ELU=functional.elu, GELU=functional.gelu,
    SiLU=functional.silu, Softplus=functional.softplus, Softmax=functional.softmax,
    LogSoftmax=functional.log_softmax)

# the reduced losses, each the functional's node (MSELoss: MseLossBackward0)
(MSELoss, L1Loss, BCELoss, BCEWithLogitsLoss, NLLLoss, CrossEntropyLoss) = shared.function_modules(
    Module, shared.LossBase, MSELoss=functional.mse_loss, L1Loss=functional.l1_loss,
    BCELoss=functional.binary_cross_entropy,
    BCEWithLogitsLoss=functional.binary_cross_entropy_with_logits,
    NLLLoss=functional.nll_loss, CrossEntropyLoss=functional.cross_entropy)
