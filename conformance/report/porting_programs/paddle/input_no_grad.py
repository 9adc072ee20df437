import paddle

x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
c = paddle.to_tensor([1.0, 2.0])
y = (x * c).sum()
gx, gc = paddle.grad([y], [x, c], allow_unused=True)
print(gx.tolist(), gc)
