import paddle

c = paddle.to_tensor([1.0, 2.0])
y = c * 2
y.retain_grads()
print(y.grad)
