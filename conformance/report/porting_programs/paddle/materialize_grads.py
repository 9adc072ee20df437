import paddle

x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
z = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
gs = paddle.grad([(x * 2).sum()], [x, z], allow_unused=True)
gx, gz = [paddle.zeros_like(t) if g is None else g for g, t in zip(gs, [x, z])]
print(gx.tolist(), gz.tolist())
