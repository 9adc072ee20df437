import paddle

x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
w = paddle.to_tensor([3.0, 4.0], stop_gradient=False)
gx, = paddle.grad([(x * w).sum()], [x])
x.grad = gx
print(x.grad.tolist(), w.grad)
