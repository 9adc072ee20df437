import paddle

x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
y = x * 3
y.retain_grads()
s = (y * y).sum()
s.backward(retain_graph=True)
total = y.grad.clone()
s.backward()
total = total + y.grad
print(total.tolist())
