import paddle

x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
z = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
y = (x * 2).sum()
try:
    paddle.grad([y], [x, z])
except ValueError:
    print("refused")
