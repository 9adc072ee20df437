import paddle

x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
y = x * 2
y.stop_gradient = True
print(y.stop_gradient is False)
