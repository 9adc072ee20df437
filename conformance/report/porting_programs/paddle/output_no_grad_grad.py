import paddle

x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
y = (x * 3).sum()
g, = paddle.grad([y], [x], create_graph=True)
h, = paddle.grad([g.sum()], [x], allow_unused=True)
print(g.tolist(), h)
