import paddle

x = paddle.to_tensor([1.0, -2.0], stop_gradient=False)
y = paddle.abs(x).sum()
g, = paddle.grad([y], [x], create_graph=True)
h, = paddle.grad([g.sum()], [x], allow_unused=True)
h = paddle.zeros_like(x) if h is None else h
print(g.tolist(), h.tolist())
