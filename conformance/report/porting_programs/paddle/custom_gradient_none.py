import paddle


class Mul(paddle.autograd.PyLayer):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b
    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensor()
        return g * b, (None if b.stop_gradient else g * a)
x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
c = paddle.to_tensor([3.0, 4.0])
Mul.apply(x, c).sum().backward()
print(x.grad.tolist())
