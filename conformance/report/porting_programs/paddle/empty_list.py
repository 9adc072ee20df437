import paddle

x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
y = (x * 2).sum()
try:
    paddle.grad([y], [])
except AssertionError:
    print("refused")
