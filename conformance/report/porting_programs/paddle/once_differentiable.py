import paddle


class Sq(paddle.autograd.PyLayer):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * a
    @staticmethod
    def backward(ctx, g):
        a, = ctx.saved_tensor()
        return 2 * a * g
x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
Sq.apply(x).sum().backward()
print(x.grad.tolist())
