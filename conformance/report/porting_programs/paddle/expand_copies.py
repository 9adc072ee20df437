import paddle

x = paddle.to_tensor([[1.0], [2.0]])
v = x.expand([2, 3])
x.zero_()
v.zero_()
print(x.tolist(), v.tolist())
