import paddle

x = paddle.to_tensor([[1.0, 2.0]], stop_gradient=False)
v = x.reshape([2])
w = v * 1.0
w.scale_(2.0)
print(w.tolist())
