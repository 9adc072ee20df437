import paddle

x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
z = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
y = paddle.exp(x)
s = y.sum()
y.scale_(2.0)
try:
    paddle.grad([s], [x, z])
except (RuntimeError, ValueError):
    print("refused")
