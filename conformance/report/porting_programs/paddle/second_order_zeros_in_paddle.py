import paddle

x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
w = paddle.to_tensor([3.0, 4.0], stop_gradient=False)
y = (x * w).sum()
gx, = paddle.grad([y], [x], create_graph=True)
hx, hw = paddle.grad([gx.sum()], [x, w], allow_unused=True)
print(None if hx is None else hx.tolist(), hw.tolist())
