import paddle

x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
y = (x * x).sum()
g, = paddle.grad([y], [x], create_graph=True)
print(g.tolist(), g.stop_gradient is False)
