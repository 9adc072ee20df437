import paddle

x = paddle.to_tensor([1.0, 2.0], stop_gradient=False)
y = x * 2
paddle.autograd.backward([y], [paddle.ones([2])])
print(x.grad.tolist())
