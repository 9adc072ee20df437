import paddle

x = paddle.to_tensor(1.0, stop_gradient=False)
y = x * 2
try:
    paddle.grad([y], [x], [2.0])
except AssertionError:
    print("refused")
