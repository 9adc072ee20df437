import paddle

x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
H = paddle.autograd.hessian((x ** 3).sum(), x)[:].detach()
print(H.tolist(), not H.stop_gradient)
