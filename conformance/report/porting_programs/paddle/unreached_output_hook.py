import paddle

x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
a, b = paddle.unbind(x * 1.0)
seen = []
b.register_hook(lambda g: seen.append(None if g is None or not g.any() else g.tolist()))
a.backward()
print(seen, x.grad.tolist())
