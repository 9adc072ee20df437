import torch


class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        o = torch.exp(a)
        ctx.save_for_backward(o)
        return o
    @staticmethod
    def backward(ctx, g):
        o, = ctx.saved_tensors
        return g * o
x = torch.tensor([0.0, 1.0], requires_grad=True)
y = Exp.apply(x)
y.register_hook(lambda g: g * 3)
y.sum().backward()
print([round(v, 4) for v in x.grad.tolist()])
