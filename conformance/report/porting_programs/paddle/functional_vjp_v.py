import paddle

x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
v = paddle.to_tensor([1.0, 0.5])
vjp, = paddle.grad([x ** 2], [x], [v])
print(vjp.tolist())
