import paddle

x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
y = x * 3
y.backward()
print(x.grad.tolist())
