import paddle

x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
y = (x + 1).sum()
y.backward(retain_graph=True)
y.backward()
print(x.grad.tolist())
