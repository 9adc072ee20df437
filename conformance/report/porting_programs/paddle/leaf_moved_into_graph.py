import paddle

x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
y = (x * 2.0).sum()
x.stop_gradient = True
with paddle.no_grad():
    x.add_(paddle.to_tensor([1.0, 1.0]))
y.backward()
x.clear_gradient(False)
print(x.grad, x.is_leaf, x.tolist())
