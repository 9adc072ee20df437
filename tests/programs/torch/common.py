"""Helpers the torch programs of several themes share."""

from __future__ import annotations

from tests.custom_functions import two_output_functions


def xy(torch):
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = torch.tensor([[3.0, 2.0], [3.0, 4.0]])
    return x, y


def two_output_function_and_inputs(torch):
    """``two_output_functions`` for torch, and two leaves to apply them to."""
    functions = two_output_functions(torch.autograd.Function, lambda ctx: ctx.saved_tensors,
                                     lambda x: (x > 0).to(x.dtype))
    return (*functions, torch.tensor([1.0, -2.0], requires_grad=True),
            torch.tensor([0.5, 3.0], requires_grad=True))
