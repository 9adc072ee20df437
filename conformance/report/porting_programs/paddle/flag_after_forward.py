import paddle

x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
w = paddle.to_tensor([3.0, 4.0], stop_gradient=False)
y = (x * w).sum()
x.stop_gradient = True
y.backward()
x.clear_gradient(False)
print(x.grad, w.grad.tolist())
