import paddle

x = paddle.to_tensor([[1.0, 2.0]], stop_gradient=False)
v = x.reshape([2])
v.detach_()
print(v.stop_gradient)
