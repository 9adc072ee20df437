import paddle

x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
c = paddle.to_tensor([1.0, 2.0])
print(x.is_leaf, c.is_leaf)
