import paddle

x = paddle.to_tensor([[1.0, 2.0], [3.0, 4.0]], stop_gradient=False)
J = paddle.autograd.jacobian(x ** 2, x, batch_axis=0)[:]
print(list(J.shape), J.sum().item())
