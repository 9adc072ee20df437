import paddle

x = paddle.to_tensor([0.5, 1.5], stop_gradient=False)
e = paddle.exp(x)
y = (e / e.sum())[0]
g, = paddle.grad([y], [x], create_graph=True)
h, = paddle.grad([g.sum()], [x])
print([round(v, 6) for v in h.tolist()])
