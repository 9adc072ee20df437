import paddle

x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
mask = paddle.to_tensor([True, False, True])
(x * mask.astype(x.dtype)).sum().backward()
print(x.grad.tolist())
