import paddle

x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
flat = x.flatten()
y = (flat.reshape([2, 2]) * flat.reshape([2, 2])).sum(0)
J = paddle.autograd.jacobian(y, flat)[:].reshape([2, 2, 2])
print(list(J.shape), J.sum().item())
