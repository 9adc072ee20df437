import paddle


class Square(paddle.autograd.PyLayer):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a * a
    @staticmethod
    def backward(ctx, g):
        a, = ctx.saved_tensor()
        return 2 * a * g
x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
h = x * 1.0
y = Square.apply(h)
saved_version = h.inplace_version
h.scale_(3.0)
if h.inplace_version != saved_version:
    print("refused")
else:
    y.sum().backward()
