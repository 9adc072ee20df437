import torch


class Split(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        idx = (a > 1).float()
        ctx.mark_non_differentiable(idx)
        return a * 2, idx
    @staticmethod
    def backward(ctx, g, gi):
        return g * 2
x = torch.tensor([1.0, 2.0], requires_grad=True)
y, idx = Split.apply(x)
print(idx.requires_grad)
