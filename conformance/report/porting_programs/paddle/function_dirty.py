import paddle


class Double(paddle.autograd.PyLayer):
    @staticmethod
    def forward(ctx, a):
        return a * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
y = Double.apply(x * 1.0)
y.sum().backward()
print(y.tolist(), x.grad.tolist())
