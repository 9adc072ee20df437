import paddle


class Split(paddle.autograd.PyLayer):
    @staticmethod
    def forward(ctx, a):
        idx = (a > 1).astype('float32')
        ctx.mark_non_differentiable(idx)
        return a * 2, idx
    @staticmethod
    def backward(ctx, g, gi):
        return g * 2
x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
y, idx = Split.apply(x)
print(not idx.stop_gradient)
