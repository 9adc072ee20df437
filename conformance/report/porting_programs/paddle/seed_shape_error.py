import paddle

x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
y = x * 2
try:
    y.backward(paddle.ones([3]))
except AssertionError:
    print("refused")
