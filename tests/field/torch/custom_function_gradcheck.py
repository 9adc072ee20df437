"""A custom ``torch.autograd.Function`` as the "Extending PyTorch" tutorial writes one
(``LinearFunction``): ``ctx.save_for_backward``, ``ctx.needs_input_grad`` choosing which
gradients to compute, ``None`` for an input without one, then ``gradcheck`` and
``gradgradcheck`` in double precision, and a ``once_differentiable``-free double backward.
Changed: fixed inputs instead of ``torch.randn``."""

import torch
from torch.autograd import Function, gradcheck, gradgradcheck


class LinearFunction(Function):
    @staticmethod
    def forward(ctx, input, weight, bias=None):
        ctx.save_for_backward(input, weight, bias)
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)
        return grad_input, grad_weight, grad_bias


linear = LinearFunction.apply
inp = torch.tensor([[0.1, 0.2, 0.3], [0.4, -0.5, 0.6]], dtype=torch.double, requires_grad=True)
weight = torch.tensor([[1.0, -1.0, 0.5], [0.2, 0.3, -0.4]], dtype=torch.double, requires_grad=True)
bias = torch.tensor([0.5, -0.5], dtype=torch.double, requires_grad=True)
print("gradcheck", gradcheck(linear, (inp, weight, bias), eps=1e-6, atol=1e-4))
print("gradgradcheck", gradgradcheck(linear, (inp, weight, bias)))
out = linear(inp, weight)
print(out, out.grad_fn is not None)
out.sum().backward()
print(inp.grad, weight.grad, bias.grad)
g, = torch.autograd.grad(linear(inp, weight, bias).pow(2).sum(), inp, create_graph=True)
print("double", torch.autograd.grad(g.sum(), weight))
