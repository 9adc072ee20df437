import paddle

x = paddle.to_tensor(2.0, stop_gradient=False)
h = 3 * x
y = h * h + x
g, = paddle.grad([y], [x], no_grad_vars=[h])
print(g.item())
