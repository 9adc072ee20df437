import paddle

x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
y = paddle.ones([2]) + x * 0
y = paddle.ones([2])
y.stop_gradient = False
g, = paddle.grad([y.sum()], [x], allow_unused=True)
if g is None:
    print("independent")
