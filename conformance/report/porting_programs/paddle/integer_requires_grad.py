import paddle

x = paddle.to_tensor([1, 2], dtype='int64', stop_gradient=False)
g, = paddle.grad([(x * 2).sum()], [x])
print(g.tolist())
