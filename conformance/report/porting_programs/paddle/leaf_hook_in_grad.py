import paddle

x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
hook = lambda g: g * 10
y = (x * x).sum()
g = hook(paddle.grad([y], [x])[0])
print(g.tolist())
