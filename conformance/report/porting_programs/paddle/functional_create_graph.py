import paddle

x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
J = paddle.autograd.jacobian(x ** 3, x)[:]
g, = paddle.grad([J.sum()], [x])
print(g.tolist())
