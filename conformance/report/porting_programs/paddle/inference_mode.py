import paddle

x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
with paddle.no_grad():
    y = x * 2
print(y.tolist(), not y.stop_gradient)
