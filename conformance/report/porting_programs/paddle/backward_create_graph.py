import paddle

x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
g, = paddle.grad([(x ** 3).sum()], [x], create_graph=True)
h, = paddle.grad([g.sum()], [x])
print(g.tolist(), h.tolist())
