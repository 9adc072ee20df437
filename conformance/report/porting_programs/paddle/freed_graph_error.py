import paddle

x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
y = (x * x).sum()
y.backward()
try:
    y.backward()
except SystemError:
    print("refused")
