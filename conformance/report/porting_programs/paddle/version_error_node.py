import paddle

x = paddle.to_tensor([0.5, 1.0], stop_gradient=False)
y = paddle.tanh(x)
z = (y * paddle.to_tensor([2.0, 3.0])).sum()
y.register_hook(lambda g: print("hook on y:", g.tolist()))
y.add_(paddle.to_tensor(1.0))
try:
    z.backward()
except RuntimeError:
    print("refused")
