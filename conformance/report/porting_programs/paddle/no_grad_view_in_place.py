import paddle

x = paddle.to_tensor([[1.0, 2.0]], stop_gradient=False)
with paddle.no_grad():
    v = x.squeeze(0)
v.scale_(2.0)
print(v.tolist(), x.tolist())
