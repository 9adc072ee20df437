import paddle

x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
y = x * 1.0
z = (y * 2.0).sum()
y = y.clone()
y.add_(paddle.to_tensor(1.0))
z.backward()
print(x.grad.tolist())
