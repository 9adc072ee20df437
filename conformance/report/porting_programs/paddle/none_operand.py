import paddle

x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
try:
    paddle.sum(x.grad)
except ValueError:
    print("refused")
