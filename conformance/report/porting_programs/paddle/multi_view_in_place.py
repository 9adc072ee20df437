import paddle

x = paddle.to_tensor([1.0, 2.0, 3.0, 4.0], stop_gradient=False)
a, b = paddle.split(x * 1.0, 2)
b.scale_(3.0)
(a.sum() + b.sum()).backward()
print(b.tolist(), x.grad.tolist())
